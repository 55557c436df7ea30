/* Generates every map type of the built-in pack through the C interface,
 * prints the first as text, reads every part of every map, and checks each
 * map's JSON against the file the Rust side wrote for the same seed
 * (EXPECTED_DIR/<map type>.json: the library's render::json, the bytes
 * `prefabric generate --format json` writes).
 *
 * Usage: generate EXPECTED_DIR SEED. Exits 0 when every check passes. */
#include "prefabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);             \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, " [last error: %s]\n", prefabric_last_error_message()); \
            failures++;                                                      \
        }                                                                    \
    } while (0)

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) { free(text); text = NULL; }
    if (text) text[n] = '\0';
    fclose(f);
    return text;
}

/* Reads every part of the map through the interface, checking each against the rest. */
static void read_parts(const PrefabricMap *map, const char *name) {
    int width = prefabric_map_width(map), height = prefabric_map_height(map);
    CHECK(width > 0 && height > 0, "%s: size %dx%d", name, width, height);
    size_t walkable = 0;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            PrefabricRole role;
            bool walk;
            CHECK(prefabric_map_role(map, x, y, &role) == PREFABRIC_STATUS_OK, "%s: role (%d, %d)", name, x, y);
            CHECK(prefabric_map_walkable(map, x, y, &walk) == PREFABRIC_STATUS_OK, "%s: walkable", name);
            CHECK(role <= PREFABRIC_ROLE_STAIRS, "%s: role %d", name, (int)role);
            if (walk) walkable++;
        }
    }
    CHECK(walkable > 0, "%s: no walkable cell", name);

    size_t regions = prefabric_map_region_count(map);
    CHECK(regions > 0, "%s: no region", name);
    for (size_t r = 0; r < regions; r++) {
        PrefabricRegion region;
        CHECK(prefabric_map_region(map, r, &region) == PREFABRIC_STATUS_OK, "%s: region %zu", name, r);
        CHECK(region.id == r, "%s: region %zu has id %u", name, r, region.id);
        CHECK(region.kind && region.kind[0], "%s: region %zu has no kind", name, r);
        for (size_t d = 0; d < region.door_count; d++) {
            PrefabricDoor door;
            CHECK(prefabric_map_region_door(map, r, d, &door) == PREFABRIC_STATUS_OK, "%s: door", name);
            CHECK(door.to >= -1 && door.to < (int64_t)regions, "%s: door to %lld", name, (long long)door.to);
            CHECK(strcmp(door.side, "north") == 0 || strcmp(door.side, "east") == 0 ||
                      strcmp(door.side, "south") == 0 || strcmp(door.side, "west") == 0,
                  "%s: door side %s", name, door.side);
        }
        for (size_t n = 0; n < region.neighbour_count; n++) {
            uint32_t id;
            CHECK(prefabric_map_region_neighbour(map, r, n, &id) == PREFABRIC_STATUS_OK, "%s: neighbour", name);
            CHECK(id < regions, "%s: neighbour %u", name, id);
        }
    }

    size_t stairs = prefabric_map_stair_count(map);
    for (size_t s = 0; s < stairs; s++) {
        PrefabricStair stair;
        CHECK(prefabric_map_stair(map, s, &stair) == PREFABRIC_STATUS_OK, "%s: stair %zu", name, s);
        PrefabricRole role;
        prefabric_map_role(map, stair.x, stair.y, &role);
        CHECK(role == stair.role, "%s: stair %zu at (%d, %d) is role %d", name, s, stair.x, stair.y, (int)role);
        CHECK(stair.cell_count >= 1, "%s: stair %zu has no cell", name, s);
    }

    size_t exits = prefabric_map_exit_count(map);
    for (size_t e = 0; e < exits; e++) {
        PrefabricExit exit;
        CHECK(prefabric_map_exit(map, e, &exit) == PREFABRIC_STATUS_OK, "%s: exit %zu", name, e);
    }

    size_t objects = prefabric_map_object_count(map);
    for (size_t o = 0; o < objects; o++) {
        PrefabricObject object;
        CHECK(prefabric_map_object(map, o, &object) == PREFABRIC_STATUS_OK, "%s: object %zu", name, o);
        CHECK(object.x >= 0 && object.x < width && object.y >= 0 && object.y < height, "%s: object %zu", name, o);
        CHECK(object.cell_count >= 1 && object.kind[0], "%s: object %zu", name, o);
    }
    printf("%s: %dx%d, %zu walkable cells, %zu regions, %zu staircases, %zu exits, %zu objects\n", name, width,
           height, walkable, regions, stairs, exits, objects);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: generate EXPECTED_DIR SEED\n");
        return 2;
    }
    const char *expected_dir = argv[1];
    uint64_t seed = strtoull(argv[2], NULL, 10);
    printf("prefabric %s\n", prefabric_version());

    PrefabricPack *pack = NULL;
    if (prefabric_pack_embedded(&pack) != PREFABRIC_STATUS_OK) {
        fprintf(stderr, "the built-in pack: %s\n", prefabric_last_error_message());
        return 1;
    }
    size_t count = prefabric_pack_map_type_count(pack);
    CHECK(count > 0, "the built-in pack has no map type");
    for (size_t i = 0; i < count; i++) {
        const char *name = prefabric_pack_map_type_name(pack, i);
        PrefabricGenerator *generator = NULL;
        PrefabricMap *map = NULL;
        if (prefabric_generator_new(pack, name, 1, NULL, &generator) != PREFABRIC_STATUS_OK ||
            prefabric_generate(generator, seed, &map) != PREFABRIC_STATUS_OK) {
            CHECK(0, "%s: no map", name);
            prefabric_generator_free(generator);
            continue;
        }
        read_parts(map, name);
        if (i == 0) {
            char *text = prefabric_map_ascii(map);
            CHECK(text != NULL, "%s: no text", name);
            if (text) fputs(text, stdout);
            prefabric_string_free(text);
        }
        char *json = prefabric_map_json(map);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.json", expected_dir, name);
        char *expected = read_file(path);
        CHECK(expected != NULL, "%s: cannot read %s", name, path);
        CHECK(json && expected && strcmp(json, expected) == 0, "%s: the JSON differs from %s", name, path);
        free(expected);
        prefabric_string_free(json);
        prefabric_map_free(map);
        prefabric_generator_free(generator);
    }
    prefabric_pack_free(pack);
    printf("%zu map types, %d failures\n", count, failures);
    return failures == 0 ? 0 : 1;
}
