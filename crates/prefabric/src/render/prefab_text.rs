//! Prefabs written back in the text prefab syntax.
//!
//! The output parses back to an equal prefab with the same palette: terrain glyphs
//! are the palette's first glyph for each terrain, connectors on the outline are
//! drawn as `*` in the terrain, a link whose direction is not the one its nearest
//! edge implies gets an arrow beside it, and the machine and
//! reference layers are written when the prefab has any. A prefab with variation
//! lines is written as drawn: its lines, the glyphs they name where they were
//! drawn, the references of its refs layer (not those its legend gives), and its
//! mask layer.

use crate::error::{Error, ErrorKind};
use crate::format::palette::{CONNECTOR, DONT_CARE, Palette};
use crate::geom::Point;
use crate::grid::Grid;
use crate::prefab::{EMPTY, LayerKind, Prefab};

/// The prefab as text, ending in a newline. Fails when the palette has no glyph for
/// one of its terrains, a link's arrow has no free cell beside it, or a machine or
/// reference glyph is one the text syntax cannot hold (`.` or a blank).
pub fn prefab_text(prefab: &Prefab, palette: &Palette) -> Result<String, Error> {
    let mut out = format!("prefab {}\n", prefab.name());
    if !prefab.tags().is_empty() {
        out.push_str(&format!("tags: {}\n", prefab.tags().join(" ")));
    }
    out.push_str(&format!("transforms: {}\nstyle: {}\n", prefab.transforms().describe(), prefab.style()));
    let header = prefab.header();
    if let Some(defs) = &header.defs {
        out.push_str(&format!("defs: {defs}\n"));
    }
    for line in &header.variation {
        out.push_str(&format!("{}: {}\n", line.key, line.value));
    }
    out.push_str("terrain:\n");
    let in_terrain = prefab.terrain_connectors();
    let mut connector_cells = Grid::new(prefab.width(), prefab.height(), false);
    for (link, _) in prefab.links().iter().zip(&in_terrain).filter(|(_, t)| **t) {
        connector_cells.set(link.at, true);
    }
    for (y, (row, marks)) in prefab.cells().rows().zip(connector_cells.rows()).enumerate() {
        for (x, (cell, &connector)) in row.iter().zip(marks).enumerate() {
            // A cell a variation line names keeps the glyph drawn there.
            let named = prefab.variation_glyph(Point::new(x as i32, y as i32));
            let glyph = match (cell, named) {
                _ if connector => CONNECTOR,
                (_, Some((g, _))) => g,
                (None, None) => DONT_CARE,
                (Some(t), None) => palette.source_glyph(*t).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Invalid,
                        format!("prefab `{}`: the palette has no glyph for {t}", prefab.name()),
                    )
                })?,
            };
            out.push(glyph);
        }
        out.push('\n');
    }
    if in_terrain.iter().any(|t| !t) {
        let glyphs = prefab.link_layer(&in_terrain)?;
        write_layer(&mut out, LayerKind::Links, glyphs.rows());
    }
    if !prefab.machines().is_empty() {
        let mut glyphs = Grid::new(prefab.width(), prefab.height(), None);
        for machine in prefab.machines() {
            for &(p, glyph) in machine.cells() {
                if glyph == EMPTY || glyph.is_whitespace() || glyph.is_control() {
                    return Err(Error::new(
                        ErrorKind::Invalid,
                        format!(
                            "prefab `{}`: the machine cell at x={} y={} has the glyph {glyph:?}, which the machines layer of a text prefab cannot hold",
                            prefab.name(),
                            p.x,
                            p.y
                        ),
                    )
                    .with_help("keep this prefab as .xp, or redraw the machine with visible glyphs other than `.`"));
                }
                glyphs.set(p, Some(glyph));
            }
        }
        write_layer(&mut out, LayerKind::Machines, glyphs.rows());
    }
    if !prefab.drawn_refs().is_empty() {
        let mut glyphs = Grid::new(prefab.width(), prefab.height(), None);
        for r in prefab.drawn_refs() {
            if r.glyph == EMPTY || r.glyph.is_whitespace() || r.glyph.is_control() {
                return Err(Error::new(
                    ErrorKind::Invalid,
                    format!(
                        "prefab `{}`: reference {:?} at x={} y={} cannot be written in a text prefab",
                        prefab.name(),
                        r.glyph,
                        r.at.x,
                        r.at.y
                    ),
                ));
            }
            glyphs.set(r.at, Some(r.glyph));
        }
        write_layer(&mut out, LayerKind::Refs, glyphs.rows());
    }
    if let Some(mask) = prefab.mask_glyphs() {
        write_layer(&mut out, LayerKind::Mask, mask.rows());
    }
    Ok(out)
}

fn write_layer<'g>(out: &mut String, kind: LayerKind, rows: impl Iterator<Item = &'g [Option<char>]>) {
    out.push_str(kind.name());
    out.push_str(":\n");
    for row in rows {
        out.extend(row.iter().map(|g| g.unwrap_or(EMPTY)));
        out.push('\n');
    }
}
