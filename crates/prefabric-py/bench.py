"""Times map generation through Python against the same loop in Rust.

For each map type of the built-in pack, a plain loop of untraced maps, seeds
cycling over 100, each map dropped: in Python,

    generator = prefabric.Generator(pack, map_type)      # trace off, as below
    for n in range(maps):
        level = generator.generate(n % 100)

and in Rust the library's own `bulk` example (crates/prefabric/examples/bulk.rs),
the same loop over `Generator::generate`, built with --release. Rounds
alternate between the two; the table shows the median round of each, and the
binding's overhead: how much longer a map takes through Python.

Each round is a process of its own, and every process runs with the same
fixed glibc malloc thresholds (GLIBC_TUNABLES below). Left to itself, glibc
moves its mmap threshold as a process frees large blocks, so a map's 270 kB
were given back to the system and faulted in again in the small Rust process
but not in the Python one, whose history differs: that, not the binding, made
Python look up to 16% faster than Rust on some map types.

    maturin develop --release       # the extension must be optimised
    python bench.py [--maps 300] [--rounds 3]
"""

import argparse
import os
import pathlib
import re
import statistics
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
map_type, maps, read = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "read"
generator = prefabric.Generator(prefabric.Pack.builtin(), map_type)
started = time.perf_counter()
for n in range(maps):
    level = generator.generate(n % 100)
    if read:
        # What a game reads of a new level: its arrays and its lists.
        level.terrain, level.walkable, level.regions, level.prefabs, level.objects, level.stairs
print(f"{(time.perf_counter() - started) * 1000 / maps:.3f} ms per map")
"""


def python_ms_per_map(map_type, maps, read=False):
    command = [sys.executable, "-c", PYTHON_LOOP, map_type, str(maps), "read" if read else "generate"]
    done = subprocess.run(command, env=ENV, capture_output=True, text=True, check=True)
    return ms_per_map(done)


def rust_ms_per_map(map_type, maps):
    done = subprocess.run([str(BULK), str(maps), map_type], env=ENV, capture_output=True, text=True, check=True)
    return ms_per_map(done)


def ms_per_map(done):
    match = re.search(r"([\d.]+) ms per map", done.stdout)
    if match is None:
        raise SystemExit(f"unexpected output from a timing round: {done.stdout!r} {done.stderr!r}")
    return float(match.group(1))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=300, help="maps per round and map type")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if _prefabric._debug_build:
        raise SystemExit("the extension is an unoptimised build: run `maturin develop --release` first")
    subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "prefabric", "--example", "bulk"], cwd=ROOT, check=True)

    pack = prefabric.Pack.builtin()
    print(f"{args.maps} untraced maps per round (each round a process, malloc thresholds fixed), median of {args.rounds} alternating rounds, ms per map")
    print("python: generate() alone; +read: and the map's arrays and lists read (terrain, walkable, regions,")
    print("prefabs, objects, stairs); overhead: how much longer than the same loop in Rust")
    print(f"{'map type':<12} {'python':>8} {'+read':>8} {'rust':>8} {'overhead':>9} {'+read':>8}")
    for map_type in pack.map_types:
        ours, read, theirs = [], [], []
        for _ in range(args.rounds):
            ours.append(python_ms_per_map(map_type, args.maps))
            read.append(python_ms_per_map(map_type, args.maps, read=True))
            theirs.append(rust_ms_per_map(map_type, args.maps))
        py, pr, rs = statistics.median(ours), statistics.median(read), statistics.median(theirs)
        print(f"{map_type:<12} {py:>8.3f} {pr:>8.3f} {rs:>8.3f} {100 * (py - rs) / rs:>8.1f}% {100 * (pr - rs) / rs:>7.1f}%")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
