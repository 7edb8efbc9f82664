/* check.h — the check every harness unit test counts with: CHECK(cond, fmt, ...) counts a pass,
 * or a failure printed as "file:line: message"; check_done() prints "N passed, N failed" (the
 * runner reads it) and gives the exit status. Header-only: one test is one program. */
#ifndef FTSIM_TEST_CHECK_H
#define FTSIM_TEST_CHECK_H

#include <stdio.h>

static unsigned passed, failed;

#define CHECK(cond, ...)                           \
    do {                                           \
        if (cond)                                  \
            passed++;                              \
        else {                                     \
            failed++;                              \
            printf("%s:%d: ", __FILE__, __LINE__); \
            printf(__VA_ARGS__);                   \
            printf("\n");                          \
        }                                          \
    } while (0)

static inline int check_done(void)
{
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

#endif
