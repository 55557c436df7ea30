"""Statistics over many maps on a dask cluster: seed chunks mapped over the
workers with prefabric.stats, the parts merged, and the result checked against
one run in this process.

    python dask_stats.py --seeds 4000 --map-type materials

It starts a LocalCluster of two single-threaded worker processes on this
machine. To use a real cluster instead, install the prefabric wheel on every
worker (`pip install prefabric-*.whl`) and connect to its scheduler:

    client = Client("tcp://scheduler:8786")

in place of the LocalCluster below; the rest is the same. Each part holds the
statistics of a disjoint seed range, so merging them in any order gives the
statistics of the whole range (only the times differ).
"""

import argparse
import functools
import json
import time

from dask.distributed import Client, LocalCluster

import prefabric


def chunk_stats(map_type, first, end, depths):
    """The statistics of seeds first..end-1, run on a worker with one thread."""
    return prefabric.stats(prefabric.Pack.builtin(), map_type, seeds=range(first, end), depths=depths, threads=1)


def without_times(stats):
    doc = json.loads(stats.to_json())
    for m in doc["map_types"].values():
        del m["time"]
    return doc


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2000, help="seeds 0..N-1")
    parser.add_argument("--map-type", default="materials")
    parser.add_argument("--depths", type=int, nargs="+", default=[1])
    parser.add_argument("--chunk", type=int, default=250, help="seeds per task")
    args = parser.parse_args(argv)

    chunks = [(a, min(a + args.chunk, args.seeds)) for a in range(0, args.seeds, args.chunk)]
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
        started = time.perf_counter()
        futures = [client.submit(chunk_stats, args.map_type, a, b, args.depths, pure=False) for a, b in chunks]
        parts = client.gather(futures)
        merged = functools.reduce(lambda whole, part: (whole.merge(part), whole)[1], parts[1:], parts[0])
        on_cluster = time.perf_counter() - started

    started = time.perf_counter()
    single = prefabric.stats(prefabric.Pack.builtin(), args.map_type, seeds=range(args.seeds), depths=args.depths)
    here = time.perf_counter() - started

    same = without_times(merged) == without_times(single)
    print(f"{merged.maps} {args.map_type} maps in {len(chunks)} chunks on 2 dask workers: {on_cluster:.2f} s")
    print(f"the same maps in one prefabric.stats call here (every core): {here:.2f} s")
    print(f"median per map: {merged.median_ms[args.map_type]:.2f} ms on the workers, "
          f"{single.median_ms[args.map_type]:.2f} ms here")
    print(f"merged parts equal one run (times aside): {same}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
