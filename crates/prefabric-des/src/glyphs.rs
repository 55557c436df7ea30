//! What DCSS glyphs and feature names become in prefabric: a terrain, and
//! perhaps an object standing on it.
//!
//! In: a glyph left in a cell once every glyph-changing rule has run, or a
//! feature name from a `KFEAT` line. Out: a [`Meaning`] — prefabric terrain
//! (written as a palette terrain, e.g. `wall:8`) and, for glyphs that stand for
//! something placed (monsters, items, traps, altars, statues, fountains,
//! shops), a [`Thing`] to resolve through a definition file. The table follows
//! DCSS's defaults (`reference/des.md` §8); glyphs it does not list are floor,
//! as in DCSS. Terrains prefabric's default palette lacks are the variants of
//! [`NEW_TERRAINS`], which the importer adds to the imported pack's palette.

/// Terrain variants the importer adds to a pack's palette, with the colour
/// `.xp` prefabs paint them in and the glyph maps draw them with.
pub const NEW_TERRAINS: [(&str, &str, &str, &str); 3] = [
    ("wall:8", "#5a6e7c", "#", "metal wall (imported from DCSS)"),
    ("wall:9", "#9ad0dc", "#", "crystal or clear wall (imported from DCSS)"),
    ("liquid:1", "#d2461e", "~", "lava (imported from DCSS)"),
];

/// What stands on a cell, to be resolved through a definition file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Thing {
    /// A monster slot `1`-`7` (its `MONS` entry, or a random monster).
    MonsterSlot(u8),
    /// A random monster for the level (`0`), or out of depth (`8`, `9`).
    RandomMonster {
        /// Out of depth.
        strong: bool,
    },
    /// An item slot `d`-`k`, 0-7 (its `ITEM` entry, or a random item).
    ItemSlot(u8),
    /// A random item (`%`), a better one (`*`), a superb one (`|`).
    RandomItem {
        /// Levels out of depth.
        bonus: u8,
    },
    /// Gold (`$`).
    Gold,
    /// A random trap for the depth (`^`).
    RandomTrap,
    /// A catalog prop named after a DCSS feature: `blocks` for statues and
    /// fountains, which nothing walks through.
    Feature {
        /// The tag, e.g. `altar_zin`.
        tag: String,
        /// True when walkers cannot pass it.
        blocks: bool,
    },
    /// A catalog trap named after a DCSS trap feature.
    Trap(String),
}

/// What a glyph or feature becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meaning {
    /// A palette terrain, e.g. `room` or `wall:8`; `None` for don't-care.
    pub terrain: Option<&'static str>,
    /// What stands on it.
    pub thing: Option<Thing>,
}

impl Meaning {
    const fn terrain(t: &'static str) -> Meaning {
        Meaning { terrain: Some(t), thing: None }
    }

    fn on_floor(thing: Thing) -> Meaning {
        Meaning { terrain: Some("room"), thing: Some(thing) }
    }
}

/// The default meaning of a DCSS glyph (no `KFEAT`, `KMONS` or `KITEM` for it).
pub fn glyph(g: char) -> Meaning {
    match g {
        'x' | 'c' => Meaning::terrain("wall"),
        'X' => Meaning::terrain("wall:1"),
        'v' => Meaning::terrain("wall:8"),
        'b' | 'm' | 'n' | 'o' => Meaning::terrain("wall:9"),
        't' => Meaning::terrain("wall:2"),
        '+' | '=' => Meaning::terrain("door"),
        'w' => Meaning::terrain("liquid"),
        'W' => Meaning::terrain("room:4"),
        'l' => Meaning::terrain("liquid:1"),
        '{' | '(' | '[' | '<' => Meaning::terrain("stairs_up"),
        '}' | ')' | ']' | '>' => Meaning::terrain("stairs_down"),
        ' ' => Meaning { terrain: None, thing: None },
        'A' => Meaning::on_floor(feature_thing("stone_arch")),
        'B' => Meaning::on_floor(feature_thing("altar")),
        'C' => Meaning::on_floor(feature_thing("random_altar")),
        'G' => Meaning::on_floor(feature_thing("granite_statue")),
        'I' => Meaning::on_floor(feature_thing("orcish_idol")),
        'T' => Meaning::on_floor(feature_thing("fountain_blue")),
        'U' => Meaning::on_floor(feature_thing("fountain_sparkling")),
        'V' => Meaning::on_floor(feature_thing("dry_fountain")),
        'Y' => Meaning::on_floor(feature_thing("fountain_blood")),
        '^' => Meaning::on_floor(Thing::RandomTrap),
        '$' => Meaning::on_floor(Thing::Gold),
        '%' => Meaning::on_floor(Thing::RandomItem { bonus: 0 }),
        '*' => Meaning::on_floor(Thing::RandomItem { bonus: 5 }),
        '|' => Meaning::on_floor(Thing::RandomItem { bonus: 10 }),
        'd'..='k' => Meaning::on_floor(Thing::ItemSlot(g as u8 - b'd')),
        '0' => Meaning::on_floor(Thing::RandomMonster { strong: false }),
        '1'..='7' => Meaning::on_floor(Thing::MonsterSlot(g as u8 - b'0')),
        '8' | '9' => Meaning::on_floor(Thing::RandomMonster { strong: true }),
        // `@` (an entry point) and every placeholder left unsubstituted: floor.
        _ => Meaning::terrain("room"),
    }
}

/// The meaning of a `KFEAT` feature: a single glyph means what that glyph does;
/// names of walls, floors, water, lava, trees, doors and stairs are terrain;
/// traps become catalog traps; anything else (altars, shops, statues,
/// fountains, arches, branch entrances, portals) a catalog prop of that name
/// on floor. `None` when the name is not a feature name at all.
pub fn feature(name: &str) -> Option<Meaning> {
    let name = name.trim();
    let mut chars = name.chars();
    if let (Some(g), None) = (chars.next(), chars.next()) {
        return Some(glyph(g));
    }
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ' ' || c == '\'' || c == '-')
    {
        return None;
    }
    let n = name.to_ascii_lowercase();
    let terrain = match n.as_str() {
        "floor" | "open_sea" | "expired_portal" => Some("room"),
        "rock_wall" | "stone_wall" | "wall" | "slimy_wall" => Some("wall"),
        "permarock_wall" | "permanent_rock" | "endless_salt" => Some("wall:1"),
        "metal_wall" => Some("wall:8"),
        "crystal_wall"
        | "iron_grate"
        | "clear_rock_wall"
        | "clear_stone_wall"
        | "clear_permarock_wall"
        | "runelight" => Some("wall:9"),
        "tree" | "mangrove" | "demonic_tree" | "petrified_tree" => Some("wall:2"),
        "deep_water" | "open_sea_deep" => Some("liquid"),
        "shallow_water" | "mud" => Some("room:4"),
        "lava" | "endless_lava" => Some("liquid:1"),
        "closed_door" | "open_door" | "runed_door" | "sealed_door" | "broken_door" | "closed_clear_door"
        | "open_clear_door" | "runed_clear_door" | "sealed_clear_door" => Some("door"),
        _ if n.contains("stairs_down") || n.starts_with("escape_hatch_down") => Some("stairs_down"),
        _ if n.contains("stairs_up") || n.starts_with("escape_hatch_up") => Some("stairs_up"),
        _ => None,
    };
    if let Some(t) = terrain {
        return Some(Meaning::terrain(t));
    }
    if n.contains("trap") || n == "web" || n == "shaft" {
        let tag = tag_of(&n);
        let tag = if tag.starts_with("trap_") || tag.ends_with("_trap") { tag } else { format!("trap_{tag}") };
        return Some(Meaning::on_floor(Thing::Trap(tag)));
    }
    Some(Meaning::on_floor(feature_thing(&n)))
}

/// A feature prop: statues and fountains block.
fn feature_thing(name: &str) -> Thing {
    let tag = tag_of(name);
    let blocks = tag.contains("statue") || tag.contains("idol") || tag.contains("fountain");
    Thing::Feature { tag, blocks }
}

/// A name as a catalog tag: lower case, blanks and dashes as `_`.
pub fn tag_of(name: &str) -> String {
    let mut tag = String::with_capacity(name.len());
    for c in name.trim().chars() {
        match c {
            'a'..='z' | '0'..='9' | '_' => tag.push(c),
            'A'..='Z' => tag.push(c.to_ascii_lowercase()),
            _ if !tag.ends_with('_') => tag.push('_'),
            _ => {}
        }
    }
    let tag = tag.trim_matches('_').to_string();
    if tag.is_empty() { "unnamed".into() } else { tag }
}

/// True when cells of this terrain are walkable.
pub fn walkable(terrain: &str) -> bool {
    let role = terrain.split(':').next().unwrap_or(terrain);
    matches!(
        role,
        "room"
            | "hall"
            | "corridor"
            | "junction"
            | "cave"
            | "door"
            | "secret_door"
            | "stairs_up"
            | "stairs_down"
            | "stairs"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_glyphs_follow_the_dcss_table() {
        assert_eq!(glyph('x').terrain, Some("wall"));
        assert_eq!(glyph('X').terrain, Some("wall:1"));
        assert_eq!(glyph('w').terrain, Some("liquid"));
        assert_eq!(glyph('l').terrain, Some("liquid:1"));
        assert_eq!(glyph('}').terrain, Some("stairs_down"));
        assert_eq!(glyph(' ').terrain, None);
        assert_eq!(glyph('3').thing, Some(Thing::MonsterSlot(3)));
        assert_eq!(glyph('f').thing, Some(Thing::ItemSlot(2)));
        assert_eq!(glyph('G').thing, Some(Thing::Feature { tag: "granite_statue".into(), blocks: true }));
        assert_eq!(glyph('Q'), Meaning { terrain: Some("room"), thing: None }, "a placeholder is floor");
    }

    #[test]
    fn features_become_terrain_traps_or_props() {
        assert_eq!(feature("iron_grate").and_then(|m| m.terrain), Some("wall:9"));
        assert_eq!(feature("w").and_then(|m| m.terrain), Some("liquid"));
        assert_eq!(feature("stone_stairs_down_i").and_then(|m| m.terrain), Some("stairs_down"));
        assert_eq!(feature("net trap").and_then(|m| m.thing), Some(Thing::Trap("net_trap".into())));
        assert_eq!(feature("web").and_then(|m| m.thing), Some(Thing::Trap("trap_web".into())));
        assert_eq!(
            feature("altar_zin").and_then(|m| m.thing),
            Some(Thing::Feature { tag: "altar_zin".into(), blocks: false })
        );
        assert_eq!(
            feature("any shop").and_then(|m| m.thing),
            Some(Thing::Feature { tag: "any_shop".into(), blocks: false })
        );
        assert_eq!(
            feature("fountain_eyes").and_then(|m| m.thing),
            Some(Thing::Feature { tag: "fountain_eyes".into(), blocks: true })
        );
        assert_eq!(feature("a;b"), None);
        assert_eq!(tag_of(" Orc Warrior's-blade "), "orc_warrior_s_blade");
    }
}
