//! Columns in wide corridors, DungeonMaker's "columns in wide tunnels".
//!
//! In: a dug layout (walls not yet raised), a percent chance per corridor and
//! the spacing of columns along it. Out: some corridors whose rectangle is at
//! least [`MIN_SIDE`] cells across get a colonnade: lone wall cells in a regular
//! rhythm, one line down the middle of a corridor 5 or 6 wide, two lines one
//! cell in from its sides when it is wider. Guarantees: a column is a wall cell
//! of no region (its corridor's `area` no longer counts it) whose 8 neighbours
//! are open cells of its corridor; across the corridor, side margins included,
//! every cell within two rows of it is that corridor's or solid, so none stands
//! near a door, a junction's mouth, a link's way out or where other open space
//! meets the corridor; the two rows at each end of the stretch stay clear, and
//! columns stand in runs of two or more, never alone. With open floor all round each one,
//! columns cannot cut any way through the map.

use crate::geom::{Point, Rect};
use crate::layout::{Carver, Cell};
use crate::map::{RegionId, RegionKind};
use crate::rng::Rng;

/// The fewest cells across a corridor that may hold columns.
pub(super) const MIN_SIDE: i32 = 5;

/// Rows kept clear at each end of a corridor, before the first column and after
/// the last.
const END_CLEAR: i32 = 2;

/// What [`raise`] did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Colonnades {
    /// Columns raised.
    pub columns: u32,
    /// Corridors that got at least one.
    pub corridors: u32,
}

/// Gives each corridor at least [`MIN_SIDE`] across, with `chance` percent,
/// columns every `spacing` cells along it. Only qualifying corridors draw from
/// `rng`, in region order.
pub(super) fn raise(c: &mut Carver<'_>, chance: u32, spacing: i32, rng: &mut Rng) -> Colonnades {
    let mut done = Colonnades::default();
    for id in 0..c.map.regions.len() {
        let region = &c.map.regions[id];
        let b = region.bounds;
        if region.kind != RegionKind::Corridor || b.width.min(b.height) < MIN_SIDE || !rng.percent(chance) {
            continue;
        }
        let mut raised = 0;
        for line in lines(b, spacing) {
            let free: Vec<bool> = line.iter().map(|&p| stands_free(c, b, p, id as RegionId)).collect();
            for (i, &p) in line.iter().enumerate() {
                // Columns go up in runs of two or more: no pillar stands alone.
                let beside = |j: Option<usize>| j.and_then(|j| free.get(j)).copied().unwrap_or(false);
                if free[i] && (beside(i.checked_sub(1)) || beside(Some(i + 1))) {
                    c.raise_column(p);
                    raised += 1;
                }
            }
        }
        done.columns += raised;
        done.corridors += u32::from(raised > 0);
    }
    done
}

/// Where a colonnade in corridor `b` puts its columns, line by line: lines
/// along the longer side, a column every `spacing` cells, centred between the
/// clear ends. None when fewer than two fit in a line.
fn lines(b: Rect, spacing: i32) -> Vec<Vec<Point>> {
    let horizontal = b.width >= b.height;
    let (along, across) = if horizontal { (b.width, b.height) } else { (b.height, b.width) };
    let free = along - 2 * END_CLEAR - 1;
    if free < spacing {
        return Vec::new();
    }
    let count = free / spacing + 1;
    let first = END_CLEAR + (free - (count - 1) * spacing) / 2;
    let offsets = if across >= 7 { vec![1, across - 2] } else { vec![(across - 1) / 2] };
    let at = |i: i32, j: i32| if horizontal { Point::new(b.x + i, b.y + j) } else { Point::new(b.x + j, b.y + i) };
    offsets.iter().map(|&j| (0..count).map(|n| at(first + n * spacing, j)).collect()).collect()
}

/// True when a column may stand at `p` in corridor `id` with rectangle `b`:
/// its 8 neighbours are open cells of the corridor, and across the corridor's
/// whole width, its side margins included, every cell within two rows of it is
/// the corridor's or solid (no door, no junction, no other open space).
fn stands_free(c: &Carver<'_>, b: Rect, p: Point, id: RegionId) -> bool {
    let around = if b.width >= b.height {
        Rect::new(p.x - 2, b.y - 1, 5, b.height + 2)
    } else {
        Rect::new(b.x - 1, p.y - 2, b.width + 2, 5)
    };
    let near = |q: Point| (q.x - p.x).abs() <= 1 && (q.y - p.y).abs() <= 1 && q != p;
    c.classify(p) == Cell::Open(id)
        && around.points().all(|q| match c.classify(q) {
            Cell::Open(r) => r == id,
            Cell::Diggable | Cell::Solid => !near(q),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_five_wide_corridor_gets_one_centred_line_with_clear_ends() {
        // 20 long: from the third cell to the third from last, 6 columns 3 apart;
        // 21 long leaves a cell of slack, 22 long two, split at the ends.
        let found = lines(Rect::new(10, 4, 20, 5), 3);
        assert_eq!(found.len(), 1);
        let xs: Vec<i32> = found[0].iter().map(|p| p.x - 10).collect();
        assert_eq!(xs, [2, 5, 8, 11, 14, 17]);
        assert!(found[0].iter().all(|p| p.y == 6));
        let xs: Vec<i32> = lines(Rect::new(0, 0, 22, 5), 3)[0].iter().map(|p| p.x).collect();
        assert_eq!(xs, [3, 6, 9, 12, 15, 18]);
    }

    #[test]
    fn a_seven_wide_corridor_gets_two_lines_one_in_from_its_sides() {
        let found = lines(Rect::new(0, 0, 7, 12), 3);
        assert_eq!(found.len(), 2);
        assert!(found[0].iter().all(|p| p.x == 1) && found[1].iter().all(|p| p.x == 5));
        assert_eq!(found[0].iter().map(|p| p.y).collect::<Vec<_>>(), [2, 5, 8]);
    }

    #[test]
    fn a_stretch_too_short_for_two_columns_gets_none() {
        assert!(lines(Rect::new(0, 0, 7, 5), 3).is_empty());
        assert_eq!(lines(Rect::new(0, 0, 8, 5), 3)[0].len(), 2);
    }
}
