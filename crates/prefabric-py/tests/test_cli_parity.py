"""The Python package writes what the `prefabric` command writes, byte for byte."""

import pytest

import prefabric

# Every layout generator of the built-in pack, at depths where content changes.
CASES = [
    ("materials", 0, 1),
    ("materials", 7, 3),
    ("hotel", 7, 1),
    ("catacombs", 5, 2),
    ("mines", 11, 4),
    ("maze", 3, 1),
]


@pytest.mark.parametrize("map_type,seed,depth", CASES)
def test_json_is_the_commands_json(cli, pack, map_type, seed, depth):
    expected, _ = cli("generate", "--map-type", map_type, "--seed", seed, "--depth", depth, "--format", "json")
    level = prefabric.Generator(pack, map_type, depth=depth).generate(seed)
    assert level.to_json().encode() == expected


@pytest.mark.parametrize("map_type,seed,depth", CASES[:3])
def test_ascii_is_the_commands_text_without_its_comment_line(cli, pack, map_type, seed, depth):
    out, _ = cli("generate", "--map-type", map_type, "--seed", seed, "--depth", depth, "--format", "ascii")
    comment, _, text = out.partition(b"\n")
    assert comment.startswith(b"# map type " + map_type.encode())
    level = prefabric.Generator(pack, map_type, depth=depth).generate(seed)
    assert level.to_ascii().encode() == text
    assert level.glyphs == text.decode().splitlines()


def test_json_of_a_loaded_pack_is_the_commands(cli, tiny_pack_dir):
    expected, _ = cli("generate", "--pack", tiny_pack_dir, "--map-type", "tiny", "--seed", 4, "--format", "json")
    level = prefabric.Generator(prefabric.Pack.load(tiny_pack_dir), "tiny").generate(4)
    assert level.to_json().encode() == expected


@pytest.mark.parametrize("traced", [False, True])
def test_explain_is_what_the_command_prints(cli, pack, traced):
    out, err = cli("generate", "--map-type", "hotel", "--seed", 7, "--depth", 2, "--format", "json", "--explain")
    level = prefabric.Generator(pack, "hotel", depth=2, trace=traced).generate(7)
    text = level.explain()
    assert text == err
    # The stages, in order, each saying what it did (the hotel's layout
    # places its prefabs, so it has no features stage of its own).
    for stage in ("[layout]", "[encounters]", "[furnishing]", "[objects]"):
        assert stage in text
    assert text.index("[layout]") < text.index("[encounters]") < text.index("[objects]")
    assert all(line.startswith("[") and "]" in line for line in text.splitlines())
    # The JSON with its trace is the command's `--explain --format json`.
    assert level.to_json(trace=True).encode() == out
    assert prefabric.Generator(pack, "hotel", depth=2).explain(7) == err


def test_an_untraced_map_has_the_same_json_as_a_traced_one(pack):
    plain = prefabric.Generator(pack, "mines").generate(9)
    traced = prefabric.Generator(pack, "mines", trace=True).generate(9)
    assert plain.to_json() == traced.to_json()


@pytest.mark.parametrize("options,flags", [({}, []), ({"scale": 2, "highlight": "category", "legend": True}, ["--scale", 2, "--highlight", "category", "--legend"])])
def test_png_is_the_commands_image(cli, pack, tmp_path, options, flags):
    command_png = tmp_path / "command.png"
    cli("generate", "--map-type", "catacombs", "--seed", 5, "--out", command_png, *flags)
    level = prefabric.Generator(pack, "catacombs").generate(5)
    ours = tmp_path / "ours.png"
    level.save_png(ours, **options)
    data = ours.read_bytes()
    assert data == command_png.read_bytes()
    assert data == level.to_png(**options)


def test_save_png_writes_a_png_of_the_maps_size(pack, tmp_path):
    level = prefabric.Generator(pack, "maze").generate(2)
    path = tmp_path / "maze.png"
    level.save_png(str(path), scale=3)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width = int.from_bytes(data[16:20], "big")
    height = int.from_bytes(data[20:24], "big")
    assert (width, height) == (level.width * 3, level.height * 3)


def test_png_options_out_of_range_are_value_errors(pack, tmp_path):
    level = prefabric.Generator(pack, "maze").generate(2)
    with pytest.raises(ValueError, match="scale"):
        level.to_png(scale=0)
    with pytest.raises(ValueError, match="highlight"):
        level.to_png(highlight="colour")
    with pytest.raises(FileNotFoundError, match="no_such_folder"):
        level.save_png(tmp_path / "no_such_folder" / "map.png")
