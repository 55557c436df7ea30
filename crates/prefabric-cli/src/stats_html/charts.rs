//! The plots of the statistics page, drawn as inline SVG: the encounter
//! chart (each encounter's share of placements against its weight share, and
//! its share of maps with a 95% interval) and the histogram of time per map
//! on a log-time axis.
//!
//! In: one map type's finished [`MapTypeStats`]. Out: a `<figure>` of SVG
//! and its caption, appended to the page. Guarantees: coordinates are
//! written to 0.1 px and every text is HTML-escaped, so the same figures give
//! the same bytes and no name from the pack becomes markup.

use crate::html_page::{escape, percent};
use prefabric::stats::{EncounterStats, MapTypeStats, TimeStats};
use std::fmt::Write as _;

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
pub(super) fn encounter_chart(page: &mut String, m: &MapTypeStats) {
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
pub(super) struct ShareAxis {
    x0: f64,
    width: f64,
    pub(super) max: f64,
    pub(super) step: f64,
}

impl ShareAxis {
    /// An axis from 0 to a round share at or above `most`, with at most 5 steps.
    pub(super) fn fitting(x0: f64, width: f64, most: f64) -> ShareAxis {
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

/// Margins of the time histogram's plot area.
const TIME_LEFT: f64 = 60.0;
const TIME_TOP: f64 = 40.0;
const TIME_PLOT_HEIGHT: f64 = 180.0;

/// Maps by time bucket on a log-time axis, with the median and the 99th
/// percentile marked.
pub(super) fn time_histogram(page: &mut String, time: &TimeStats) {
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
pub(super) fn bucket_start(b: u32) -> f64 {
    1.05f64.powi(b as i32)
}

/// A logarithmic axis of times in nanoseconds from `low` to `high`, drawn
/// across `width` from `x0`.
pub(super) struct LogAxis {
    x0: f64,
    width: f64,
    pub(super) low: f64,
    pub(super) high: f64,
}

impl LogAxis {
    /// An axis holding `from`..`to` with a bucket to spare each side, spanning
    /// at least a factor of 2 so it has ticks to label.
    pub(super) fn around(from: f64, to: f64, x0: f64, width: f64) -> LogAxis {
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
pub(super) fn time_ticks(low: f64, high: f64) -> Vec<f64> {
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
pub(super) fn time_label(ns: f64) -> String {
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
pub(super) fn count_step(most: u64) -> u64 {
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

/// `name`, cut to `max` characters with an ellipsis when longer.
fn shortened(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return name.to_string();
    }
    let mut cut: String = name.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A share as an axis label: `5%`, `2.5%`.
pub(super) fn tick_percent(x: f64) -> String {
    let text = format!("{:.1}", 100.0 * x);
    format!("{}%", text.strip_suffix(".0").unwrap_or(&text))
}
