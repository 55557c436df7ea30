/* Makes the built-in pack's world through the C interface: lists its levels,
 * checks the first level's JSON against EXPECTED_JSON (what `prefabric world
 * --seed SEED --level LEVEL --format json` prints for the same world seed and
 * level) as soon as it is asked for, its arrivals already known, takes each of
 * its stairs to another level (checking the cell arrived on is walkable
 * there), and checks the level's JSON again.
 *
 * Usage: world EXPECTED_JSON SEED. Exits 0 when every check passes. */
#include "prefabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: world EXPECTED_JSON SEED\n");
        return 2;
    }
    uint64_t seed = strtoull(argv[2], NULL, 10);
    PrefabricPack *pack = NULL;
    PrefabricWorld *world = NULL;
    if (prefabric_pack_embedded(&pack) != PREFABRIC_STATUS_OK ||
        prefabric_world_new(pack, seed, &world) != PREFABRIC_STATUS_OK) {
        fprintf(stderr, "the built-in world: %s\n", prefabric_last_error_message());
        prefabric_pack_free(pack);
        return 1;
    }
    prefabric_pack_free(pack); /* the world keeps it alive */

    size_t count = prefabric_world_level_count(world);
    CHECK(count > 1, "the built-in world has %zu levels", count);
    PrefabricLevel first;
    CHECK(prefabric_world_level_info(world, 0, &first) == PREFABRIC_STATUS_OK, "level 0");
    for (size_t i = 0; i < count; i++) {
        PrefabricLevel level;
        CHECK(prefabric_world_level_info(world, i, &level) == PREFABRIC_STATUS_OK, "level %zu", i);
        CHECK(level.name[0] && level.map_type[0] && level.depth >= 1, "level %zu", i);
        printf("%s: %s at depth %u, seed %llu\n", level.name, level.map_type, level.depth,
               (unsigned long long)level.seed);
    }

    /* Every level is made with the world: every exit that leads somewhere knows its arrival. */
    size_t arrivals = 0;
    for (size_t i = 0; i < count; i++) {
        PrefabricLevel level;
        PrefabricMap *made = NULL;
        CHECK(prefabric_world_level_info(world, i, &level) == PREFABRIC_STATUS_OK, "level %zu", i);
        CHECK(prefabric_world_level(world, level.name, &made) == PREFABRIC_STATUS_OK, "level %s", level.name);
        for (size_t e = 0; made && e < prefabric_map_exit_count(made); e++) {
            PrefabricExit exit;
            CHECK(prefabric_map_exit(made, e, &exit) == PREFABRIC_STATUS_OK, "%s exit %zu", level.name, e);
            CHECK(exit.to == NULL || exit.has_arrival, "%s: the exit at (%d, %d) to %s has no arrival", level.name,
                  exit.x, exit.y, exit.to);
            arrivals += exit.has_arrival;
        }
        prefabric_map_free(made);
    }
    CHECK(arrivals > count, "only %zu arrivals in %zu levels", arrivals, count);

    PrefabricMap *map = NULL;
    CHECK(prefabric_world_level(world, first.name, &map) == PREFABRIC_STATUS_OK, "the first level");
    CHECK(prefabric_map_seed(map) == first.seed && prefabric_map_depth(map) == first.depth, "its seed and depth");
    CHECK(strcmp(prefabric_map_map_type(map), first.map_type) == 0, "its map type");
    char *expected = read_file(argv[1]);
    CHECK(expected != NULL, "cannot read %s", argv[1]);
    /* The world made every level: the first is the command's before any stairs are taken. */
    char *json = prefabric_map_json(map);
    CHECK(json && expected && strcmp(json, expected) == 0, "%s: the JSON differs from %s when first asked for",
          first.name, argv[1]);
    prefabric_string_free(json);

    /* Take every staircase that leads somewhere. */
    size_t exits = prefabric_map_exit_count(map), taken = 0;
    CHECK(exits > 0, "the first level has no exit");
    for (size_t e = 0; e < exits; e++) {
        PrefabricExit exit;
        CHECK(prefabric_map_exit(map, e, &exit) == PREFABRIC_STATUS_OK, "exit %zu", e);
        int64_t stair = -1;
        CHECK(prefabric_map_stair_at(map, exit.x, exit.y, &stair) == PREFABRIC_STATUS_OK && stair >= 0,
              "exit %zu at (%d, %d) is on no staircase", e, exit.x, exit.y);
        PrefabricArrival arrival;
        if (exit.to == NULL) {
            CHECK(prefabric_world_follow(world, first.name, exit.x, exit.y, &arrival) ==
                          PREFABRIC_STATUS_INVALID_ARGUMENT &&
                      strstr(prefabric_last_error_message(), "lead out of the world"),
                  "exit %zu leads out of the world", e);
            continue;
        }
        CHECK(prefabric_world_follow(world, first.name, exit.x, exit.y, &arrival) == PREFABRIC_STATUS_OK,
              "follow exit %zu", e);
        CHECK(strcmp(arrival.level, exit.to) == 0, "exit %zu leads to %s, arrives on %s", e, exit.to,
              arrival.level);
        CHECK(exit.has_arrival && exit.arrival_x == arrival.x && exit.arrival_y == arrival.y,
              "exit %zu: its arrival is not where following it arrives", e);
        PrefabricMap *there = NULL;
        bool walkable = false;
        CHECK(prefabric_world_level(world, arrival.level, &there) == PREFABRIC_STATUS_OK, "level %s",
              arrival.level);
        CHECK(prefabric_map_walkable(there, arrival.x, arrival.y, &walkable) == PREFABRIC_STATUS_OK && walkable,
              "the arrival (%d, %d) on %s is not walkable", arrival.x, arrival.y, arrival.level);
        printf("%s %s at (%d, %d) -> %s at (%d, %d)\n", first.name, exit.way, exit.x, exit.y, arrival.level,
               arrival.x, arrival.y);
        prefabric_map_free(there);
        taken++;
    }
    CHECK(taken > 0, "no staircase of the first level leads anywhere");
    prefabric_map_free(map);

    /* Taking the stairs changes nothing: the first level again, the command's JSON. */
    map = NULL;
    CHECK(prefabric_world_level(world, first.name, &map) == PREFABRIC_STATUS_OK, "the first level again");
    json = prefabric_map_json(map);
    CHECK(json && expected && strcmp(json, expected) == 0, "%s: the JSON differs from %s", first.name, argv[1]);
    free(expected);
    prefabric_string_free(json);
    prefabric_map_free(map);
    prefabric_world_free(world);
    printf("%zu levels, %zu stairs taken, %d failures\n", count, taken, failures);
    return failures == 0 ? 0 : 1;
}
