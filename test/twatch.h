/* twatch.h - a monotonic clock, and a watchdog for library calls that might not return (a
   device search, a kernel build). POSIX: define _POSIX_C_SOURCE 200809L before any include.
   Include it after tt.h.

       tw_arm("dg_sssp", where, 300);  s = dg_sssp(...);  tw_disarm();

   A call that has not returned when the alarm (SIGALRM) fires is a failure, reported as
   "FAIL <where>: dg_sssp did not return within 300 s"; the program then prints its summary line
   (TT_SUMMARY) and exits with status 1. */
#ifndef TWATCH_H
#define TWATCH_H
#include <stdio.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char tw_where[700];
static const char *tw_call = "";
static unsigned tw_seconds;

static inline void tw_handler(int sig)
{
    (void)sig;
    tt_failed++;
    fprintf(stderr, "FAIL %s: %s did not return within %u s\n", tw_where, tw_call, tw_seconds);
    (void)TT_SUMMARY(tt_prog);
    fflush(stdout);
    fflush(stderr);
    _exit(1);
}
/* the watchdog set: `call` at `where` has `seconds` to return */
static inline void tw_arm(const char *call, const char *where, unsigned seconds)
{
    static int installed;
    if (!installed) { signal(SIGALRM, tw_handler); installed = 1; }
    snprintf(tw_where, sizeof tw_where, "%s", where);
    tw_call = call;
    tw_seconds = seconds;
    alarm(seconds);
}
static inline void tw_disarm(void) { alarm(0); }
#endif
