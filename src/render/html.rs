//! The replay page: ONE self-contained HTML file (inline CSS, JS and SVG; nothing fetched)
//! with the map of every step, its events in words (dice shown), the state diff, a slider,
//! keyboard navigation (← →, Home, End) and `#step=N` in the address (`#step=N&full`: the
//! map alone at its natural size, for printing and screenshots).
//!
//! Size: each distinct SVG layer is stored once (the base map is usually shared by every
//! step, and steps that change nothing visible share their overlay).

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Picture, escape, svg};
use crate::engine::Event;

/// A replay page.
#[derive(Clone, Debug)]
pub struct Page {
    /// `"1914: Glory's End — glorys-end/marne"`.
    pub title: String,
    /// `"game 3f2a…, seen by allied"`.
    pub subtitle: String,
    pub steps: Vec<Step>,
}

/// One log entry and the state after it.
#[derive(Clone, Debug)]
pub struct Step {
    /// `"entry 3 · Orders by allied · 7c9cc0447963c41b"`.
    pub label: String,
    /// The events, in order (rolls carry their die).
    pub events: Vec<Event>,
    /// The random action left awaiting dice.
    pub pending: Option<String>,
    /// The author's note.
    pub note: Option<String>,
    /// Changed lines of the state's text (`"+ unit …"`, `"- unit …"`).
    pub diff: Vec<String>,
    /// The map after this entry.
    pub picture: Picture,
}

#[derive(Serialize)]
struct StepJson<'a> {
    /// Label.
    l: &'a str,
    /// Events: [text, rule, die face or ""].
    e: Vec<(String, String, String)>,
    /// Pending roll.
    p: &'a str,
    /// Note.
    n: &'a str,
    /// Diff lines.
    d: &'a [String],
    /// Base layer index, overlay index.
    b: usize,
    o: usize,
    /// viewBox.
    v: String,
}

#[derive(Serialize)]
struct DataJson<'a> {
    /// Distinct SVG fragments.
    f: Vec<String>,
    s: Vec<StepJson<'a>>,
}

/// A die face for display: ⚀…⚅ for a d6, else the number.
fn die_face(die: &str, result: u32) -> String {
    if die == "d6" && (1..=6).contains(&result) {
        let c = char::from_u32(0x2680 + result - 1).unwrap_or('?');
        format!("{c} {result}")
    } else {
        format!("{die}: {result}")
    }
}

/// The whole page.
pub fn page(p: &Page) -> String {
    let mut fragments: Vec<String> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut intern = |s: String| -> usize {
        if let Some(i) = index.get(&s) {
            return *i;
        }
        fragments.push(s.clone());
        index.insert(s, fragments.len() - 1);
        fragments.len() - 1
    };
    let mut steps = Vec::new();
    for s in &p.steps {
        let l = svg::layers(&s.picture);
        let b = intern(l.base);
        let o = intern(l.overlay);
        let e = s
            .events
            .iter()
            .map(|ev| {
                (
                    ev.text.clone(),
                    ev.rule.clone().unwrap_or_default(),
                    ev.roll.as_ref().map(|r| die_face(&r.die, r.result)).unwrap_or_default(),
                )
            })
            .collect();
        steps.push(StepJson {
            l: &s.label,
            e,
            p: s.pending.as_deref().unwrap_or(""),
            n: s.note.as_deref().unwrap_or(""),
            d: &s.diff,
            b,
            o,
            v: format!("0 0 {} {}", l.width, l.height),
        });
    }
    let data = DataJson { f: fragments, s: steps };
    // `<` only ever occurs inside JSON strings, where \u003c means the same: no `</script>`.
    let json = serde_json::to_string(&data).unwrap_or_else(|_| "{\"f\":[],\"s\":[]}".into()).replace('<', "\\u003c");
    let last = p.steps.len().saturating_sub(1);
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape(&p.title)));
    out.push_str("<style>\n");
    out.push_str(CSS);
    out.push_str("</style>\n</head>\n<body data-shown=\"\">\n");
    out.push_str(&format!("<header><h1>{}</h1><div class=\"sub\">{}</div></header>\n", escape(&p.title), escape(&p.subtitle)));
    out.push_str(&format!(
        "<nav><button id=\"prev\" title=\"previous (←)\">◀</button><input id=\"slider\" type=\"range\" min=\"0\" max=\"{last}\" value=\"0\" aria-label=\"step\"><button id=\"next\" title=\"next (→)\">▶</button><span id=\"pos\"></span><button id=\"zoom\" title=\"map at full size / fitted (z)\">1:1</button><span class=\"hint\">← → Home End, z zoom</span></nav>\n"
    ));
    out.push_str("<main><div id=\"mapbox\"><svg id=\"map\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\"></svg></div>\n");
    out.push_str("<aside><h2 id=\"label\"></h2><div id=\"note\"></div><h3>Events</h3><ol id=\"events\"></ol><div id=\"pending\"></div><h3>Changes</h3><pre id=\"diff\"></pre></aside></main>\n");
    out.push_str("<noscript><p>This page needs JavaScript to step through the game.</p></noscript>\n");
    out.push_str("<script type=\"application/json\" id=\"data\">");
    out.push_str(&json);
    out.push_str("</script>\n<script>\n");
    out.push_str(JS);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

const CSS: &str = r#"body{margin:0;font-family:"DejaVu Sans",Verdana,Arial,sans-serif;background:#eeece4;color:#111}
header{padding:6px 12px;background:#2b2b2b;color:#fff}
h1{font-size:18px;margin:0}
.sub{font-size:12px;color:#ccc}
nav{display:flex;align-items:center;gap:8px;padding:6px 12px;background:#ddd9cc;position:sticky;top:0;z-index:2}
nav input{flex:1}
nav button{font-size:16px;padding:2px 10px}
#pos{font-weight:bold;min-width:7em}
.hint{color:#666;font-size:12px}
main{display:flex;gap:8px;padding:8px;align-items:flex-start}
#mapbox{flex:3;overflow:auto;background:#fbfaf5;border:1px solid #bbb}
#map{display:block;width:100%;height:auto;max-height:calc(100vh - 110px)}
aside{flex:1;min-width:300px;max-width:480px;font-size:13px}
aside h2{font-size:15px;margin:4px 0}
aside h3{font-size:13px;margin:10px 0 4px;text-transform:uppercase;color:#555}
#events{padding-left:20px;margin:0}
#events li{margin:2px 0}
.rule{color:#666;font-size:11px}
.die{display:inline-block;background:#fff;border:1px solid #333;border-radius:4px;padding:0 4px;margin-right:4px;font-weight:bold;font-size:15px}
#pending{margin-top:6px;color:#8a3b00;font-weight:bold}
#note{font-style:italic;color:#444}
pre{white-space:pre-wrap;font-size:11px;margin:0;background:#fff;border:1px solid #ccc;padding:4px}
.add{color:#05620b}.del{color:#a00}
body.full header,body.full nav,body.full aside{display:none}
body.full main{padding:0;display:block}
body.full #mapbox{border:0;overflow:visible}
body.full #map,body.zoom #map{width:auto;height:auto;max-height:none}
body.zoom #mapbox{max-height:calc(100vh - 90px)}
"#;

const JS: &str = r##"(function(){
"use strict";
var D=JSON.parse(document.getElementById("data").textContent);
var F=D.f,S=D.s,cur=-1;
var $=function(id){return document.getElementById(id);};
var map=$("map"),slider=$("slider");
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined)e.textContent=text;return e;}
function show(i,fromHash){
  if(!S.length)return;
  i=Math.max(0,Math.min(S.length-1,i|0));
  var s=S[i];
  if(cur<0||S[cur].b!==s.b||S[cur].o!==s.o||S[cur].v!==s.v){
    map.setAttribute("viewBox",s.v);
    document.body.classList.toggle("full",/[#&]full\b/.test(location.hash));
    sizeMap();
    map.innerHTML=F[s.b]+F[s.o];
  }
  cur=i;
  slider.value=i;
  $("pos").textContent="step "+i+" / "+(S.length-1);
  $("label").textContent=s.l;
  $("note").textContent=s.n?("note: "+s.n):"";
  var ol=$("events");ol.textContent="";
  s.e.forEach(function(ev){var li=el("li");if(ev[2])li.appendChild(el("span","die",ev[2]));li.appendChild(document.createTextNode(ev[0]));if(ev[1]){li.appendChild(document.createTextNode(" "));li.appendChild(el("span","rule","["+ev[1]+"]"));}ol.appendChild(li);});
  if(!s.e.length)ol.appendChild(el("li","rule","(no events)"));
  $("pending").textContent=s.p?("awaiting dice: "+s.p):"";
  var pre=$("diff");pre.textContent="";
  s.d.forEach(function(l){pre.appendChild(el("div",l.charAt(0)==="+"?"add":(l.charAt(0)==="-"?"del":""),l));});
  if(!s.d.length)pre.textContent="(nothing changed)";
  document.title=document.title.replace(/ \u2014 step \d+$/,"")+" \u2014 step "+i;
  document.body.setAttribute("data-shown",String(i));
  if(!fromHash&&location.hash!=="#step="+i){try{history.replaceState(null,"","#step="+i);}catch(e){}}
}
function fromHash(){var m=/step=(\d+)/.exec(location.hash);return m?parseInt(m[1],10):0;}
slider.addEventListener("input",function(){show(parseInt(slider.value,10));});
$("prev").addEventListener("click",function(){show(cur-1);});
$("next").addEventListener("click",function(){show(cur+1);});
function sizeMap(){
  var c=document.body.classList,wh=(map.getAttribute("viewBox")||"0 0 0 0").split(" ");
  if(c.contains("full")||c.contains("zoom")){map.setAttribute("width",wh[2]);map.setAttribute("height",wh[3]);}
  else{map.removeAttribute("width");map.removeAttribute("height");}
}
function zoom(){document.body.classList.toggle("zoom");sizeMap();$("zoom").textContent=document.body.classList.contains("zoom")?"fit":"1:1";}
$("zoom").addEventListener("click",zoom);
document.addEventListener("keydown",function(e){
  if(e.target===slider)return; // the slider moves itself and fires "input"
  if(e.key==="ArrowLeft"){show(cur-1);e.preventDefault();}
  else if(e.key==="ArrowRight"){show(cur+1);e.preventDefault();}
  else if(e.key==="Home"){show(0);e.preventDefault();}
  else if(e.key==="End"){show(S.length-1);e.preventDefault();}
  else if(e.key==="z"){zoom();}
});
window.addEventListener("hashchange",function(){show(fromHash(),true);});
show(fromHash(),true);
})();
"##;
