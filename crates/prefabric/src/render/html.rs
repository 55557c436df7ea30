//! Maps as one self-contained HTML file: the viewer.
//!
//! In: a map, the pack that made it and [`HtmlOptions`]. Out: an HTML page that
//! needs no network and no other file — the map's JSON (docs/json-schema.md's schema, with
//! its trace) inside a `<script type="application/json">` element, the viewer's
//! style sheet and its small dependency-free script (`viewer/viewer.js`), which
//! draws the map on a canvas with zoom and pan, layers to toggle, what a cell
//! holds on hover and click, a timeline of the trace, a colour key, a search
//! box, and — as [`HtmlOptions`] asks — commands for the neighbouring seeds,
//! links to other pages and `file:line` links an editor opens. Every `<` of the
//! embedded JSON is written `\u003c`, so no text of a pack can end the script
//! element early. The same map and options always give the same bytes.

use super::json::json_with_trace;
use crate::content::Pack;
use crate::map::Map;
use serde::Serialize;

/// How the viewer page is made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HtmlOptions {
    /// The command that makes this map again, shown with a copy button.
    pub command: Option<String>,
    /// Watch mode: the page polls this script file (a name relative to the page)
    /// once a second and reloads itself, keeping its view, when the file calls
    /// `prefabricStamp` with another stamp than [`HtmlOptions::stamp`].
    pub reload_from: Option<String>,
    /// This page's stamp, compared with the one `reload_from` reports.
    pub stamp: String,
    /// Problems to show above the map (watch mode: what `check` found).
    pub problems: Vec<String>,
    /// Commands shown with a copy button below the header: those that make
    /// the pages of the previous and next seeds.
    pub neighbours: Vec<PageCommand>,
    /// Links to other pages, shown in the header (a world's index and levels).
    pub links: Vec<PageLink>,
    /// A URL template that makes each `file:line` a link an editor opens:
    /// `{path}` stands for the file's path, `{line}` for its line
    /// (`vscode://file/{path}:{line}`). Without one, `file:line` is text.
    pub editor_url: Option<String>,
    /// The folder the pack's relative file paths start from, made absolute
    /// for the editor's links (the folder the page was made in).
    pub editor_base: Option<String>,
}

/// A command the page shows with a copy button.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PageCommand {
    /// The element's id (`seed-prev`, `seed-next`).
    pub id: String,
    /// What it makes, in words.
    pub label: String,
    /// The command line.
    pub command: String,
}

/// A link to another page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PageLink {
    /// The link's text.
    pub text: String,
    /// Where it goes, relative to the page.
    pub href: String,
}

#[derive(Serialize)]
struct Config<'a> {
    command: Option<&'a str>,
    reload_from: Option<&'a str>,
    stamp: &'a str,
    problems: &'a [String],
    neighbours: &'a [PageCommand],
    links: &'a [PageLink],
    editor_url: Option<&'a str>,
    editor_base: Option<&'a str>,
}

const SCRIPT: &str = include_str!("viewer/viewer.js");
const STYLE: &str = include_str!("viewer/viewer.css");

/// The viewer page of `map`.
pub fn map_html(map: &Map, pack: &Pack, options: &HtmlOptions) -> String {
    let config = Config {
        command: options.command.as_deref(),
        reload_from: options.reload_from.as_deref(),
        stamp: &options.stamp,
        problems: &options.problems,
        neighbours: &options.neighbours,
        links: &options.links,
        editor_url: options.editor_url.as_deref(),
        editor_base: options.editor_base.as_deref(),
    };
    // Serialising plain structs of strings cannot fail.
    let config = serde_json::to_string(&config).unwrap_or_default();
    let title = format!("prefabric: {} seed {} depth {}", map.map_type(), map.seed(), map.depth());
    let mut page = String::with_capacity(SCRIPT.len() + STYLE.len() + 64 * 1024);
    page.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    page.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    page.push_str(&format!("<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n", escape_text(&title)));
    page.push_str(BODY);
    page.push_str("<script type=\"application/json\" id=\"prefabric-map\">");
    page.push_str(&script_safe(json_with_trace(map, pack).trim_end()));
    page.push_str("</script>\n<script type=\"application/json\" id=\"prefabric-config\">");
    page.push_str(&script_safe(&config));
    page.push_str(&format!("</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"));
    page
}

/// The page's elements; the script fills them in.
const BODY: &str = r#"<body>
<header>
  <h1 id="title">prefabric</h1>
  <span id="facts"></span>
  <nav id="links"></nav>
  <span id="command-box"><code id="command"></code><button id="copy" type="button" title="Copy the command">copy</button></span>
</header>
<div id="seed-steps" hidden></div>
<div id="problems" hidden></div>
<main>
  <div id="stage-wrap">
    <canvas id="map" tabindex="0" aria-label="the map"></canvas>
    <div id="zoom-buttons">
      <button id="zoom-in" type="button" title="Zoom in (+)">+</button>
      <button id="zoom-out" type="button" title="Zoom out (-)">&minus;</button>
      <button id="zoom-fit" type="button" title="Fit the map (0)">fit</button>
    </div>
  </div>
  <aside>
    <section id="find"><h2>Find</h2><input id="search" type="search" placeholder="prefab, encounter or object name" aria-label="find a prefab, encounter or object"><label><input id="search-only" type="checkbox"> darken the rest</label><div id="search-results"></div></section>
    <section id="layers"><h2>Layers</h2></section>
    <section><h2>Cell <small>(hover; click to pin)</small></h2><div id="info">Hover over the map.</div></section>
    <section id="timeline"><h2>Timeline</h2><div id="stages"></div><div id="events"></div></section>
  </aside>
</main>
"#;

/// Text for an HTML element's content.
fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// JSON that can stand inside a `<script>` element: `<` only appears inside JSON
/// strings, where `\u003c` means the same.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_json_cannot_close_its_script_element() {
        let safe = script_safe(r#"{"name":"</script><script>alert(1)</script>"}"#);
        assert!(!safe.contains('<'));
        let value: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(value["name"], "</script><script>alert(1)</script>");
    }

    #[test]
    fn titles_are_escaped() {
        assert_eq!(escape_text("a<b>&c"), "a&lt;b&gt;&amp;c");
    }
}
