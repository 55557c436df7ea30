"""Times map generation through Python against the same loop in Rust.

For each map type of the built-in pack, a plain loop of untraced maps, seeds
cycling over 100, each map dropped: in Python,

    generator = prefabric.Generator(pack, map_type)      # trace off, as below
    for n in range(maps):
        level = generator.generate(n % 100)
        level.terrain, level.walkable, level.regions, ...   # timed apart

and in Rust the library's own `bulk` example (crates/prefabric/examples/bulk.rs),
the same loop over `Generator::generate`, built with --release. Rounds
alternate between the two; the table shows the fastest round of each (on a
shared machine noise only ever adds time, so the fastest round is the
closest to the true cost, as `timeit` advises).

The binding costs twice: in generate() (its arguments, the GIL, wrapping the
map), the gap between the Python and the Rust loops; and in reading what a
game reads of a new level (its arrays and its lists of regions, prefabs,
objects and stairs). Reading is timed map by map inside the Python loop,
right after each generate(), so that it is measured against the same maps in
the same process: compared across processes it drowned in their noise (the
same loop varies by 30% from one process to the next on a shared 2-core
machine). The overhead columns are each cost over the Rust time per map.

Each round is a process of its own, and every process runs with the same
fixed glibc malloc thresholds (GLIBC_TUNABLES below). Left to itself, glibc
moves its mmap threshold as a process frees large blocks, so a map's 270 kB
were given back to the system and faulted in again in the small Rust process
but not in the Python one, whose history differs: that, not the binding, made
Python look up to 16% faster than Rust on some map types.

    maturin develop --release       # the extension must be optimised
    python bench.py [--maps 300] [--rounds 5]
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys

import prefabric
from prefabric import _prefabric

ROOT = pathlib.Path(__file__).resolve().parents[2]
BULK = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release" / "examples" / "bulk"


# The same allocator behaviour in both processes: large blocks from the heap
# (up to 4 MiB) and no trimming below 64 MiB.
ENV = dict(os.environ, GLIBC_TUNABLES="glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=67108864")

PYTHON_LOOP = """
import sys, time, prefabric
import numpy  # once, as a game does at its start, not in the first map's reading
map_type, maps = sys.argv[1], int(sys.argv[2])
generator = prefabric.Generator(prefabric.Pack.builtin(), map_type)
clock = time.perf_counter
reading = 0.0
started = clock()
for n in range(maps):
    level = generator.generate(n % 100)
    read_from = clock()
    # What a game reads of a new level: its arrays and its lists.
    level.terrain, level.walkable, level.regions, level.prefabs, level.objects, level.stairs
    reading += clock() - read_from
total = clock() - started
print(f"{(total - reading) * 1000 / maps:.4f} ms per map, {reading * 1000 / maps:.4f} ms reading")
"""


def python_ms_per_map(map_type, maps):
    """Generation and reading time per map of one Python round."""
    done = subprocess.run([sys.executable, "-c", PYTHON_LOOP, map_type, str(maps)], env=ENV, capture_output=True, text=True, check=True)
    match = re.search(r"([\d.]+) ms per map, ([\d.]+) ms reading", done.stdout)
    if match is None:
        raise SystemExit(f"unexpected output from a Python round: {done.stdout!r} {done.stderr!r}")
    return float(match.group(1)), float(match.group(2))


def rust_ms_per_map(map_type, maps):
    """Generation time per map of one Rust round."""
    done = subprocess.run([str(BULK), str(maps), map_type], env=ENV, capture_output=True, text=True, check=True)
    match = re.search(r"([\d.]+) ms per map", done.stdout)
    if match is None:
        raise SystemExit(f"unexpected output from a Rust round: {done.stdout!r} {done.stderr!r}")
    return float(match.group(1))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=300, help="maps per round and map type")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if _prefabric._debug_build:
        raise SystemExit("the extension is an unoptimised build: run `maturin develop --release` first")
    subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "prefabric", "--example", "bulk"], cwd=ROOT, check=True)

    pack = prefabric.Pack.builtin()
    print(f"{args.maps} untraced maps per round (each round a process, malloc thresholds fixed), fastest of {args.rounds} alternating rounds, ms per map")
    print("python: generate() alone; read: the map's arrays and lists read after it (terrain, walkable, regions,")
    print("prefabs, objects, stairs), timed in the same loop; overhead: generate(), and generate() and read, over Rust")
    print(f"{'map type':<12} {'python':>8} {'read':>8} {'rust':>8} {'overhead':>9} {'+read':>8}")
    for map_type in pack.map_types:
        generating, reading, theirs = [], [], []
        for _ in range(args.rounds):
            ours = python_ms_per_map(map_type, args.maps)
            generating.append(ours[0])
            reading.append(ours[1])
            theirs.append(rust_ms_per_map(map_type, args.maps))
        py, read, rs = min(generating), min(reading), min(theirs)
        print(f"{map_type:<12} {py:>8.3f} {read:>8.3f} {rs:>8.3f} {100 * (py - rs) / rs:>8.1f}% {100 * (py + read - rs) / rs:>7.1f}%")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
