"""A Map's arrays and parts agree with its JSON, the library's own account of it."""

import json

import numpy as np
import pytest

import prefabric


@pytest.fixture(scope="module", params=[("materials", 3, 2), ("hotel", 8, 1), ("mines", 1, 5), ("catacombs", 2, 1)])
def level(request):
    map_type, seed, depth = request.param
    return prefabric.Generator(prefabric.Pack.builtin(), map_type, depth=depth).generate(seed)


@pytest.fixture(scope="module")
def doc(level):
    return json.loads(level.to_json())


def test_size_and_identity(level, doc):
    assert (level.width, level.height) == (doc["width"], doc["height"])
    assert (level.seed, level.depth, level.map_type) == (doc["seed"], doc["depth"], doc["map_type"])
    assert level.layout == doc["generator"]
    assert level.moves == doc["moves"]
    assert level.feature_variant == doc["feature_variant"]


def test_terrain_codes_are_the_roles_of_the_json_terrain(level, doc):
    terrain = level.terrain
    assert terrain.dtype == np.uint8 and terrain.shape == (level.height, level.width)
    assert prefabric.ROLE_NAMES == prefabric.Map.role_names
    role_of_key = {t["key"]: t["name"].split(":")[0] for t in doc["terrain"]}
    variant_of_key = {t["key"]: int(t["name"].split(":")[1]) if ":" in t["name"] else 0 for t in doc["terrain"]}
    expected = np.array([[prefabric.ROLE_NAMES.index(role_of_key[k]) for k in row] for row in doc["terrain_rows"]])
    assert (terrain == expected).all()
    variants = np.array([[variant_of_key[k] for k in row] for row in doc["terrain_rows"]])
    assert (level.variants == variants).all()
    # More than one role on every map: the comparison above says something.
    assert len(np.unique(terrain)) > 3


def test_walkable_and_passable_agree_with_the_json(level, doc):
    walkable = level.walkable
    assert walkable.dtype == np.bool_ and walkable.shape == (level.height, level.width)
    names = np.array(prefabric.ROLE_NAMES)[level.terrain]
    not_walkable = np.isin(names, ["earth", "blocked", "wall", "liquid"])
    assert (walkable == ~not_walkable).all()
    passable = np.array([[c == "1" for c in row] for row in doc["passable"]])
    assert (level.passable == passable).all()
    # Machines stand on walkable cells that are not passable.
    assert (level.passable <= walkable).all()
    assert walkable.sum() > 0
    y, x = np.argwhere(walkable)[0]
    assert level.is_walkable(int(x), int(y))
    assert not level.is_walkable(-1, 0) and not level.is_passable(level.width, 0)


def test_arrays_are_read_only_views_of_the_map(level):
    with pytest.raises(ValueError):
        level.terrain[0, 0] = 1


def test_regions_prefabs_and_objects_match_the_json(level, doc):
    regions = level.regions
    assert len(regions) == len(doc["regions"]) > 0
    for region, r in zip(regions, doc["regions"]):
        assert region.id == r["id"] and region.kind == r["kind"]
        assert region.bounds == (r["x"], r["y"], r["width"], r["height"])
        assert [(*d.at, d.to) for d in region.doors] == [tuple(d) for d in r["doors"]]
        assert [(*d.at, d.to) for d in region.openings] == [tuple(d) for d in r["openings"]]
        assert region.neighbours == r["neighbours"] == level.neighbours(region.id)
        assert all(d.side in ("north", "east", "south", "west") for d in region.doors + region.openings)
        assert region.centre == (tuple(r["centre"]) if "centre" in r else None)
    prefabs = level.prefabs
    assert len(prefabs) == len(doc["prefabs"]) > 0
    for placed, p in zip(prefabs, doc["prefabs"]):
        assert (placed.name, placed.stage, placed.transform) == (p["name"], p["stage"], p["transform"])
        assert placed.bounds == (p["x"], p["y"], p["width"], p["height"])
        assert placed.encounter == p["encounter"] and placed.category == p["category"]
    objects = level.objects
    assert len(objects) == len(doc["objects"])
    for thing, o in zip(objects, doc["objects"]):
        assert (thing.kind, thing.tag, thing.name, thing.prefab, thing.blocks) == (
            o["kind"], o["tag"], o["name"], o["prefab"], o["blocks"])
        assert thing.position == (o["x"], o["y"])
        assert thing.cells == [tuple(c) for c in o["cells"]]
        assert thing.keywords == [tuple(k) for k in o["keywords"]]


def test_the_region_graph_leads_from_the_way_in_to_the_way_on(level):
    regions = level.regions
    for region in regions:
        for other in region.neighbours:
            # Both ways, through a door or an opening of each.
            assert region.id in regions[other].neighbours
            assert any(d.to == other for d in region.doors + region.openings)
    up = next(s.region for s in level.stairs if s.role == "up")
    for target in {s.region for s in level.stairs if s.role == "down"}:
        path = level.region_path(up, target)
        assert path[0] == up and path[-1] == target
        assert all(b in regions[a].neighbours for a, b in zip(path, path[1:]))
    assert level.region_path(0, len(regions)) is None
    assert level.neighbours(len(regions)) == []
    features = level.features
    assert features == [] or all(f.stage == "feature" for f in features)
    assert len(features) == sum(p.stage == "feature" for p in level.prefabs)


def test_region_at_names_the_region_of_a_cell(level):
    region = level.regions[-1]
    x, y, w, h = region.bounds
    found = [level.region_at(x + dx, y + dy) for dy in range(h) for dx in range(w)]
    assert any(r is not None and r.id == region.id for r in found)
    assert level.region_at(-5, -5) is None


def test_stairs_up_is_where_a_player_can_start(level):
    stairs = level.stairs
    up = [s for s in stairs if s.role == "up"]
    assert up, "every built-in map has a way in"
    assert stairs[0].role == "up"
    names = np.array(prefabric.ROLE_NAMES)[level.terrain]
    for staircase in stairs:
        assert staircase.role in ("up", "down")
        for x, y in staircase.cells:
            assert names[y, x] == f"stairs_{staircase.role}"
            assert level.is_walkable(x, y)
        if staircase.prefab is not None:
            x0, y0, w, h = level.prefabs[staircase.prefab].bounds
            x, y = staircase.cells[0]
            assert x0 <= x < x0 + w and y0 <= y < y0 + h


def test_lists_are_new_each_time(level):
    regions = level.regions
    regions.clear()
    assert len(level.regions) > 0


def test_reprs_say_what_a_thing_is(level):
    assert repr(level).startswith(f"<Map {level.map_type} seed={level.seed}")
    assert "Region 0" in repr(level.regions[0])
    assert level.prefabs[0].name in repr(level.prefabs[0])
    assert "Staircase up" in repr(level.stairs[0])
