/* Feeds the C interface bad input — NULL pointers, a broken pack folder, a
 * missing one, a size of 0, an unknown map type, a depth of 0, indexes and
 * cells out of range, a world of a pack with none, an unknown level, stairs
 * where there are none — and checks each status code and message.
 *
 * Usage: bad_input BROKEN_PACK_DIR MISSING_DIR NO_WORLD_PACK_DIR.
 * BROKEN_PACK_DIR holds a pack.toml whose line 2 is not TOML;
 * NO_WORLD_PACK_DIR a pack that loads but has no world.toml. Exits 0 when
 * every check passes. */
#include "prefabric.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

/* The call returned `want`, and the last message holds `words`. */
#define EXPECT(call, want, words)                                                        \
    do {                                                                                 \
        PrefabricStatus got_ = (call);                                                   \
        CHECK(got_ == (want), "%s returned %d, not %d", #call, (int)got_, (int)(want));  \
        CHECK(prefabric_last_error_code() == (want), "%s: last code", #call);            \
        CHECK(strstr(prefabric_last_error_message(), (words)) != NULL,                   \
              "%s: the message does not say \"%s\"", #call, (words));                     \
    } while (0)

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: bad_input BROKEN_PACK_DIR MISSING_DIR NO_WORLD_PACK_DIR\n");
        return 2;
    }
    CHECK(prefabric_last_error_code() == PREFABRIC_STATUS_OK, "no call failed yet");
    CHECK(strcmp(prefabric_last_error_message(), "") == 0, "no message yet");

    /* NULL everywhere. */
    PrefabricPack *pack = NULL;
    EXPECT(prefabric_pack_embedded(NULL), PREFABRIC_STATUS_NULL_POINTER, "out is NULL");
    EXPECT(prefabric_pack_load(NULL, &pack), PREFABRIC_STATUS_NULL_POINTER, "prefabric_pack_load: path is NULL");
    EXPECT(prefabric_pack_load(argv[1], NULL), PREFABRIC_STATUS_NULL_POINTER, "out is NULL");
    CHECK(prefabric_pack_map_type_count(NULL) == 0, "map types of NULL");
    CHECK(prefabric_pack_map_type_name(NULL, 0) == NULL, "a map type of NULL");
    PrefabricGenerator *generator = NULL;
    EXPECT(prefabric_generator_new(NULL, "materials", 1, NULL, &generator), PREFABRIC_STATUS_NULL_POINTER,
           "pack is NULL");
    PrefabricMap *map = NULL;
    EXPECT(prefabric_generate(NULL, 1, &map), PREFABRIC_STATUS_NULL_POINTER, "generator is NULL");
    CHECK(prefabric_map_width(NULL) == 0 && prefabric_map_height(NULL) == 0, "size of NULL");
    CHECK(prefabric_last_error_code() == PREFABRIC_STATUS_NULL_POINTER, "size of NULL records the error");
    PrefabricRole role;
    EXPECT(prefabric_map_role(NULL, 0, 0, &role), PREFABRIC_STATUS_NULL_POINTER, "map is NULL");
    CHECK(prefabric_map_ascii(NULL) == NULL && prefabric_map_json(NULL) == NULL, "text of NULL");
    CHECK(prefabric_map_region_count(NULL) == 0 && prefabric_map_stair_count(NULL) == 0 &&
              prefabric_map_exit_count(NULL) == 0 && prefabric_map_object_count(NULL) == 0,
          "counts of NULL");
    CHECK(prefabric_map_seed(NULL) == 0 && prefabric_map_depth(NULL) == 0, "seed and depth of NULL");
    CHECK(prefabric_map_map_type(NULL) == NULL && prefabric_map_moves(NULL) == NULL, "names of NULL");
    bool flag;
    uint32_t glyph;
    int64_t at;
    EXPECT(prefabric_map_passable(NULL, 0, 0, &flag), PREFABRIC_STATUS_NULL_POINTER, "prefabric_map_passable: map is NULL");
    EXPECT(prefabric_map_glyph(NULL, 0, 0, &glyph), PREFABRIC_STATUS_NULL_POINTER, "prefabric_map_glyph: map is NULL");
    EXPECT(prefabric_map_region_at(NULL, 0, 0, &at), PREFABRIC_STATUS_NULL_POINTER, "map is NULL");
    EXPECT(prefabric_map_stair_at(NULL, 0, 0, &at), PREFABRIC_STATUS_NULL_POINTER, "map is NULL");
    PrefabricWorld *world = NULL;
    EXPECT(prefabric_world_new(NULL, 1, &world), PREFABRIC_STATUS_NULL_POINTER, "prefabric_world_new: pack is NULL");
    CHECK(prefabric_world_level_count(NULL) == 0, "levels of NULL");
    EXPECT(prefabric_world_level(NULL, "materials:1", &map), PREFABRIC_STATUS_NULL_POINTER, "world is NULL");
    PrefabricArrival arrival;
    EXPECT(prefabric_world_follow(NULL, "materials:1", 0, 0, &arrival), PREFABRIC_STATUS_NULL_POINTER,
           "world is NULL");
    prefabric_pack_free(NULL);
    prefabric_generator_free(NULL);
    prefabric_map_free(NULL);
    prefabric_world_free(NULL);
    prefabric_string_free(NULL);

    /* A broken pack: every problem with its file, line and column. */
    EXPECT(prefabric_pack_load(argv[1], &pack), PREFABRIC_STATUS_PACK, "pack.toml");
    CHECK(pack == NULL, "a broken pack leaves *out alone");
    size_t problems = prefabric_error_count();
    CHECK(problems >= 1, "a broken pack has problems");
    PrefabricProblem problem;
    CHECK(prefabric_error_at(0, &problem) == PREFABRIC_STATUS_OK, "problem 0");
    if (problems >= 1) {
        CHECK(problem.file && strstr(problem.file, "pack.toml"), "problem 0 is in pack.toml, not %s",
              problem.file ? problem.file : "(none)");
        CHECK(problem.line == 2, "problem 0 is on line 2, not %u", problem.line);
        CHECK(problem.column >= 1, "problem 0 has a column");
        CHECK(problem.message && problem.message[0], "problem 0 has a message");
        CHECK(problem.text && strstr(problem.text, "pack.toml:2:"), "problem 0 reads %s", problem.text);
        printf("broken pack: %s\n", problem.text);
    }
    CHECK(prefabric_error_at(problems, &problem) == PREFABRIC_STATUS_OUT_OF_RANGE, "problem past the end");
    CHECK(prefabric_error_at(0, NULL) == PREFABRIC_STATUS_NULL_POINTER, "problem into NULL");
    CHECK(prefabric_error_count() == problems, "reading the problems keeps them");
    EXPECT(prefabric_pack_load(argv[2], &pack), PREFABRIC_STATUS_PACK, argv[2]);
    printf("missing pack: %s\n", prefabric_last_error_message());

    /* A pack with no world. */
    CHECK(prefabric_pack_load(argv[3], &pack) == PREFABRIC_STATUS_OK, "the pack with no world loads");
    EXPECT(prefabric_world_new(pack, 1, &world), PREFABRIC_STATUS_INVALID_ARGUMENT, "has no world.toml");
    CHECK(world == NULL, "no world was made");
    printf("no world: %s\n", prefabric_last_error_message());
    prefabric_pack_free(pack);
    pack = NULL;

    /* A good pack, and bad generators. */
    CHECK(prefabric_pack_embedded(&pack) == PREFABRIC_STATUS_OK, "the built-in pack");
    EXPECT(prefabric_generator_new(pack, "no-such-type", 1, NULL, &generator), PREFABRIC_STATUS_INVALID_ARGUMENT,
           "no-such-type");
    CHECK(prefabric_error_count() == 0, "an unknown map type is no pack problem");
    printf("unknown map type: %s\n", prefabric_last_error_message());
    PrefabricSize zero = {0, 40};
    EXPECT(prefabric_generator_new(pack, "materials", 1, &zero, &generator), PREFABRIC_STATUS_INVALID_ARGUMENT,
           "size 0x40");
    PrefabricSize huge = {100000, 100000};
    EXPECT(prefabric_generator_new(pack, "materials", 1, &huge, &generator), PREFABRIC_STATUS_INVALID_ARGUMENT,
           "materials");
    printf("huge size: %s\n", prefabric_last_error_message());
    EXPECT(prefabric_generator_new(pack, "materials", 0, NULL, &generator), PREFABRIC_STATUS_INVALID_ARGUMENT,
           "depth must be from 1");
    EXPECT(prefabric_generator_new(pack, NULL, 1, NULL, &generator), PREFABRIC_STATUS_NULL_POINTER,
           "map_type is NULL");
    EXPECT(prefabric_generator_new(pack, "materials", 1, NULL, NULL), PREFABRIC_STATUS_NULL_POINTER, "out is NULL");
    EXPECT(prefabric_generator_new(pack, "\xff\xfe", 1, NULL, &generator), PREFABRIC_STATUS_INVALID_ARGUMENT,
           "not UTF-8");
    CHECK(generator == NULL, "no generator was made");
    CHECK(prefabric_pack_map_type_name(pack, 100000) == NULL, "map type past the end");
    CHECK(prefabric_last_error_code() == PREFABRIC_STATUS_OUT_OF_RANGE, "map type past the end: code");

    /* A world: bad names, stairs where there are none, NULL out-parameters. */
    EXPECT(prefabric_world_new(pack, 1, NULL), PREFABRIC_STATUS_NULL_POINTER, "out is NULL");
    CHECK(prefabric_world_new(pack, 1, &world) == PREFABRIC_STATUS_OK, "the built-in world");
    PrefabricLevel level;
    EXPECT(prefabric_world_level_info(world, prefabric_world_level_count(world), &level),
           PREFABRIC_STATUS_OUT_OF_RANGE, "level");
    EXPECT(prefabric_world_level(world, "materials:99", &map), PREFABRIC_STATUS_INVALID_ARGUMENT, "materials:99");
    printf("unknown level: %s\n", prefabric_last_error_message());
    EXPECT(prefabric_world_level(world, NULL, &map), PREFABRIC_STATUS_NULL_POINTER, "name is NULL");
    EXPECT(prefabric_world_level(world, "materials:1", NULL), PREFABRIC_STATUS_NULL_POINTER, "out is NULL");
    EXPECT(prefabric_world_follow(world, "materials:1", -5, -5, &arrival), PREFABRIC_STATUS_INVALID_ARGUMENT,
           "no staircase at");
    printf("no stairs: %s\n", prefabric_last_error_message());
    EXPECT(prefabric_world_follow(world, NULL, 0, 0, &arrival), PREFABRIC_STATUS_NULL_POINTER, "from is NULL");
    prefabric_world_free(world);

    /* A good map, read out of range. */
    const char *first = prefabric_pack_map_type_name(pack, 0);
    CHECK(prefabric_generator_new(pack, first, 1, NULL, &generator) == PREFABRIC_STATUS_OK, "a generator");
    prefabric_pack_free(pack); /* the generator keeps it alive */
    EXPECT(prefabric_generate(generator, 1, NULL), PREFABRIC_STATUS_NULL_POINTER, "out is NULL");
    CHECK(prefabric_generate(generator, 1, &map) == PREFABRIC_STATUS_OK, "a map");
    prefabric_generator_free(generator); /* the map keeps what it needs */
    int w = prefabric_map_width(map), h = prefabric_map_height(map);
    EXPECT(prefabric_map_role(map, w, 0, &role), PREFABRIC_STATUS_OUT_OF_RANGE, "outside the map");
    EXPECT(prefabric_map_role(map, -1, 0, &role), PREFABRIC_STATUS_OUT_OF_RANGE, "outside the map");
    bool walkable;
    EXPECT(prefabric_map_walkable(map, 0, h, &walkable), PREFABRIC_STATUS_OUT_OF_RANGE, "outside the map");
    EXPECT(prefabric_map_role(map, 0, 0, NULL), PREFABRIC_STATUS_NULL_POINTER, "out is NULL");
    size_t regions = prefabric_map_region_count(map);
    PrefabricRegion region;
    EXPECT(prefabric_map_region(map, regions, &region), PREFABRIC_STATUS_OUT_OF_RANGE, "region");
    PrefabricDoor door;
    EXPECT(prefabric_map_region_door(map, regions, 0, &door), PREFABRIC_STATUS_OUT_OF_RANGE, "region");
    CHECK(prefabric_map_region(map, 0, &region) == PREFABRIC_STATUS_OK, "region 0");
    EXPECT(prefabric_map_region_door(map, 0, region.door_count, &door), PREFABRIC_STATUS_OUT_OF_RANGE, "door");
    uint32_t id;
    EXPECT(prefabric_map_region_neighbour(map, 0, region.neighbour_count, &id), PREFABRIC_STATUS_OUT_OF_RANGE,
           "neighbour");
    PrefabricStair stair;
    EXPECT(prefabric_map_stair(map, prefabric_map_stair_count(map), &stair), PREFABRIC_STATUS_OUT_OF_RANGE,
           "staircase");
    PrefabricExit exit;
    EXPECT(prefabric_map_exit(map, prefabric_map_exit_count(map), &exit), PREFABRIC_STATUS_OUT_OF_RANGE, "exit");
    PrefabricObject object;
    EXPECT(prefabric_map_object(map, prefabric_map_object_count(map), &object), PREFABRIC_STATUS_OUT_OF_RANGE,
           "object");
    EXPECT(prefabric_map_passable(map, w, h, &flag), PREFABRIC_STATUS_OUT_OF_RANGE, "outside the map");
    EXPECT(prefabric_map_glyph(map, -1, -1, &glyph), PREFABRIC_STATUS_OUT_OF_RANGE, "outside the map");
    EXPECT(prefabric_map_region_at(map, 0, -1, &at), PREFABRIC_STATUS_OUT_OF_RANGE, "outside the map");
    EXPECT(prefabric_map_stair_at(map, w, 0, &at), PREFABRIC_STATUS_OUT_OF_RANGE, "outside the map");
    EXPECT(prefabric_map_glyph(map, 0, 0, NULL), PREFABRIC_STATUS_NULL_POINTER, "out is NULL");
    EXPECT(prefabric_map_region_opening(map, 0, region.opening_count, &door), PREFABRIC_STATUS_OUT_OF_RANGE,
           "opening");
    PrefabricPoint cell;
    EXPECT(prefabric_map_stair_cell(map, 0, 1000000, &cell), PREFABRIC_STATUS_OUT_OF_RANGE, "cell 1000000");
    EXPECT(prefabric_map_stair_cell(map, prefabric_map_stair_count(map), 0, &cell), PREFABRIC_STATUS_OUT_OF_RANGE,
           "staircase");
    PrefabricObjectCell object_cell;
    EXPECT(prefabric_map_object_cell(map, prefabric_map_object_count(map), 0, &object_cell),
           PREFABRIC_STATUS_OUT_OF_RANGE, "object");
    PrefabricKeyword keyword;
    EXPECT(prefabric_map_object_keyword(map, 0, 1000000, &keyword), PREFABRIC_STATUS_OUT_OF_RANGE, "keyword");
    prefabric_map_free(map);

    printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
