//! Joining what the chain left apart: the features' prefabs, placed before the
//! layout, which the chain does not grow from.
//!
//! In: the chain with its start placed (and again once it is finished), and the
//! feature prefabs, each a network of its own. A chained level is closed — its
//! floor is walled all round and only unused connectors lead out — so a stray
//! network is joined by the shortest hallway through free ground from one of its
//! ways out (a feature's link, beyond its prefab, kept free for this) to a free
//! connector of the start's network, which becomes a doorway. Joining right after
//! the start is placed, while the map is still open, means a way almost always
//! exists; the chain then grows around the hallway. Out: one network, or the
//! ones no hallway can reach, left for the carver's last resort (which reports
//! them).

use super::{Chain, Connector, claim};
use crate::format::article_before_number;
use crate::geom::{Dir, Point};
use crate::map::{RegionId, Stage};
use crate::trace::Outcome;
use std::collections::VecDeque;

/// A way out of a network: the free cell a hallway starts from, and the unused
/// connector that becomes its doorway (none for a feature's link, already open).
#[derive(Copy, Clone)]
struct Exit {
    from: Point,
    connector: Option<Connector>,
}

/// Joins every network apart from the start's; returns how many hallways it dug.
pub(super) fn join_apart(chain: &mut Chain<'_, '_>) -> u32 {
    let Some(start) = chain.pieces.first().map(|p| p.region) else { return 0 };
    let mut dug = 0;
    // Each join merges a network into the start's, so this many rounds suffice.
    for _ in 0..=chain.c.map.regions.len() {
        let main = chain.c.find(start);
        let Some(stray) = stray_network(chain, main) else { break };
        let exits = exits_of(chain, stray);
        let targets = exits_of(chain, main);
        let Some((path, from, to)) = shortest_hallway(chain, &exits, &targets) else {
            // Left to the carver, which names the network it cannot reach.
            break;
        };
        chain.c.dig_path(&path, stray);
        for &p in &path {
            let i = chain.index(p);
            chain.claims[i] = claim::OPEN;
        }
        // Walled at once, so the pieces chained later keep their floor off it.
        for &p in &path {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    chain.wall_if_free(p + Point::new(dx, dy));
                }
            }
        }
        for c in [from.connector, to.connector].into_iter().flatten() {
            chain.doorway(c.piece, c.at, c.dir, true);
            let region = chain.pieces[c.piece as usize].region;
            chain.c.union(region, stray);
        }
        chain.c.union(stray, main);
        dug += 1;
        let message = format!(
            "{} {}-cell hallway from {} joins what the chain did not reach",
            article_before_number(path.len()),
            path.len(),
            path[0]
        );
        chain.c.map.trace.push("layout", Outcome::Chose, message);
    }
    dug
}

/// A network other than `main` that has open cells, if any (by its root region).
fn stray_network(chain: &mut Chain<'_, '_>, main: RegionId) -> Option<RegionId> {
    for id in 0..chain.c.map.regions.len() as RegionId {
        if chain.c.map.regions[id as usize].area > 0 && chain.c.find(id) != main {
            return Some(chain.c.find(id));
        }
    }
    None
}

/// The ways out of the network rooted at `root`: its pieces' unused connectors
/// with free ground in front, and its feature prefabs' links, followed out of the
/// prefab to the first free cell.
fn exits_of(chain: &mut Chain<'_, '_>, root: RegionId) -> Vec<Exit> {
    let mut out = Vec::new();
    for k in 0..chain.connectors.len() {
        let c = chain.connectors[k];
        let front = c.at + c.dir.delta();
        let region = chain.pieces[c.piece as usize].region;
        if chain.claim(c.at) == claim::CONNECTOR
            && chain.claim(front) == claim::FREE
            && chain.c.interior().contains(front)
            && chain.c.find(region) == root
        {
            out.push(Exit { from: front, connector: Some(c) });
        }
    }
    for l in 0..chain.c.map.links.len() {
        let link = chain.c.map.links[l];
        let placed = &chain.c.map.prefabs[link.prefab];
        let reach = placed.bounds.width.max(placed.bounds.height) + 1;
        let Some(region) = placed.region.filter(|_| placed.stage == Stage::Feature) else { continue };
        if chain.c.find(region) != root {
            continue;
        }
        let mut p = link.at;
        for _ in 0..reach {
            p = p + link.dir.delta();
            match chain.claim(p) {
                claim::OPEN => continue,
                claim::FREE | claim::RESERVED if chain.c.interior().contains(p) => {
                    out.push(Exit { from: p, connector: None })
                }
                _ => {}
            }
            break;
        }
    }
    out
}

/// The shortest path through free ground (anywhere off the map's outermost ring:
/// a feature may lie inside the chain's margin) from one of `exits`
/// to one of `targets`, both ends included, with the two exits it joins.
fn shortest_hallway(chain: &Chain<'_, '_>, exits: &[Exit], targets: &[Exit]) -> Option<(Vec<Point>, Exit, Exit)> {
    const UNSEEN: u32 = u32::MAX;
    const SOURCE: u32 = u32::MAX - 1;
    let n = chain.claims.len();
    let mut prev = vec![UNSEEN; n];
    let mut target_at = vec![u32::MAX; n];
    for (k, t) in targets.iter().enumerate() {
        target_at[chain.index(t.from)] = k as u32;
    }
    let mut source_at = vec![u32::MAX; n];
    let mut queue = VecDeque::new();
    for (k, e) in exits.iter().enumerate() {
        let i = chain.index(e.from);
        if prev[i] == UNSEEN {
            prev[i] = SOURCE;
            source_at[i] = k as u32;
            queue.push_back(i);
        }
    }
    let width = chain.width;
    while let Some(i) = queue.pop_front() {
        if let Some(&t) = targets.get(target_at[i] as usize) {
            let mut path = vec![chain.c.map.terrain.point_of(i)];
            let mut k = i;
            while prev[k] != SOURCE {
                k = prev[k] as usize;
                path.push(chain.c.map.terrain.point_of(k));
            }
            path.reverse();
            return Some((path, exits[source_at[k] as usize], t));
        }
        let p = Point::new(i as i32 % width, i as i32 / width);
        for d in Dir::ALL {
            let q = p + d.delta();
            if !chain.c.interior().contains(q) || !matches!(chain.claim(q), claim::FREE | claim::RESERVED) {
                continue;
            }
            let j = chain.index(q);
            if prev[j] == UNSEEN {
                prev[j] = i as u32;
                queue.push_back(j);
            }
        }
    }
    None
}
