/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * chain.c - MPI_Scan and MPI_Exscan back to back at every size the node
 * chain takes (src/coll/scan_chain.c: rings of chunks in the node's shared
 * memory): counts from 0 to 1.6 MB of data (one chunk, chunk edges, the
 * ring wrapped many times in one call), rotating between MPI_COMM_WORLD, a
 * communicator of the same ranks in reverse order and a duplicate (each
 * ring's reader changes from call to call), a non-commutative user op on a
 * predefined type and on a contiguous derived type (rank order), MPI_SUM
 * on a strided vector type (packed chunks; its holes must stay untouched)
 * and on doubles, MPI_IN_PLACE, and a rank that naps now and then so the
 * others run ahead and fill the rings. Node barrier collectives and small
 * scans (the flow cells) are mixed in. Every result is checked against a
 * reference the test folds in rank order.
 */
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "ctest.h"
#include "ct_aff16.h"

enum { ITERS = 240, SENT = 0x5a5a5a5a };
enum { T_AFF16, T_AFFINE, T_VECTOR, T_DOUBLE, NTYPES };
static const char *const type_names[NTYPES] = {
    "aff16/uint32", "affine/contiguous(2, uint32)", "sum/vector(2,1,2,int)", "sum/double",
};

typedef struct { uint32_t a, b; } aff_t;

static MPI_Datatype affty, vecty;
static MPI_Op aff16op, affop;

/* r := apply l, then r */
static void aff_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const aff_t *l = in;
    aff_t *r = inout;
    for (int k = 0; k < *len; k++) {
        aff_t o = { l[k].a * r[k].a, l[k].b * r[k].a + r[k].b };
        r[k] = o;
    }
}

static uint32_t val(int it, int rank, long k)
{
    return (uint32_t)((it * 7 + rank * 3 + k) % 11 + 1) << 16 |
           (uint32_t)((it + 5 * rank + k * 3) % 17);
}

/* Ints per element in memory, and how many of them carry data. */
static int mem_ints(int t) { return t == T_AFF16 ? 1 : t == T_VECTOR ? 3 : 2; }

/* Element k of rank's operand, written at p (mem_ints(t) ints). */
static void make(int t, int it, int rank, long k, uint32_t *p)
{
    switch (t) {
    case T_AFF16: p[0] = val(it, rank, k); break;
    case T_AFFINE: p[0] = val(it, rank, k) % 5 + 1; p[1] = val(it, rank, k + 1); break;
    case T_VECTOR: p[0] = val(it, rank, k); p[2] = val(it, rank, k + 7); break;
    default: {
        double d = (double)(val(it, rank, k) & 0xff);
        memcpy(p, &d, sizeof d);
    }
    }
}

/* acc := acc op x (acc holds the lower ranks) */
static void fold(int t, uint32_t *acc, const uint32_t *x)
{
    switch (t) {
    case T_AFF16: acc[0] = ct_aff16(acc[0], x[0]); break;
    case T_AFFINE: {
        aff_t o = { acc[0] * x[0], acc[1] * x[0] + x[1] };
        acc[0] = o.a, acc[1] = o.b;
        break;
    }
    case T_VECTOR: acc[0] += x[0]; acc[2] += x[2]; break;
    default: {
        double a, b;
        memcpy(&a, acc, sizeof a);
        memcpy(&b, x, sizeof b);
        a += b;
        memcpy(acc, &a, sizeof a);
    }
    }
}

static void type_op(int t, MPI_Datatype *dt, MPI_Op *op)
{
    *dt = t == T_AFF16 ? MPI_UINT32_T : t == T_AFFINE ? affty : t == T_VECTOR ? vecty : MPI_DOUBLE;
    *op = t == T_AFF16 ? aff16op : t == T_AFFINE ? affop : MPI_SUM;
}

static void nap(int it)
{
    if (it % 13 == 5 && ct_rank == (it / 13) % ct_size) {
        struct timespec ts = { 0, 3000000 };      /* 3 ms: the others run ahead */
        nanosleep(&ts, NULL);
    }
}

static long count_of(int it)
{
    static const long counts[] = { 0, 1, 3, 100, 2031, 2032, 2033, 4064, 5000, 20000 };
    if (it % 40 == 17)
        return 200000;                            /* 0.8-2.4 MB: the ring wraps */
    return counts[it % (long)(sizeof counts / sizeof counts[0])];
}

/* Check rbuf against the fold of comm ranks [0, upto); the holes of the
 * vector type untouched. */
static void verify(int t, int it, int me, int upto, long n, const uint32_t *rbuf,
                   const char *what)
{
    int w = mem_ints(t);
    uint32_t want[4], x[4];
    for (long k = 0; k < n; k++) {
        const uint32_t *got = rbuf + k * w;
        want[1] = SENT;
        make(t, it, 0, k, want);
        for (int j = 1; j < upto; j++) {
            make(t, it, j, k, x);
            fold(t, want, x);
        }
        bool ok = t == T_VECTOR ? got[0] == want[0] && got[2] == want[2] && got[1] == SENT
                                : memcmp(got, want, (size_t)w * 4) == 0;
        CHECK(ok, "it %d %s %s n=%ld rank %d: element %ld differs", it, what, type_names[t],
              n, me, k);
        if (!ok)
            return;
    }
}

static void one(int it, MPI_Comm *comms)
{
    MPI_Comm comm = comms[it % 3];
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int t = (it / 3) % NTYPES, w = mem_ints(t);
    bool ex = it % 2 == 1, inplace = it % 5 == 2;
    long n = count_of(it);
    uint32_t *sbuf = ct_malloc((size_t)(n * w + 1) * 4), *rbuf = ct_malloc((size_t)(n * w + 1) * 4);
    for (long i = 0; i < n * w + 1; i++)
        sbuf[i] = rbuf[i] = SENT;
    for (long k = 0; k < n; k++)
        make(t, it, me, k, (inplace ? rbuf : sbuf) + k * w);
    uint32_t *before = ct_malloc((size_t)(n * w + 1) * 4);
    memcpy(before, rbuf, (size_t)(n * w + 1) * 4);
    MPI_Datatype dt;
    MPI_Op op;
    type_op(t, &dt, &op);
    const void *sb = inplace ? MPI_IN_PLACE : sbuf;
    if (ex)
        CHECK_RC(MPI_Exscan(sb, rbuf, (int)n, dt, op, comm));
    else
        CHECK_RC(MPI_Scan(sb, rbuf, (int)n, dt, op, comm));
    if (ex && me == 0)                       /* rank 0's buffer: left alone */
        CHECK(memcmp(rbuf, before, (size_t)(n * w + 1) * 4) == 0,
              "it %d exscan %s n=%ld: rank 0's receive buffer changed", it, type_names[t], n);
    else
        verify(t, it, me, ex ? me : me + 1, n, rbuf, ex ? "exscan" : "scan");
    CHECK(rbuf[n * w] == SENT, "it %d: written past the end", it);
    free(sbuf);
    free(rbuf);
    free(before);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Type_contiguous(2, MPI_UINT32_T, &affty);
    MPI_Type_commit(&affty);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vecty);
    MPI_Type_commit(&vecty);
    MPI_Op_create(ct_aff16_fn, 0, &aff16op);
    MPI_Op_create(aff_fn, 0, &affop);
    MPI_Comm comms[3];
    comms[0] = MPI_COMM_WORLD;
    MPI_Comm_split(MPI_COMM_WORLD, 0, ct_size - ct_rank, &comms[1]);   /* reversed */
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[2]);
    for (int it = 0; it < ITERS; it++) {
        nap(it);
        one(it, comms);
        if (it % 11 == 10) {                      /* a node barrier collective */
            int x = it + ct_rank, sum = 0;
            CHECK_RC(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, comms[it % 3]));
            CHECK(sum == ct_size * it + ct_size * (ct_size - 1) / 2, "it %d allreduce", it);
        }
    }
    MPI_Comm_free(&comms[1]);
    MPI_Comm_free(&comms[2]);
    MPI_Op_free(&aff16op);
    MPI_Op_free(&affop);
    MPI_Type_free(&affty);
    MPI_Type_free(&vecty);
    return ct_finish();
}
