"""Maps made in bulk, on other threads or in other processes are the maps made one by one."""

import pickle
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import prefabric


@pytest.mark.parametrize("map_type", ["materials", "catacombs", "mines"])
def test_generate_many_gives_the_maps_generate_gives(pack, map_type):
    generator = prefabric.Generator(pack, map_type, depth=2)
    seeds = [5, 0, 17, 5, 2**63 + 11]
    many = generator.generate_many(seeds)
    assert [m.seed for m in many] == seeds
    one_by_one = [generator.generate(seed).to_json() for seed in seeds]
    assert [m.to_json() for m in many] == one_by_one
    assert many[0].to_json() == many[3].to_json()
    assert generator.generate_many([]) == []
    assert [m.seed for m in generator.generate_many(iter(range(3)))] == [0, 1, 2]


def test_maps_made_on_python_threads_are_the_same(pack):
    generator = prefabric.Generator(pack, "hotel", depth=3)
    seeds = list(range(12))
    expected = [generator.generate(seed).to_json() for seed in seeds]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda seed: generator.generate(seed).to_json(), seeds))
    assert got == expected


def test_threads_each_with_a_generator_of_their_own(pack):
    results = {}

    def work(name, map_type):
        generator = prefabric.Generator(pack, map_type)
        results[name] = [generator.generate(seed).to_json() for seed in range(3)]

    threads = [threading.Thread(target=work, args=(n, t)) for n, t in enumerate(["maze", "mines", "maze"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results[0] == results[2]
    assert results[1] == [prefabric.Generator(pack, "mines").generate(s).to_json() for s in range(3)]


def test_generation_releases_the_gil(pack):
    # Another thread counts while generate_many runs: holding the GIL, the
    # call would leave it no turn until the whole batch was done.
    generator = prefabric.Generator(pack, "materials")
    ticks = []
    running = threading.Event()
    done = threading.Event()

    def tick():
        running.wait()
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        running.set()
        generator.generate_many(range(40))
        during = len(ticks)
    finally:
        done.set()
        ticker.join()
    assert during > 5


def test_packs_and_generators_pickle_as_the_way_to_make_them_again(pack, tiny_pack_dir):
    generator = prefabric.Generator(pack, "maze", depth=4, trace=True)
    again = pickle.loads(pickle.dumps(generator))
    assert (again.map_type, again.depth, again.trace) == ("maze", 4, True)
    assert again.generate(6).to_json() == generator.generate(6).to_json()
    loaded = prefabric.Pack.load(tiny_pack_dir)
    assert pickle.loads(pickle.dumps(loaded)).path == tiny_pack_dir
    assert pickle.loads(pickle.dumps(pack)).path is None
