/* What the C tests share: CHECK, which reports a failed condition with its
 * place and the library's last error and counts it in `failures` (each
 * program prints that count and exits non-zero when it is not 0), and
 * read_file, a whole file as one NUL-terminated string (NULL when it cannot
 * be read; free it). Included after prefabric.h. */
#ifndef PREFABRIC_TEST_CHECK_H
#define PREFABRIC_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                     \
            fprintf(stderr, " [last error %d: %s]\n", (int)prefabric_last_error_code(), \
                    prefabric_last_error_message());                          \
            failures++;                                                       \
        }                                                                     \
    } while (0)

static inline char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) { free(text); text = NULL; }
    if (text) text[n] = '\0';
    fclose(f);
    return text;
}

#endif
