//! `prefabric stats --html FILE`: the statistics as one self-contained HTML page.
//!
//! In: finished [`Stats`] (their derived figures worked out), from a run or a
//! merge. Out: an HTML document, as a string: an overview of the map types,
//! then for each a summary (seeds, depths, maps, failures, times), a chart of
//! its encounters' rates against the rates their weights promise, a histogram
//! of the time per map, and tables of its feature variants, encounters,
//! prefabs, definition lines and furnishing. Guarantees: the page needs
//! nothing outside itself — the style is inline, the plots are SVG drawn here,
//! there is no script and no URL; every name from the pack is HTML-escaped;
//! the same statistics give the same bytes.

mod charts;

use crate::html_page::{escape, percent};
use crate::{stats_depth_html, stats_examples_html};
use charts::{encounter_chart, time_histogram};
use prefabric::stats::{DefinitionStats, MapTypeStats, Seen, Stats, describe};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The page's style: plain tables, and the colours the plots draw with.
const STYLE: &str = "
body { font: 14px/1.45 system-ui, sans-serif; color: #222; max-width: 1000px; margin: 0 auto; padding: 12px 24px 48px; }
h1 { font-size: 22px; }
h2 { font-size: 19px; margin-top: 48px; padding-bottom: 4px; border-bottom: 2px solid #bbb; }
h3 { font-size: 16px; margin: 28px 0 6px; }
code { font-family: ui-monospace, monospace; font-size: 13px; }
table { border-collapse: collapse; margin: 6px 0 10px; }
th, td { padding: 2px 10px; text-align: left; vertical-align: top; border-bottom: 1px solid #e3e3e3; }
th { background: #f2f2f2; font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.summary th { background: none; font-weight: 600; padding-left: 0; }
tr.never td { background: #fdecea; }
.never-text, td.bad { color: #b71c1c; font-weight: 600; }
.nowrap { white-space: nowrap; }
.small { font-size: 12px; color: #555; }
.error { white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: 12px; }
figure { margin: 8px 0 12px; }
figcaption { font-size: 13px; color: #444; max-width: 900px; }
details { margin: 6px 0; }
summary { cursor: pointer; }
dl.reasons dt { font-weight: 600; float: left; clear: left; width: 90px; }
dl.reasons dd { margin-left: 100px; }
svg { display: block; max-width: 100%; height: auto; }
svg text { font: 12px system-ui, sans-serif; fill: #222; }
svg text.title { font-weight: 600; }
svg text.tick { fill: #555; font-size: 11px; }
svg text.never { fill: #c62828; font-weight: 600; }
svg text.note { fill: #c62828; font-style: italic; font-size: 11px; }
svg .stripe { fill: #f6f6f6; }
svg .grid { stroke: #ddd; stroke-width: 1; }
svg .axis { stroke: #666; stroke-width: 1; }
svg .bar { fill: #6f9fd1; }
svg .whisker { stroke: #1d1d1d; stroke-width: 1.5; }
svg .expected { fill: #f29c1f; stroke: #6b3f00; stroke-width: 1; }
svg line.median { stroke: #2e7d32; stroke-width: 2; stroke-dasharray: 5 3; }
svg line.p99 { stroke: #c62828; stroke-width: 2; stroke-dasharray: 5 3; }
svg text.median { fill: #2e7d32; font-weight: 600; }
svg text.p99 { fill: #c62828; font-weight: 600; }
";

/// The report of `stats`, as a whole HTML document; `pack_flag` is the
/// `--pack` flag (or nothing) its example seeds' commands need.
pub(crate) fn report(stats: &Stats, pack_flag: &str) -> String {
    let pack = escape(&stats.pack);
    let mut page = String::new();
    let _ = write!(
        page,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>prefabric stats: pack {pack}</title>\n<style>{STYLE}{}</style>\n</head>\n<body>\n\
         <h1>prefabric stats: pack <code>{pack}</code></h1>\n",
        stats_depth_html::STYLE
    );
    overview(&mut page, stats);
    for (index, (name, m)) in stats.map_types.iter().enumerate() {
        map_type_section(&mut page, index, (&stats.pack, pack_flag), name, m);
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// One row per map type, linking to its section, with what needs a look.
fn overview(page: &mut String, stats: &Stats) {
    page.push_str(
        "<table>\n<tr><th>map type</th><th class=\"n\">maps</th><th class=\"n\">failed</th>\
         <th class=\"n\">median time</th><th class=\"n\">p99 time</th>\
         <th class=\"n\">encounters never placed</th><th class=\"n\">prefabs never placed</th></tr>\n",
    );
    for (index, (name, m)) in stats.map_types.iter().enumerate() {
        let never_encounters = m.encounters.values().filter(|e| e.placed == 0).count();
        let never_prefabs = m.prefabs.values().filter(|p| p.placed == 0).count();
        let flagged = |n: usize| format!("<td class=\"n{}\">{n}</td>", if n > 0 { " bad" } else { "" });
        let _ = writeln!(
            page,
            "<tr><td><a href=\"#map-type-{index}\"><code>{}</code></a></td><td class=\"n\">{}</td>{}\
             <td class=\"n\">{:.2} ms</td><td class=\"n\">{:.2} ms</td>{}{}</tr>",
            escape(name),
            m.maps,
            flagged(m.failed as usize),
            m.time.median_ms,
            m.time.p99_ms,
            flagged(never_encounters),
            flagged(never_prefabs)
        );
    }
    page.push_str("</table>\n");
}

fn map_type_section(page: &mut String, index: usize, (pack, pack_flag): (&str, &str), name: &str, m: &MapTypeStats) {
    let _ = writeln!(page, "<section id=\"map-type-{index}\">\n<h2>map type <code>{}</code></h2>", escape(name));
    summary(page, pack, name, m);
    failures(page, m);
    page.push_str("<h3>Encounters</h3>\n");
    if m.encounters.is_empty() {
        page.push_str("<p>This map type has no encounter pool.</p>\n");
    } else {
        encounter_chart(page, m);
        encounter_table(page, m);
    }
    page.push_str("<h3>Time per map</h3>\n");
    time_histogram(page, &m.time);
    variants_table(page, m);
    prefabs_table(page, m);
    stats_depth_html::depth_sections(page, m);
    definitions_tables(page, m);
    furnishing_tables(page, m);
    stats_examples_html::examples_table(page, pack_flag, name, m);
    page.push_str("</section>\n");
}

/// What was run and how it went, as a two-column table.
fn summary(page: &mut String, pack: &str, name: &str, m: &MapTypeStats) {
    let seeds: Vec<String> = m.seeds.iter().map(|[a, b]| format!("{a}..{b}")).collect();
    let depths: Vec<String> = m.depths.iter().map(u32::to_string).collect();
    let failed = if m.failed == 0 {
        "0".to_string()
    } else {
        let seeds: Vec<String> = m.failures.iter().map(|f| format!("{} (depth {})", f.seed, f.depth)).collect();
        let more = if m.failed as usize > m.failures.len() { ", …" } else { "" };
        format!("<span class=\"never-text\">{}</span>: seeds {}{more}", m.failed, seeds.join(", "))
    };
    let slowest = m
        .time
        .slowest
        .as_ref()
        .map_or(String::new(), |s| format!(", slowest {:.2} ms (seed {}, depth {})", s.ms, s.seed, s.depth));
    let rows = [
        ("pack", format!("<code>{}</code>", escape(pack))),
        ("map type", format!("<code>{}</code>", escape(name))),
        ("seeds", seeds.join(", ")),
        ("depths", depths.join(", ")),
        ("maps generated", m.maps.to_string()),
        ("failed", failed),
        ("time per map", format!("median {:.2} ms, p99 {:.2} ms{slowest}", m.time.median_ms, m.time.p99_ms)),
    ];
    page.push_str("<table class=\"summary\">\n");
    for (key, value) in rows {
        let _ = writeln!(page, "<tr><th>{key}</th><td>{value}</td></tr>");
    }
    page.push_str("</table>\n");
}

/// The failures kept, with their errors.
fn failures(page: &mut String, m: &MapTypeStats) {
    if m.failures.is_empty() {
        return;
    }
    let kept = if m.failed as usize > m.failures.len() {
        format!(" (the {} with the smallest seeds)", m.failures.len())
    } else {
        String::new()
    };
    let _ = writeln!(page, "<h3>Failures{kept}</h3>");
    page.push_str("<table>\n<tr><th class=\"n\">seed</th><th class=\"n\">depth</th><th>error</th></tr>\n");
    for f in &m.failures {
        let _ = writeln!(
            page,
            "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"error\">{}</td></tr>",
            f.seed,
            f.depth,
            escape(&f.error)
        );
    }
    page.push_str("</table>\n");
}

/// Every encounter's figures, the never placed highlighted, with why each
/// was taken out without being placed.
fn encounter_table(page: &mut String, m: &MapTypeStats) {
    page.push_str(
        "<table>\n<tr><th>encounter</th><th>weight</th><th class=\"n\">in maps</th><th class=\"n\">95%</th>\
         <th class=\"n\">per map</th><th class=\"n\">of placed</th><th class=\"n\">weight share</th>\
         <th>taken out without placing: maps, first seed</th></tr>\n",
    );
    let mut reasons_seen = BTreeSet::new();
    for (id, e) in &m.encounters {
        let mut reasons: Vec<(&String, &Seen)> = e.not_placed.iter().collect();
        reasons.sort_by_key(|(r, s)| (std::cmp::Reverse(s.count), r.as_str()));
        let why: Vec<String> = reasons
            .iter()
            .map(|(r, s)| {
                reasons_seen.insert(r.as_str());
                format!("<span class=\"nowrap\">{} {} ({})</span>", escape(r), s.count, example(s))
            })
            .collect();
        let never = e.placed == 0;
        let why = match (never, why.is_empty()) {
            (true, true) => "<span class=\"never-text\">never placed, never drawn</span>".to_string(),
            (true, false) => format!("<span class=\"never-text\">never placed:</span> {}", why.join(", ")),
            _ => why.join(", "),
        };
        let [low, high] = e.map_share_95;
        let _ = writeln!(
            page,
            "<tr{}><td><code>{}</code></td><td class=\"nowrap\">{} ({})</td><td class=\"n\">{}</td><td class=\"n\">{:.1}–{:.1}%</td>\
             <td class=\"n\">{:.2}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{why}</td></tr>",
            if never { " class=\"never\"" } else { "" },
            escape(id),
            escape(&e.weight_word),
            e.weight,
            percent(e.map_share),
            100.0 * low,
            100.0 * high,
            e.mean_per_map,
            percent(e.placement_share),
            if e.eligible_at_any(&m.depths) { percent(e.weight_share) } else { "—".to_string() }
        );
    }
    page.push_str("</table>\n");
    if !reasons_seen.is_empty() {
        page.push_str("<dl class=\"reasons small\">\n");
        for reason in reasons_seen {
            let _ = writeln!(page, "<dt>{}</dt><dd>{}</dd>", escape(reason), describe(reason));
        }
        page.push_str("</dl>\n");
    }
}

/// Feature variants: chosen against their weights.
fn variants_table(page: &mut String, m: &MapTypeStats) {
    if m.variants.is_empty() {
        return;
    }
    page.push_str(
        "<h3>Feature variants</h3>\n<table>\n<tr><th>variant</th><th class=\"n\">weight</th>\
         <th class=\"n\">weight share</th><th class=\"n\">chosen</th><th class=\"n\">of maps</th>\
         <th>prefabs</th></tr>\n",
    );
    for (name, v) in &m.variants {
        let prefabs: Vec<String> = v.prefabs.iter().map(|p| escape(p)).collect();
        let _ = writeln!(
            page,
            "<tr{}><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"small\">{}</td></tr>",
            if v.chosen == 0 { " class=\"never\"" } else { "" },
            escape(name),
            v.weight,
            percent(v.weight_share),
            v.chosen,
            percent(v.share),
            prefabs.join(", ")
        );
    }
    page.push_str("</table>\n");
}

/// Prefabs: placements and orientations; those never placed highlighted,
/// with why.
fn prefabs_table(page: &mut String, m: &MapTypeStats) {
    if m.prefabs.is_empty() {
        return;
    }
    page.push_str(
        "<h3>Prefabs</h3>\n<table>\n<tr><th>prefab</th><th>used by</th><th class=\"n\">placed</th>\
         <th class=\"n\">in maps</th><th>orientations, or why never placed</th></tr>\n",
    );
    for (name, p) in &m.prefabs {
        let used_by: Vec<String> = p.used_by.iter().map(|u| escape(u)).collect();
        let detail = match &p.unused {
            Some(u) => {
                let seed = u.example_seed.map_or(String::new(), |s| format!(" (e.g. seed {s})"));
                format!("<span class=\"never-text\">never placed:</span> {}{seed}", escape(&u.reason))
            }
            None => {
                let turns: Vec<String> = p.transforms.iter().map(|(t, n)| format!("{} {n}", escape(t))).collect();
                let skipped: Vec<String> = p
                    .skipped
                    .iter()
                    .map(|(r, s)| format!("<br>skipped {}: {} ({})", s.count, escape(r), example(s)))
                    .collect();
                format!("<span class=\"small\">{}</span>{}", turns.join(" · "), skipped.concat())
            }
        };
        let _ = writeln!(
            page,
            "<tr{}><td><code>{}</code></td><td class=\"small\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td>{detail}</td></tr>",
            if p.placed == 0 { " class=\"never\"" } else { "" },
            escape(name),
            used_by.join(", "),
            p.placed,
            percent(share(p.maps, m.maps))
        );
    }
    page.push_str("</table>\n");
}

/// Definition files: the objects each line and each alternative gave. A file
/// with a line or alternative that gave nothing is shown open, the others
/// folded.
fn definitions_tables(page: &mut String, m: &MapTypeStats) {
    if m.definitions.is_empty() {
        return;
    }
    page.push_str("<h3>Definition lines</h3>\n");
    for (name, d) in &m.definitions {
        definition_table(page, name, d);
    }
}

fn definition_table(page: &mut String, name: &str, d: &DefinitionStats) {
    let dead_alternative = |l: &prefabric::stats::DefinitionLineStats| {
        l.objects > 0 && l.alternatives.len() > 1 && l.alternatives.iter().any(|a| a.objects == 0)
    };
    let dead_lines = d.lines.iter().filter(|l| l.unused.is_some()).count();
    let dead_alternatives = d.lines.iter().filter(|l| dead_alternative(l)).count();
    let note = if d.placements == 0 {
        ", no prefab drawing on it was placed".to_string()
    } else {
        let mut note = String::new();
        if dead_lines > 0 {
            let _ = write!(note, ", <span class=\"never-text\">{dead_lines} gave no object</span>");
        }
        if dead_alternatives > 0 {
            let _ = write!(
                note,
                ", <span class=\"never-text\">{dead_alternatives} with an alternative never picked</span>"
            );
        }
        note
    };
    let open = if d.placements > 0 && dead_lines + dead_alternatives > 0 { " open" } else { "" };
    let _ = writeln!(
        page,
        "<details{open}>\n<summary><code>{}</code> <span class=\"small\">{}</span>: {}, {}{note}</summary>",
        escape(name),
        escape(&d.file),
        counted(d.placements, "placement"),
        counted(d.lines.len() as u64, "line")
    );
    page.push_str(
        "<table>\n<tr><th class=\"n\">line</th><th>char</th><th>group</th><th class=\"n\">chance</th>\
         <th class=\"n\">objects</th><th>alternatives: objects</th></tr>\n",
    );
    for line in &d.lines {
        let alternatives: Vec<String> = line
            .alternatives
            .iter()
            .map(|a| {
                let class = if a.objects == 0 && line.objects > 0 { " class=\"never-text\"" } else { "" };
                format!("<span{class}><code>{}</code> {}</span>", escape(&a.written), a.objects)
            })
            .collect();
        let mut cell = alternatives.join(" · ");
        if let Some(u) = &line.unused {
            let _ = write!(cell, "<br><span class=\"never-text\">no object:</span> {}", escape(&u.reason));
        }
        let _ = writeln!(
            page,
            "<tr{}><td class=\"n\">{}</td><td><code>{}</code></td><td>{}</td><td class=\"n\">{}%</td>\
             <td class=\"n\">{}</td><td>{cell}</td></tr>",
            if line.unused.is_some() && d.placements > 0 { " class=\"never\"" } else { "" },
            line.line,
            escape(&line.glyph.to_string()),
            line.group.as_deref().map_or(String::new(), |g| format!("<code>@{}</code>", escape(g))),
            line.chance,
            line.objects
        );
    }
    page.push_str("</table>\n</details>\n");
}

/// Furnishing: areas and objects by composition, and the limits hit.
fn furnishing_tables(page: &mut String, m: &MapTypeStats) {
    let f = &m.furnishing;
    if f.compositions.is_empty() && f.limits_hit.is_empty() {
        return;
    }
    page.push_str("<h3>Furnishing</h3>\n");
    if !f.compositions.is_empty() {
        let areas: u64 = f.compositions.values().map(|c| c.areas).sum();
        page.push_str(
            "<table>\n<tr><th>composition</th><th class=\"n\">areas</th><th class=\"n\">of areas</th>\
             <th class=\"n\">objects</th><th class=\"n\">objects per map</th></tr>\n",
        );
        for (name, c) in &f.compositions {
            let _ = writeln!(
                page,
                "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{:.1}</td></tr>",
                escape(name),
                c.areas,
                percent(share(c.areas, areas)),
                c.objects,
                c.objects_per_map
            );
        }
        page.push_str("</table>\n");
    }
    if !f.limits_hit.is_empty() {
        page.push_str(
            "<table>\n<tr><th>limit reached</th><th class=\"n\">maps</th><th class=\"n\">of maps</th>\
             <th>first seed</th></tr>\n",
        );
        for (limit, seen) in &f.limits_hit {
            let _ = writeln!(
                page,
                "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                escape(limit),
                seen.count,
                percent(share(seen.count, m.maps)),
                example(seen)
            );
        }
        page.push_str("</table>\n");
    }
}

/// `n` and `word`, plural but for 1: `1 placement`, `3 lines`.
fn counted(n: u64, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

fn share(k: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { k as f64 / n as f64 }
}

fn example(seen: &Seen) -> String {
    format!("seed {} depth {}", seen.example_seed, seen.example_depth)
}

#[cfg(test)]
mod tests;
