//! The parts of the `stats --html` report that look at depths and places:
//! tables of each encounter's and prefab's placements per depth, and heat maps
//! of where the most placed of them land.
//!
//! In: one map type's finished [`MapTypeStats`]. Out: HTML fragments for
//! [`crate::stats_html::report`]. Guarantees: at most [`DEPTH_COLUMNS`] depth
//! columns and [`HEAT_MAPS_SHOWN`] heat maps per kind (encounters, prefabs),
//! with a note saying what was left out, so the page stays small; each heat
//! map is an inline SVG at the map's size (one pixel per cell), one path per
//! shade tracing the runs of blocks of that shade; every name is HTML-escaped.

use crate::html_page::escape;
use prefabric::stats::{DepthCount, Heat, HeatShape, MapTypeStats};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The most depths the per-depth tables show as columns.
pub(crate) const DEPTH_COLUMNS: usize = 16;
/// The most heat maps drawn for encounters, and again for prefabs, of a map type.
pub(crate) const HEAT_MAPS_SHOWN: usize = 12;
/// Shades of a heat map, besides empty.
const SHADES: u32 = 8;

/// The style of the heat maps.
pub(crate) const STYLE: &str = "
.heat-maps { display: flex; flex-wrap: wrap; gap: 12px; }
.heat-maps figure { margin: 0; }
.heat-maps figcaption { font-size: 12px; max-width: 260px; overflow-wrap: anywhere; }
svg.heat { background: #1b1b1b; image-rendering: pixelated; }
svg.heat path { fill: #ff7043; }
";

/// The per-depth tables and the heat maps of map type `m` (nothing for a
/// run of one depth without heat maps).
pub(crate) fn depth_sections(page: &mut String, m: &MapTypeStats) {
    if m.depths.len() > 1 {
        per_depth_tables(page, m);
    }
    if let Some(shape) = &m.heat_maps {
        heat_maps(page, m, shape);
    }
}

fn per_depth_tables(page: &mut String, m: &MapTypeStats) {
    let depths: Vec<u32> = m.depths.iter().copied().take(DEPTH_COLUMNS).collect();
    page.push_str("<h3>Per depth</h3>\n");
    let maps: Vec<String> =
        depths.iter().map(|d| format!("depth {d}: {} maps", m.depth_maps.get(d).copied().unwrap_or(0))).collect();
    let _ = writeln!(
        page,
        "<p class=\"small\">{}. Each cell: times placed at that depth, the share of that depth's maps it was in, \
         and for an encounter its expected share of the encounters placed there (its weight over the weights of those \
         that can appear there), or <em>not at this depth</em>.{}</p>",
        maps.join(", "),
        if m.depths.len() > depths.len() {
            format!(
                " Only the first {} of the {} depths are shown; the JSON has them all.",
                depths.len(),
                m.depths.len()
            )
        } else {
            String::new()
        }
    );
    if !m.encounters.is_empty() {
        let rows = m.encounters.iter().map(|(id, e)| (id.as_str(), &e.by_depth));
        depth_table(page, "encounter", &depths, rows, true);
    }
    let placed = m.prefabs.iter().filter(|(_, p)| p.placed > 0).map(|(name, p)| (name.as_str(), &p.by_depth));
    depth_table(page, "prefab (placed at least once)", &depths, placed, false);
}

fn depth_table<'a>(
    page: &mut String,
    what: &str,
    depths: &[u32],
    rows: impl Iterator<Item = (&'a str, &'a BTreeMap<u32, DepthCount>)>,
    encounters: bool,
) {
    let _ = write!(page, "<table class=\"by-depth\">\n<tr><th>{what}</th>");
    for d in depths {
        let _ = write!(page, "<th class=\"n\">depth {d}</th>");
    }
    page.push_str("</tr>\n");
    for (name, by_depth) in rows {
        let _ = write!(page, "<tr><td><code>{}</code></td>", escape(name));
        for d in depths {
            let row = by_depth.get(d).cloned().unwrap_or_default();
            let class = if row.placed == 0 && (!encounters || row.weight_share.is_some()) { "n bad" } else { "n" };
            let expected = match (encounters, row.weight_share) {
                (false, _) => String::new(),
                (true, Some(share)) => format!(" <span class=\"small expected\">exp. {:.1}%</span>", 100.0 * share),
                (true, None) => " <span class=\"small ineligible\">not at this depth</span>".to_string(),
            };
            let _ = write!(
                page,
                "<td class=\"{class}\">{} <span class=\"small\">({:.0}%)</span>{expected}</td>",
                row.placed,
                100.0 * row.map_share
            );
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</table>\n");
}

fn heat_maps(page: &mut String, m: &MapTypeStats, shape: &HeatShape) {
    page.push_str("<h3>Where content lands</h3>\n");
    let _ = writeln!(
        page,
        "<p class=\"small\">Heat maps of the cells each encounter and prefab covered, summed over all {} maps \
         (darker: never; brighter: more often){}. The {HEAT_MAPS_SHOWN} most placed of each are drawn.</p>",
        m.maps,
        if shape.cell > 1 { format!(", in blocks of {0}×{0} cells", shape.cell) } else { String::new() }
    );
    let encounters = m.encounters.iter().map(|(id, e)| (format!("encounter {id}"), e.placed, e.heat.as_ref()));
    heat_row(page, shape, "encounters", encounters.collect());
    let prefabs = m.prefabs.iter().map(|(name, p)| (format!("prefab {name}"), p.placed, p.heat.as_ref()));
    heat_row(page, shape, "prefabs", prefabs.collect());
}

/// The heat maps of the most placed of `entries` (name, placements, heat).
fn heat_row(page: &mut String, shape: &HeatShape, what: &str, mut entries: Vec<(String, u64, Option<&Heat>)>) {
    entries.retain(|(_, placed, heat)| *placed > 0 && heat.is_some());
    entries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if entries.is_empty() {
        return;
    }
    page.push_str("<div class=\"heat-maps\">\n");
    for (name, placed, heat) in entries.iter().take(HEAT_MAPS_SHOWN) {
        let Some(heat) = heat else { continue };
        let _ = writeln!(
            page,
            "<figure>{}<figcaption><code>{}</code>: placed {placed} times</figcaption></figure>",
            heat_svg(shape, heat, name),
            escape(name)
        );
    }
    page.push_str("</div>\n");
    if entries.len() > HEAT_MAPS_SHOWN {
        let _ = writeln!(
            page,
            "<p class=\"small\">{} more {what} placed at least once are not drawn, to keep this page small.</p>",
            entries.len() - HEAT_MAPS_SHOWN
        );
    }
}

/// One heat map as an SVG of the map's size in cells: a path per shade,
/// with a rectangle for each run of blocks of that shade along a row.
pub(crate) fn heat_svg(shape: &HeatShape, heat: &Heat, label: &str) -> String {
    let (width, height) = (shape.width * shape.cell, shape.height * shape.cell);
    let mut svg = format!(
        "<svg class=\"heat\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" \
         aria-label=\"where {} lands\">",
        escape(label)
    );
    let most = u64::from(heat.max().max(1));
    let shade = |count: u32| (u64::from(count) * u64::from(SHADES)).div_ceil(most) as usize;
    let mut paths = vec![String::new(); SHADES as usize + 1];
    let c = shape.cell;
    for (y, row) in heat.0.iter().enumerate() {
        let mut x = 0;
        while x < row.len() {
            let level = shade(row[x]);
            let run = row[x..].iter().take_while(|&&n| shade(n) == level).count();
            if level > 0 {
                let w = run as u32 * c;
                let _ = write!(paths[level], "M{} {}h{w}v{c}h-{w}z", x as u32 * c, y as u32 * c);
            }
            x += run;
        }
    }
    for (level, d) in paths.iter().enumerate().filter(|(_, d)| !d.is_empty()) {
        let _ = write!(svg, "<path fill-opacity=\"{:.2}\" d=\"{d}\"/>", level as f64 / f64::from(SHADES));
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heat_map_draws_runs_of_one_shade_as_one_rectangle() {
        let shape = HeatShape { cell: 2, width: 4, height: 2 };
        let heat = Heat(vec![vec![0, 3, 3, 6], vec![0, 0, 0, 0]]);
        let svg = heat_svg(&shape, &heat, "<x>");
        assert_eq!(svg.matches("<path").count(), 2, "{svg}");
        assert!(svg.contains("<path fill-opacity=\"0.50\" d=\"M2 0h4v2h-4z\"/>"), "{svg}");
        assert!(svg.contains("<path fill-opacity=\"1.00\" d=\"M6 0h2v2h-2z\"/>"), "{svg}");
        assert!(svg.contains("width=\"8\" height=\"4\""), "the map's size in cells: {svg}");
        assert!(svg.contains("&lt;x&gt;"));
    }
}
