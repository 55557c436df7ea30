"""Field of view over a prefabric map with python-tcod, headless: no window.

The map's glyphs are drawn on a tcod Console; the player stands on the up
stairs; tcod computes what they see over the map's walkable cells, and the
visible part of the console is printed as text.

    python tcod_fov.py --map-type hotel --seed 7 --radius 10
"""

import argparse

import numpy as np
import tcod.console
import tcod.constants
import tcod.map

import prefabric


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map-type", default="materials")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--radius", type=int, default=12)
    args = parser.parse_args(argv)

    level = prefabric.Generator(prefabric.Pack.builtin(), args.map_type, depth=args.depth).generate(args.seed)
    x, y = next(s for s in level.stairs if s.role == "up").cells[0]

    # The whole map on a console indexed [y, x], as the map's arrays are.
    console = tcod.console.Console(level.width, level.height, order="C")
    console.ch[:] = np.array([[ord(c) for c in row] for row in level.glyphs])
    console.ch[y, x] = ord("@")

    # Light passes where a walker can stand; walls stop it (and are lit).
    visible = tcod.map.compute_fov(
        level.walkable, (y, x), radius=args.radius, light_walls=True,
        algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
    )
    console.fg[visible] = (255, 255, 255)
    console.fg[~visible] = (64, 64, 64)
    console.ch[~visible] = ord(" ")

    rows, columns = np.nonzero(visible)
    top, bottom, left, right = rows.min(), rows.max() + 1, columns.min(), columns.max() + 1
    print(f"{level.map_type} seed {level.seed}: the player at ({x}, {y}) on the up stairs "
          f"sees {int(visible.sum())} cells (radius {args.radius})")
    for row in console.ch[top:bottom, left:right]:
        print("".join(map(chr, row)).rstrip())


if __name__ == "__main__":
    main()
