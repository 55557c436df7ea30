//! A world's plan: which levels a world seed gives, before any map is made.
//!
//! In: a [`WorldSpec`] and a world seed. Out: every level of the world — its
//! name, line, number, depth, map type and seed — in the order they are made,
//! with the level each is entered from. Which optional branches a world holds
//! and where each branch's entrance lies are drawn from streams named by the
//! branch, and each level's seed from a stream named by the level, so editing
//! one branch leaves every other line's draws and seeds as they were.

use crate::content::world::WorldSpec;
use crate::rng::Rng;

/// One level of a world's plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedLevel {
    /// Its name: `line:number`, e.g. `main:3` or `mines:1`.
    pub name: String,
    /// Index of its line in [`WorldSpec::lines`].
    pub line: usize,
    /// Its number within its line, from 1.
    pub number: u32,
    /// Its depth: its number on the main line; on a branch, the depth of the
    /// level it is entered from plus its number.
    pub depth: u32,
    /// Its map type.
    pub map_type: String,
    /// The seed its map is made from.
    pub seed: u64,
    /// Index (in the plan) of the level it is entered from; `None` for the
    /// world's first level.
    pub from: Option<usize>,
}

/// Where a branch of the spec went in one world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedBranch {
    /// Index of the branch's line in [`WorldSpec::lines`].
    pub line: usize,
    /// Index (in the plan) of the level holding its entrance; `None` when the
    /// world does not hold the branch (an optional branch not drawn, or one
    /// leaving from a branch the world does not hold).
    pub entrance: Option<usize>,
}

/// The levels of one world, in the order they are made, and its branches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Every level, sorted by depth, then line, then number: a level always
    /// comes after the one it is entered from.
    pub levels: Vec<PlannedLevel>,
    /// Every branch of the spec, in its order.
    pub branches: Vec<PlannedBranch>,
}

impl Plan {
    /// The plan of `spec` for world seed `seed`.
    pub fn new(spec: &WorldSpec, seed: u64) -> Plan {
        let mut levels: Vec<PlannedLevel> = Vec::new();
        let mut branches = Vec::new();
        // Per line, the plan index of its level n at [n - 1] (filled as lines are laid).
        let mut of_line: Vec<Vec<usize>> = vec![Vec::new(); spec.lines.len()];
        for (line, l) in spec.lines.iter().enumerate() {
            let (first_depth, from) = match &l.branch {
                None => (1, None),
                Some(b) => {
                    // Every branch draws both, present or not, so one edited
                    // branch leaves the others' draws alone.
                    let present = Rng::stream(seed, "world/branch", &l.name).below(100) < b.chance;
                    let (lo, hi) = b.entrance;
                    let number = Rng::stream(seed, "world/entrance", &l.name).range(lo as i32, hi as i32) as u32;
                    let entrance = of_line[b.from].get(number as usize - 1).copied().filter(|_| present);
                    branches.push(PlannedBranch { line, entrance });
                    match entrance {
                        Some(at) => (levels[at].depth + 1, Some(at)),
                        None => continue,
                    }
                }
            };
            for number in 1..=l.levels() {
                let name = format!("{}:{number}", l.name);
                let seed = Rng::stream(seed, "world/level", &name).next_u64();
                let from = if number == 1 { from } else { of_line[line].last().copied() };
                of_line[line].push(levels.len());
                levels.push(PlannedLevel {
                    name,
                    line,
                    number,
                    depth: first_depth + number - 1,
                    map_type: l.map_type(number).unwrap_or_default().to_string(),
                    seed,
                    from,
                });
            }
        }
        // Made in order of depth, then line, then number; `from` indices follow.
        let mut order: Vec<usize> = (0..levels.len()).collect();
        order.sort_by_key(|&i| (levels[i].depth, levels[i].line, levels[i].number));
        let mut new_index = vec![0; levels.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mut sorted: Vec<PlannedLevel> = order.iter().map(|&i| levels[i].clone()).collect();
        for level in &mut sorted {
            level.from = level.from.map(|f| new_index[f]);
        }
        for b in &mut branches {
            b.entrance = b.entrance.map(|e| new_index[e]);
        }
        Plan { levels: sorted, branches }
    }

    /// The index of the level named `name`.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.levels.iter().position(|l| l.name == name)
    }

    /// The next level of level `i`'s line, if it has one.
    pub fn next_in_line(&self, i: usize) -> Option<usize> {
        let l = &self.levels[i];
        self.levels.iter().position(|n| n.line == l.line && n.number == l.number + 1)
    }
}
