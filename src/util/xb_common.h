/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * xb_common.h - what every internal file of Crossbar includes.
 *
 * Return codes. Every fallible internal function returns an int:
 *   XB_OK (0)          done; outputs written.
 *   XB_INPROGRESS (1)  accepted; completion is reported later (callback/flag).
 *   XB_ERR_AGAIN       back-pressure: "not now", nothing was done; the caller
 *                      queues the operation and retries after progress.
 *   -MPI_ERR_<CLASS>   a real error. Internal errors ARE negated MPI error
 *                      classes (XB_ERR_TRUNCATE == -MPI_ERR_TRUNCATE), so the
 *                      binding turns them into MPI codes without a table.
 *
 * Error detail. The first function that detects an error records a sentence in
 * a per-thread slot with xb_err_set() (or xb_err_sys() for errno failures) and
 * returns the code; callers above only propagate the code. The binding layer
 * prefixes the MPI function name and stores the text so that
 * MPI_Error_string() returns it, e.g.
 *   "MPI_Send: invalid rank 7 for argument dest (the communicator has 4 ranks)".
 * Text given to xb_err_set() therefore does NOT repeat the MPI function name.
 *
 * Visibility. The library is compiled with -fvisibility=hidden: everything is
 * internal unless marked XB_EXPORT, which only the MPI_/PMPI_ entry points use.
 */
#ifndef XB_COMMON_H
#define XB_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <stdbool.h>
#include <stdarg.h>
#include "mpi.h"

#define XB_EXPORT __attribute__((visibility("default")))
#define XB_LIKELY(x)   __builtin_expect(!!(x), 1)
#define XB_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define XB_NOINLINE    __attribute__((noinline))
#define XB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define XB_CACHELINE   64
#define XB_ALIGNED(n)  __attribute__((aligned(n)))
#define XB_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

enum {
    XB_OK         = 0,
    XB_INPROGRESS = 1,
    XB_ERR_AGAIN  = -100000, /* never reaches the user */

    XB_ERR_BUFFER   = -MPI_ERR_BUFFER,
    XB_ERR_COUNT    = -MPI_ERR_COUNT,
    XB_ERR_TYPE     = -MPI_ERR_TYPE,
    XB_ERR_TAG      = -MPI_ERR_TAG,
    XB_ERR_COMM     = -MPI_ERR_COMM,
    XB_ERR_RANK     = -MPI_ERR_RANK,
    XB_ERR_REQUEST  = -MPI_ERR_REQUEST,
    XB_ERR_ROOT     = -MPI_ERR_ROOT,
    XB_ERR_GROUP    = -MPI_ERR_GROUP,
    XB_ERR_OP       = -MPI_ERR_OP,
    XB_ERR_ARG      = -MPI_ERR_ARG,
    XB_ERR_UNKNOWN  = -MPI_ERR_UNKNOWN,
    XB_ERR_TRUNCATE = -MPI_ERR_TRUNCATE,
    XB_ERR_OTHER    = -MPI_ERR_OTHER,
    XB_ERR_INTERN   = -MPI_ERR_INTERN,
    XB_ERR_PENDING  = -MPI_ERR_PENDING,
    XB_ERR_IN_STATUS = -MPI_ERR_IN_STATUS,
    XB_ERR_NO_MEM   = -MPI_ERR_NO_MEM,
    XB_ERR_IO       = -MPI_ERR_IO,
    XB_ERR_INFO     = -MPI_ERR_INFO,
    XB_ERR_KEYVAL   = -MPI_ERR_KEYVAL,
    XB_ERR_ERRHANDLER = -MPI_ERR_ERRHANDLER,
    XB_ERR_PROC_ABORTED = -MPI_ERR_PROC_ABORTED,
    XB_ERR_VALUE_TOO_LARGE = -MPI_ERR_VALUE_TOO_LARGE,
};

/* Global process id: job id in the high 32 bits, rank in that job in the low
 * 32 bits. Issue 2 has one job (id 0), so a gpid equals the world rank. */
typedef uint64_t xb_gpid_t;
/* Monotonic time in nanoseconds (vDSO: no syscall). */
static inline uint64_t xb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline xb_gpid_t xb_gpid_make(uint32_t job, uint32_t rank)
{
    return ((uint64_t)job << 32) | rank;
}
static inline uint32_t xb_gpid_rank(xb_gpid_t g) { return (uint32_t)g; }
static inline uint32_t xb_gpid_job(xb_gpid_t g)  { return (uint32_t)(g >> 32); }

/* ---- error detail (src/runtime/err.c) ---------------------------------- */
int  xb_err_set(int rc, const char *fmt, ...) XB_PRINTF(2, 3);
int  xb_err_sys(int rc, int errnum, const char *fmt, ...) XB_PRINTF(3, 4);
const char *xb_err_detail(void);   /* "" when nothing was recorded */
void xb_err_clear(void);
/* Bumped by every set and clear of this thread's detail: tells whether a
 * detail is still the one something was noted with (core/errhandler.c). */
unsigned xb_err_gen(void);

#endif
