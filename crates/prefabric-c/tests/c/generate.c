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

#include "check.h"

/* Appends the UTF-8 bytes of code point `c` to `out`; the new end. */
static char *put_utf8(char *out, uint32_t c) {
    if (c < 0x80) {
        *out++ = (char)c;
    } else if (c < 0x800) {
        *out++ = (char)(0xC0 | (c >> 6));
        *out++ = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *out++ = (char)(0xE0 | (c >> 12));
        *out++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *out++ = (char)(0x80 | (c & 0x3F));
    } else {
        *out++ = (char)(0xF0 | (c >> 18));
        *out++ = (char)(0x80 | ((c >> 12) & 0x3F));
        *out++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *out++ = (char)(0x80 | (c & 0x3F));
    }
    return out;
}

/* Reads every part of the map through the interface, checking each against the rest. */
static void read_parts(const PrefabricMap *map, const char *name, uint64_t seed) {
    int width = prefabric_map_width(map), height = prefabric_map_height(map);
    CHECK(width > 0 && height > 0, "%s: size %dx%d", name, width, height);
    CHECK(prefabric_map_seed(map) == seed && prefabric_map_depth(map) == 1, "%s: seed and depth", name);
    CHECK(strcmp(prefabric_map_map_type(map), name) == 0, "%s: map type %s", name, prefabric_map_map_type(map));
    const char *moves = prefabric_map_moves(map);
    CHECK(strcmp(moves, "orthogonal") == 0 || strcmp(moves, "diagonal") == 0, "%s: moves %s", name, moves);
    size_t regions = prefabric_map_region_count(map);
    size_t stairs = prefabric_map_stair_count(map);

    /* Every cell: role, walkable, passable, region, staircase, glyph (drawn
     * into a copy of the map's text, compared with prefabric_map_ascii). */
    size_t walkable = 0, stair_cells = 0;
    char *drawn = malloc((size_t)(width * 4 + 1) * (size_t)height + 1), *end = drawn;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            PrefabricRole role;
            bool walk, pass;
            int64_t region, stair;
            uint32_t glyph;
            CHECK(prefabric_map_role(map, x, y, &role) == PREFABRIC_STATUS_OK, "%s: role (%d, %d)", name, x, y);
            CHECK(prefabric_map_walkable(map, x, y, &walk) == PREFABRIC_STATUS_OK, "%s: walkable", name);
            CHECK(prefabric_map_passable(map, x, y, &pass) == PREFABRIC_STATUS_OK, "%s: passable", name);
            CHECK(prefabric_map_region_at(map, x, y, &region) == PREFABRIC_STATUS_OK, "%s: region at", name);
            CHECK(prefabric_map_stair_at(map, x, y, &stair) == PREFABRIC_STATUS_OK, "%s: stair at", name);
            CHECK(prefabric_map_glyph(map, x, y, &glyph) == PREFABRIC_STATUS_OK, "%s: glyph", name);
            CHECK(role <= PREFABRIC_ROLE_STAIRS, "%s: role %d", name, (int)role);
            CHECK(!pass || walk, "%s: (%d, %d) is passable but not walkable", name, x, y);
            CHECK(region >= -1 && region < (int64_t)regions, "%s: region %lld", name, (long long)region);
            bool on_stairs = role == PREFABRIC_ROLE_STAIRS_UP || role == PREFABRIC_ROLE_STAIRS_DOWN;
            CHECK(on_stairs == (stair >= 0) && stair < (int64_t)stairs, "%s: (%d, %d) role %d, staircase %lld",
                  name, x, y, (int)role, (long long)stair);
            if (walk) walkable++;
            if (stair >= 0) stair_cells++;
            if (drawn) end = put_utf8(end, glyph);
        }
        if (drawn) *end++ = '\n';
    }
    CHECK(walkable > 0, "%s: no walkable cell", name);
    char *text = prefabric_map_ascii(map);
    if (drawn) *end = '\0';
    CHECK(drawn && text && strcmp(drawn, text) == 0, "%s: the glyphs differ from prefabric_map_ascii", name);
    free(drawn);
    prefabric_string_free(text);

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
        for (size_t d = 0; d < region.opening_count; d++) {
            PrefabricDoor opening;
            CHECK(prefabric_map_region_opening(map, r, d, &opening) == PREFABRIC_STATUS_OK, "%s: opening", name);
            CHECK(opening.to >= -1 && opening.to < (int64_t)regions, "%s: opening to %lld", name,
                  (long long)opening.to);
        }
        for (size_t n = 0; n < region.neighbour_count; n++) {
            uint32_t id;
            CHECK(prefabric_map_region_neighbour(map, r, n, &id) == PREFABRIC_STATUS_OK, "%s: neighbour", name);
            CHECK(id < regions, "%s: neighbour %u", name, id);
        }
    }

    size_t counted_cells = 0;
    for (size_t s = 0; s < stairs; s++) {
        PrefabricStair stair;
        CHECK(prefabric_map_stair(map, s, &stair) == PREFABRIC_STATUS_OK, "%s: stair %zu", name, s);
        PrefabricRole role;
        prefabric_map_role(map, stair.x, stair.y, &role);
        CHECK(role == stair.role, "%s: stair %zu at (%d, %d) is role %d", name, s, stair.x, stair.y, (int)role);
        CHECK(stair.cell_count >= 1, "%s: stair %zu has no cell", name, s);
        for (size_t c = 0; c < stair.cell_count; c++) {
            PrefabricPoint cell;
            int64_t at = -1;
            CHECK(prefabric_map_stair_cell(map, s, c, &cell) == PREFABRIC_STATUS_OK, "%s: stair cell", name);
            CHECK(c > 0 || (cell.x == stair.x && cell.y == stair.y), "%s: stair %zu's first cell", name, s);
            prefabric_map_stair_at(map, cell.x, cell.y, &at);
            CHECK(at == (int64_t)s, "%s: (%d, %d) is in staircase %lld, not %zu", name, cell.x, cell.y,
                  (long long)at, s);
        }
        counted_cells += stair.cell_count;
    }
    CHECK(counted_cells == stair_cells, "%s: %zu stairs cells, %zu in staircases", name, stair_cells,
          counted_cells);

    size_t exits = prefabric_map_exit_count(map);
    for (size_t e = 0; e < exits; e++) {
        PrefabricExit exit;
        CHECK(prefabric_map_exit(map, e, &exit) == PREFABRIC_STATUS_OK, "%s: exit %zu", name, e);
    }

    size_t objects = prefabric_map_object_count(map), named = 0, keywords = 0;
    for (size_t o = 0; o < objects; o++) {
        PrefabricObject object;
        CHECK(prefabric_map_object(map, o, &object) == PREFABRIC_STATUS_OK, "%s: object %zu", name, o);
        CHECK(object.x >= 0 && object.x < width && object.y >= 0 && object.y < height, "%s: object %zu", name, o);
        CHECK(object.cell_count >= 1 && object.kind[0], "%s: object %zu", name, o);
        for (size_t c = 0; c < object.cell_count; c++) {
            PrefabricObjectCell cell;
            CHECK(prefabric_map_object_cell(map, o, c, &cell) == PREFABRIC_STATUS_OK, "%s: object cell", name);
            CHECK(c > 0 || (cell.x == object.x && cell.y == object.y), "%s: object %zu's first cell", name, o);
            CHECK(cell.glyph > 0, "%s: object %zu has no glyph", name, o);
        }
        for (size_t k = 0; k < object.keyword_count; k++) {
            PrefabricKeyword keyword;
            CHECK(prefabric_map_object_keyword(map, o, k, &keyword) == PREFABRIC_STATUS_OK, "%s: keyword", name);
            CHECK(keyword.name && keyword.name[0], "%s: object %zu keyword %zu has no name", name, o, k);
            keywords++;
        }
        if (object.name) named++;
    }
    printf("%s: %dx%d, %s moves, %zu walkable cells, %zu regions, %zu staircases, %zu exits, %zu objects "
           "(%zu named, %zu keywords)\n",
           name, width, height, moves, walkable, regions, stairs, exits, objects, named, keywords);
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
        read_parts(map, name, seed);
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
