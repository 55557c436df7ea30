"""Statistics split into parts and merged are those of one run, as `prefabric stats` gives them."""

import json
import pickle

import pytest

import prefabric


def without_times(stats):
    """The statistics as data, without the times (the one thing that differs between runs)."""
    doc = json.loads(stats.to_json())
    for m in doc["map_types"].values():
        del m["time"]
    return doc


def test_a_split_run_merged_equals_one_run(pack):
    whole = prefabric.stats(pack, "catacombs", seeds=range(0, 90), depths=[1, 3])
    first = prefabric.stats(pack, "catacombs", seeds=range(0, 25), depths=[3, 1])
    second = prefabric.stats(pack, "catacombs", seeds=(25, 61), depths=[1, 3])
    third = prefabric.stats(pack, "catacombs", seeds=range(61, 90), depths=(1, 3))
    third.merge(first)
    third.merge(second)
    assert without_times(third) == without_times(whole)
    assert third.maps == whole.maps == 180
    assert third.seeds == {"catacombs": [(0, 90)]}
    assert third.prefab_placements == whole.prefab_placements
    assert sum(whole.prefab_placements.values()) > 180
    assert whole.encounter_placements and sum(whole.encounter_placements.values()) > 0


def test_stats_are_what_the_command_prints(cli, pack):
    out, _ = cli("stats", "--map-type", "maze", "--seeds", "10..50", "--depth", "2,4", "--json")
    ours = prefabric.stats(pack, "maze", seeds=range(10, 50), depths=[4, 2])
    theirs = prefabric.Stats.from_json(out.decode())
    assert without_times(ours) == without_times(theirs)


def test_every_map_type_by_default(pack):
    stats = prefabric.stats(pack, seeds=3)
    assert stats.map_types == sorted(pack.map_types)
    assert stats.maps == 3 * len(pack.map_types)
    assert stats.failed == 0 and stats.failures == []
    assert set(stats.median_ms) == set(pack.map_types)
    assert all(ms > 0 for ms in stats.median_ms.values())
    assert stats.pack == "default"
    assert "15 maps" in repr(stats)


def test_overlapping_seeds_do_not_merge_and_change_nothing(pack):
    a = prefabric.stats(pack, ["maze", "mines"], seeds=range(0, 10))
    b = prefabric.stats(pack, "mines", seeds=range(5, 15))
    before = a.to_json()
    with pytest.raises(ValueError, match="both"):
        a.merge(b)
    assert a.to_json() == before
    with pytest.raises(ValueError, match="themselves"):
        a.merge(a)
    other_depths = prefabric.stats(pack, "maze", seeds=range(10, 12), depths=2)
    with pytest.raises(ValueError, match="depths"):
        a.merge(other_depths)


def test_json_and_pickles_round_trip(pack):
    stats = prefabric.stats(pack, "maze", seeds=range(0, 40), depths=[1, 2])
    again = prefabric.Stats.from_json(stats.to_json())
    assert again.to_json() == stats.to_json()
    assert pickle.loads(pickle.dumps(stats)).to_json() == stats.to_json()
    with pytest.raises(ValueError, match="not statistics"):
        prefabric.Stats.from_json('{"format": 1}')
