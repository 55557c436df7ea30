"""A plain game loop over prefabric maps, with nothing but prefabric.

Each level, the player starts on the up stairs and walks, one step a turn,
along a shortest path (breadth-first over the passable cells, stepping as the
pack's walkers do) to the nearest down stairs, then goes down to a new map one
level deeper.

    python plain_loop.py --levels 3 --seed 1
"""

import argparse
from collections import deque

import prefabric

ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = ORTHOGONAL + [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def path_to_stairs_down(level, start):
    """The shortest path from `start` to a down staircase, as a list of cells, or None."""
    steps = DIAGONAL if level.moves == "diagonal" else ORTHOGONAL
    goals = {cell for s in level.stairs if s.role == "down" for cell in s.cells}
    came_from = {start: None}
    frontier = deque([start])
    while frontier:
        cell = frontier.popleft()
        if cell in goals:
            path = []
            while cell is not None:
                path.append(cell)
                cell = came_from[cell]
            return path[::-1]
        x, y = cell
        for dx, dy in steps:
            step = (x + dx, y + dy)
            if step not in came_from and level.is_passable(*step):
                came_from[step] = cell
                frontier.append(step)
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map-type", default="catacombs")
    parser.add_argument("--levels", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    pack = prefabric.Pack.builtin()
    turns = 0
    for depth in range(1, args.levels + 1):
        level = prefabric.Generator(pack, args.map_type, depth=depth).generate(args.seed + depth)
        player = next(s for s in level.stairs if s.role == "up").cells[0]
        path = path_to_stairs_down(level, player)
        if path is None:
            print(f"depth {depth}: no way down from {player}; the run ends here")
            break
        for cell in path[1:]:  # the game loop: one step a turn
            assert level.is_passable(*cell)
            player = cell
            turns += 1
        region = level.region_at(*player)
        where = f"{region.kind} {region.id}" if region else "no region"
        print(f"depth {depth}: {level.map_type} seed {level.seed}, {len(path) - 1} steps "
              f"from the up stairs to the down stairs at {player} ({where})")
    print(f"{turns} turns in all")


if __name__ == "__main__":
    main()
