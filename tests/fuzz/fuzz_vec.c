/*
 * fuzz_vec.c — libFuzzer target: the vector parser, entered where `ftsim play` enters it.
 *
 * TEST RATIONALE: `ftsim play` hands every file to vec_parse with the command layer's whole
 * catalogue of designs, so every device's word and statement hooks are reachable from a file.
 * Whatever the bytes, the parser must return 0 (a vector, which vec_free releases) or 2 with
 * one "fuzz.vec:LINE: message" line; never crash, hang, leak (LeakSanitizer checks each input)
 * or trip UndefinedBehaviorSanitizer. A wrong status or message shape aborts, so libFuzzer
 * keeps the input as a finding.
 *
 * Built and run by `make fuzz-parser SECONDS=N` (clang, -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "vec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vec_t v;
    char err[1024];
    int rc = vec_parse("fuzz.vec", (const char *)data, size, &registry_catalog, &v, err, sizeof err);
    if (rc == 0) {
        vec_free(&v);
        return 0;
    }
    /* The contract of a refusal: status 2, one line naming the file and a line number. */
    unsigned line = 0;
    int n = 0;
    if (rc != 2 || sscanf(err, "fuzz.vec:%u: %n", &line, &n) != 1 || n == 0 || !err[n] ||
        strchr(err, '\n')) {
        fprintf(stderr, "fuzz_vec: status %d, message '%s'\n", rc, err);
        abort();
    }
    return 0;
}
