"""Type stubs of the prefabric package (the native module prefabric._prefabric, re-exported)."""

import os
import pathlib
from typing import Iterable, List, Literal, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
ROLE_NAMES: Tuple[str, ...]
"""The role names, indexed by the codes Map.terrain holds."""

_Bounds = Tuple[int, int, int, int]
_Seeds = Union[int, range, Tuple[int, int]]

class Error(Exception):
    """The base of the exceptions prefabric raises for its own failures."""

class PackError(Error):
    """A pack that does not load; str() lists every problem as `prefabric check` prints them."""

    problems: List[Problem]

class GenerationError(Error):
    """A map that could not be generated: every attempt at the seed failed."""

    seed: int
    map_type: str
    depth: int

class Problem:
    """One problem of a pack that does not load; str() is the line `prefabric check` prints."""

    @property
    def file(self) -> Optional[str]: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def column(self) -> Optional[int]: ...
    @property
    def message(self) -> str: ...
    @property
    def help(self) -> Optional[str]: ...
    @property
    def kind(self) -> Literal["io", "syntax", "format", "invalid", "limit", "generation", "lint"]: ...

class Pack:
    """A content pack: prefabs, map types, a catalog and a palette."""

    @staticmethod
    def builtin() -> Pack:
        """The pack built into prefabric, loaded once per process."""
    @staticmethod
    def load(path: Union[str, os.PathLike[str]]) -> Pack:
        """Loads the pack in a folder; raises PackError listing every problem."""
    @property
    def name(self) -> str: ...
    @property
    def map_types(self) -> List[str]: ...
    @property
    def default_map_type(self) -> str: ...
    @property
    def prefabs(self) -> List[str]: ...
    @property
    def path(self) -> Optional[pathlib.Path]:
        """The folder it was loaded from, or None for the built-in pack."""

class Generator:
    """Makes maps of one map type of a pack, at one depth; the same seed gives the same map."""

    def __init__(
        self,
        pack: Pack,
        map_type: str,
        depth: Optional[int] = 1,
        size: Optional[Tuple[int, int]] = None,
        *,
        trace: bool = False,
    ) -> None: ...
    def generate(self, seed: int) -> Map:
        """The map for a seed (0 to 2**64 - 1), made with the GIL released."""
    def generate_many(self, seeds: Iterable[int]) -> List[Map]:
        """The maps for every seed, in order, made on every core."""
    def explain(self, seed: int) -> str:
        """Every decision behind the map for a seed: `prefabric generate --explain`'s text."""
    @property
    def pack(self) -> Pack: ...
    @property
    def map_type(self) -> str: ...
    @property
    def depth(self) -> int: ...
    @property
    def trace(self) -> bool: ...
    @property
    def size(self) -> Tuple[int, int]:
        """(width, height) of its maps: the size asked, or the map type's own."""

class Door:
    """A way out of a region (a door or an opening); `to` is the region beyond."""

    @property
    def at(self) -> Tuple[int, int]: ...
    @property
    def side(self) -> Literal["north", "east", "south", "west"]: ...
    @property
    def to(self) -> Optional[int]: ...

class Region:
    """An area of the map: room, hall, corridor, junction, cave, passage or prefab."""

    @property
    def id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def laid_out_as(self) -> str: ...
    @property
    def bounds(self) -> _Bounds: ...
    @property
    def area(self) -> int: ...
    @property
    def doors(self) -> List[Door]: ...
    @property
    def openings(self) -> List[Door]: ...
    @property
    def neighbours(self) -> List[int]: ...
    @property
    def prefab(self) -> Optional[int]: ...
    @property
    def centre(self) -> Optional[Tuple[int, int]]: ...

class PlacedPrefab:
    """A prefab placed on the map."""

    @property
    def name(self) -> str: ...
    @property
    def stage(self) -> Literal["feature", "layout", "encounter"]: ...
    @property
    def bounds(self) -> _Bounds: ...
    @property
    def transform(self) -> str: ...
    @property
    def region(self) -> Optional[int]: ...
    @property
    def encounter(self) -> Optional[str]: ...
    @property
    def category(self) -> Optional[str]: ...
    @property
    def variant(self) -> Optional[int]: ...

class Object:
    """A thing on the map: a machine, entity, item, prop, trap or debris."""

    @property
    def kind(self) -> Literal["machine", "entity", "item", "prop", "trap", "debris"]: ...
    @property
    def tag(self) -> Optional[str]: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def position(self) -> Tuple[int, int]: ...
    @property
    def cells(self) -> List[Tuple[int, int, str]]: ...
    @property
    def prefab(self) -> Optional[int]: ...
    @property
    def keywords(self) -> List[Tuple[str, Optional[str]]]: ...
    @property
    def blocks(self) -> bool: ...

class Staircase:
    """A staircase: "up" (the way in) or "down" (the way on)."""

    @property
    def role(self) -> Literal["up", "down"]: ...
    @property
    def cells(self) -> List[Tuple[int, int]]: ...
    @property
    def region(self) -> Optional[int]: ...
    @property
    def prefab(self) -> Optional[int]: ...

class Map:
    """A generated map; arrays are indexed [y, x]."""

    role_names: Tuple[str, ...]
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def map_type(self) -> str: ...
    @property
    def attempt(self) -> int: ...
    @property
    def feature_variant(self) -> Optional[str]: ...
    @property
    def layout(self) -> Literal["tunnelers", "chain", "pathways", "caves"]: ...
    @property
    def moves(self) -> Literal["orthogonal", "diagonal"]: ...
    @property
    def terrain(self) -> npt.NDArray[np.uint8]:
        """Role codes, shape (height, width); ROLE_NAMES[code] names them."""
    @property
    def variants(self) -> npt.NDArray[np.uint8]: ...
    @property
    def walkable(self) -> npt.NDArray[np.bool_]: ...
    @property
    def passable(self) -> npt.NDArray[np.bool_]: ...
    @property
    def glyphs(self) -> List[str]: ...
    @property
    def regions(self) -> List[Region]: ...
    @property
    def prefabs(self) -> List[PlacedPrefab]: ...
    @property
    def features(self) -> List[PlacedPrefab]: ...
    @property
    def objects(self) -> List[Object]: ...
    @property
    def stairs(self) -> List[Staircase]: ...
    def is_walkable(self, x: int, y: int) -> bool: ...
    def is_passable(self, x: int, y: int) -> bool: ...
    def region_at(self, x: int, y: int) -> Optional[Region]: ...
    def neighbours(self, id: int) -> List[int]: ...
    def region_path(self, start: int, end: int) -> Optional[List[int]]:
        """The fewest regions from one region to another, both included."""
    def to_json(self, *, trace: bool = False) -> str:
        """What `prefabric generate --format json` writes."""
    def to_ascii(self) -> str: ...
    def to_png(
        self, *, scale: int = 4, highlight: Optional[Literal["category", "stage"]] = None, legend: bool = False
    ) -> bytes: ...
    def save_png(
        self,
        path: Union[str, os.PathLike[str]],
        *,
        scale: int = 4,
        highlight: Optional[Literal["category", "stage"]] = None,
        legend: bool = False,
    ) -> None: ...
    def explain(self) -> str:
        """What `prefabric generate --explain` prints."""

class Stats:
    """Statistics over many maps; a.merge(b) adds b's (disjoint) seeds to a's."""

    def merge(self, other: Stats) -> None: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str) -> Stats: ...
    @property
    def pack(self) -> str: ...
    @property
    def map_types(self) -> List[str]: ...
    @property
    def maps(self) -> int: ...
    @property
    def failed(self) -> int: ...
    @property
    def failures(self) -> List[Tuple[str, int, int, str]]: ...
    @property
    def seeds(self) -> Mapping[str, List[Tuple[int, int]]]: ...
    @property
    def prefab_placements(self) -> Mapping[str, int]: ...
    @property
    def encounter_placements(self) -> Mapping[str, int]: ...
    @property
    def median_ms(self) -> Mapping[str, float]: ...

def stats(
    pack: Pack,
    map_type: Union[None, str, Sequence[str]] = None,
    seeds: Optional[_Seeds] = None,
    depths: Union[None, int, Iterable[int]] = None,
    *,
    threads: Optional[int] = None,
) -> Stats:
    """Statistics over every seed at every depth, made on every core with the GIL released."""
