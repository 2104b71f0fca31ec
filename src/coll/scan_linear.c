/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * scan_linear.c - inclusive and exclusive scan along the chain of ranks:
 * rank r receives the prefix of ranks 0 .. r-1 from r - 1, combines its
 * own vector on the right and passes the new prefix to r + 1. Each rank
 * receives, reduces and sends the vector once (recursive doubling does
 * that log2(p) times, with two reductions a round), at the price of p - 1
 * steps in a row; a large vector goes in segments of SEG bytes, so rank
 * r + 1 works on a segment while rank r does the next. For one node, where the
 * work of all ranks shares the CPUs (and with more ranks than CPUs the
 * total work is the time).
 *
 * The blocking form of a small vector (a predefined working type, at most
 * XB_COLL_DIRECT_MAX bytes) runs directly, without a schedule: the same chain of
 * one receive, one combine and one send per rank, in buffers on the
 * stack. On a part of a node (a split half, the 4 ranks of an 8-rank job
 * that the Intel MPI Benchmarks time) the schedule's build, steps and
 * teardown were most of an 8-byte scan: about 3000 instructions a call on
 * a middle rank with them, about 2000 without (callgrind, 2026-12-06). Counts
 * that differ: a rank whose receive did not match passes one byte more on
 * (as the schedule does), so the ranks after it fail too.
 */
#include "coll/coll_int.h"

/* 1 MiB: with 4 and 8 ranks on 2 cores 64 KiB segments took twice as long
 * at 1 MiB (1889 against 835 us at 4 ranks; every segment is a handshake
 * and a trip through the scheduler), 1 MiB and unsegmented alike at 4 MiB
 * (2026-11-24) */
enum { SEG = 1 << 20 };

static int scan(xb_coll_sched_t *s, const xb_coll_args_t *a, bool exclusive)
{
    int p = a->comm->size, r = a->comm->rank;
    const char *src;
    char *acc;       /* src holds x_r; acc: the result forms */
    int rc = xb_coll_red_bufs(s, a, &src, &acc);
    if (rc != XB_OK)
        return rc;
    MPI_Count n = s->red.wcount;
    xb_datatype_t *wdt = s->red.wdt;
    if (n == 0) {   /* nothing to combine, but the chain runs: another rank's count may not be 0 */
        if (r > 0)
            rc = xb_coll_sched_recv(s, NULL, 0, wdt, r - 1);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc == XB_OK && r < p - 1)
            rc = xb_coll_sched_send(s, NULL, 0, wdt, r + 1);
        return rc;
    }
    MPI_Aint ext = xb_dt_extent(wdt);
    bool last = r == p - 1;
    MPI_Count seg = SEG / (ext > 0 ? ext : 1);
    if (seg < 1)
        seg = 1;
    if (r == 0) {
        for (MPI_Count o = 0; o < n && !last && rc == XB_OK; o += seg)
            rc = xb_coll_sched_send(s, src + o * ext, n - o < seg ? n - o : seg, wdt, 1);
        if (rc == XB_OK && !exclusive)
            rc = xb_coll_sched_copy(s, src, n, wdt, acc, n, wdt);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc == XB_OK && !exclusive && !s->red.direct)
            rc = xb_coll_red_store(s, acc, a->rbuf);
        return rc;
    }
    /* scan: acc = x_r, then prefix op acc, segment by segment (tmp gets
     * the prefix); exscan: the prefix lands in acc, and fwd = prefix op x_r
     * (x_r copied out first: acc may hold it) goes on */
    char *tmp = NULL, *fwd = NULL;
    if (!exclusive) {
        tmp = xb_coll_sched_wtmp(s, -1);
        if (tmp == NULL)
            return XB_ERR_NO_MEM;
        rc = xb_coll_sched_copy(s, src, n, wdt, acc, n, wdt);
    } else if (!last) {
        fwd = xb_coll_sched_wtmp(s, -1);
        if (fwd == NULL)
            return XB_ERR_NO_MEM;
        rc = xb_coll_sched_copy(s, src, n, wdt, fwd, n, wdt);
    }
    for (MPI_Count o = 0; o < n && rc == XB_OK; o += seg) {
        MPI_Count len = n - o < seg ? n - o : seg;
        MPI_Aint b = o * ext;
        rc = xb_coll_sched_recv(s, exclusive ? acc + b : tmp + b, len, wdt, r - 1);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc != XB_OK || (exclusive && last))
            continue;
        char *out = exclusive ? fwd + b : acc + b;
        rc = xb_coll_sched_reduce(s, exclusive ? acc + b : tmp + b, out, len);
        if (rc == XB_OK && !last)
            rc = xb_coll_sched_send(s, out, len, wdt, r + 1);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    if (rc == XB_OK && !s->red.direct)
        rc = xb_coll_red_store(s, acc, a->rbuf);
    return rc;
}

int xb_coll_scan_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return scan(s, a, false);
}

int xb_coll_exscan_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return scan(s, a, true);
}

static int direct(const xb_coll_args_t *a, int tag, bool exclusive)
{
    xb_coll_kind_t kind = exclusive ? XB_COLL_EXSCAN : XB_COLL_SCAN;
    xb_coll_red_t red;
    size_t wb = xb_coll_direct_red(&red, a);
    if (wb == 0)
        return xb_coll_run_sched(kind, exclusive ? xb_coll_exscan_linear : xb_coll_scan_linear,
                                 a, tag);
    int p = a->comm->size, r = a->comm->rank;
    _Alignas(64) char x[XB_COLL_DIRECT_MAX], pre[XB_COLL_DIRECT_MAX];
    const void *src = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    int rc = xb_coll_flow_wcopy(&red, (void *)src, x, true);   /* x = x_r */
    if (r > 0) {                /* received even after an error: nothing stays queued */
        int r1 = xb_coll_recv_exact(pre, red.wcount, red.wdt, r - 1, tag, a->comm, -1,
                                    (int)kind, NULL);
        rc = rc == XB_OK ? r1 : rc;
        if (rc == XB_OK && !(exclusive && r == p - 1))    /* x = prefix op x_r */
            rc = xb_coll_flow_apply_k(&red, xb_op_kernel(red.op, red.wdt), pre, x);
    }
    if (rc != XB_OK) {          /* the ranks after this one fail too */
        int r2 = r < p - 1 ? xb_coll_send_mismatch(wb, r + 1, tag, a->comm) : XB_OK;
        return r2 != XB_OK ? r2 : rc;
    }
    if (r < p - 1)
        rc = xb_coll_send_blocking(x, red.wcount, red.wdt, r + 1, tag, a->comm);
    if (rc == XB_OK && !exclusive)
        rc = xb_coll_flow_wcopy(&red, a->rbuf, x, false);
    else if (rc == XB_OK && r > 0)
        rc = xb_coll_flow_wcopy(&red, a->rbuf, pre, false);
    return rc;
}

int xb_coll_scan_linear_direct(const xb_coll_args_t *a, int tag)
{
    return direct(a, tag, false);
}

int xb_coll_exscan_linear_direct(const xb_coll_args_t *a, int tag)
{
    return direct(a, tag, true);
}
