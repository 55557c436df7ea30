//! The `stats --html` report's list of example seeds, each with the command
//! that writes its viewer page.
//!
//! In: one map type's finished [`MapTypeStats`], its name, and the `--pack`
//! flag that reaches its pack. Out: an HTML table of every example seed and
//! depth the statistics keep (why an encounter was taken out, a feature
//! placement skipped, a furnishing limit hit, a failure, the slowest map),
//! each once with what it shows, and `prefabric generate ... --format html
//! --out FILE` to copy. At most [`EXAMPLES_SHOWN`] rows, smallest seeds first.

use crate::html_page::escape;
use prefabric::stats::MapTypeStats;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The most example rows per map type.
pub(crate) const EXAMPLES_SHOWN: usize = 40;

/// The command that writes the viewer page of `map_type` at `seed` and `depth`.
pub(crate) fn viewer_command(pack_flag: &str, map_type: &str, seed: u64, depth: u32) -> String {
    format!(
        "prefabric generate{pack_flag} --map-type {map_type} --seed {seed} --depth {depth} --format html \
         --out {map_type}-{seed}-{depth}.html"
    )
}

/// Every example (seed, depth) of `m` with what it shows.
fn examples(m: &MapTypeStats) -> BTreeMap<(u64, u32), Vec<String>> {
    let mut found: BTreeMap<(u64, u32), Vec<String>> = BTreeMap::new();
    let mut add = |seed: u64, depth: u32, what: String| {
        let list = found.entry((seed, depth)).or_default();
        if !list.contains(&what) {
            list.push(what);
        }
    };
    for (id, e) in &m.encounters {
        for (reason, seen) in &e.not_placed {
            add(seen.example_seed, seen.example_depth, format!("encounter {id} taken out: {reason}"));
        }
    }
    for (name, p) in &m.prefabs {
        for (reason, seen) in &p.skipped {
            add(seen.example_seed, seen.example_depth, format!("prefab {name} skipped: {reason}"));
        }
    }
    for (limit, seen) in &m.furnishing.limits_hit {
        add(seen.example_seed, seen.example_depth, format!("furnishing limit {limit} reached"));
    }
    for f in &m.failures {
        add(f.seed, f.depth, "failed".to_string());
    }
    if let Some(s) = &m.time.slowest {
        add(s.seed, s.depth, "the slowest map".to_string());
    }
    found
}

/// The table of examples of map type `name`, if it has any.
pub(crate) fn examples_table(page: &mut String, pack_flag: &str, name: &str, m: &MapTypeStats) {
    let found = examples(m);
    if found.is_empty() {
        return;
    }
    page.push_str(
        "<h3>Example seeds</h3>\n<p class=\"small\">Each command writes that map's viewer page, to see it happen.</p>\n\
         <table class=\"examples\">\n<tr><th class=\"n\">seed</th><th class=\"n\">depth</th><th>shows</th>\
         <th>viewer page</th></tr>\n",
    );
    for ((seed, depth), what) in found.iter().take(EXAMPLES_SHOWN) {
        let what: Vec<String> = what.iter().map(|w| escape(w)).collect();
        let _ = writeln!(
            page,
            "<tr><td class=\"n\">{seed}</td><td class=\"n\">{depth}</td><td class=\"small\">{}</td>\
             <td><code class=\"command\">{}</code></td></tr>",
            what.join("<br>"),
            escape(&viewer_command(pack_flag, name, *seed, *depth))
        );
    }
    page.push_str("</table>\n");
    if found.len() > EXAMPLES_SHOWN {
        let _ = writeln!(
            page,
            "<p class=\"small\">{} more example seeds are not listed.</p>",
            found.len() - EXAMPLES_SHOWN
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_writes_the_examples_viewer_page() {
        assert_eq!(
            viewer_command(" --pack my pack", "caves", 12, 3),
            "prefabric generate --pack my pack --map-type caves --seed 12 --depth 3 --format html --out caves-12-3.html"
        );
    }
}
