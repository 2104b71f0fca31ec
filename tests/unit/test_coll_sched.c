/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_coll_sched.c - the collective algorithms as schedules, without MPI:
 * for p = 1 .. 9 ranks, every algorithm builds the schedule of every rank
 * (fake communicators), and a small simulator runs them together: sends
 * are queued per (source, destination) pair in order, receives match them
 * in posting order, fences wait for the receives posted before them, copy
 * and reduce steps run as reached. A schedule that deadlocks (no rank can
 * move) or computes a wrong result fails the test. Results are compared
 * with references computed here, including a non-commutative op (affine
 * maps) for the order-preserving algorithms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll/coll_int.h"

static int failures;
#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            if (++failures <= 30) {                                          \
                printf("FAIL %s:%d: ", __FILE__, __LINE__);                  \
                printf(__VA_ARGS__);                                         \
                printf("\n");                                                \
            }                                                                \
        }                                                                    \
    } while (0)

enum { MAXP = 9, N = 13 };

typedef struct msg { struct msg *next; size_t len; char data[]; } msg_t;

static xb_comm_t comms[MAXP];
static xb_coll_sched_t sched[MAXP];
static msg_t *q[MAXP][MAXP];             /* q[src][dst], FIFO */
static int pend[MAXP][4096], npend[MAXP];

static void push(int src, int dst, const xb_coll_step_t *st)
{
    size_t len = (size_t)(st->scount * xb_dt_size(st->sdt)), done = 0;
    msg_t *m = malloc(sizeof(*m) + len + 1);
    m->next = NULL;
    m->len = len;
    xb_dt_pack(st->src, st->scount, st->sdt, 0, m->data, len, &done);
    msg_t **t = &q[src][dst];
    while (*t != NULL)
        t = &(*t)->next;
    *t = m;
}

/* Match the pending receives of rank r in order; true when none is left. */
static bool match(int r)
{
    int k = 0;
    for (int i = 0; i < npend[r]; i++) {
        const xb_coll_step_t *st = &sched[r].steps[pend[r][i]];
        msg_t *m = q[st->peer][r];
        bool earlier = false;            /* an earlier receive from this peer waits */
        for (int j = 0; j < k; j++)
            earlier |= sched[r].steps[pend[r][j]].peer == st->peer;
        if (m == NULL || earlier) {
            pend[r][k++] = pend[r][i];
            continue;
        }
        q[st->peer][r] = m->next;
        CHECK(m->len <= (size_t)(st->dcount * xb_dt_size(st->ddt)),
              "rank %d: %zu-byte message from %d truncated", r, m->len, st->peer);
        xb_dt_unpack(st->dst, st->dcount, st->ddt, 0, m->data, m->len);
        free(m);
    }
    npend[r] = k;
    return k == 0;
}

/* Run rank r until it blocks; returns the steps it made. */
static int run_rank(int r)
{
    xb_coll_sched_t *s = &sched[r];
    int moved = 0;
    for (;;) {
        bool matched = match(r);
        if (s->pc == s->nsteps)
            return moved;
        const xb_coll_step_t *st = &s->steps[s->pc];
        switch (st->op) {
        case XB_CS_SEND: push(r, st->peer, st); break;
        case XB_CS_RECV: pend[r][npend[r]++] = s->pc; break;
        case XB_CS_COPY:
            xb_dt_copy(st->src, st->scount, st->sdt, st->dst, st->dcount, st->ddt);
            break;
        case XB_CS_REDUCE:
            xb_op_apply(s->red.op, st->src, st->dst, st->scount, s->red.wdt);
            break;
        case XB_CS_FENCE:
            if (!matched)
                return moved;
            break;
        default:
            CHECK(0, "unexpected step %d", st->op);
        }
        s->pc++;
        moved++;
    }
}

static xb_op_t affop;                   /* the non-commutative op (below) */

/* Build with fn for every rank (args[r]), simulate, release, destroy. */
static void simulate(const char *what, int p, xb_coll_fn_t fn, xb_coll_args_t *args)
{
    for (int r = 0; r < p; r++) {
        comms[r] = (xb_comm_t){ .rank = r, .size = p };
        args[r].comm = &comms[r];
        xb_coll_sched_init(&sched[r], &comms[r], XB_COLL_BCAST);
        CHECK(fn(&sched[r], &args[r]) == XB_OK, "%s p=%d: build failed on rank %d", what, p, r);
        npend[r] = 0;
    }
    for (int moved = 1; moved;) {
        moved = 0;
        for (int r = 0; r < p; r++)
            moved += run_rank(r);
    }
    for (int r = 0; r < p; r++) {
        CHECK(sched[r].pc == sched[r].nsteps && npend[r] == 0,
              "%s p=%d: rank %d deadlocked at step %d of %d", what, p, r, sched[r].pc,
              sched[r].nsteps);
        for (int d = 0; d < p; d++) {
            CHECK(q[r][d] == NULL, "%s p=%d: message %d -> %d never received", what, p, r, d);
            while (q[r][d] != NULL) {
                msg_t *m = q[r][d];
                q[r][d] = m->next;
                free(m);
            }
        }
        /* what a finished nonblocking schedule lets go of (coll_nb.c's
         * finish): all but the struct; a second release and the destroy
         * after it drop nothing twice (the affine op's count below) */
        xb_coll_sched_release(&sched[r]);
        CHECK(sched[r].nsteps == 0 && sched[r].nreqs == 0 && sched[r].mem == NULL &&
              sched[r].op == NULL && sched[r].steps == sched[r].inline_steps,
              "%s p=%d: rank %d's schedule kept parts after its release", what, p, r);
        xb_coll_sched_release(&sched[r]);
        xb_coll_sched_destroy(&sched[r]);
    }
    CHECK(affop.refcount == 1, "%s p=%d: the affine op's count is %d after the "
          "schedules' release and destroy (1 before)", what, p, (int)affop.refcount);
}

/* ---- data and references ------------------------------------------------- */
typedef struct { uint32_t a, b; } aff_t;      /* x -> a x + b */
static xb_datatype_t *t_int, *t_aff;
static xb_op_t *sum;
static xb_op_t affop = { .magic = XB_MAGIC_OP, .refcount = 1, .kind = XB_OPK_USER,
                         .commute = false, .predefined = false, .name = "affine" };

static void aff_fn(void *in, void *io, int *len, MPI_Datatype *dt)
{
    (void)dt;
    aff_t *l = in, *r = io;
    for (int k = 0; k < *len; k++)
        r[k] = (aff_t){ l[k].a * r[k].a, l[k].b * r[k].a + r[k].b };
}

static int ival(int r, int k) { return r * 100 + k; }
static aff_t aval(int r, int k) { return (aff_t){ (uint32_t)(r + k) % 5 + 1, (uint32_t)(r * 3 + k) % 7 }; }

static aff_t afold(int lo, int hi, int k)
{
    aff_t acc = aval(lo, k);
    for (int r = lo + 1; r < hi; r++) {
        aff_t x = aval(r, k);
        acc = (aff_t){ acc.a * x.a, acc.b * x.a + x.b };
    }
    return acc;
}

static int in_buf[MAXP][MAXP * N], out_buf[MAXP][MAXP * N];
static aff_t ain[MAXP][MAXP * N], aout[MAXP][MAXP * N];
static xb_coll_args_t args[MAXP];

static void fill(int p)
{
    memset(args, 0, sizeof(args));
    for (int r = 0; r < p; r++)
        for (int k = 0; k < MAXP * N; k++) {
            in_buf[r][k] = ival(r, k);
            out_buf[r][k] = -1;
            ain[r][k] = aval(r, k);
            aout[r][k] = (aff_t){ 0, 0 };
        }
}

static void t_bcast(const char *name, xb_coll_fn_t fn, int p)
{
    for (int root = 0; root < p; root++) {
        fill(p);
        for (int r = 0; r < p; r++)
            args[r] = (xb_coll_args_t){ .rbuf = r == root ? in_buf[r] : out_buf[r],
                                        .rcount = N, .rdt = t_int, .root = root };
        simulate(name, p, fn, args);
        for (int r = 0; r < p; r++)
            for (int k = 0; k < N; k++)
                CHECK(((int *)args[r].rbuf)[k] == ival(root, k), "%s p=%d root %d: rank %d [%d]",
                      name, p, root, r, k);
    }
}

/* allreduce/reduce (root >= 0) with SUM, or with the affine op when aff. */
static void t_reduce(const char *name, xb_coll_fn_t fn, int p, int root, bool aff)
{
    fill(p);
    for (int r = 0; r < p; r++)
        args[r] = aff ? (xb_coll_args_t){ .sbuf = ain[r], .rbuf = aout[r], .rcount = N,
                                           .rdt = t_aff, .op = &affop, .root = root }
                      : (xb_coll_args_t){ .sbuf = in_buf[r], .rbuf = out_buf[r], .rcount = N,
                                           .rdt = t_int, .op = sum, .root = root };
    simulate(name, p, fn, args);
    for (int r = 0; r < p; r++) {
        if (root >= 0 && r != root)
            continue;
        for (int k = 0; k < N; k++) {
            int want = 0;
            for (int x = 0; x < p; x++)
                want += ival(x, k);
            aff_t aw = afold(0, p, k);
            CHECK(aff ? (aout[r][k].a == aw.a && aout[r][k].b == aw.b) : out_buf[r][k] == want,
                  "%s p=%d root %d%s: rank %d [%d]", name, p, root, aff ? " affine" : "", r, k);
        }
    }
}

static void t_scan(const char *name, xb_coll_fn_t fn, int p, bool ex)
{
    fill(p);
    for (int r = 0; r < p; r++)
        args[r] = (xb_coll_args_t){ .sbuf = ain[r], .rbuf = aout[r], .rcount = N,
                                    .rdt = t_aff, .op = &affop };
    simulate(name, p, fn, args);
    for (int r = ex ? 1 : 0; r < p; r++)
        for (int k = 0; k < N; k++) {
            aff_t w = afold(0, ex ? r : r + 1, k);
            CHECK(aout[r][k].a == w.a && aout[r][k].b == w.b, "%s p=%d: rank %d [%d]", name,
                  p, r, k);
        }
}

/* gather/allgather (all=1) and scatter (scatter=1); alltoall (a2a=1). */
static void t_blocks(const char *name, xb_coll_fn_t fn, int p, int kind)
{
    for (int root = 0; root < (kind == 0 || kind == 2 ? p : 1); root++) {
        fill(p);
        for (int r = 0; r < p; r++)
            args[r] = (xb_coll_args_t){ .sbuf = in_buf[r], .scount = N, .sdt = t_int,
                                        .rbuf = out_buf[r], .rcount = N, .rdt = t_int,
                                        .root = root };
        simulate(name, p, fn, args);
        for (int r = 0; r < p; r++)
            for (int j = 0; j < p; j++)
                for (int k = 0; k < N; k++) {
                    int got = out_buf[r][j * N + k], want;
                    if (kind == 0) {            /* gather */
                        if (r != root)
                            continue;
                        want = ival(j, k);
                    } else if (kind == 1) {     /* allgather */
                        want = ival(j, k);
                    } else if (kind == 2) {     /* scatter: block 0 only */
                        if (j > 0)
                            continue;
                        got = out_buf[r][k];
                        want = ival(root, r * N + k);
                    } else {                    /* alltoall */
                        want = ival(j, r * N + k);
                    }
                    CHECK(got == want, "%s p=%d root %d: rank %d block %d [%d] = %d, want %d",
                          name, p, root, r, j, k, got, want);
                }
    }
}

static void t_rsb(const char *name, xb_coll_fn_t fn, int p, bool aff)
{
    fill(p);
    for (int r = 0; r < p; r++)
        args[r] = aff ? (xb_coll_args_t){ .sbuf = ain[r], .rbuf = aout[r], .rcount = N,
                                           .rdt = t_aff, .op = &affop }
                      : (xb_coll_args_t){ .sbuf = in_buf[r], .rbuf = out_buf[r], .rcount = N,
                                           .rdt = t_int, .op = sum };
    simulate(name, p, fn, args);
    for (int r = 0; r < p; r++)
        for (int k = 0; k < N; k++) {
            int want = 0;
            for (int x = 0; x < p; x++)
                want += ival(x, r * N + k);
            aff_t aw = afold(0, p, r * N + k);
            CHECK(aff ? (aout[r][k].a == aw.a && aout[r][k].b == aw.b) : out_buf[r][k] == want,
                  "%s p=%d%s: rank %d [%d]", name, p, aff ? " affine" : "", r, k);
        }
}

int main(void)
{
    if (xb_dt_init() != XB_OK) {
        printf("FAIL: xb_dt_init\n");
        return 1;
    }
    t_int = xb_dt_from_handle(MPI_INT);
    sum = xb_op_from_handle(MPI_SUM);
    affop.fn = aff_fn;
    xb_dt_make_contiguous(2, xb_dt_from_handle(MPI_UINT32_T), &t_aff);
    xb_dt_commit(t_aff);
    for (int p = 1; p <= MAXP; p++) {
        bool pof2 = (p & (p - 1)) == 0;
        xb_coll_args_t none[MAXP];
        memset(none, 0, sizeof(none));
        simulate("barrier_dissemination", p, xb_coll_barrier_dissemination, none);
        t_bcast("bcast_binomial", xb_coll_bcast_binomial, p);
        t_bcast("bcast_linear", xb_coll_bcast_linear, p);
        t_bcast("bcast_scatter_allgather", xb_coll_bcast_scatter_allgather, p);
        for (int root = 0; root < p; root++) {
            t_reduce("reduce_binomial", xb_coll_reduce_binomial, p, root, false);
            t_reduce("reduce_ordered", xb_coll_reduce_ordered, p, root, true);
        }
        t_reduce("allreduce_recdbl", xb_coll_allreduce_recdbl, p, -1, false);
        t_reduce("allreduce_recdbl", xb_coll_allreduce_recdbl, p, -1, true);
        t_reduce("allreduce_reduce_bcast", xb_coll_allreduce_reduce_bcast, p, -1, true);
        t_reduce("allreduce_ring", xb_coll_allreduce_ring, p, -1, false);
        t_reduce("allreduce_rabenseifner", xb_coll_allreduce_rabenseifner, p, -1, false);
        t_scan("scan_recdbl", xb_coll_scan_recdbl, p, false);
        t_scan("exscan_recdbl", xb_coll_exscan_recdbl, p, true);
        t_blocks("gather_linear", xb_coll_gather_linear, p, 0);
        t_blocks("gather_binomial", xb_coll_gather_binomial, p, 0);
        t_blocks("allgather_ring", xb_coll_allgather_ring, p, 1);
        t_blocks("allgather_bruck", xb_coll_allgather_bruck, p, 1);
        if (pof2)
            t_blocks("allgather_recdbl", xb_coll_allgather_recdbl, p, 1);
        t_blocks("scatter_linear", xb_coll_scatter_linear, p, 2);
        t_blocks("scatter_binomial", xb_coll_scatter_binomial, p, 2);
        t_blocks("alltoall_pairwise", xb_coll_alltoall_pairwise, p, 3);
        t_blocks("alltoall_bruck", xb_coll_alltoall_bruck, p, 3);
        t_rsb("reduce_scatter_block_pairwise", xb_coll_reduce_scatter_block_pairwise, p, false);
        t_rsb("reduce_scatter_block_pairwise", xb_coll_reduce_scatter_block_pairwise, p, true);
        if (pof2)
            t_rsb("reduce_scatter_block_halving", xb_coll_reduce_scatter_block_halving, p, false);
    }
    xb_dt_release(t_aff);
    if (failures == 0)
        printf("all collective schedules correct for 1..%d ranks\n", MAXP);
    return failures != 0;
}
