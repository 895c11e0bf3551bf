#!/usr/bin/env python3
"""Check a hex-map replay page (When Eagles Fight, Glory's End) in headless Chromium at
1400x1000 (run by .ci/run; standard library only).

    python3 tests/browser/check_hex_page.py DIR/replay.html OUTDIR [WIDTH HEIGHT [EVERY]]

The page is copied with a checking script added at its end; Chromium loads the copy in a
WIDTHxHEIGHT window (default 1400x1000) and the script steps through the game (every EVERY-th
step, default 1, and always the last one), driving the slider as a player would, and checks on
what the browser laid out:
  * the map (the fitted view a player first sees) lies wholly inside the window;
  * every counter stack is drawn inside the map, big enough to see (8 px) and on no other
    stack, so a player can tell every hex's units apart;
  * the map's own text (title, notes, legend) is inside the map and overlaps no other label;
  * the entry panel beside the map shows the step's entry.
It writes its verdict into the DOM, which `--dump-dom` hands back. A screenshot of the last step
is written to OUTDIR/hex-page.png to judge by eye.
"""

import os
import sys

from check_fww_page import JS_HELPERS, chromium, fail, run_check

CHECK = r"""
<script>
(function(){
"use strict";
""" + JS_HELPERS + r"""
var stacks=0,every=EVERY;
for(var i=0;i<n;i++){
  if(i%every!==0&&i!==n-1)continue;
  slider.value=String(i);
  slider.dispatchEvent(new Event("input"));
  steps++;
  var win={left:0,top:0,right:window.innerWidth,bottom:window.innerHeight},m=r(map);
  if(m.width<100||m.height<100)say(i,"the map is not drawn: "+JSON.stringify(m));
  if(!inside(m,win))say(i,"the map is not inside the "+win.right+"x"+win.bottom+" window: "+JSON.stringify(m));
  var boxes=Array.prototype.slice.call(map.querySelectorAll("g.stack")).map(r);
  boxes.forEach(function(b,k){
    stacks++;
    if(b.width<8||b.height<8)say(i,"a stack too small to see: "+JSON.stringify(b));
    if(!inside(b,m))say(i,"a stack lies outside the map");
    for(var j=k+1;j<boxes.length;j++){if(meet(b,boxes[j]))say(i,"two stacks overlap at "+Math.round(b.left)+","+Math.round(b.top));}
  });
  var labels=Array.prototype.slice.call(map.querySelectorAll("text.label"));
  labels.forEach(function(t,k){
    var b=r(t);
    if(!inside(b,m))say(i,"text \""+t.textContent+"\" is cut by the map's edge");
    for(var j=k+1;j<labels.length;j++){if(meet(b,r(labels[j])))say(i,"\""+t.textContent+"\" overlaps \""+labels[j].textContent+"\"");}
  });
  var pos=document.getElementById("pos");
  if(!pos||pos.textContent.indexOf(String(i))<0)say(i,"the step is not shown beside the slider");
}
document.body.setAttribute("data-check",JSON.stringify({steps:steps,stacks:stacks,problems:problems}));
})();
</script>
"""


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    page, outdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    w, h = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (1400, 1000)
    every = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    os.makedirs(outdir, exist_ok=True)
    res = run_check(page, CHECK.replace("EVERY", str(every)), w, h)
    if res["steps"] < 2 or res["stacks"] == 0:
        fail(f"nothing was checked: {res}")
    shot = os.path.join(outdir, "hex-page.png")
    chromium([f"--screenshot={shot}", f"--window-size={w},{h}"], "file://" + page + "#step=9999")
    print(f"ok: {res['steps']} steps at {w}x{h}: the map inside the window, {res['stacks']} stacks drawn "
          f"apart and visible, no label cut or overlapping; screenshot {shot}")


if __name__ == "__main__":
    main()
