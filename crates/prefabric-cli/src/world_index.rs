//! `world --format html`'s index page: one `index.html` beside the levels'
//! viewer pages, linking each of them.
//!
//! In: the run's command and, per level, its number, depth, seed, file name and
//! the encounters placed in it. Out: a small self-contained HTML page (no
//! script, no network) with a table of the levels, each row linking its page.
//! Every name from the pack is HTML-escaped; the same levels give the same bytes.

use crate::html_page::escape;
use std::fmt::Write as _;

/// One level of the world, as the index lists it.
pub(crate) struct IndexEntry {
    /// Its number, from 1.
    pub(crate) level: u32,
    pub(crate) depth: u32,
    pub(crate) seed: u64,
    /// Its page, relative to the index.
    pub(crate) file: String,
    /// The ids of the encounters placed in it, in placing order.
    pub(crate) encounters: Vec<String>,
}

/// The index page of `levels` of map type `map_type`, made by `command`.
pub(crate) fn index_page(map_type: &str, command: &str, levels: &[IndexEntry]) -> String {
    let mut page = String::new();
    let _ = write!(
        page,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>prefabric world: {map_type}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>prefabric world: {} levels of <code>{map_type}</code></h1>\n<p>Made by <code>{}</code></p>\n\
         <table id=\"levels\">\n<tr><th>level</th><th>depth</th><th>seed</th><th>encounters</th></tr>\n",
        levels.len(),
        escape(command),
        map_type = escape(map_type),
    );
    for l in levels {
        let encounters: Vec<String> = l.encounters.iter().map(|e| escape(e)).collect();
        let _ = writeln!(
            page,
            "<tr><td><a href=\"{}\">level {}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&l.file),
            l.level,
            l.depth,
            l.seed,
            if encounters.is_empty() { "none".to_string() } else { encounters.join(", ") }
        );
    }
    page.push_str("</table>\n</body>\n</html>\n");
    page
}

const STYLE: &str = "body { font: 14px/1.45 system-ui, sans-serif; color: #ddd; background: #141414; margin: 0 auto; \
max-width: 1000px; padding: 12px 24px; } a { color: #6cf; } code { font: 13px ui-monospace, monospace; } \
table { border-collapse: collapse; } th, td { padding: 2px 10px; text-align: left; border-bottom: 1px solid #333; }";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_links_every_level_and_escapes_names() {
        let level = |n: u32| IndexEntry {
            level: n,
            depth: n,
            seed: 40 + u64::from(n),
            file: format!("level-0{n}.html"),
            encounters: vec!["<b>".into()],
        };
        let page = index_page("<i>", "prefabric world", &[level(1), level(2)]);
        assert!(page.contains("<a href=\"level-01.html\">level 1</a>") && page.contains("<a href=\"level-02.html\">"));
        assert!(!page.contains("<b>") && !page.contains("<i>") && page.contains("&lt;b&gt;"));
    }
}
