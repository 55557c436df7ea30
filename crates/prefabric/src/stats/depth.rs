//! Statistics per depth, and heat maps of where content lands.
//!
//! In: the maps [`super::MapTypeStats::record`] is given, each at its depth.
//! Out: for every encounter and prefab a row per depth run ([`DepthCount`]:
//! maps and placements there, and the shares derived from them), and — when
//! asked for with [`super::MapTypeStats::with_heat_maps`] — a [`Heat`] map per
//! encounter and prefab: how many of its cells fell in each block of the map
//! over all the maps. Both are plain counts, so they add up under merge like
//! the rest of the statistics; a heat map is written to JSON as one string of
//! numbers per row, which keeps the file small.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// The most blocks a heat map has along either side: a larger map is
/// summed in square blocks of several cells.
pub const HEAT_MAX_SIDE: u32 = 64;

/// One encounter's or prefab's counts at one depth.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DepthCount {
    /// Maps at this depth it was placed in.
    pub maps: u64,
    /// Times placed at this depth.
    pub placed: u64,
    /// `maps` over the maps generated at this depth (derived).
    #[serde(default)]
    pub map_share: f64,
    /// For an encounter: its share of all encounters placed at this depth
    /// (derived); 0 for a prefab.
    #[serde(default)]
    pub placement_share: f64,
    /// For an encounter that can appear at this depth: its weight over the
    /// weights of all that can (derived), its expected share of the
    /// encounters placed here; null where it cannot appear, and for a prefab.
    #[serde(default)]
    pub weight_share: Option<f64>,
}

impl DepthCount {
    /// Adds one placement, the first of its map when `first_in_map`.
    pub(crate) fn add(&mut self, first_in_map: bool) {
        self.placed += 1;
        self.maps += u64::from(first_in_map);
    }

    /// Adds the counts of `other`.
    pub(crate) fn merge(&mut self, other: &DepthCount) {
        self.placed += other.placed;
        self.maps += other.maps;
    }
}

/// Rows for every depth in `depths`, all zero.
pub(crate) fn zero_rows(depths: &[u32]) -> BTreeMap<u32, DepthCount> {
    depths.iter().map(|&d| (d, DepthCount::default())).collect()
}

/// Adds `theirs` into `ours`, depth by depth.
pub(crate) fn merge_rows(ours: &mut BTreeMap<u32, DepthCount>, theirs: &BTreeMap<u32, DepthCount>) {
    for (depth, count) in theirs {
        ours.entry(*depth).or_default().merge(count);
    }
}

/// Works out the map shares of `rows` from the maps made at each depth.
pub(crate) fn finish_rows(rows: &mut BTreeMap<u32, DepthCount>, depth_maps: &BTreeMap<u32, u64>) {
    for (depth, row) in rows.iter_mut() {
        let maps = depth_maps.get(depth).copied().unwrap_or(0);
        row.map_share = if maps == 0 { 0.0 } else { row.maps as f64 / maps as f64 };
    }
}

/// The size of a map type's heat maps: blocks of `cell` × `cell` map cells,
/// `width` × `height` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeatShape {
    /// Map cells along each side of a block.
    pub cell: u32,
    /// Blocks across.
    pub width: u32,
    /// Blocks down.
    pub height: u32,
}

impl HeatShape {
    /// The shape for maps of `width` × `height` cells: one block per cell,
    /// unless a side is longer than [`HEAT_MAX_SIDE`].
    pub fn for_map(width: i32, height: i32) -> HeatShape {
        let (w, h) = (width.max(1) as u32, height.max(1) as u32);
        let cell = w.max(h).div_ceil(HEAT_MAX_SIDE).max(1);
        HeatShape { cell, width: w.div_ceil(cell), height: h.div_ceil(cell) }
    }

    /// An empty heat map of this shape.
    pub fn empty(&self) -> Heat {
        Heat(vec![vec![0; self.width as usize]; self.height as usize])
    }
}

/// Cells occupied, summed over the maps, per block of a [`HeatShape`]:
/// `rows[y][x]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heat(pub Vec<Vec<u32>>);

impl Heat {
    /// Adds one occupied map cell (`x`, `y`); cells off the map are left out.
    pub(crate) fn add_cell(&mut self, shape: &HeatShape, x: i32, y: i32) {
        if x < 0 || y < 0 {
            return;
        }
        let (bx, by) = (x as u32 / shape.cell, y as u32 / shape.cell);
        if let Some(count) = self.0.get_mut(by as usize).and_then(|row| row.get_mut(bx as usize)) {
            *count = count.saturating_add(1);
        }
    }

    /// Adds every cell of a rectangle.
    pub(crate) fn add_rect(&mut self, shape: &HeatShape, rect: &crate::geom::Rect) {
        for y in rect.y..rect.y + rect.height {
            for x in rect.x..rect.x + rect.width {
                self.add_cell(shape, x, y);
            }
        }
    }

    /// Adds `other`, of the same shape.
    pub(crate) fn merge(&mut self, other: &Heat) {
        for (ours, theirs) in self.0.iter_mut().zip(&other.0) {
            for (a, b) in ours.iter_mut().zip(theirs) {
                *a = a.saturating_add(*b);
            }
        }
    }

    /// The largest count.
    pub fn max(&self) -> u32 {
        self.0.iter().flatten().copied().max().unwrap_or(0)
    }
}

impl Serialize for Heat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rows: Vec<String> =
            self.0.iter().map(|row| row.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")).collect();
        rows.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Heat {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Heat, D::Error> {
        let rows: Vec<String> = Vec::deserialize(deserializer)?;
        let parse = |row: &String| -> Result<Vec<u32>, D::Error> {
            row.split_whitespace()
                .map(|n| {
                    n.parse::<u32>().map_err(|_| D::Error::custom(format!("`{n}` in a heat map row is not a count")))
                })
                .collect()
        };
        Ok(Heat(rows.iter().map(parse).collect::<Result<_, _>>()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_maps_are_summed_in_blocks_and_small_ones_by_cell() {
        assert_eq!(HeatShape::for_map(80, 50), HeatShape { cell: 2, width: 40, height: 25 });
        assert_eq!(HeatShape::for_map(40, 30), HeatShape { cell: 1, width: 40, height: 30 });
        assert_eq!(HeatShape::for_map(200, 200), HeatShape { cell: 4, width: 50, height: 50 });
    }

    #[test]
    fn heat_counts_cells_per_block_and_survives_json() {
        let shape = HeatShape::for_map(80, 50);
        let mut heat = shape.empty();
        heat.add_rect(&shape, &crate::geom::Rect { x: 1, y: 1, width: 3, height: 2 });
        heat.add_cell(&shape, 500, 1);
        assert_eq!((heat.0[0][0], heat.0[0][1], heat.0[1][0], heat.max()), (1, 2, 1, 2));
        let json = serde_json::to_string(&heat).unwrap();
        assert!(json.starts_with("[\"1 2 0"), "{json}");
        let back: Heat = serde_json::from_str(&json).unwrap();
        assert_eq!(back, heat);
        let mut twice = heat.clone();
        twice.merge(&heat);
        assert_eq!(twice.max(), 4);
    }
}
