//! Any [`Picture`] as SVG text. Integer geometry only; the output depends on nothing but the
//! picture, so the same state always gives the same bytes.
//!
//! The picture is drawn in two layers: the **base** (terrain, hexsides, hex numbers, places,
//! VP stars, legend: what a ruleset describes from its board) and the **overlay** (title,
//! notes, markers, counters, arrows: what changes during play). The replay page stores each
//! distinct layer once.

use std::fmt::Write as _;

use super::{
    Area, AreaGraph, Arrow, Axial, Badge, Cell, Counter, HexMap, Kind, MarkShape, Picture, PlaceKind, Rgb, SideStyle, Symbol, Table, escape,
};

/// Hex vertex radius, px.
const R: i32 = 40;
/// Half a hex's width (flat side to flat side), px (≈ R·√3/2).
const HW: i32 = 35;
/// Vertical distance between rows, px.
const ROW: i32 = 60;
/// Margin around the board.
const MARGIN: i32 = 12;
/// Height of the title band.
const TOP: i32 = 72;
/// Height of the legend band.
const BOTTOM: i32 = 36;
/// Counter side.
const CS: i32 = 40;
/// Counters' top-left corner relative to the hex centre.
const CX: i32 = -20;
const CY: i32 = -17;
/// Vertices of a hex around its centre, clockwise from the top.
const VERTS: [(i32, i32); 6] = [(0, -R), (HW, -R / 2), (HW, R / 2), (0, R), (-HW, R / 2), (-HW, -R / 2)];

/// The two layers of a picture and the canvas size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    pub width: i32,
    pub height: i32,
    /// What a ruleset draws from its board: unchanged during a game.
    pub base: String,
    /// What play changes.
    pub overlay: String,
}

/// The whole picture as a standalone SVG document.
pub fn to_svg(p: &Picture) -> String {
    let l = layers(p);
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&open_tag(l.width, l.height));
    out.push('\n');
    out.push_str(&l.base);
    out.push_str(&l.overlay);
    out.push_str("</svg>\n");
    out
}

/// The opening `<svg>` tag for a canvas.
pub fn open_tag(width: i32, height: i32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">"
    )
}

/// The layers of a picture.
pub fn layers(p: &Picture) -> Layers {
    match &p.kind {
        Kind::HexMap(m) => hex_layers(p, m),
        Kind::AreaGraph(g) => area_layers(p, g),
        Kind::Table(t) => table_layers(p, t),
    }
}

/// Pixel centres of axial coordinates, shifted so the board starts at (`ox`, `oy`).
struct Grid {
    ox: i32,
    oy: i32,
}

impl Grid {
    fn centre(&self, a: Axial) -> (i32, i32) {
        (self.ox + HW * (2 * a.q + a.r), self.oy + ROW * a.r)
    }
}

fn raw_x(a: Axial) -> i32 {
    HW * (2 * a.q + a.r)
}

fn hex_layers(p: &Picture, m: &HexMap) -> Layers {
    let xs = || m.cells.iter().map(|c| raw_x(c.axial));
    let ys = || m.cells.iter().map(|c| ROW * c.axial.r);
    let (minx, maxx) = (xs().min().unwrap_or(0), xs().max().unwrap_or(0));
    let (miny, maxy) = (ys().min().unwrap_or(0), ys().max().unwrap_or(0));
    let g = Grid { ox: MARGIN + HW - minx, oy: TOP + R - miny };
    let width = (maxx - minx) + 2 * HW + 2 * MARGIN;
    let height = TOP + (maxy - miny) + 2 * R + BOTTOM;

    // ---- base ----
    let mut b = String::new();
    let _ = writeln!(b, "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#fbfaf5\"/>");
    b.push_str("<g stroke=\"#a8a8a0\" stroke-width=\"1\">\n");
    for c in &m.cells {
        let _ = writeln!(
            b,
            "<polygon points=\"{}\" fill=\"{}\"><title>{}</title></polygon>",
            hex_points(&g, c.axial),
            c.fill.hex(),
            escape(&cell_title(c))
        );
    }
    b.push_str("</g>\n");
    // Places: a city is a dark square, a town a dot (under where counters stand).
    for c in &m.cells {
        let (x, y) = g.centre(c.axial);
        match c.place.as_ref().map(|pl| pl.kind) {
            Some(PlaceKind::City) => {
                let _ = writeln!(b, "<rect x=\"{}\" y=\"{}\" width=\"16\" height=\"16\" fill=\"#7a1f1f\"/>", x - 8, y + 4);
            }
            Some(PlaceKind::Town) => {
                let _ = writeln!(b, "<circle cx=\"{x}\" cy=\"{}\" r=\"5\" fill=\"#222\"/>", y + 14);
            }
            None => {}
        }
    }
    for c in &m.cells {
        if let Some(o) = c.outline {
            let _ = writeln!(
                b,
                "<polygon points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"3\" stroke-dasharray=\"6 3\"/>",
                hex_points(&g, c.axial),
                o.hex()
            );
        }
    }
    // Hexsides.
    b.push_str("<g stroke-linecap=\"round\">\n");
    for s in &m.sides {
        let Some((p1, p2)) = shared_edge(&g, s.a, s.b) else { continue };
        let (colour, w, dash) = match s.style {
            SideStyle::MinorRiver => ("#2f74d0", 3, ""),
            SideStyle::MajorRiver => ("#1f5fbf", 7, ""),
            SideStyle::Impassable => ("#333333", 6, ""),
            SideStyle::Border => ("#a03030", 2, " stroke-dasharray=\"5 4\""),
        };
        let _ = writeln!(
            b,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"{w}\"{dash}/>",
            p1.0, p1.1, p2.0, p2.1
        );
    }
    b.push_str("</g>\n");
    // Hex numbers.
    b.push_str("<g font-size=\"8\" fill=\"#666\" text-anchor=\"middle\">\n");
    for c in &m.cells {
        let (x, y) = g.centre(c.axial);
        let _ = writeln!(b, "<text x=\"{x}\" y=\"{}\">{}</text>", y - 23, escape(&c.id));
    }
    b.push_str("</g>\n");
    // VP stars in the right strip of the hex.
    for c in &m.cells {
        if let Some((v, colour)) = &c.vp {
            let (x, y) = g.centre(c.axial);
            let (sx, sy) = (x + 26, y - 4);
            let _ = writeln!(
                b,
                "<g><title>{} VP</title><polygon points=\"{}\" fill=\"{}\" stroke=\"#000\" stroke-width=\"1\"/><text x=\"{sx}\" y=\"{}\" font-size=\"8\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#000\">{}</text></g>",
                escape(v),
                star_points(sx, sy),
                colour.hex(),
                sy + 3,
                escape(v)
            );
        }
    }
    // Place names, with a halo so rivers and lines do not hide them.
    b.push_str("<g font-size=\"10\" text-anchor=\"middle\" fill=\"#111\" stroke=\"#fbfaf5\" stroke-width=\"3\" paint-order=\"stroke\" stroke-linejoin=\"round\">\n");
    for c in &m.cells {
        if let Some(pl) = &c.place {
            let (x, y) = g.centre(c.axial);
            let weight = if pl.kind == PlaceKind::City { " font-weight=\"bold\"" } else { "" };
            // Long names in a smaller type, so neighbours' names collide less.
            let small = if pl.name.chars().count() > 11 { " font-size=\"8\"" } else { "" };
            let _ = writeln!(b, "<text x=\"{x}\" y=\"{}\"{weight}{small}>{}</text>", y + 34, escape(&pl.name));
        }
    }
    b.push_str("</g>\n");
    legend(&mut b, p, height);

    // ---- overlay ----
    let mut o = String::new();
    title_and_notes(&mut o, p);
    for c in &m.cells {
        let (x, y) = g.centre(c.axial);
        let mut control_n = 0;
        let mut dot_n = 0;
        for mk in &c.marks {
            match mk.shape {
                MarkShape::Control => {
                    let (fx, fy) = (x - 33, y - 14 + 12 * control_n);
                    control_n += 1;
                    let _ = writeln!(
                        o,
                        "<g><title>{}</title><line x1=\"{fx}\" y1=\"{fy}\" x2=\"{fx}\" y2=\"{}\" stroke=\"#000\" stroke-width=\"1\"/><rect x=\"{fx}\" y=\"{fy}\" width=\"12\" height=\"9\" fill=\"{}\" stroke=\"#000\" stroke-width=\"1\"/><text x=\"{}\" y=\"{}\" font-size=\"7\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{}</text></g>",
                        escape(&mk.title),
                        fy + 14,
                        mk.colour.hex(),
                        fx + 6,
                        fy + 7,
                        ink_for(mk.colour).hex(),
                        escape(&mk.text)
                    );
                }
                MarkShape::Dot => {
                    let (dx, dy) = (x + 27, y + 12 + 10 * dot_n);
                    dot_n += 1;
                    let _ = writeln!(
                        o,
                        "<circle cx=\"{dx}\" cy=\"{dy}\" r=\"4\" fill=\"{}\" stroke=\"#000\" stroke-width=\"1\"><title>{}</title></circle>",
                        mk.colour.hex(),
                        escape(&mk.title)
                    );
                }
            }
        }
    }
    // Counters, stack by stack in the order first seen.
    let mut stacks: Vec<(Axial, Vec<&Counter>)> = Vec::new();
    for c in &m.counters {
        match stacks.iter_mut().find(|(a, _)| *a == c.at) {
            Some((_, v)) => v.push(c),
            None => stacks.push((c.at, vec![c])),
        }
    }
    for (at, units) in &stacks {
        let (x, y) = g.centre(*at);
        draw_stack(&mut o, x + CX, y + CY, units);
    }
    for a in &m.arrows {
        draw_arrow(&mut o, &g, a);
    }
    Layers { width, height, base: b, overlay: o }
}

fn cell_title(c: &Cell) -> String {
    match &c.place {
        Some(p) => format!("{} {}", c.id, p.name),
        None => c.id.clone(),
    }
}

fn hex_points(g: &Grid, a: Axial) -> String {
    let (x, y) = g.centre(a);
    VERTS.iter().map(|(dx, dy)| format!("{},{}", x + dx, y + dy)).collect::<Vec<_>>().join(" ")
}

/// The edge shared by two adjacent cells, or `None` if they are not adjacent.
fn shared_edge(g: &Grid, a: Axial, b: Axial) -> Option<((i32, i32), (i32, i32))> {
    // Neighbour steps and the vertex pair of the shared edge, as seen from `a`.
    let k = match (b.q - a.q, b.r - a.r) {
        (1, -1) => (0, 1),
        (1, 0) => (1, 2),
        (0, 1) => (2, 3),
        (-1, 1) => (3, 4),
        (-1, 0) => (4, 5),
        (0, -1) => (5, 0),
        _ => return None,
    };
    let (x, y) = g.centre(a);
    let v = |i: usize| (x + VERTS[i].0, y + VERTS[i].1);
    Some((v(k.0), v(k.1)))
}

/// A five-pointed star of outer radius 8 around (x, y), integer vertices.
fn star_points(x: i32, y: i32) -> String {
    // Outer radius 8, inner 4; angles every 36° from the top (sin/cos × 1000, rounded).
    const PTS: [(i32, i32); 10] =
        [(0, -1000), (588, -809), (951, -309), (951, 309), (588, 809), (0, 1000), (-588, 809), (-951, 309), (-951, -309), (-588, -809)];
    PTS.iter()
        .enumerate()
        .map(|(i, (sx, sy))| {
            let r = if i % 2 == 0 { 9 } else { 4 };
            format!("{},{}", x + round_div(sx * r, 1000), y + round_div(sy * r, 1000))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Integer division rounding half away from zero.
fn round_div(n: i32, d: i32) -> i32 {
    if (n < 0) != (d < 0) { (n - d / 2) / d } else { (n + d / 2) / d }
}

/// Black or white, whichever reads better on `bg` (integer luma).
fn ink_for(bg: Rgb) -> Rgb {
    let luma = 299 * bg.0 as u32 + 587 * bg.1 as u32 + 114 * bg.2 as u32;
    if luma > 140_000 { Rgb::BLACK } else { Rgb::WHITE }
}

fn draw_stack(o: &mut String, x0: i32, y0: i32, units: &[&Counter]) {
    let n = units.len() as i32;
    // At most four counters are drawn offset; a stack's top counter is the last.
    let shown: Vec<&Counter> = units.iter().skip(units.len().saturating_sub(4)).copied().collect();
    let k = shown.len() as i32;
    let titles: Vec<String> = units.iter().rev().map(|c| c.title.clone()).collect();
    let _ = writeln!(o, "<g class=\"stack\"><title>{}</title>", escape(&titles.join("\n")));
    for (i, c) in shown.iter().enumerate() {
        let off = 4 * (i as i32 - (k - 1));
        draw_counter(o, x0 - off, y0 + off, c, i as i32 == k - 1);
    }
    if n > 1 {
        let (bx, by) = (x0 - 2, y0 - 2);
        let _ = writeln!(
            o,
            "<circle cx=\"{bx}\" cy=\"{by}\" r=\"7\" fill=\"#111\" stroke=\"#fff\" stroke-width=\"1\"/><text x=\"{bx}\" y=\"{}\" font-size=\"9\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#fff\">{n}</text>",
            by + 3
        );
    }
    o.push_str("</g>\n");
}

fn draw_counter(o: &mut String, x: i32, y: i32, c: &Counter, top: bool) {
    let ink = c.ink.hex();
    let _ = writeln!(
        o,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{CS}\" height=\"{CS}\" rx=\"3\" fill=\"{}\" stroke=\"#000\" stroke-width=\"1\"/>",
        c.colour.hex()
    );
    if !top {
        return;
    }
    let mid = x + CS / 2;
    let _ = writeln!(
        o,
        "<text x=\"{mid}\" y=\"{}\" font-size=\"8\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
        y + 8,
        escape(&c.top_text)
    );
    if !c.size.is_empty() {
        let _ = writeln!(
            o,
            "<text x=\"{mid}\" y=\"{}\" font-size=\"5\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
            y + 14,
            escape(&c.size)
        );
    }
    // The NATO box, 18 × 10.
    let (bx, by, bw, bh) = (mid - 9, y + 15, 18, 10);
    let _ = write!(o, "<g stroke=\"{ink}\" stroke-width=\"1\" fill=\"none\"><rect x=\"{bx}\" y=\"{by}\" width=\"{bw}\" height=\"{bh}\"/>");
    match c.symbol {
        Symbol::Infantry => {
            let _ = write!(o, "<path d=\"M{bx} {by}L{} {}M{bx} {}L{} {by}\"/>", bx + bw, by + bh, by + bh, bx + bw);
        }
        Symbol::Cavalry => {
            let _ = write!(o, "<path d=\"M{bx} {}L{} {by}\"/>", by + bh, bx + bw);
        }
        Symbol::Artillery => {
            let _ = write!(o, "<circle cx=\"{mid}\" cy=\"{}\" r=\"2\" fill=\"{ink}\"/>", by + bh / 2);
        }
        Symbol::Fortress => {
            let _ = write!(o, "<path d=\"M{bx} {by}v-3h4v3h5v-3h4v3h5v-3\"/><path d=\"M{} {}h8\"/>", mid - 4, by + bh / 2);
        }
        Symbol::Other => {}
    }
    o.push_str("</g>\n");
    let _ = writeln!(
        o,
        "<text x=\"{mid}\" y=\"{}\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
        y + 35,
        escape(&c.bottom_text)
    );
    if let Some((now, max)) = c.steps {
        let max = max.min(8) as i32;
        let now = (now as i32).min(max);
        let start = mid - (5 * max - 1) / 2;
        for i in 0..max {
            let fill = if i < now { ink.clone() } else { "none".to_string() };
            let _ = write!(
                o,
                "<rect x=\"{}\" y=\"{}\" width=\"3\" height=\"3\" fill=\"{fill}\" stroke=\"{ink}\" stroke-width=\"1\"/>",
                start + 5 * i,
                y + 36
            );
        }
        o.push('\n');
    }
    for (i, b) in c.badges.iter().enumerate() {
        draw_badge(o, x + CS - 12, y + 18 + 10 * i as i32, b);
    }
}

fn draw_badge(o: &mut String, x: i32, y: i32, b: &Badge) {
    let w = 6 * b.text.chars().count() as i32 + 4;
    let _ = writeln!(
        o,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"9\" rx=\"2\" fill=\"{}\" stroke=\"#000\" stroke-width=\"1\"/><text x=\"{}\" y=\"{}\" font-size=\"7\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
        b.colour.hex(),
        x + w / 2,
        y + 7,
        ink_for(b.colour).hex(),
        escape(&b.text)
    );
}

/// Integer square root.
fn isqrt(n: i64) -> i64 {
    if n <= 0 {
        return 0;
    }
    // Newton's method on integers: decreases monotonically to the floor of the root.
    let mut x = n;
    let mut y = (x + 1) / 2;
    while y < x {
        x = y;
        y = (x + n / x) / 2;
    }
    x
}

fn draw_arrow(o: &mut String, g: &Grid, a: &Arrow) {
    let (x1, y1) = g.centre(a.from);
    let (x2, y2) = g.centre(a.to);
    let (dx, dy) = ((x2 - x1) as i64, (y2 - y1) as i64);
    let len = isqrt(dx * dx + dy * dy);
    if len == 0 {
        return;
    }
    let at = |from: (i32, i32), d: i64| (from.0 + (dx * d / len) as i32, from.1 + (dy * d / len) as i32);
    let s = at((x1, y1), 14);
    let e = at((x2, y2), -12);
    let base = at(e, -14);
    let (px, py) = ((-dy * 8 / len) as i32, (dx * 8 / len) as i32);
    let colour = a.colour.hex();
    let _ = writeln!(
        o,
        "<g class=\"arrow\"><title>{}</title><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#fff\" stroke-width=\"9\" stroke-linecap=\"round\"/><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"5\" stroke-linecap=\"round\"/><polygon points=\"{},{} {},{} {},{}\" fill=\"{colour}\" stroke=\"#fff\" stroke-width=\"1\"/></g>",
        escape(&a.title),
        s.0,
        s.1,
        base.0,
        base.1,
        s.0,
        s.1,
        base.0,
        base.1,
        e.0,
        e.1,
        base.0 + px,
        base.1 + py,
        base.0 - px,
        base.1 - py
    );
}

fn title_and_notes(o: &mut String, p: &Picture) {
    let _ = writeln!(o, "<text x=\"{MARGIN}\" y=\"26\" font-size=\"20\" font-weight=\"bold\" fill=\"#111\">{}</text>", escape(&p.title));
    // Two lines of notes at most; further notes join the second line.
    let mut lines: Vec<String> = p.notes.iter().take(1).cloned().collect();
    if p.notes.len() > 1 {
        lines.push(p.notes[1..].join(" · "));
    }
    for (i, l) in lines.iter().enumerate() {
        let _ = writeln!(o, "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"13\" fill=\"#333\">{}</text>", 46 + 18 * i as i32, escape(l));
    }
}

fn legend(b: &mut String, p: &Picture, height: i32) {
    let y = height - BOTTOM + 12;
    let mut x = MARGIN;
    for item in &p.legend {
        let _ = writeln!(
            b,
            "<rect x=\"{x}\" y=\"{y}\" width=\"14\" height=\"14\" fill=\"{}\" stroke=\"#555\" stroke-width=\"1\"/><text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#222\">{}</text>",
            item.colour.hex(),
            x + 19,
            y + 12,
            escape(&item.text)
        );
        x += 19 + 7 * item.text.chars().count() as i32 + 18;
    }
}

// ---- area graphs and tables: a plain rendering, enough to see the position ----

/// Pixels per millimetre for tables.
const PX_PER_MM: i32 = 1;
/// Pixels per millimetre for area graphs (areas 50 mm apart leave room for a box of pieces).
const AREA_PX_PER_MM: i32 = 4;
/// An area's box, px.
const AREA_W: i32 = 192;
const AREA_H: i32 = 184;
/// A piece in an area's box, px, and the gap between pieces.
const PIECE_W: i32 = 42;
const PIECE_H: i32 = 32;
const PIECE_GAP: i32 = 4;
/// Height of an area graph's title band.
const AREA_TOP: i32 = 150;

/// Words joined into lines of at most `max` characters (a longer word is a line of its own).
fn wrap(words: impl IntoIterator<Item = String>, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for w in words {
        match lines.last_mut() {
            Some(l) if !l.is_empty() && l.chars().count() + 1 + w.chars().count() <= max => {
                l.push(' ');
                l.push_str(&w);
            }
            _ => lines.push(w),
        }
    }
    lines
}

/// The title and notes wrapped to `width` px (one note per line or more); returns the SVG and
/// the height the band takes.
fn wrapped_header(p: &Picture, width: i32) -> (String, i32) {
    let mut o = String::new();
    let mut y = 6;
    // Bold 20 px DejaVu Sans: at most 13 px a character; 13 px text: at most 8.
    for l in wrap(p.title.split(' ').map(str::to_string), ((width - 2 * MARGIN) / 13).max(10) as usize) {
        y += 24;
        let _ = writeln!(
            o,
            "<text class=\"label\" x=\"{MARGIN}\" y=\"{y}\" font-size=\"20\" font-weight=\"bold\" fill=\"#111\">{}</text>",
            escape(&l)
        );
    }
    y += 4;
    for n in &p.notes {
        for l in wrap(n.split(' ').map(str::to_string), ((width - 2 * MARGIN) / 8).max(10) as usize) {
            y += 17;
            let _ = writeln!(o, "<text class=\"label\" x=\"{MARGIN}\" y=\"{y}\" font-size=\"13\" fill=\"#333\">{}</text>", escape(&l));
        }
    }
    (o, y + 12)
}

/// An area graph: each area a box with its heading and detail, links between box centres,
/// and every counter of an area side by side in its box (so a stack hides nothing).
fn area_layers(p: &Picture, gph: &AreaGraph) -> Layers {
    let xs = || gph.areas.iter().map(|a| a.x_mm * AREA_PX_PER_MM);
    let ys = || gph.areas.iter().map(|a| a.y_mm * AREA_PX_PER_MM);
    let (minx, maxx) = (xs().min().unwrap_or(0), xs().max().unwrap_or(0));
    let (miny, maxy) = (ys().min().unwrap_or(0), ys().max().unwrap_or(0));
    let width = (maxx - minx) + AREA_W + 2 * MARGIN;
    // The board starts at a fixed height (three title lines and three notes) so that the base
    // layer is the same at every step; only a longer header pushes it down.
    let (header, need) = wrapped_header(p, width);
    let top = need.max(AREA_TOP);
    let height = top + (maxy - miny) + AREA_H + MARGIN + BOTTOM;
    let pos = |a: &Area| (MARGIN + AREA_W / 2 + a.x_mm * AREA_PX_PER_MM - minx, top + AREA_H / 2 + a.y_mm * AREA_PX_PER_MM - miny);
    // Bold 12 px heading: at most 8 px a character; 10 px detail: 7.
    let head_lines = |a: &Area| wrap(a.name.split(' ').map(str::to_string), ((AREA_W - 8) / 8) as usize);
    let detail_lines = |a: &Area| wrap(a.detail.iter().cloned(), ((AREA_W - 8) / 7) as usize);
    let header_h = |a: &Area| 10 + 15 * head_lines(a).len() as i32 + 13 * detail_lines(a).len() as i32;
    let mut b = String::new();
    let _ = writeln!(b, "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#fbfaf5\"/>");
    for (i, j) in &gph.links {
        if let (Some(a), Some(c)) = (gph.areas.get(*i), gph.areas.get(*j)) {
            let ((x1, y1), (x2, y2)) = (pos(a), pos(c));
            let _ = writeln!(b, "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#777\" stroke-width=\"3\"/>");
        }
    }
    for a in &gph.areas {
        let (cx, cy) = pos(a);
        let (x, y) = (cx - AREA_W / 2, cy - AREA_H / 2);
        let _ = writeln!(b, "<g class=\"area\" data-area=\"{}\">", escape(&a.id));
        let _ = writeln!(
            b,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{AREA_W}\" height=\"{AREA_H}\" rx=\"10\" fill=\"{}\" stroke=\"#555\" stroke-width=\"1\"><title>{}</title></rect>",
            a.fill.hex(),
            escape(&a.id)
        );
        let mut ty = y + 4;
        for l in head_lines(a) {
            ty += 15;
            let _ = writeln!(
                b,
                "<text class=\"label\" x=\"{}\" y=\"{ty}\" font-size=\"12\" font-weight=\"bold\" fill=\"#111\">{}</text>",
                x + 6,
                escape(&l)
            );
        }
        for l in detail_lines(a) {
            ty += 13;
            let _ = writeln!(b, "<text class=\"label\" x=\"{}\" y=\"{ty}\" font-size=\"10\" fill=\"#333\">{}</text>", x + 6, escape(&l));
        }
        b.push_str("</g>\n");
    }
    legend(&mut b, p, height);
    let mut o = header;
    for (i, a) in gph.areas.iter().enumerate() {
        let units: Vec<&Counter> = gph.counters.iter().filter(|(k, _)| *k == i).map(|(_, c)| c).collect();
        if units.is_empty() {
            continue;
        }
        let (cx, cy) = pos(a);
        let (x, y) = (cx - AREA_W / 2, cy - AREA_H / 2 + header_h(a));
        // Four pieces a row while the rows fit; more columns of narrower pieces beyond.
        let inner = AREA_W - 8;
        let rows_fit = ((AREA_H - header_h(a) - 4 + PIECE_GAP) / (PIECE_H + PIECE_GAP)).max(1) as usize;
        let cols = 4.max(units.len().div_ceil(rows_fit)) as i32;
        let w = ((inner - (cols - 1) * PIECE_GAP) / cols).min(PIECE_W);
        let _ = writeln!(o, "<g class=\"pieces\" data-area=\"{}\" data-count=\"{}\">", escape(&a.id), units.len());
        for (k, c) in units.iter().enumerate() {
            let (col, row) = (k as i32 % cols, k as i32 / cols);
            draw_piece(&mut o, x + 4 + col * (w + PIECE_GAP), y + row * (PIECE_H + PIECE_GAP), w, c);
        }
        o.push_str("</g>\n");
    }
    Layers { width, height, base: b, overlay: o }
}

/// One piece of an area graph: a `w` × [`PIECE_H`] tile with its top and bottom texts.
fn draw_piece(o: &mut String, x: i32, y: i32, w: i32, c: &Counter) {
    let ink = c.ink.hex();
    let mid = x + w / 2;
    // 10 px bold: at most 7 px a character; a longer text is cut to fit, the title has it all.
    let fit = |t: &str| t.chars().take(((w - 2) / 7).max(1) as usize).collect::<String>();
    let _ = writeln!(
        o,
        "<g class=\"piece\"><title>{}</title><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{PIECE_H}\" rx=\"3\" fill=\"{}\" stroke=\"#000\" stroke-width=\"1\"/><text x=\"{mid}\" y=\"{}\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{}</text><text x=\"{mid}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"{ink}\">{}</text></g>",
        escape(&c.title),
        c.colour.hex(),
        y + 13,
        escape(&fit(&c.top_text)),
        y + 27,
        escape(&fit(&c.bottom_text))
    );
}

fn table_layers(p: &Picture, t: &Table) -> Layers {
    let width = t.width_mm * PX_PER_MM + 2 * MARGIN;
    let height = TOP + t.height_mm * PX_PER_MM + BOTTOM;
    let mut b = String::new();
    let _ = writeln!(b, "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#fbfaf5\"/>");
    let _ = writeln!(
        b,
        "<rect x=\"{MARGIN}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"#cfe3b4\" stroke=\"#555\"/>",
        t.width_mm * PX_PER_MM,
        t.height_mm * PX_PER_MM
    );
    legend(&mut b, p, height);
    // Table y grows up the page: flip it.
    let px = |x: i32, y: i32| (MARGIN + x * PX_PER_MM, TOP + (t.height_mm - y) * PX_PER_MM);
    for a in &t.areas {
        let pts: Vec<String> = a.points.iter().map(|&(x, y)| px(x, y)).map(|(x, y)| format!("{x},{y}")).collect();
        let _ = writeln!(
            b,
            "<polygon points=\"{}\" fill=\"{}\" stroke=\"#555\" opacity=\"0.85\"><title>{}</title></polygon>",
            pts.join(" "),
            a.fill.hex(),
            escape(&a.label)
        );
    }
    for l in &t.lines {
        let pts: Vec<String> = l.points.iter().map(|&(x, y)| px(x, y)).map(|(x, y)| format!("{x},{y}")).collect();
        let dash = if l.dashed { " stroke-dasharray=\"6,4\"" } else { "" };
        let _ = writeln!(
            b,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{dash}/>",
            pts.join(" "),
            l.colour.hex(),
            (l.width_mm * PX_PER_MM).max(1)
        );
    }
    let mut o = String::new();
    title_and_notes(&mut o, p);
    for pc in &t.pieces {
        let (x, y) = px(pc.x_mm, pc.y_mm);
        let (w, h) = (pc.w_mm * PX_PER_MM, pc.h_mm * PX_PER_MM);
        let deg = pc.facing_decideg;
        let sign = if deg < 0 { "-" } else { "" };
        let _ = writeln!(
            o,
            "<g transform=\"rotate({sign}{}.{} {x} {y})\"><rect x=\"{}\" y=\"{}\" width=\"{w}\" height=\"{h}\" fill=\"{}\" stroke=\"#000\"/><text x=\"{x}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\">{}</text></g>",
            deg.unsigned_abs() / 10,
            deg.unsigned_abs() % 10,
            x - w / 2,
            y - h / 2,
            pc.colour.hex(),
            y + 3,
            escape(&pc.label)
        );
    }
    Layers { width, height, base: b, overlay: o }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isqrt_is_exact() {
        for n in 0..10_000i64 {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n);
        }
    }

    #[test]
    fn round_div_rounds_half_away() {
        assert_eq!(round_div(5, 10), 1);
        assert_eq!(round_div(-5, 10), -1);
        assert_eq!(round_div(4, 10), 0);
    }
}
