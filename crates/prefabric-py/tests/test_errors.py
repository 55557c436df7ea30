"""Broken packs and bad arguments raise the Python exceptions they should, with messages that help."""

import pathlib
import subprocess

import pytest

import prefabric
from conftest import TINY_PACK, _find_cli, write_pack


def test_a_pack_with_a_bad_line_and_a_missing_prefab_lists_both_problems(tmp_path):
    files = dict(TINY_PACK)
    files["prefabs/ends.txt"] = files["prefabs/ends.txt"].replace("transforms: r0", "transforms: r45")
    files["maps/tiny.toml"] = files["maps/tiny.toml"].replace('prefab = "way_in"', 'prefab = "nowhere"')
    folder = write_pack(tmp_path / "broken", files)
    with pytest.raises(prefabric.PackError) as raised:
        prefabric.Pack.load(folder)
    error = raised.value
    assert isinstance(error, prefabric.Error) and isinstance(error, Exception)
    problems = sorted(error.problems, key=lambda p: p.file)
    assert len(problems) == 2
    maps, prefab = problems
    assert pathlib.Path(maps.file) == folder / "maps" / "tiny.toml"
    assert (maps.line, maps.column, maps.kind) == (15, 10, "invalid")
    assert "nowhere" in maps.message and maps.help
    assert pathlib.Path(prefab.file) == folder / "prefabs" / "ends.txt"
    assert (prefab.line, prefab.column, prefab.kind) == (2, 13, "invalid")
    assert "r45" in prefab.message and "r90" in prefab.help
    # str() lists them as `prefabric check` prints them, then how many.
    text = str(error)
    assert f"{maps.file}:15:10: invalid:" in text and f"{prefab.file}:2:13: invalid:" in text
    assert text.endswith("2 problems in the pack")
    assert str(prefab).startswith(f"{prefab.file}:2:13: invalid: unknown transform `r45`")
    assert "line=2" in repr(prefab) and "column=13" in repr(prefab)


def test_a_problem_of_a_whole_file_has_no_line_or_column(tmp_path):
    files = dict(TINY_PACK)
    del files["palette.toml"]
    folder = write_pack(tmp_path / "no_palette", files)
    with pytest.raises(prefabric.PackError) as raised:
        prefabric.Pack.load(folder)
    problem = raised.value.problems[0]
    assert "palette" in str(problem)
    assert problem.line is None and problem.column is None


def test_the_check_command_reports_the_same_problems(cli, tmp_path):
    files = dict(TINY_PACK)
    files["prefabs/ends.txt"] = files["prefabs/ends.txt"].replace("transforms: r0", "transforms: sideways")
    folder = write_pack(tmp_path / "broken", files)
    with pytest.raises(prefabric.PackError) as raised:
        prefabric.Pack.load(folder)
    done = subprocess.run([str(_find_cli()), "check", "--pack", str(folder)], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.strip() == str(raised.value)


def test_pack_paths_may_be_str_or_pathlike_and_must_exist(tiny_pack_dir, tmp_path):
    assert prefabric.Pack.load(str(tiny_pack_dir)).map_types == ["tiny"]
    assert prefabric.Pack.load(tiny_pack_dir).name == "tiny"
    with pytest.raises(FileNotFoundError):
        prefabric.Pack.load(tmp_path / "nothing_here")
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(NotADirectoryError):
        prefabric.Pack.load(tmp_path / "file.txt")
    with pytest.raises(TypeError):
        prefabric.Pack.load(42)


def test_an_unknown_map_type_is_a_value_error_that_suggests_a_name(pack):
    with pytest.raises(ValueError, match="did you mean `materials`"):
        prefabric.Generator(pack, "materail")


@pytest.mark.parametrize("seed,error", [(-1, ValueError), (2**64, OverflowError), ("7", TypeError), (1.0, TypeError), (True, TypeError), (None, TypeError)])
def test_bad_seeds(pack, seed, error):
    generator = prefabric.Generator(pack, "maze")
    with pytest.raises(error, match="seed"):
        generator.generate(seed)
    with pytest.raises(error, match="seed"):
        generator.generate_many([1, seed])
    with pytest.raises(error, match="seed"):
        generator.explain(seed)


@pytest.mark.parametrize("depth,error", [(0, ValueError), (-3, ValueError), (1_000_001, ValueError), (2**70, ValueError), ("2", TypeError), (2.0, TypeError), (False, TypeError)])
def test_bad_depths(pack, depth, error):
    with pytest.raises(error, match="depth"):
        prefabric.Generator(pack, "maze", depth=depth)
    with pytest.raises(error, match="depth"):
        prefabric.stats(pack, "maze", seeds=2, depths=[1, depth])


def test_wrong_argument_types(pack):
    with pytest.raises(TypeError):
        prefabric.Generator("default", "maze")
    with pytest.raises(TypeError):
        prefabric.Generator(pack, 5)
    with pytest.raises(TypeError, match="seeds"):
        prefabric.Generator(pack, "maze").generate_many(5)
    with pytest.raises(TypeError, match="seeds"):
        prefabric.Generator(pack, "maze").generate_many("123")
    with pytest.raises(TypeError, match="seeds"):
        prefabric.stats(pack, "maze", seeds="100")
    with pytest.raises(ValueError, match="step 1"):
        prefabric.stats(pack, "maze", seeds=range(0, 10, 2))
    with pytest.raises(ValueError, match="no seed"):
        prefabric.stats(pack, "maze", seeds=range(5, 5))
    with pytest.raises(ValueError, match="did you mean"):
        prefabric.stats(pack, "mazes", seeds=2)


def test_numpy_ints_are_seeds(pack):
    import numpy as np
    generator = prefabric.Generator(pack, "maze", depth=np.int64(2))
    assert generator.generate(np.uint64(3)).to_json() == generator.generate(3).to_json()


def test_a_generation_that_fails_raises_generation_error(tmp_path):
    # A barrier across the map cuts the way in from the way on: every attempt fails.
    files = dict(TINY_PACK)
    files["prefabs/ends.txt"] += "\nprefab way_on\ntransforms: r0\nterrain:\n##+##\n#.>.#\n#####\nlinks:\n..1..\n.....\n.....\n"
    files["maps/tiny.toml"] += '[[variants.prefabs]]\nprefab = "way_on"\nat = "south"\n[[variants.barriers]]\nrect = [0, 11, 40, 1]\n'
    folder = write_pack(tmp_path / "cut", files)
    generator = prefabric.Generator(prefabric.Pack.load(folder), "tiny", depth=2)
    with pytest.raises(prefabric.GenerationError) as raised:
        generator.generate(3)
    error = raised.value
    assert isinstance(error, prefabric.Error)
    assert (error.seed, error.map_type, error.depth) == (3, "tiny", 2)
    assert "cannot be connected" in str(error)
    with pytest.raises(prefabric.GenerationError):
        generator.generate_many([3, 4])
    explained = generator.explain(3)
    assert explained.startswith("== attempt 1 ==\n") and "== attempt 8 ==" in explained
    # The command prints the same attempts, then the same error.
    cli = _find_cli()
    if cli is None:
        pytest.skip("the prefabric command was not found")
    done = subprocess.run(
        [str(cli), "generate", "--pack", str(folder), "--seed", "3", "--depth", "2", "--explain"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 1
    assert done.stderr == explained + str(error) + "\n"


def test_a_size_sets_the_maps_width_and_height(pack):
    generator = prefabric.Generator(pack, "hotel", size=(90, 60))
    assert generator.size == (90, 60)
    level = generator.generate(4)
    assert (level.width, level.height) == (90, 60)
    assert level.terrain.shape == (60, 90)
    assert prefabric.Generator(pack, "hotel").size == (120, 80)
    assert "size=(90, 60)" in repr(generator)


def test_the_size_is_the_commands_size(pack, cli):
    level = prefabric.Generator(pack, "mines", 2, (100, 70)).generate(6)
    out, _ = cli("generate", "--map-type", "mines", "--seed", 6, "--depth", 2, "--size", "100x70", "--format", "json")
    assert level.to_json().encode() == out


def test_a_size_the_map_type_cannot_take_is_a_value_error_at_its_line(pack):
    with pytest.raises(ValueError) as caught:
        prefabric.Generator(pack, "hotel", size=(20, 20))
    message = str(caught.value)
    assert message.startswith("content/default/maps/hotel.toml:12:9: invalid: map type `hotel` cannot be 20x20"), message
    assert "the file is written for 120x80" in message


@pytest.mark.parametrize("size, error", [
    ((0, 40), ValueError), ((-3, 40), ValueError), ((40,), ValueError), ((40, 40, 40), ValueError),
    ("40x40", TypeError), (40, TypeError), ((40.0, 40), TypeError), ((True, 40), TypeError),
])
def test_bad_sizes(pack, size, error):
    with pytest.raises(error):
        prefabric.Generator(pack, "maze", size=size)
