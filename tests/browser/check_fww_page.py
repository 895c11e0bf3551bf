#!/usr/bin/env python3
"""Check a First World War replay page in headless Chromium at 1400x1000 (run by .ci/run;
standard library only).

    python3 tests/browser/check_fww_page.py DIR/replay.html OUTDIR [WIDTH HEIGHT]

The page is copied with a checking script added at its end; Chromium loads the copy in a
WIDTHxHEIGHT window (default 1400x1000) and the script steps through EVERY step of the game
(driving the slider as a player would) and checks, on what the browser laid out:
  * every front (the map's `.area` boxes) lies wholly inside the window;
  * no text of the map is cut by the map's edge, and no two labels overlap;
  * every piece of a front is drawn (as many `.piece` tiles as the front holds), inside its
    front's box, and no piece covers another;
then writes its verdict into the DOM, which `--dump-dom` hands back. A screenshot of the last
step is written to OUTDIR/fww-page.png to judge by eye.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--virtual-time-budget=20000"]

# What every page check starts with: box helpers, a capped problem list, the slider and map.
JS_HELPERS = r"""
var problems=[],steps=0;
function r(e){return e.getBoundingClientRect();}
function inside(a,b){return a.left>=b.left-0.5&&a.right<=b.right+0.5&&a.top>=b.top-0.5&&a.bottom<=b.bottom+0.5;}
function meet(a,b){return a.left<b.right-0.5&&b.left<a.right-0.5&&a.top<b.bottom-0.5&&b.top<a.bottom-0.5;}
function say(step,msg){if(problems.length<40)problems.push("step "+step+": "+msg);}
var slider=document.getElementById("slider"),map=document.getElementById("map");
var n=parseInt(slider.max,10)+1;
"""

CHECK = r"""
<script>
(function(){
"use strict";
""" + JS_HELPERS + r"""
var areas=0,pieces=0;
for(var i=0;i<n;i++){
  slider.value=String(i);
  slider.dispatchEvent(new Event("input"));
  steps++;
  var win={left:0,top:0,right:window.innerWidth,bottom:window.innerHeight},m=r(map);
  var boxes={};
  map.querySelectorAll(".area").forEach(function(a){
    areas++;
    var b=r(a);boxes[a.getAttribute("data-area")]=b;
    if(!inside(b,win))say(i,"front "+a.getAttribute("data-area")+" is not inside the "+win.right+"x"+win.bottom+" window: "+JSON.stringify(b));
  });
  if(!Object.keys(boxes).length)say(i,"no front drawn");
  var labels=Array.prototype.slice.call(map.querySelectorAll("text.label"));
  labels.forEach(function(t,k){
    var b=r(t);
    if(!inside(b,m))say(i,"text \""+t.textContent+"\" is cut by the map's edge");
    for(var j=k+1;j<labels.length;j++){if(meet(b,r(labels[j])))say(i,"\""+t.textContent+"\" overlaps \""+labels[j].textContent+"\"");}
  });
  map.querySelectorAll(".pieces").forEach(function(g){
    var front=g.getAttribute("data-area"),want=parseInt(g.getAttribute("data-count"),10);
    var ps=Array.prototype.slice.call(g.querySelectorAll(".piece rect"));
    if(ps.length!==want)say(i,"front "+front+": "+ps.length+" pieces drawn of "+want);
    ps.forEach(function(p,k){
      pieces++;
      var b=r(p);
      if(b.width<4||b.height<4)say(i,"front "+front+": a piece too small to see");
      if(!boxes[front]||!inside(b,boxes[front]))say(i,"front "+front+": a piece lies outside its front");
      for(var j=k+1;j<ps.length;j++){if(meet(b,r(ps[j])))say(i,"front "+front+": two pieces overlap");}
      p.parentNode.querySelectorAll("text").forEach(function(t){if(!inside(r(t),b))say(i,"front "+front+": \""+t.textContent+"\" spills out of its piece");});
    });
  });
}
document.body.setAttribute("data-check",JSON.stringify({steps:steps,areas:areas,pieces:pieces,problems:problems}));
})();
</script>
"""


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def chromium(args, url):
    with tempfile.TemporaryDirectory() as profile:
        cmd = [CHROMIUM, *FLAGS, "--user-data-dir=" + profile, *args, url]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def run_check(page, check, w, h):
    """Load a copy of `page` with the `check` script added at its end in a WxH window and
    return the verdict the script wrote into the DOM (steps, counts, problems)."""
    html = open(page, encoding="utf-8").read()
    if "</body>" not in html:
        fail("not a replay page")
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "checked.html")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(html.replace("</body>", check + "</body>", 1))
        p = chromium(["--dump-dom", f"--window-size={w},{h}"], "file://" + copy)
    m = re.search(r'data-check="([^"]*)"', p.stdout)
    if not m:
        fail(f"the check did not run\n{p.stderr[-2000:]}")
    raw = m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    res = json.loads(raw)
    if res["problems"]:
        fail("\n".join(res["problems"]))
    return res


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    page, outdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    w, h = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (1400, 1000)
    os.makedirs(outdir, exist_ok=True)
    res = run_check(page, CHECK, w, h)
    if res["steps"] < 2 or res["areas"] == 0 or res["pieces"] == 0:
        fail(f"nothing was checked: {res}")
    shot = os.path.join(outdir, "fww-page.png")
    chromium([f"--screenshot={shot}", f"--window-size={w},{h}"], "file://" + page + f"#step={res['steps'] - 1}")
    print(f"ok: {res['steps']} steps at {w}x{h}: every front inside the window ({res['areas']} checked), "
          f"{res['pieces']} pieces drawn apart, no label cut or overlapping; screenshot {shot}")


if __name__ == "__main__":
    main()
