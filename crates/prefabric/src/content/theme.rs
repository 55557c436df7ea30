//! Theme rules: the `[theme]` section of a map type (issue 18, point 5; seed
//! 002's floor digits).
//!
//! A layout digs plain floor and raises plain walls; a theme says which of the
//! palette's terrain variants the map type's own cells take instead, so two map
//! types with the same generator do not look like palette swaps:
//!
//! * `[[theme.floors]]`: for regions of the kinds listed, one floor style drawn per
//!   region by weight (a storeroom's grating, a crypt's bone-strewn floor), plus
//!   styles scattered cell by cell at a percentage (stains, scree);
//! * `[theme.walls]`: wall styles drawn cell by cell by weight, `clump` the chance
//!   a wall cell carries on the style of the wall before it, so styles run in
//!   seams instead of speckling;
//! * `[[theme.pools]]`: pools of deep liquid laid into regions of the kinds listed,
//!   at a chance per region, clear of the walls, doors and objects, never cutting a
//!   way through.
//!
//! Reading checks that every terrain parses, that a floor style is a floor of the
//! kind its regions are dug as (a corridor stays a corridor), that wall styles are
//! walls and pools are liquid, and every number against its range; every problem is
//! reported at its place in the file.

use super::section::{SectionReader, Span};
use super::values::{WeightFile, WeightWords};
use crate::error::{Error, Location};
use crate::format::palette::parse_terrain;
use crate::format::suggest;
use crate::map::{FloorKind, RegionKind, Role, Terrain};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// Floor styles for the regions of some kinds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorStyles {
    /// The kinds of region (as the layout dug them) these styles are for.
    pub regions: Vec<RegionKind>,
    /// Styles with weights; each region draws one for all its floor.
    pub styles: Vec<(Terrain, u32)>,
    /// Styles laid cell by cell over the region's own, each at this percentage.
    pub scatter: Vec<(Terrain, u32)>,
}

/// Wall styles for the walls the layout raised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WallStyles {
    /// Styles with weights, drawn cell by cell.
    pub styles: Vec<(Terrain, u32)>,
    /// Chance (percent) that a wall cell takes the style of the wall before it
    /// (west, else north), so styles run in seams.
    pub clump: u32,
}

/// Pools of deep liquid laid into regions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pools {
    /// The liquid: a [`Role::Liquid`] terrain.
    pub terrain: Terrain,
    /// The kinds of region (as the layout dug them) that may hold one.
    pub regions: Vec<RegionKind>,
    /// Chance (percent) that a region of those kinds gets a pool.
    pub chance: u32,
    /// Cells in one pool, fewest and most.
    pub size: (u32, u32),
    /// Most pools of this entry per map.
    pub max_per_map: u32,
}

/// A map type's validated theme.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Theme {
    /// Floor styles, first entry naming a region's kind wins.
    pub floors: Vec<FloorStyles>,
    /// Wall styles, if any.
    pub walls: Option<WallStyles>,
    /// Pools, in the order written.
    pub pools: Vec<Pools>,
}

impl Theme {
    /// The floor styles for a region laid out as `kind`, if any.
    pub fn floors_for(&self, kind: RegionKind) -> Option<&FloorStyles> {
        self.floors.iter().find(|f| f.regions.contains(&kind))
    }
}

// ---- the file as written ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ThemeFile {
    #[serde(default)]
    floors: Vec<Spanned<FloorsFile>>,
    #[serde(default)]
    walls: Option<Spanned<WallsFile>>,
    #[serde(default)]
    pools: Vec<Spanned<PoolsFile>>,
}

type Table = BTreeMap<Spanned<String>, Spanned<WeightFile>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FloorsFile {
    regions: Vec<Spanned<String>>,
    #[serde(default)]
    styles: Table,
    #[serde(default)]
    scatter: BTreeMap<Spanned<String>, Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WallsFile {
    styles: Table,
    #[serde(default)]
    clump: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PoolsFile {
    terrain: Spanned<String>,
    regions: Vec<Spanned<String>>,
    chance: Spanned<i64>,
    size: Spanned<[i64; 2]>,
    #[serde(default)]
    max_per_map: Option<Spanned<i64>>,
}

/// The region kinds a theme may name: what layouts dig (prefab interiors keep
/// their own art).
const THEMED_KINDS: [RegionKind; 6] = [
    RegionKind::Room,
    RegionKind::Hall,
    RegionKind::Corridor,
    RegionKind::Junction,
    RegionKind::Cave,
    RegionKind::Passage,
];

/// The floor a region of `kind` is dug with.
pub(crate) const fn floor_of(kind: RegionKind) -> Option<FloorKind> {
    match kind {
        RegionKind::Room => Some(FloorKind::Room),
        RegionKind::Hall => Some(FloorKind::Hall),
        RegionKind::Corridor => Some(FloorKind::Corridor),
        RegionKind::Junction => Some(FloorKind::Junction),
        RegionKind::Cave | RegionKind::Passage => Some(FloorKind::Cave),
        RegionKind::Prefab => None,
    }
}

/// Largest pool, in cells: a lake is a feature for a prefab, not a theme.
const MAX_POOL: i64 = 400;

/// Reads and checks `[theme]`.
pub(crate) fn read(
    raw: &ThemeFile,
    at: &dyn Fn(Span) -> Location,
    words: &WeightWords,
    errors: &mut Vec<Error>,
) -> Theme {
    let mut r = SectionReader { at, errors, prefix: "[theme]: " };
    let floors = raw.floors.iter().map(|f| r.floor_styles(f, words)).collect();
    let walls = raw.walls.as_ref().map(|w| {
        let styles = r.styles(&w.get_ref().styles, words, "wall", |t| t.is(Role::Wall));
        let clump = r.number(&w.get_ref().clump, "walls.clump", 0..=100, 0) as u32;
        WallStyles { styles, clump }
    });
    let pools = raw.pools.iter().map(|p| r.pools(p.get_ref())).collect();
    Theme { floors, walls, pools }
}

impl SectionReader<'_> {
    fn region_kinds(&mut self, names: &[Spanned<String>]) -> Vec<RegionKind> {
        let mut kinds = Vec::new();
        for n in names {
            match THEMED_KINDS.iter().find(|k| k.name() == n.get_ref()) {
                Some(&k) => kinds.push(k),
                None => {
                    let all: Vec<&str> = THEMED_KINDS.iter().map(|k| k.name()).collect();
                    let help = match suggest(n.get_ref(), all.iter().copied()) {
                        Some(s) => format!("did you mean `{s}`? a theme styles {}", all.join(", ")),
                        None => format!("a theme styles {} (a prefab keeps its own art)", all.join(", ")),
                    };
                    self.invalid(n.span(), format!("{}unknown region kind `{}`", self.prefix, n.get_ref()), Some(help));
                }
            }
        }
        kinds
    }

    /// A terrain written in a theme, checked by `fits`; `what` names what it must be.
    fn themed_terrain(
        &mut self,
        name: &Spanned<String>,
        what: &str,
        fits: impl Fn(Terrain) -> bool,
    ) -> Option<Terrain> {
        match parse_terrain(name.get_ref()) {
            Ok(t) if fits(t) => Some(t),
            Ok(t) => {
                let message = format!("{}`{}` is {}, not {what}", self.prefix, name.get_ref(), t.role().name());
                self.invalid(name.span(), message, Some(format!("list {what} terrains here, like `{what}:3`")));
                None
            }
            Err(e) => {
                self.invalid(name.span(), format!("{}{e}", self.prefix), None);
                None
            }
        }
    }

    fn styles(
        &mut self,
        table: &Table,
        words: &WeightWords,
        what: &str,
        fits: impl Fn(Terrain) -> bool,
    ) -> Vec<(Terrain, u32)> {
        let mut out = Vec::new();
        for (name, w) in table {
            let weight = self.weight(w, words);
            if let Some(t) = self.themed_terrain(name, what, &fits) {
                out.push((t, weight));
            }
        }
        out
    }

    fn floor_styles(&mut self, f: &Spanned<FloorsFile>, words: &WeightWords) -> FloorStyles {
        let raw = f.get_ref();
        let regions = self.region_kinds(&raw.regions);
        if raw.regions.is_empty() {
            self.invalid(
                f.span(),
                format!("{}a [[theme.floors]] entry names no regions", self.prefix),
                Some("add `regions = [\"room\"]` (or hall, corridor, junction, cave, passage)".into()),
            );
        }
        let floors: Vec<FloorKind> = regions.iter().filter_map(|&k| floor_of(k)).collect();
        let mixed = floors.windows(2).any(|w| w[0] != w[1]);
        let fits = |t: Terrain| matches!(t.role(), Role::Floor(k) if floors.first() == Some(&k));
        let what = floors.first().map_or("floor", |&k| Role::Floor(k).name());
        if mixed {
            let message = format!("{}one [[theme.floors]] entry styles regions dug with different floors", self.prefix);
            self.invalid(f.span(), message, Some("give each kind of floor its own entry: rooms, halls, corridors and junctions each alone; caves and passages share the cave floor".into()));
        }
        if mixed {
            // The styles cannot fit regions dug with two floors: one error says so.
            return FloorStyles { regions, styles: Vec::new(), scatter: Vec::new() };
        }
        let styles = self.styles(&raw.styles, words, what, fits);
        if !raw.styles.is_empty() && styles.iter().all(|&(_, w)| w == 0) {
            self.invalid(
                f.span(),
                format!("{}every floor style has weight 0", self.prefix),
                Some("give at least one style a weight".into()),
            );
        }
        let mut scatter = Vec::new();
        for (name, pct) in &raw.scatter {
            let p = self.number(&Some(pct.clone()), "scatter percentage", 0..=100, 0) as u32;
            if let Some(t) = self.themed_terrain(name, what, fits) {
                scatter.push((t, p));
            }
        }
        let total: u32 = scatter.iter().map(|&(_, p)| p).sum();
        if total > 100 {
            self.invalid(
                f.span(),
                format!("{}scatter percentages add up to {total}, more than 100", self.prefix),
                None,
            );
        }
        FloorStyles { regions, styles, scatter }
    }

    fn pools(&mut self, p: &PoolsFile) -> Pools {
        let terrain =
            self.themed_terrain(&p.terrain, "liquid", |t| t.is(Role::Liquid)).unwrap_or(Terrain::new(Role::Liquid));
        let regions = self.region_kinds(&p.regions);
        let chance = self.number(&Some(p.chance.clone()), "pools.chance", 0..=100, 0) as u32;
        let [lo, hi] = *p.size.get_ref();
        let size = if (1..=MAX_POOL).contains(&lo) && (lo..=MAX_POOL).contains(&hi) {
            (lo as u32, hi as u32)
        } else {
            let message =
                format!("{}pool size [{lo}, {hi}] must be 1-{MAX_POOL} cells, the smaller first", self.prefix);
            self.invalid(p.size.span(), message, None);
            (1, 1)
        };
        let max_per_map = self.number(&p.max_per_map, "pools.max_per_map", 0..=1000, 1000) as u32;
        Pools { terrain, regions, chance, size, max_per_map }
    }
}
