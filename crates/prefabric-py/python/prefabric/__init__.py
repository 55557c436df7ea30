"""Roguelike maps from hand-made prefabs woven into procedurally generated layouts.

A quick tour::

    import prefabric

    pack = prefabric.Pack.builtin()              # or prefabric.Pack.load("my_pack")
    generator = prefabric.Generator(pack, "materials", depth=3)
    level = generator.generate(1234)             # the same map for the same seed, always

    level.terrain      # numpy uint8 (height, width): role codes, see prefabric.ROLE_NAMES
    level.walkable     # numpy bool (height, width)
    level.glyphs       # the map as text rows
    level.stairs       # staircases: put the player on the one whose role is "up"
    level.to_json()    # what `prefabric generate --format json` writes

    maps = generator.generate_many(range(100))   # on every core, GIL released
    report = prefabric.stats(pack, "materials", seeds=range(1000))

The classes and functions live in the native module ``prefabric._prefabric``
(written in Rust); this package re-exports them.
"""

from ._prefabric import (
    ROLE_NAMES,
    Door,
    Error,
    GenerationError,
    Generator,
    Map,
    Object,
    Pack,
    PackError,
    PlacedPrefab,
    Problem,
    Region,
    Staircase,
    Stats,
    __version__,
    stats,
)

__all__ = [
    "ROLE_NAMES",
    "Door",
    "Error",
    "GenerationError",
    "Generator",
    "Map",
    "Object",
    "Pack",
    "PackError",
    "PlacedPrefab",
    "Problem",
    "Region",
    "Staircase",
    "Stats",
    "__version__",
    "stats",
]
