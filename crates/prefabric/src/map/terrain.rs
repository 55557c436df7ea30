//! Terrain: what each cell of a map is, as far as generators care.
//!
//! In: nothing (plain values). Out: [`FloorKind`], [`Role`] and [`Terrain`], a
//! role and a 0–9 theme variant packed into one byte. Guarantees: a terrain's
//! byte always reads back as the role and variant it was made with (variants
//! clamp to 9), and terrains order by role, then variant.

use std::fmt;

/// The kinds of floor a generator lays, after Cogmind's cell types.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FloorKind {
    /// Inside a room.
    Room,
    /// Inside a hall (a large open room).
    Hall,
    /// A tunnel.
    Corridor,
    /// Where tunnels turn or branch.
    Junction,
    /// An open cave area.
    Cave,
}

/// What a cell is, as far as generators care.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Solid rock that tunnels may dig through.
    Earth,
    /// Solid rock that nothing digs (Cogmind's BLOCKED).
    Blocked,
    /// A wall beside open space.
    Wall,
    /// Walkable floor of some kind.
    Floor(FloorKind),
    /// A door.
    Door,
    /// A door that looks like wall until found.
    SecretDoor,
    /// Stairs leading up (the way in).
    StairsUp,
    /// Stairs leading down (the way on).
    StairsDown,
    /// Deep liquid: water, lava, sludge (its variants, named by the palette).
    /// Nothing walks or digs through it, but it is open to sight, so no wall is
    /// raised around it: a pool, a moat, a flooded shaft.
    Liquid,
    /// General stairs, drawn in prefabs only: a staircase whose direction is
    /// not fixed, or that may not be needed. After the encounters each becomes
    /// stairs up, stairs down or floor, as the map type's `stairs` count says.
    Stairs,
}

impl Role {
    /// Every role, in a fixed order (see [`Role::index`]).
    pub const ALL: [Role; 14] = [
        Role::Earth,
        Role::Blocked,
        Role::Wall,
        Role::Floor(FloorKind::Room),
        Role::Floor(FloorKind::Hall),
        Role::Floor(FloorKind::Corridor),
        Role::Floor(FloorKind::Junction),
        Role::Floor(FloorKind::Cave),
        Role::Door,
        Role::SecretDoor,
        Role::StairsUp,
        Role::StairsDown,
        Role::Liquid,
        Role::Stairs,
    ];

    /// Position in [`Role::ALL`].
    pub const fn index(self) -> usize {
        match self {
            Role::Earth => 0,
            Role::Blocked => 1,
            Role::Wall => 2,
            Role::Floor(FloorKind::Room) => 3,
            Role::Floor(FloorKind::Hall) => 4,
            Role::Floor(FloorKind::Corridor) => 5,
            Role::Floor(FloorKind::Junction) => 6,
            Role::Floor(FloorKind::Cave) => 7,
            Role::Door => 8,
            Role::SecretDoor => 9,
            Role::StairsUp => 10,
            Role::StairsDown => 11,
            Role::Liquid => 12,
            Role::Stairs => 13,
        }
    }

    /// The name used in palettes and JSON: `earth`, `blocked`, `wall`, `room`,
    /// `hall`, `corridor`, `junction`, `cave`, `door`, `secret_door`, `stairs_up`,
    /// `stairs_down`, `liquid`, `stairs`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Earth => "earth",
            Role::Blocked => "blocked",
            Role::Wall => "wall",
            Role::Floor(FloorKind::Room) => "room",
            Role::Floor(FloorKind::Hall) => "hall",
            Role::Floor(FloorKind::Corridor) => "corridor",
            Role::Floor(FloorKind::Junction) => "junction",
            Role::Floor(FloorKind::Cave) => "cave",
            Role::Door => "door",
            Role::SecretDoor => "secret_door",
            Role::StairsUp => "stairs_up",
            Role::StairsDown => "stairs_down",
            Role::Liquid => "liquid",
            Role::Stairs => "stairs",
        }
    }

    /// Parses a name written by [`Role::name`].
    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name)
    }

    /// True where a walker can stand: floors, doors (secret ones too) and stairs.
    pub const fn is_walkable(self) -> bool {
        !matches!(self, Role::Earth | Role::Blocked | Role::Wall | Role::Liquid)
    }
}

/// A cell's terrain: its role and a 0–9 variant (a theme's floor or wall style).
///
/// Stored as one byte, the role's [`Role::index`] in the high four bits and the
/// variant in the low four, so a map's terrain grid is one byte a cell: the
/// passes over every cell (walls to style, floor to furnish, cells to connect)
/// then compare sixteen cells at a time, where a two-byte cell holding a
/// [`Role`] had to be read a byte at a time. Terrains order by role, then
/// variant, as the role and variant themselves do.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "TerrainParts", try_from = "TerrainParts"))]
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Terrain(u8);

/// A terrain as serde writes it: its role and variant, not the packed byte.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct TerrainParts {
    role: Role,
    variant: u8,
}

#[cfg(feature = "serde")]
impl From<Terrain> for TerrainParts {
    fn from(t: Terrain) -> TerrainParts {
        TerrainParts { role: t.role(), variant: t.variant() }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<TerrainParts> for Terrain {
    type Error = String;

    fn try_from(parts: TerrainParts) -> Result<Terrain, String> {
        if parts.variant > 9 {
            return Err(format!("terrain variant {} is not 0-9", parts.variant));
        }
        Ok(Terrain::with_variant(parts.role, parts.variant))
    }
}

impl Terrain {
    /// Plain diggable earth, what every map starts as.
    pub const EARTH: Terrain = Terrain::new(Role::Earth);

    /// Variant 0 of a role.
    pub const fn new(role: Role) -> Terrain {
        Terrain::with_variant(role, 0)
    }

    /// A role with a variant (clamped to 9).
    pub const fn with_variant(role: Role, variant: u8) -> Terrain {
        Terrain(((role.index() as u8) << 4) | if variant > 9 { 9 } else { variant })
    }

    /// Variant 0 of a floor kind.
    pub const fn floor(kind: FloorKind) -> Terrain {
        Terrain::new(Role::Floor(kind))
    }

    /// What the cell is.
    #[inline]
    pub const fn role(self) -> Role {
        ROLE_OF_CODE[(self.0 >> 4) as usize]
    }

    /// Its role's [`Role::index`], read straight from the byte: what
    /// `t.role().index()` gives, for loops over every cell of a map.
    #[inline]
    pub const fn role_index(self) -> usize {
        (self.0 >> 4) as usize
    }

    /// Which style of it, 0–9; 0 is the plain one.
    #[inline]
    pub const fn variant(self) -> u8 {
        self.0 & 0x0f
    }

    /// True when this is `role`, of any variant: `t.role() == role` without
    /// decoding the role.
    #[inline]
    pub const fn is(self, role: Role) -> bool {
        self.0 & 0xf0 == Terrain::role_bits(role)
    }

    /// True for floor of any kind: `matches!(t.role(), Role::Floor(_))`.
    #[inline]
    pub const fn is_floor(self) -> bool {
        // The five floor kinds are the roles 3 to 7 in [`Role::ALL`].
        self.0.wrapping_sub(Terrain::role_bits(Role::Floor(FloorKind::Room))) < 5 << 4
    }

    /// True on a door, secret or not.
    #[inline]
    pub const fn is_door(self) -> bool {
        // Doors and secret doors are the roles 8 and 9 in [`Role::ALL`].
        self.0.wrapping_sub(Terrain::role_bits(Role::Door)) < 2 << 4
    }

    /// True on stairs of any of the three roles: up, down, or not yet decided.
    #[inline]
    pub(crate) const fn is_stairs(self) -> bool {
        self.is(Role::StairsUp) || self.is(Role::StairsDown) || self.is(Role::Stairs)
    }

    /// True where a walker can stand ([`Role::is_walkable`]), read off the
    /// byte: every role from the first floor on but liquid.
    #[inline]
    pub const fn is_walkable(self) -> bool {
        self.0 >= Terrain::role_bits(Role::Floor(FloorKind::Room)) && !self.is(Role::Liquid)
    }

    /// The high four bits of the byte of every variant of `role`.
    #[inline]
    pub(crate) const fn role_bits(role: Role) -> u8 {
        (role.index() as u8) << 4
    }
}

/// The role of each value of a terrain byte's high four bits: [`Role::ALL`], and
/// earth for the two values no terrain is made with (so a look-up needs no
/// bounds check).
const ROLE_OF_CODE: [Role; 16] = {
    let mut table = [Role::Earth; 16];
    let mut i = 0;
    while i < Role::ALL.len() {
        table[i] = Role::ALL[i];
        i += 1;
    }
    table
};

impl fmt::Debug for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Terrain").field("role", &self.role()).field("variant", &self.variant()).finish()
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.variant() {
            0 => f.write_str(self.role().name()),
            v => write!(f, "{}:{}", self.role().name(), v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every role with every variant comes back whole from its one byte, and
    /// the predicates that read the byte agree with the role they stand for.
    #[test]
    fn a_terrain_byte_keeps_its_role_and_variant() {
        for role in Role::ALL {
            for variant in 0..=9 {
                let t = Terrain::with_variant(role, variant);
                assert_eq!((t.role(), t.variant()), (role, variant));
                assert_eq!(t.is_walkable(), role.is_walkable(), "{t}");
                assert_eq!(t.is_floor(), matches!(role, Role::Floor(_)), "{t}");
                assert_eq!(t.is_door(), matches!(role, Role::Door | Role::SecretDoor), "{t}");
                for other in Role::ALL {
                    assert_eq!(t.is(other), role == other, "{t} is {other:?}");
                }
            }
        }
        assert_eq!(Terrain::with_variant(Role::Wall, 12).variant(), 9, "variants clamp to 9");
    }

    /// Terrains order as their roles, then variants, do.
    #[test]
    fn terrains_order_by_role_then_variant() {
        let all: Vec<Terrain> =
            Role::ALL.iter().flat_map(|&r| (0..=9).map(move |v| Terrain::with_variant(r, v))).collect();
        for pair in all.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert_eq!(a.cmp(&b), (a.role(), a.variant()).cmp(&(b.role(), b.variant())), "{a} against {b}");
        }
    }
}
