//! Dead content: what a run of many maps never used, as warnings.
//!
//! In: finished [`Stats`] and the pack they were made from. Out: a warning per
//! feature variant prefab, encounter, alternative, layout pool piece and
//! definition line or alternative that no map used, at its file and line, with
//! the reason seen most and an example seed. Guarantees: content chance alone
//! would leave out one time in a hundred or more ([`DEAD_BELOW`]) is not
//! reported; a definition line shared by map types is dead only when none used it.

use super::finish::most_seen;
use super::{DEAD_BELOW, DefinitionStats, MapTypeStats, Stats};
use crate::content::MapType;
use crate::content::Pack;
use crate::error::Error;
use crate::error::ErrorKind;
use crate::format::def::Pick;
use std::collections::BTreeMap;

impl Stats {
    /// Warnings for content these maps never used (the statistics must be
    /// finished): every feature variant prefab, encounter and encounter
    /// alternative of each map type never placed, and every definition line
    /// or alternative that gave no object in any map type, each at its
    /// file:line with the reason seen most and an example seed where one
    /// shows it. Content left out where chance alone would leave it out one
    /// time in a hundred or more (a line with a 50% chance used twice) is
    /// not reported: more maps tell.
    pub fn dead_content(&self, pack: &Pack) -> Vec<Error> {
        let mut warnings = Vec::new();
        for (name, stats) in &self.map_types {
            if let Some(map_type) = pack.map_type(name) {
                warnings.extend(stats.dead_content(map_type));
            }
        }
        // A definition file may serve several map types: a line is dead only
        // when none of them used it.
        let mut definitions: BTreeMap<&str, (DefinitionStats, u64)> = BTreeMap::new();
        for stats in self.map_types.values() {
            let maps = stats.maps + stats.failed;
            for (name, d) in &stats.definitions {
                match definitions.get_mut(name.as_str()) {
                    Some((sum, m)) => {
                        sum.add(d);
                        *m += maps;
                    }
                    None => {
                        definitions.insert(name, (d.clone(), maps));
                    }
                }
            }
        }
        for (name, (d, maps)) in &definitions {
            if let Some(defs) = pack.definitions(name) {
                warnings.extend(d.dead_lines(defs, *maps));
            }
        }
        warnings
    }
}

impl DefinitionStats {
    /// Adds the counts of `other`, the same file's statistics over other maps.
    pub(super) fn add(&mut self, other: &DefinitionStats) {
        self.placements += other.placements;
        for (line, theirs) in self.lines.iter_mut().zip(&other.lines) {
            line.objects += theirs.objects;
            line.placements += theirs.placements;
            for (a, b) in line.alternatives.iter_mut().zip(&theirs.alternatives) {
                a.objects += b.objects;
            }
        }
    }

    /// Warnings for its lines and alternatives that gave no object in `maps`
    /// maps, where chance alone would rarely explain it.
    pub(super) fn dead_lines(&self, defs: &crate::content::defs::Definitions, maps: u64) -> Vec<Error> {
        let mut warnings = Vec::new();
        if self.placements == 0 {
            return warnings;
        }
        let in_maps = if maps == 1 { "1 trial map".to_string() } else { format!("{maps} trial maps") };
        for (line, def) in self.lines.iter().zip(&defs.lines) {
            // Only placements of prefabs that draw its character could use a
            // line; none at all is the prefabs' own warning, not the line's.
            if line.objects == 0 && line.placements > 0 {
                // The chance that one placement uses the line: its group's
                // pick, then its own chance.
                let group = line
                    .group
                    .as_ref()
                    .map_or(1, |g| self.lines.iter().filter(|l| l.group.as_ref() == Some(g)).count());
                // ... and an alternative that is not `nothing`.
                let weighs = |nothing: bool| -> f64 {
                    let picks = def.line.picks.iter().zip(&def.line.weights);
                    picks.filter(|((p, _), _)| nothing || *p != Pick::Nothing).map(|(_, &w)| f64::from(w)).sum()
                };
                let p_use = f64::from(line.chance) / 100.0 / group as f64 * weighs(false) / weighs(true).max(1.0);
                if (1.0 - p_use).powf(line.placements as f64) >= DEAD_BELOW {
                    continue;
                }
                let reason = line.why_unused(line.placements);
                warnings.push(
                    Error::at(
                        ErrorKind::Lint,
                        def.location.clone(),
                        format!("definition `{}` gave no object in {in_maps}: {reason}", line.glyph),
                    )
                    .with_help(
                        "`prefabric show PREFAB_FILE --resolve --depth N` shows what each reference becomes at a depth",
                    ),
                );
                continue;
            }
            let k = line.alternatives.len() as f64;
            for (a, (pick, col)) in line.alternatives.iter().zip(&def.line.picks) {
                // `nothing` gives no object by design: its draws are not counted.
                if *pick == Pick::Nothing || a.objects > 0 || (1.0 - 1.0 / k).powf(line.objects as f64) >= DEAD_BELOW {
                    continue;
                }
                let location = crate::error::Location::at(def.location.file.clone(), def.location.line, *col);
                warnings.push(
                    Error::at(
                        ErrorKind::Lint,
                        location,
                        format!(
                            "alternative `{}` of definition `{}` was never picked in {in_maps}, though the line gave {} objects",
                            a.written, line.glyph, line.objects
                        ),
                    )
                    .with_help("a line picks one of its alternatives uniformly; a class or category with nothing in the catalog at the depths tried gives no object"),
                );
            }
        }
        warnings
    }
}

impl MapTypeStats {
    /// Warnings for the feature variant prefabs, encounters, encounter
    /// alternatives and layout pool pieces of `map_type` these maps never
    /// placed.
    pub(super) fn dead_content(&self, map_type: &MapType) -> Vec<Error> {
        let mut warnings = Vec::new();
        let maps = self.maps + self.failed;
        let in_maps = if maps == 1 { "1 trial map".to_string() } else { format!("{maps} trial maps") };
        let example = |seed: Option<u64>| seed.map_or(String::new(), |s| format!(" (e.g. seed {s})"));
        let mut warn = |location: &crate::error::Location, message: String, help: &str| {
            warnings.push(Error::at(ErrorKind::Lint, location.clone(), message).with_help(help));
        };
        for v in map_type.variants.iter().filter(|v| v.weight > 0) {
            for placement in &v.prefabs {
                for (name, _) in placement.choices.iter().filter(|(_, w)| *w > 0) {
                    let Some(p) = self.prefabs.get(name).filter(|p| p.placed == 0) else { continue };
                    let Some(u) = &p.unused else { continue };
                    warn(
                        &placement.location,
                        format!(
                            "prefab `{name}` of feature variant `{}` was never placed in {in_maps}: {}{}",
                            v.name,
                            u.reason,
                            example(u.example_seed)
                        ),
                        "run `prefabric generate --variant NAME --explain` to watch its placement try",
                    );
                }
            }
        }
        if let Some(pool) = map_type.encounters.as_ref().filter(|p| p.count.1 > 0) {
            for e in pool.pool.iter().filter(|e| e.weight > 0) {
                let Some(st) = self.encounters.get(&e.id) else { continue };
                if st.placed == 0 {
                    let why = match most_seen(&st.not_placed) {
                        Some((reason, seen)) => {
                            let words = match (reason, e.style) {
                                ("no-place", crate::vocab::Style::Embedded) => {
                                    "no cavern had rock beside it deep and whole enough to sink one of its prefabs into"
                                }
                                ("no-place", crate::vocab::Style::Centered) => {
                                    "no cavern had room around its centre, or every centre was taken"
                                }
                                _ => &st.why(reason, seen),
                            };
                            format!("{words} in {} maps{}", seen.count, example(Some(seen.example_seed)))
                        }
                        None => "it was never drawn: the pool's count was filled by other encounters".to_string(),
                    };
                    warn(
                        &e.location,
                        format!("encounter `{}` was never placed in {in_maps}: {why}", e.id),
                        "run `prefabric generate --encounter ID --explain` to see why it does not fit; more trial maps (--seeds) find rare encounters",
                    );
                    continue;
                }
                // An alternative that fitted somewhere but was not drawn there
                // was passed over by chance: `stats` shows it, `check` does not
                // call it dead.
                for name in &e.prefabs {
                    if self.prefabs.get(name).is_some_and(|p| p.placed == 0 && p.fit == 0) {
                        warn(
                            &e.location,
                            format!(
                                "alternative `{name}` of encounter `{}` was never used in {in_maps}: the encounter was placed {} times, and `{name}` fit none of the rooms or caverns it went into",
                                e.id, st.placed
                            ),
                            "an alternative is drawn among those that fit the room: make it smaller, or open where the room's doors are; `prefabric generate --encounter ID --prefab NAME` tries it alone",
                        );
                    }
                }
            }
        }
        warnings.extend(self.dead_pool_pieces(map_type, &in_maps));
        warnings
    }
}
