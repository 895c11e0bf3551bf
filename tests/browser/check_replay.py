#!/usr/bin/env python3
"""Open a replay page in headless Chromium and check it (run by .ci/run; standard library only).

    python3 tests/browser/check_replay.py DIR/replay.html OUTDIR [STEP_A STEP_B]

For two steps A and B (default 3 and 5) it
  * loads `replay.html#step=N` with --dump-dom and checks the script ran and showed step N;
  * loads it with console logging and fails on any console message (errors, uncaught exceptions);
  * takes a screenshot of the page at each step (OUTDIR/page-N.png) and checks they differ;
  * takes a screenshot of the map alone at natural size (`#step=N&full`, OUTDIR/map-N.png) and
    checks that the pixels differ where the game changed, and only there: the region is
    computed from the SVG overlays embedded in the page (the elements present in one step and
    not the other), so a map that fails to draw, or draws the wrong step, fails.
Look at the PNGs in OUTDIR to judge the map by eye.
"""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--virtual-time-budget=5000"]


def chromium(args, url):
    with tempfile.TemporaryDirectory() as profile:
        cmd = [CHROMIUM, *FLAGS, "--user-data-dir=" + profile, *args, url]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


# ---- PNG (8-bit RGB/RGBA, not interlaced: what Chromium writes) ----

def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                fail(f"{path}: unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    i = 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def diff_pixels(a, b):
    wa, ha, bpa, ra = a
    wb, hb, bpb, rb = b
    if (wa, ha) != (wb, hb):
        fail(f"screenshots differ in size: {wa}x{ha} vs {wb}x{hb}")
    out = []
    for y in range(ha):
        la, lb = ra[y], rb[y]
        if la == lb:
            continue
        for x in range(wa):
            if la[x * bpa:x * bpa + 3] != lb[x * bpb:x * bpb + 3]:
                out.append((x, y))
    return out


# ---- where the game changed, from the embedded SVG overlays ----

NUM = re.compile(r'\b(?:x|y|cx|cy|x1|y1|x2|y2)="(-?\d+)"')


def boxes(lines):
    """Bounding boxes (x0, y0, x1, y1) of SVG lines, padded for strokes and text."""
    out = []
    for line in lines:
        xs, ys = [], []
        for m in re.finditer(r'\b(x|cx|x1|x2)="(-?\d+)"', line):
            xs.append(int(m.group(2)))
        for m in re.finditer(r'\b(y|cy|y1|y2)="(-?\d+)"', line):
            ys.append(int(m.group(2)))
        for m in re.finditer(r'points="([^"]*)"', line):
            for pt in m.group(1).split():
                px, py = pt.split(",")
                xs.append(int(px))
                ys.append(int(py))
        for m in re.finditer(r'd="M(-?\d+) (-?\d+)', line):
            xs.append(int(m.group(1)))
            ys.append(int(m.group(2)))
        if not xs or not ys:
            continue
        x0, y0, x1, y1 = min(xs) - 12, min(ys) - 22, max(xs) + 52, max(ys) + 52
        if "<text" in line:
            text = re.sub(r"<[^>]*>", "", line)
            x1 = max(x1, max(xs) + 12 * len(text) + 12)
        out.append((x0, y0, x1, y1))
    return out


def changed_region(data, a, b):
    fa, fb = data["f"][data["s"][a]["o"]], data["f"][data["s"][b]["o"]]
    la, lb = fa.splitlines(), fb.splitlines()
    only = [l for l in la if l not in lb] + [l for l in lb if l not in la]
    if data["s"][a]["b"] != data["s"][b]["b"]:
        return None  # the base map changed too: everything may differ
    return boxes(only)


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    page = os.path.abspath(sys.argv[1])
    outdir = sys.argv[2]
    a, b = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (3, 5)
    os.makedirs(outdir, exist_ok=True)
    html = open(page, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    if not m:
        fail("no data in the page")
    data = json.loads(m.group(1))
    if max(a, b) >= len(data["s"]):
        fail(f"the page has {len(data['s'])} steps")
    url = "file://" + page

    for n in (a, b):
        # The script ran and honoured #step=N.
        p = chromium(["--dump-dom"], f"{url}#step={n}")
        if f'data-shown="{n}"' not in p.stdout:
            fail(f"step {n}: the page did not show step {n} (script did not run?)\n{p.stderr[-2000:]}")
        # No console messages at all (errors, uncaught exceptions, warnings).
        shot = os.path.join(outdir, f"page-{n}.png")
        p = chromium(["--enable-logging=stderr", "--v=0", f"--screenshot={shot}", "--window-size=1600,1100"], f"{url}#step={n}")
        console = [l for l in p.stderr.splitlines() if "CONSOLE" in l]
        if console:
            fail(f"step {n}: console output:\n" + "\n".join(console))
        if not os.path.exists(shot):
            fail(f"step {n}: no screenshot\n{p.stderr[-2000:]}")
        # The map alone at natural size.
        vb = data["s"][n]["v"].split()
        w, h = int(vb[2]), int(vb[3])
        mshot = os.path.join(outdir, f"map-{n}.png")
        p = chromium([f"--screenshot={mshot}", f"--window-size={w},{h}"], f"{url}#step={n}&full")
        if not os.path.exists(mshot):
            fail(f"step {n}: no map screenshot\n{p.stderr[-2000:]}")

    pa, pb = read_png(os.path.join(outdir, f"page-{a}.png")), read_png(os.path.join(outdir, f"page-{b}.png"))
    if not diff_pixels(pa, pb):
        fail(f"the page looks the same at steps {a} and {b}")

    ma, mb = read_png(os.path.join(outdir, f"map-{a}.png")), read_png(os.path.join(outdir, f"map-{b}.png"))
    # The map is drawn: many colours, not a blank page.
    colours = {ma[3][y][x * ma[2]:x * ma[2] + 3] for y in range(0, ma[1], 7) for x in range(0, ma[0], 7)}
    if len(colours) < 20:
        fail(f"map-{a}.png has {len(colours)} colours: the map was not drawn")
    diff = diff_pixels(ma, mb)
    if not diff:
        fail(f"the map looks the same at steps {a} and {b}")
    region = changed_region(data, a, b)
    if region is not None:
        if not region:
            fail(f"the pixels differ but the overlays of steps {a} and {b} are the same")
        outside = [(x, y) for (x, y) in diff if not any(x0 <= x <= x1 and y0 <= y <= y1 for (x0, y0, x1, y1) in region)]
        if len(outside) > len(diff) // 100:
            fail(f"{len(outside)} of {len(diff)} changed pixels lie outside what changed in the game, e.g. {outside[:5]}")
        touched = [r for r in region if any(r[0] <= x <= r[2] and r[1] <= y <= r[3] for (x, y) in diff[::7])]
        if not touched:
            fail("no changed pixel lies where the game changed")
    xs, ys = [p[0] for p in diff], [p[1] for p in diff]
    print(f"ok: steps {a} and {b}: {len(diff)} map pixels differ in x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)}, "
          f"all within the {len(region or [])} regions that changed; no console output; screenshots in {outdir}")


if __name__ == "__main__":
    main()
