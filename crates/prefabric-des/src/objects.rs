//! Monster and item specs of `.des` maps (`MONS`, `ITEM`, `KMONS`, `KITEM`, and
//! the things `KFEAT` and the default glyphs place), read into catalog tags with
//! game keywords.
//!
//! In: a spec as written — `generate_awake orc warrior hp:30 w:5 / goblin`.
//! Out: its alternatives ([`Alt`]): a catalog tag named after the monster or
//! item (`orc_warrior`), its weight, whether it is DCSS's `nothing`, and the
//! spec's modifiers as game keywords passed through to the game (`hp:30`
//! becomes `HP=30`, `generate_awake` becomes `GENERATE_AWAKE`); plus what could
//! not be kept. prefabric has no DCSS monster or item database: every name
//! becomes a catalog entry of the imported pack (see [`super::pack`]), and
//! DCSS's random picks become placeholder entries (`random_monster`,
//! `random_item`, `any_weapon` …) for the game to fill, with the depth bonus
//! as a keyword. A game that has those monsters and items reads the tags.

use super::glyphs::tag_of;
use prefabric::format::def::BUILT_IN_KEYWORDS;

/// The kind of a catalog entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A monster.
    Entity,
    /// An item.
    Item,
    /// A feature placed as a prop (altars, shops, statues …).
    Prop,
    /// A trap.
    Trap,
}

impl Kind {
    /// The kind as a definition line writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Entity => "entity",
            Kind::Item => "item",
            Kind::Prop => "prop",
            Kind::Trap => "trap",
        }
    }
}

/// One alternative of a spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alt {
    /// The catalog tag; empty for `nothing`.
    pub tag: String,
    /// The name as written (for the catalog entry's name).
    pub name: String,
    /// DCSS weight (default 10).
    pub weight: u32,
    /// Game keywords, as a definition line writes them (`HP=30`).
    pub keywords: Vec<String>,
}

impl Alt {
    /// True for DCSS's `nothing`: no object.
    pub fn is_nothing(&self) -> bool {
        self.tag.is_empty()
    }

    /// A placeholder for something DCSS picks at random.
    pub fn placeholder(tag: &str, keywords: Vec<String>) -> Alt {
        Alt { tag: tag.into(), name: tag.replace('_', " "), weight: 10, keywords }
    }
}

/// Monster modifiers written as one word.
const MONSTER_FLAGS: [&str; 8] = ["patrolling", "band", "hostile", "friendly", "neutral", "summoned", "seen", "asleep"];

/// Item modifiers written as one word.
const ITEM_FLAGS: [&str; 6] = ["mundane", "randart", "cursed", "uncursed", "unrand", "identified"];

/// Item classes `any CLASS` may name, and the catalog category their
/// placeholder items go in.
const ITEM_CLASSES: [&str; 15] = [
    "weapon",
    "armour",
    "armor",
    "potion",
    "scroll",
    "wand",
    "ring",
    "amulet",
    "book",
    "staff",
    "misc",
    "jewellery",
    "food",
    "missile",
    "miscellaneous",
];

/// Reads the alternatives of one spec (`/`-separated) of `kind`; what could not
/// be kept is added to `losses`.
pub fn alternatives(spec: &str, kind: Kind, losses: &mut Vec<String>) -> Vec<Alt> {
    spec.split('/').map(str::trim).filter(|a| !a.is_empty()).map(|a| alternative(a, kind, losses)).collect()
}

/// One alternative.
fn alternative(text: &str, kind: Kind, losses: &mut Vec<String>) -> Alt {
    let (main, carried) = match text.split_once(';') {
        Some((m, c)) => (m, Some(c.trim())),
        None => (text, None),
    };
    let mut weight = 10;
    let mut keywords = Vec::new();
    let mut words: Vec<&str> = Vec::new();
    let flags: &[&str] = if kind == Kind::Item { &ITEM_FLAGS } else { &MONSTER_FLAGS };
    for token in main.split_whitespace() {
        if let Some((key, value)) = token.split_once(':') {
            if matches!(key, "w" | "weight") {
                match value.parse::<u32>() {
                    Ok(w) => weight = w,
                    Err(_) => losses.push(format!("weight `{token}` not understood")),
                }
                continue;
            }
            match keyword(key, Some(value)) {
                Some(k) => keywords.push(k),
                None => losses.push(format!("modifier `{token}` not kept")),
            }
        } else if token.contains('_') || flags.contains(&token) {
            match keyword(token, None) {
                Some(k) => keywords.push(k),
                None => losses.push(format!("modifier `{token}` not kept")),
            }
        } else {
            words.push(token);
        }
    }
    if let Some(c) = carried.filter(|c| !c.is_empty()) {
        match carried_items(c) {
            Some(k) => keywords.push(k),
            None => losses.push(format!("carried items `{c}` not kept")),
        }
    }
    let name = words.join(" ");
    if name.is_empty() || name == "nothing" {
        return Alt { tag: String::new(), name: "nothing".into(), weight, keywords: Vec::new() };
    }
    let tag = match (kind, words.as_slice()) {
        (Kind::Entity, ["random"] | ["random", "monster"]) => "random_monster".to_string(),
        (Kind::Item, ["any"] | ["random"]) => "random_item".to_string(),
        (Kind::Item, ["any", class @ ..]) if class.len() == 1 && ITEM_CLASSES.contains(&class[0]) => {
            format!("any_{}", tag_of(class[0]))
        }
        _ => tag_of(&name),
    };
    Alt { tag, name, weight, keywords }
}

/// Carried items written as one keyword, `CARRIES=a,b`, when each is a plain
/// name without alternatives or modifiers.
fn carried_items(text: &str) -> Option<String> {
    let mut tags = Vec::new();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        if item.contains(['|', '/', ':']) || item.split_whitespace().any(|w| w.contains('_')) {
            return None;
        }
        tags.push(tag_of(item));
    }
    (!tags.is_empty()).then(|| format!("CARRIES={}", tags.join(",")))
}

/// A modifier as a game keyword: `hp` and `30` become `HP=30`. `None` when the
/// value would read as one of a definition line's random forms (`a|b`, `1..3`,
/// `5~2`, `a*3`) or has no safe name.
pub fn keyword(key: &str, value: Option<&str>) -> Option<String> {
    let mut name: String =
        key.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit() || c == '_') {
        return None;
    }
    // DCSS's modifiers never mean prefabric's own keywords.
    if BUILT_IN_KEYWORDS.contains(&name.as_str()) {
        name.insert_str(0, "DCSS_");
    }
    match value {
        None => Some(name),
        Some(v) if v.is_empty() || v.contains("..") || v.contains(['~', '|', '*', '#']) => None,
        Some(v) => Some(format!("{name}={v}")),
    }
}

/// The slots of a `MONS` or `ITEM` line: comma-separated specs, in order.
pub fn slots(value: &str) -> Vec<&str> {
    value.split(',').map(str::trim).collect()
}

/// The category of an imported item's catalog entry: `potion of x` goes in
/// `dcss_potion`; `any weapon` in `dcss_weapon`; gold in `dcss_gold`; the rest
/// by a few words of its name, else `dcss_misc`.
pub fn item_category(tag: &str) -> String {
    let class = if let Some(c) = tag.strip_prefix("any_") {
        c.to_string()
    } else if let Some((first, _)) = tag.split_once("_of_") {
        first.rsplit('_').next().unwrap_or(first).to_string()
    } else {
        let weapon = [
            "sword",
            "axe",
            "mace",
            "bow",
            "spear",
            "dagger",
            "flail",
            "whip",
            "club",
            "halberd",
            "scythe",
            "sling",
            "staff",
            "sabre",
            "scimitar",
            "rapier",
            "trident",
            "glaive",
            "javelin",
            "dart",
            "stone",
            "boomerang",
            "crossbow",
            "arbalest",
            "quarterstaff",
            "morningstar",
            "hammer",
            "blade",
            "lance",
            "bardiche",
        ];
        let armour = [
            "armour", "mail", "robe", "cloak", "helmet", "hat", "boots", "gloves", "shield", "buckler", "leather",
            "plate", "scarf", "barding", "orb",
        ];
        let last = tag.rsplit('_').next().unwrap_or(tag);
        if tag == "gold" {
            "gold".into()
        } else if weapon.contains(&last) {
            "weapon".into()
        } else if armour.contains(&last) {
            "armour".into()
        } else {
            "misc".into()
        }
    };
    let class = match class.as_str() {
        "armor" => "armour",
        "jewellery" | "ring" | "amulet" => "jewellery",
        "miscellaneous" => "misc",
        "randbook" | "manual" => "book",
        c => c,
    };
    format!("dcss_{class}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monster_specs_give_tags_weights_and_keywords() {
        let mut losses = Vec::new();
        let alts = alternatives("generate_awake orc warrior hp:30 / goblin w:5 / nothing", Kind::Entity, &mut losses);
        assert!(losses.is_empty(), "{losses:?}");
        assert_eq!(alts.len(), 3);
        assert_eq!((alts[0].tag.as_str(), alts[0].weight), ("orc_warrior", 10));
        assert_eq!(alts[0].keywords, ["GENERATE_AWAKE", "HP=30"]);
        assert_eq!((alts[1].tag.as_str(), alts[1].weight), ("goblin", 5));
        assert!(alts[2].is_nothing());
        let carried = alternatives("hobgoblin ; short sword", Kind::Entity, &mut losses);
        assert_eq!(carried[0].keywords, ["CARRIES=short_sword"]);
        let _ = alternatives("orc ; mace ego:none | w:5 club", Kind::Entity, &mut losses);
        assert_eq!(losses.len(), 1, "{losses:?}");
        let _ = alternatives("orc wizard spells:a.1|b", Kind::Entity, &mut losses);
        assert_eq!(losses.len(), 2, "a value read as alternatives is not kept");
    }

    #[test]
    fn item_specs_give_tags_placeholders_and_categories() {
        let mut losses = Vec::new();
        let a = alternatives("scroll of blinking q:3 pre_id", Kind::Item, &mut losses);
        assert_eq!(a[0].tag, "scroll_of_blinking");
        assert_eq!(a[0].keywords, ["Q=3", "PRE_ID"]);
        assert_eq!(alternatives("any weapon good_item", Kind::Item, &mut losses)[0].tag, "any_weapon");
        assert_eq!(alternatives("any", Kind::Item, &mut losses)[0].tag, "random_item");
        assert_eq!(item_category("scroll_of_blinking"), "dcss_scroll");
        assert_eq!(item_category("ring_of_protection_from_fire"), "dcss_jewellery");
        assert_eq!(item_category("long_sword"), "dcss_weapon");
        assert_eq!(item_category("any_armour"), "dcss_armour");
        assert_eq!(keyword("unique", None).as_deref(), Some("DCSS_UNIQUE"));
        assert_eq!(keyword("shift", Some("1,1")).as_deref(), Some("DCSS_SHIFT=1,1"));
        assert!(losses.is_empty(), "{losses:?}");
    }
}
