//! Prefabs written back in the text prefab syntax.
//!
//! The output parses back to an equal prefab with the same palette: terrain glyphs
//! are the palette's first glyph for each terrain, and a link whose direction is not
//! the one its nearest edge implies gets an arrow beside it.

use crate::error::{Error, ErrorKind};
use crate::format::palette::{DONT_CARE, Palette};
use crate::geom::{Dir, Point, Rect};
use crate::map::LinkKind;
use crate::prefab::{Prefab, nearest_edge};

/// The prefab as text, ending in a newline. Fails when the palette has no glyph for
/// one of its terrains, or a link's arrow has no free cell beside it.
pub fn prefab_text(prefab: &Prefab, palette: &Palette) -> Result<String, Error> {
    let mut out = format!("prefab {}\n", prefab.name());
    if !prefab.tags().is_empty() {
        out.push_str(&format!("tags: {}\n", prefab.tags().join(" ")));
    }
    out.push_str(&format!("transforms: {}\nstyle: {}\nterrain:\n", prefab.transforms().describe(), prefab.style()));
    for row in prefab.cells().rows() {
        for cell in row {
            let glyph = match cell {
                None => DONT_CARE,
                Some(t) => palette.source_glyph(*t).ok_or_else(|| {
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
    if !prefab.links().is_empty() {
        out.push_str("links:\n");
        for row in link_layer(prefab)?.chunks(prefab.width() as usize) {
            out.extend(row.iter());
            out.push('\n');
        }
    }
    Ok(out)
}

/// The links layer as glyphs, row-major.
fn link_layer(prefab: &Prefab) -> Result<Vec<char>, Error> {
    let (w, h) = (prefab.width(), prefab.height());
    let bounds = Rect::new(0, 0, w, h);
    let mut layer = vec!['.'; (w * h) as usize];
    let index = |p: Point| (p.y * w + p.x) as usize;
    for link in prefab.links() {
        layer[index(link.at)] = match link.kind {
            LinkKind::Tunnel { width } => char::from(b'0' + width.min(9)),
            LinkKind::Connector => '*',
        };
    }
    let is_mark = |p: Point| prefab.links().iter().any(|l| l.at == p);
    for link in prefab.links() {
        if nearest_edge(link.at, w, h) == Ok(link.dir) {
            continue;
        }
        let free = [link.dir, link.dir.left(), link.dir.right(), link.dir.opposite()]
            .into_iter()
            .map(|d| link.at + d.delta())
            .find(|&p| {
                bounds.contains(p)
                    && layer[index(p)] == '.'
                    && Dir::ALL.iter().filter(|d| is_mark(p + d.delta())).count() == 1
            });
        let Some(p) = free else {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("prefab `{}`: no free cell beside the link at {} for its arrow", prefab.name(), link.at),
            ));
        };
        layer[index(p)] = link.dir.arrow();
    }
    Ok(layer)
}
