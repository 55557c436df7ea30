//! The chain's prefabs: the `[chain.pool]` table and the `start`, names and
//! tags resolved against the pack's prefabs.
//!
//! In: the pool and start as written. Out: [`PoolEntry`]s and the start
//! prefab, each prefab checked to be chainable (`checks.rs`). Every problem is
//! reported at its `file:line:col`. The pathways reader shares `pool` and
//! `start`.

use super::{MAX_TARGET, PieceContext, PoolEntry, PoolValue, TAG_PREFIX};
use crate::content::section::SectionReader;
use crate::content::values::WeightWords;
use crate::error::Location;
use crate::prefab::Prefab;
use std::collections::BTreeMap;
use toml::Spanned;

impl SectionReader<'_> {
    /// The pool: names and tags resolved to prefabs, each prefab once (a name wins
    /// over its tags; among tags, the largest weight), every prefab checked.
    pub(in crate::content) fn pool(
        &mut self,
        raw: &Spanned<BTreeMap<Spanned<String>, Spanned<PoolValue>>>,
        cx: &PieceContext<'_, '_>,
    ) -> Vec<PoolEntry> {
        let mut named: BTreeMap<String, PoolEntry> = BTreeMap::new();
        let mut tagged: BTreeMap<String, PoolEntry> = BTreeMap::new();
        for (key, value) in raw.get_ref() {
            let template = PoolEntry { location: (self.at)(key.span()), ..self.pool_value(value, cx.words) };
            let entry_for = |name: &str| PoolEntry { prefab: name.to_string(), ..template.clone() };
            if let Some(tag) = key.get_ref().strip_prefix(TAG_PREFIX) {
                let members: Vec<&Prefab> = cx.prefabs.tagged(tag).collect();
                if members.is_empty()
                    && let Some((message, help)) = cx.prefabs.unknown_tag(tag, TAG_PREFIX)
                {
                    self.invalid(key.span(), message, Some(help));
                }
                for p in members {
                    if self.chainable(p, key.span(), false) {
                        let entry = tagged.entry(p.name().to_string()).or_insert_with(|| entry_for(p.name()));
                        if template.weight > entry.weight {
                            *entry = entry_for(p.name());
                        }
                    }
                }
                continue;
            }
            let name = key.get_ref();
            match cx.prefabs.get(name) {
                Some(p) => {
                    if self.chainable(p, key.span(), false) {
                        named.insert(name.clone(), entry_for(name));
                    }
                }
                None => {
                    let help = "name a prefab by its `prefab NAME` line, or a tag as \"tag:NAME\"";
                    if let Some((message, help)) = cx.prefabs.unknown_name(name, help) {
                        self.invalid(key.span(), message, Some(help));
                    }
                }
            }
        }
        tagged.extend(named);
        let pool: Vec<PoolEntry> = tagged.into_values().collect();
        if !pool.is_empty() && pool.iter().all(|e| e.weight == 0) {
            let message = format!("every prefab of [{}.pool] has weight 0, so none can be chosen", self.section());
            self.invalid(raw.span(), message, None);
        }
        pool
    }

    /// A pool value as an entry with no prefab name yet.
    pub(super) fn pool_value(&mut self, value: &Spanned<PoolValue>, words: &WeightWords) -> PoolEntry {
        let (weight, min, max) = match value.get_ref() {
            PoolValue::Weight(w) => (w, None, None),
            PoolValue::Limited { weight, min, max } => (weight, *min, *max),
        };
        let weight = words.resolve(weight).unwrap_or_else(|(message, help)| {
            self.invalid(value.span(), message, help);
            0
        });
        let max = match max {
            None => None,
            Some(m) if (1..=MAX_TARGET).contains(&m) => Some(m as u32),
            Some(m) => {
                self.invalid(value.span(), format!("max {m} must be 1-{MAX_TARGET}; leave it out for no limit"), None);
                None
            }
        };
        let min = match min {
            None => 0,
            Some(m) if (0..=MAX_TARGET).contains(&m) && max.is_none_or(|x| m <= i64::from(x)) => m as u32,
            Some(m) => {
                let message = format!("min {m} must be 0-{MAX_TARGET} and no more than max");
                self.invalid(value.span(), message, None);
                0
            }
        };
        if min > 0 && weight == 0 {
            self.invalid(value.span(), format!("min {min} with weight 0: the prefab can never be drawn"), None);
        }
        PoolEntry { prefab: String::new(), weight, max, min, location: Location::file(String::new()) }
    }

    /// The start prefab named by `s`, checked: it exists, fits inside the margin,
    /// and can be joined. A chain's start may have no connector (a whole-level
    /// prefab, `doorless` true); a pathways start must have doorways.
    pub(in crate::content) fn start<'p>(
        &mut self,
        s: &Spanned<String>,
        cx: &PieceContext<'_, 'p>,
        margin: i32,
        doorless: bool,
    ) -> Option<&'p Prefab> {
        let Some(p) = cx.prefabs.get(s.get_ref()) else {
            let help = "check the prefab's `prefab NAME` line under prefabs/";
            if let Some((message, help)) = cx.prefabs.unknown_name(s.get_ref(), help) {
                self.invalid(s.span(), message, Some(help));
            }
            return None;
        };
        let (w, h) = (cx.size.0 - 2 * margin, cx.size.1 - 2 * margin);
        let fits = p.transforms().iter().any(|t| {
            let (pw, ph) = t.apply_size(p.width(), p.height());
            pw <= w && ph <= h
        });
        if !fits {
            let within = if margin > 0 { format!(" inside its margin of {margin}") } else { String::new() };
            let help = if margin > 0 && doorless {
                "use a smaller prefab or a bigger map, or set `margin = 0` to let the prefab fill the map"
            } else {
                "use a smaller prefab or a bigger map"
            };
            let message = format!(
                "start prefab `{}` ({}x{}) is larger than the {}x{} map{within} in every allowed orientation",
                p.name(),
                p.width(),
                p.height(),
                cx.size.0,
                cx.size.1
            );
            self.invalid(s.span(), message, Some(help.into()));
            return None;
        }
        self.chainable(p, s.span(), doorless).then_some(p)
    }
}
