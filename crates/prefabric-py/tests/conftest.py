"""Shared fixtures: the built-in pack, the `prefabric` command to compare with,
and a small pack of our own written to a temporary folder."""

import os
import pathlib
import subprocess

import pytest

import prefabric

REPO = pathlib.Path(__file__).resolve().parents[3]


def _find_cli():
    named = os.environ.get("PREFABRIC_CLI")
    if named:
        return pathlib.Path(named)
    for profile in ("debug", "release"):
        candidate = REPO / "target" / profile / "prefabric"
        if candidate.is_file():
            return candidate
    return None


@pytest.fixture(scope="session")
def cli():
    """A function running the `prefabric` command, returning (stdout bytes, stderr text).

    .ci/python names the binary in PREFABRIC_CLI and sets PREFABRIC_REQUIRE_CLI=1,
    so there a missing command is a failure; elsewhere the tests that need it skip."""
    path = _find_cli()
    if path is None or not path.is_file():
        message = f"the prefabric command was not found (PREFABRIC_CLI={os.environ.get('PREFABRIC_CLI')!r}); build it with `cargo build -p prefabric-cli`"
        if os.environ.get("PREFABRIC_REQUIRE_CLI") == "1":
            pytest.fail(message)
        pytest.skip(message)

    def run(*args):
        done = subprocess.run([str(path), *map(str, args)], capture_output=True, check=False)
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout, done.stderr.decode()

    return run


@pytest.fixture(scope="session")
def pack():
    return prefabric.Pack.builtin()


TINY_PACK = {
    "pack.toml": 'name = "tiny"\ndefault_map_type = "tiny"\n',
    "palette.toml": (
        "[glyphs]\n"
        '"#" = "wall"\n"." = "room"\n"+" = "door"\n"<" = "stairs_up"\n'
        '">" = "stairs_down"\n":" = "earth"\n'
        "[render]\n"
        'earth = " "\ncorridor = "."\njunction = "."\nhall = "."\n'
    ),
    "prefabs/ends.txt": (
        "prefab way_in\n"
        "transforms: r0\n"
        "terrain:\n"
        "#####\n"
        "#.<.#\n"
        "##+##\n"
        "links:\n"
        ".....\n"
        ".....\n"
        "..1..\n"
    ),
    "maps/tiny.toml": (
        "width = 40\n"
        "height = 24\n"
        "\n"
        "[tunnelers]\n"
        "width = 1\n"
        "max_width = 3\n"
        "room_chance = 60\n"
        "hall_chance = 0\n"
        "fill_target = 30\n"
        "min_open = 10\n"
        "\n"
        "[[variants]]\n"
        'name = "entry"\n'
        "[[variants.prefabs]]\n"
        'prefab = "way_in"\n'
        'at = "north"\n'
    ),
}


def write_pack(folder, files):
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def tiny_pack_dir(tmp_path):
    """A small pack that loads: one 40x24 map type, `tiny`, with one prefab."""
    return write_pack(tmp_path / "tiny", TINY_PACK)
