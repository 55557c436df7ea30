"""Every example runs, with small numbers, and says what it should."""

import pathlib
import re
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def run(name, *args, timeout=300):
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *map(str, args)],
        capture_output=True, text=True, timeout=timeout, check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_tcod_fov_prints_what_the_player_sees():
    out = run("tcod_fov.py", "--map-type", "hotel", "--seed", 7, "--radius", 8)
    header, *rows = out.splitlines()
    match = re.search(r"at \((\d+), (\d+)\) on the up stairs sees (\d+) cells", header)
    assert match and int(match.group(3)) > 1
    assert sum(row.count("@") for row in rows) == 1
    # Only what is in sight is drawn: a radius of 8 shows at most 17 rows and columns.
    assert 1 <= len(rows) <= 17 and all(len(row) <= 17 for row in rows)


def test_plain_loop_walks_down_three_levels():
    out = run("plain_loop.py", "--levels", 3, "--seed", 1)
    lines = out.splitlines()
    levels = [line for line in lines if line.startswith("depth ")]
    assert len(levels) == 3 and all("steps from the up stairs to the down stairs" in line for line in levels)
    steps = sum(int(re.search(r", (\d+) steps", line).group(1)) for line in levels)
    assert lines[-1] == f"{steps} turns in all"


def test_dask_stats_merges_to_one_run():
    out = run("dask_stats.py", "--seeds", 120, "--map-type", "maze", "--chunk", 40)
    assert "120 maze maps in 3 chunks on 2 dask workers" in out
    assert "merged parts equal one run (times aside): True" in out
