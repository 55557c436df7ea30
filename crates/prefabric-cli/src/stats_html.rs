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

use crate::{stats_depth_html, stats_examples_html};
use prefabric::stats::{DefinitionStats, EncounterStats, MapTypeStats, Seen, Stats, TimeStats, describe};
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

/// Row height and the space above the rows of the encounter chart.
const ENCOUNTER_ROW: f64 = 20.0;
const ENCOUNTER_TOP: f64 = 62.0;
/// Width of the plots, in SVG pixels.
const PLOT_WIDTH: f64 = 960.0;
/// A rough width of one character of the plots' 12px text, to lay out labels.
const CHAR_WIDTH: f64 = 6.6;
/// The same for the encounter names, which may be bold, and the room left
/// of them.
const LABEL_CHAR_WIDTH: f64 = 7.6;
const LABEL_PADDING: f64 = 24.0;

/// Two panels with a row per encounter: on the left its share of all the
/// encounters placed against its weight share (the same quantity, as
/// expected from the weights alone); on the right the share of maps it was
/// placed in, with its 95% interval. The weights say nothing of the share of
/// maps, so that panel has no expected mark.
fn encounter_chart(page: &mut String, m: &MapTypeStats) {
    let longest = m.encounters.keys().map(|k| k.chars().count()).max().unwrap_or(0);
    let label_width = (longest as f64 * LABEL_CHAR_WIDTH + LABEL_PADDING).clamp(120.0, 280.0);
    let (gap, right_margin) = (40.0, 20.0);
    let panel = (PLOT_WIDTH - label_width - gap - right_margin) / 2.0;
    let most = m.encounters.values().map(|e| e.placement_share.max(e.weight_share)).fold(0.0, f64::max);
    let placed_axis = ShareAxis::fitting(label_width, panel, most);
    let maps_axis = ShareAxis { x0: label_width + panel + gap, width: panel, max: 1.0, step: 0.25 };
    let bottom = ENCOUNTER_TOP + m.encounters.len() as f64 * ENCOUNTER_ROW;
    let mut svg = Svg::new(PLOT_WIDTH, bottom + 46.0, "encounter rates against the rates their weights give");
    encounter_legend(&mut svg, label_width);
    svg.text(placed_axis.x0, ENCOUNTER_TOP - 10.0, "start", "title", "share of all encounters placed");
    svg.text(maps_axis.x0, ENCOUNTER_TOP - 10.0, "start", "title", "share of maps it was placed in");
    for (i, _) in m.encounters.iter().enumerate().filter(|(i, _)| i % 2 == 1) {
        let y = ENCOUNTER_TOP + i as f64 * ENCOUNTER_ROW;
        svg.rect(0.0, y, PLOT_WIDTH, ENCOUNTER_ROW, "stripe");
    }
    placed_axis.draw(&mut svg, ENCOUNTER_TOP, bottom, "% of the encounters placed in these maps");
    maps_axis.draw(&mut svg, ENCOUNTER_TOP, bottom, "% of maps (95% interval)");
    let max_chars = ((label_width - LABEL_PADDING) / LABEL_CHAR_WIDTH).floor() as usize;
    for (i, (id, e)) in m.encounters.iter().enumerate() {
        let middle = ENCOUNTER_TOP + (i as f64 + 0.5) * ENCOUNTER_ROW;
        let eligible = e.eligible_at_any(&m.depths);
        encounter_row(&mut svg, id, e, middle, (&placed_axis, &maps_axis), (label_width, max_chars), eligible);
    }
    page.push_str("<figure>\n");
    page.push_str(&svg.finish());
    page.push_str(
        "<figcaption>Left: each encounter's share of all the encounters placed in these maps (bar) against its \
         <em>weight share</em> (◆), its share of the draws when no limit, group or failed fit takes encounters \
         out — a bar well short of its ◆ is being crowded out, one beyond it gains from others taken out. \
         Right: the share of maps it was placed in at least once (bar), with its 95% Wilson interval (whisker); \
         the weights alone do not predict this share, so it has no ◆. Names in red were never placed: the table \
         below says why.</figcaption>\n</figure>\n",
    );
}

/// The key to the encounter chart's marks, along its top.
fn encounter_legend(svg: &mut Svg, x0: f64) {
    let y = 16.0;
    let mut x = x0;
    svg.rect(x, y - 9.0, 16.0, 11.0, "bar");
    x += 22.0;
    x = svg.text(x, y, "start", "", "observed share") + 22.0;
    svg.line((x, y - 3.5), (x + 18.0, y - 3.5), "whisker");
    svg.line((x, y - 8.0), (x, y + 1.0), "whisker");
    svg.line((x + 18.0, y - 8.0), (x + 18.0, y + 1.0), "whisker");
    x += 24.0;
    x = svg.text(x, y, "start", "", "95% interval (maps)") + 22.0;
    svg.diamond(x + 6.0, y - 3.5, 5.5, "expected");
    x += 16.0;
    x = svg.text(x, y, "start", "", "expected: weight share") + 22.0;
    svg.text(x, y, "start", "never", "red name: never placed");
}

/// One encounter's label and marks, centred on `middle`.
fn encounter_row(
    svg: &mut Svg,
    id: &str,
    e: &EncounterStats,
    middle: f64,
    (placed_axis, maps_axis): (&ShareAxis, &ShareAxis),
    (label_width, max_chars): (f64, usize),
    eligible: bool,
) {
    let [low, high] = e.map_share_95;
    let expected =
        if eligible { percent(e.weight_share) } else { "none: it cannot appear at these depths".to_string() };
    svg.begin_group(&format!(
        "{id} (weight {} = {}): {} of the encounters placed, weight share {expected}; in {} of maps (95%: {}–{}), {:.2} per map",
        e.weight_word,
        e.weight,
        percent(e.placement_share),
        percent(e.map_share),
        percent(low),
        percent(high),
        e.mean_per_map
    ));
    let never = e.placed == 0;
    svg.text(label_width - 10.0, middle + 4.0, "end", if never { "never" } else { "" }, &shortened(id, max_chars));
    let bar = 12.0;
    let x0 = placed_axis.x0;
    svg.rect(x0, middle - bar / 2.0, placed_axis.x(e.placement_share) - x0, bar, "bar");
    // No promise to draw where it cannot appear: a weight share there would
    // say it is crowded out.
    if eligible {
        svg.diamond(placed_axis.x(e.weight_share), middle, 5.5, "expected");
    } else {
        svg.text(placed_axis.x(e.placement_share) + 8.0, middle + 4.0, "start", "note", "not at these depths");
    }
    let x0 = maps_axis.x0;
    svg.rect(x0, middle - bar / 2.0, maps_axis.x(e.map_share) - x0, bar, "bar");
    let (xl, xh) = (maps_axis.x(low), maps_axis.x(high));
    svg.line((xl, middle), (xh, middle), "whisker");
    svg.line((xl, middle - 4.0), (xl, middle + 4.0), "whisker");
    svg.line((xh, middle - 4.0), (xh, middle + 4.0), "whisker");
    if never {
        svg.text(xh + 8.0, middle + 4.0, "start", "note", "never placed");
    }
    svg.end_group();
}

/// A linear axis of shares from 0 to `max`, drawn across `width` from `x0`.
struct ShareAxis {
    x0: f64,
    width: f64,
    max: f64,
    step: f64,
}

impl ShareAxis {
    /// An axis from 0 to a round share at or above `most`, with at most 5 steps.
    fn fitting(x0: f64, width: f64, most: f64) -> ShareAxis {
        const STEPS: [f64; 8] = [0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5];
        let most = most.clamp(1e-9, 1.0);
        let step = STEPS.into_iter().find(|s| (most / s - 1e-9).ceil() <= 5.0).unwrap_or(0.25);
        let steps = (most / step - 1e-9).ceil().max(1.0);
        ShareAxis { x0, width, max: (steps * step).min(1.0), step }
    }

    fn x(&self, share: f64) -> f64 {
        self.x0 + share.clamp(0.0, self.max) / self.max * self.width
    }

    /// Grid lines from `top` to `bottom`, tick labels and `title` below.
    fn draw(&self, svg: &mut Svg, top: f64, bottom: f64, title: &str) {
        let ticks = (self.max / self.step).round() as u32;
        for k in 0..=ticks {
            let share = f64::from(k) * self.step;
            let x = self.x(share);
            svg.line((x, top), (x, bottom), if k == 0 { "axis" } else { "grid" });
            svg.text(x, bottom + 14.0, "middle", "tick", &tick_percent(share));
        }
        svg.line((self.x0, bottom), (self.x0 + self.width, bottom), "axis");
        svg.text(self.x0 + self.width / 2.0, bottom + 32.0, "middle", "", title);
    }
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

/// Margins of the time histogram's plot area.
const TIME_LEFT: f64 = 60.0;
const TIME_TOP: f64 = 40.0;
const TIME_PLOT_HEIGHT: f64 = 180.0;

/// Maps by time bucket on a log-time axis, with the median and the 99th
/// percentile marked.
fn time_histogram(page: &mut String, time: &TimeStats) {
    let (Some((&first, _)), Some((&last, _))) = (time.buckets.first_key_value(), time.buckets.last_key_value()) else {
        page.push_str("<p>No map was timed.</p>\n");
        return;
    };
    let axis = LogAxis::around(bucket_start(first), bucket_start(last + 1), TIME_LEFT, PLOT_WIDTH - TIME_LEFT - 20.0);
    let bottom = TIME_TOP + TIME_PLOT_HEIGHT;
    let most = time.buckets.values().copied().max().unwrap_or(1);
    let step = count_step(most);
    let count_max = most.div_ceil(step) * step;
    let y = |n: u64| bottom - n as f64 / count_max as f64 * TIME_PLOT_HEIGHT;
    let mut svg = Svg::new(PLOT_WIDTH, bottom + 46.0, "maps by generation time");
    for k in 0..=count_max / step {
        let n = k * step;
        svg.line((TIME_LEFT, y(n)), (axis.x0 + axis.width, y(n)), if n == 0 { "axis" } else { "grid" });
        svg.text(TIME_LEFT - 6.0, y(n) + 4.0, "end", "tick", &n.to_string());
    }
    svg.vertical_text(16.0, TIME_TOP + TIME_PLOT_HEIGHT / 2.0, "maps");
    for tick in time_ticks(axis.low, axis.high) {
        let x = axis.x(tick);
        svg.line((x, bottom), (x, bottom + 4.0), "axis");
        svg.text(x, bottom + 16.0, "middle", "tick", &time_label(tick));
    }
    svg.line((TIME_LEFT, TIME_TOP), (TIME_LEFT, bottom), "axis");
    svg.text(axis.x0 + axis.width / 2.0, bottom + 36.0, "middle", "", "time per map (log scale)");
    for (&b, &n) in &time.buckets {
        let (from, to) = (bucket_start(b), bucket_start(b + 1));
        svg.begin_group(&format!("{n} maps from {} to {}", time_label(from), time_label(to)));
        let (x0, x1) = (axis.x(from), axis.x(to));
        svg.rect(x0, y(n), (x1 - x0 - 0.5).max(0.8), bottom - y(n), "bar");
        svg.end_group();
    }
    quantile_line(&mut svg, &axis, time.median_ms, "median", TIME_TOP - 22.0);
    quantile_line(&mut svg, &axis, time.p99_ms, "p99", TIME_TOP - 6.0);
    page.push_str("<figure>\n");
    page.push_str(&svg.finish());
    page.push_str(
        "<figcaption>Maps by generation time, retries included, in 5% buckets on a log scale; dashed lines: the \
         median and the 99th percentile, each to its bucket's 5%. Times differ from run to run and from machine \
         to machine.</figcaption>\n</figure>\n",
    );
}

/// A dashed vertical line at `ms`, labelled at `label_y` with its name and time.
fn quantile_line(svg: &mut Svg, axis: &LogAxis, ms: f64, name: &str, label_y: f64) {
    if ms <= 0.0 {
        return;
    }
    let x = axis.x(ms * 1e6);
    svg.line((x, label_y + 4.0), (x, TIME_TOP + TIME_PLOT_HEIGHT), name);
    let label = format!("{name} {:.2} ms", ms);
    let fits_right = x + 4.0 + label.chars().count() as f64 * CHAR_WIDTH < PLOT_WIDTH;
    if fits_right {
        svg.text(x + 4.0, label_y, "start", name, &label);
    } else {
        svg.text(x - 4.0, label_y, "end", name, &label);
    }
}

/// The time in nanoseconds where time bucket `b` starts.
fn bucket_start(b: u32) -> f64 {
    1.05f64.powi(b as i32)
}

/// A logarithmic axis of times in nanoseconds from `low` to `high`, drawn
/// across `width` from `x0`.
struct LogAxis {
    x0: f64,
    width: f64,
    low: f64,
    high: f64,
}

impl LogAxis {
    /// An axis holding `from`..`to` with a bucket to spare each side, spanning
    /// at least a factor of 2 so it has ticks to label.
    fn around(from: f64, to: f64, x0: f64, width: f64) -> LogAxis {
        let (mut low, mut high) = (from / 1.05, to * 1.05);
        if high / low < 2.0 {
            let centre = (low * high).sqrt();
            (low, high) = (centre / 2f64.sqrt(), centre * 2f64.sqrt());
        }
        LogAxis { x0, width, low, high }
    }

    fn x(&self, ns: f64) -> f64 {
        self.x0 + (ns / self.low).ln() / (self.high / self.low).ln() * self.width
    }
}

/// Round times between `low` and `high` to label a log axis: the coarsest
/// set of mantissas per decade that gives at least 4.
fn time_ticks(low: f64, high: f64) -> Vec<f64> {
    const MANTISSAS: [&[f64]; 4] = [
        &[1.0],
        &[1.0, 2.0, 5.0],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
        &[1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    ];
    let decades = low.log10().floor() as i32..=high.log10().ceil() as i32;
    let mut ticks = Vec::new();
    for mantissas in MANTISSAS {
        ticks = decades
            .clone()
            .flat_map(|e| mantissas.iter().map(move |m| m * 10f64.powi(e)))
            .filter(|t| (low..=high).contains(t))
            .collect();
        if ticks.len() >= 4 {
            break;
        }
    }
    ticks
}

/// A time in nanoseconds in the unit that reads best: `250 µs`, `1.5 ms`.
fn time_label(ns: f64) -> String {
    let (value, unit) = match ns {
        ns if ns >= 0.9995e9 => (ns / 1e9, "s"),
        ns if ns >= 0.9995e6 => (ns / 1e6, "ms"),
        ns if ns >= 0.9995e3 => (ns / 1e3, "µs"),
        ns => (ns, "ns"),
    };
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    let text = format!("{value:.digits$}");
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    format!("{text} {unit}")
}

/// A step of 1, 2 or 5 times a power of ten that divides 0..`most` into at
/// most 5 steps.
fn count_step(most: u64) -> u64 {
    let mut base = 1u64;
    loop {
        for m in [1, 2, 5] {
            let step = base.saturating_mul(m);
            if most.div_ceil(step) <= 5 {
                return step;
            }
        }
        base = base.saturating_mul(10);
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

/// An SVG picture built up element by element, its coordinates written to
/// 0.1 px so the same figures give the same text.
struct Svg {
    text: String,
}

impl Svg {
    fn new(width: f64, height: f64, label: &str) -> Svg {
        Svg {
            text: format!(
                "<svg viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" height=\"{height:.0}\" \
                 role=\"img\" aria-label=\"{}\">\n",
                escape(label)
            ),
        }
    }

    fn rect(&mut self, x: f64, y: f64, width: f64, height: f64, class: &str) {
        let _ = writeln!(
            self.text,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" class=\"{class}\"/>",
            width.max(0.0),
            height.max(0.0)
        );
    }

    fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), class: &str) {
        let _ = writeln!(
            self.text,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" class=\"{class}\"/>"
        );
    }

    /// A diamond of half-diagonal `r` centred on (`x`, `y`).
    fn diamond(&mut self, x: f64, y: f64, r: f64, class: &str) {
        let _ = writeln!(
            self.text,
            "<polygon points=\"{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}\" class=\"{class}\"/>",
            y - r,
            x + r,
            y + r,
            x - r
        );
    }

    /// Text anchored (`start`, `middle`, `end`) at (`x`, `y`); returns
    /// roughly where text anchored at the start ends.
    fn text(&mut self, x: f64, y: f64, anchor: &str, class: &str, content: &str) -> f64 {
        let _ = writeln!(
            self.text,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\" class=\"{class}\">{}</text>",
            escape(content)
        );
        x + content.chars().count() as f64 * CHAR_WIDTH
    }

    /// Text centred on (`x`, `y`), read bottom to top.
    fn vertical_text(&mut self, x: f64, y: f64, content: &str) {
        let _ = writeln!(
            self.text,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 {x:.1} {y:.1})\">{}</text>",
            escape(content)
        );
    }

    /// Starts a group of elements with a tooltip.
    fn begin_group(&mut self, title: &str) {
        let _ = writeln!(self.text, "<g><title>{}</title>", escape(title));
    }

    fn end_group(&mut self) {
        self.text.push_str("</g>\n");
    }

    fn finish(mut self) -> String {
        self.text.push_str("</svg>\n");
        self.text
    }
}

/// `text` safe inside HTML (and inline SVG) text and quoted attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `name`, cut to `max` characters with an ellipsis when longer.
fn shortened(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return name.to_string();
    }
    let mut cut: String = name.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `n` and `word`, plural but for 1: `1 placement`, `3 lines`.
fn counted(n: u64, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

fn share(k: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { k as f64 / n as f64 }
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A share as an axis label: `5%`, `2.5%`.
fn tick_percent(x: f64) -> String {
    let text = format!("{:.1}", 100.0 * x);
    format!("{}%", text.strip_suffix(".0").unwrap_or(&text))
}

fn example(seen: &Seen) -> String {
    format!("seed {} depth {}", seen.example_seed, seen.example_depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prefabric::stats::{EncounterStats, MapTypeStats};

    #[test]
    fn escape_leaves_no_markup() {
        assert_eq!(
            escape("<script>alert('x') & \"y\"</script>"),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"
        );
        assert_eq!(escape("plain µ name"), "plain µ name");
    }

    #[test]
    fn names_from_the_pack_are_escaped_everywhere() {
        let mut m = MapTypeStats { maps: 4, ..MapTypeStats::default() };
        m.encounters.insert("<img src=x>".into(), EncounterStats { weight_word: "<b>".into(), ..Default::default() });
        m.time.buckets.insert(280, 4);
        let mut stats = Stats { format: 1, pack: "<script>alert(1)</script>".into(), ..Stats::default() };
        stats.map_types.insert("\"><svg onload=x>".into(), m);
        stats.finish();
        let page = report(&stats, "");
        assert!(!page.contains("<script") && !page.contains("<img") && !page.contains("<b>"), "{page}");
        assert!(!page.contains("\"><svg onload"));
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("&lt;img src=x&gt;"));
        assert_eq!(page, report(&stats, ""), "the same statistics give the same page");
    }

    #[test]
    fn time_axes_get_round_ticks_in_readable_units() {
        assert_eq!(time_label(250_000.0), "250 µs");
        assert_eq!(time_label(1_500_000.0), "1.5 ms");
        assert_eq!(time_label(1e6), "1 ms");
        assert_eq!(time_label(12_000_000.0), "12 ms");
        assert_eq!(time_label(2.5e9), "2.5 s");
        // A narrow range still gets four or more ticks, all inside it.
        let axis = LogAxis::around(bucket_start(270), bucket_start(272), 0.0, 100.0);
        let ticks = time_ticks(axis.low, axis.high);
        assert!(ticks.len() >= 4, "{ticks:?}");
        assert!(ticks.iter().all(|t| (axis.low..=axis.high).contains(t)));
        // A wide one, few: one per decade.
        assert_eq!(time_ticks(1e3, 1e9), vec![1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]);
    }

    #[test]
    fn share_axes_end_on_a_round_share() {
        let axis = ShareAxis::fitting(0.0, 100.0, 0.2174);
        assert_eq!((axis.max, axis.step), (0.25, 0.05));
        assert_eq!(ShareAxis::fitting(0.0, 100.0, 0.9).max, 1.0);
        assert_eq!(ShareAxis::fitting(0.0, 100.0, 0.0).max, 0.01);
        assert_eq!(count_step(7), 2);
        assert_eq!(count_step(5), 1);
        assert_eq!(count_step(480), 100);
        assert_eq!(tick_percent(0.025), "2.5%");
        assert_eq!(tick_percent(0.25), "25%");
    }
}
