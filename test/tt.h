/* tt.h - the tiny test harness of dyngraph's tests.
   CHECK(cond) counts a pass or a failure (printing file:line and the condition on failure);
   TT_SUMMARY() prints "<program>: N passed, N failed" and yields the exit status. */
#ifndef TT_H
#define TT_H
#include <stdio.h>
static long tt_passed, tt_failed;
#define CHECK(c) do { if (c) tt_passed++; else { tt_failed++; \
    if (tt_failed <= 50) fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)
#define CHECK_MSG(c, ...) do { if (c) tt_passed++; else { tt_failed++; \
    if (tt_failed <= 50) { fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } } while (0)
#define TT_SUMMARY(name) (printf("%s: %ld passed, %ld failed\n", (name), tt_passed, tt_failed), \
    tt_failed ? 1 : 0)
#endif
