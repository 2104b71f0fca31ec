/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* ptest.h - tiny helpers shared by the pt2pt test programs. */
#ifndef PTEST_H
#define PTEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mpi.h"

static int pt_errs;
#define CHECK(cond) do { if (!(cond)) { pt_errs++; if (pt_errs < 20) \
    fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", pt_rank(), __FILE__, __LINE__, #cond); \
    } } while (0)
#define CHECK_RC(call) do { int rc_ = (call); if (rc_ != MPI_SUCCESS) { pt_errs++; \
    char s_[MPI_MAX_ERROR_STRING]; int l_; MPI_Error_string(rc_, s_, &l_); \
    fprintf(stderr, "rank %d: %s:%d: %s failed: %s\n", pt_rank(), __FILE__, __LINE__, #call, s_); \
    } } while (0)

static inline int pt_rank(void)
{
    int r = -1, init = 0;
    MPI_Initialized(&init);
    if (init)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

/* EXPECT(call, class, fn, arg): the call failed with that error class and
 * its message names the function fn and (unless NULL) the argument arg. */
static inline void pt_expect(int rc, int cls, const char *fn, const char *arg, int line)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len;
    MPI_Error_string(rc, msg, &len);
    if (c != cls || strstr(msg, fn) == NULL || (arg && strstr(msg, arg) == NULL)) {
        pt_errs++;
        fprintf(stderr, "rank %d: line %d: class %d (want %d), message '%s' (want %s, %s)\n",
                pt_rank(), line, c, cls, msg, fn, arg ? arg : "-");
    }
}
#define EXPECT(call, cls, fn, arg) pt_expect((call), (cls), (fn), (arg), __LINE__)

/* malloc, or abort the job saying how much was asked. */
static inline void *pt_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Compute (no MPI call, no sleep) for ms milliseconds. */
static inline void pt_busy_ms(int ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

/* Every rank reports its error count; rank 0 prints "No Errors" when all are 0. */
static inline int pt_finish(void)
{
    int total = 0;
    MPI_Allreduce(&pt_errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (pt_rank() == 0) {
        if (total == 0)
            printf("No Errors\n");
        else
            printf("Found %d errors\n", total);
    }
    MPI_Finalize();
    return total != 0;
}

static inline unsigned char pt_byte(size_t i, int seed) { return (unsigned char)(i * 7 + (size_t)seed * 13 + 1); }
static inline void pt_fill(unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = pt_byte(i, seed);
}
static inline size_t pt_verify(const unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != pt_byte(i, seed))
            return i + 1;
    return 0;
}
#endif
