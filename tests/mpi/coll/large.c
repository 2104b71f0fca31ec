/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * large.c - MPI_Allreduce, MPI_Reduce, MPI_Bcast, MPI_Allgather and
 * MPI_Alltoall from 0 bytes to 8 MiB, MPI_Scan and MPI_Exscan to 2.4 MiB, the sizes where the node algorithms work in rounds of
 * the shared slots (allreduce_shm_rsag.c ...): with and without
 * MPI_IN_PLACE, a derived type (strided, or a contiguous run of doubles:
 * working copies), a non-commutative user op on a predefined pair type
 * (composition of affine maps, so rank order shows), every root for bcast.
 * Results are compared element by element with references computed here.
 * The testlist forces each large algorithm by name; without forcing, the
 * table chooses.
 */
#include <stdint.h>
#include "ctest.h"

static int me, p;

/* Elements of the allreduce vectors: small integers, so sums are exact. */
#define XV(r, k) ((double)(((k) * 7 + (r) * 13) % 1001))

/* allreduce (root < 0) or reduce to root of n doubles (SUM), as plain
 * doubles or as triples (a derived type of one basic type), in place or
 * not */
static void t_reduce_sum(long n, int root, int inplace, int triples)
{
    MPI_Datatype dt = MPI_DOUBLE;
    long cnt = n;
    if (triples) {
        MPI_Type_contiguous(3, MPI_DOUBLE, &dt);
        MPI_Type_commit(&dt);
        n -= n % 3;
        cnt = n / 3;
    }
    double *sb = ct_malloc(sizeof(double) * (size_t)n);
    double *rb = ct_malloc(sizeof(double) * (size_t)n);
    for (long k = 0; k < n; k++) {
        sb[k] = XV(me, k);
        rb[k] = inplace ? sb[k] : -1.0;
    }
    if (root < 0)
        CHECK_RC(MPI_Allreduce(inplace ? MPI_IN_PLACE : sb, rb, (int)cnt, dt, MPI_SUM,
                               MPI_COMM_WORLD));
    else
        CHECK_RC(MPI_Reduce(inplace && me == root ? MPI_IN_PLACE : sb, rb, (int)cnt, dt,
                            MPI_SUM, root, MPI_COMM_WORLD));
    for (long k = 0; k < n && (root < 0 || me == root); k++) {
        double want = 0;
        for (int r = 0; r < p; r++)
            want += XV(r, k);
        if (rb[k] != want) {
            CHECK(0, "%s sum n=%ld inplace=%d triples=%d: [%ld] = %g, want %g",
                  root < 0 ? "allreduce" : "reduce", n, inplace, triples, k, rb[k], want);
            break;
        }
    }
    if (triples)
        MPI_Type_free(&dt);
    free(sb);
    free(rb);
}

/* Affine maps x -> a x + b mod M as MPI_2INT pairs; (f op g)(x) = f(g(x)):
 * associative, not commutative. */
enum { M = 40009 };
typedef struct { int a, b; } aff_t;

static aff_t compose(aff_t f, aff_t g)
{
    aff_t h = { (int)((int64_t)f.a * g.a % M), (int)(((int64_t)f.a * g.b + f.b) % M) };
    return h;
}

static void aff_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    aff_t *x = in, *y = inout;
    for (int i = 0; i < *len; i++)
        y[i] = compose(x[i], y[i]);
}

static aff_t AV(int r, long k)
{
    aff_t v = { (int)((r * 31 + k * 17) % (M - 1)) + 1, (int)((r * 7 + k * 3) % M) };
    return v;
}

static void t_allreduce_affine(long n, int inplace)
{
    MPI_Op op;
    MPI_Op_create(aff_op, 0, &op);
    aff_t *sb = ct_malloc(sizeof(aff_t) * (size_t)n), *rb = ct_malloc(sizeof(aff_t) * (size_t)n);
    for (long k = 0; k < n; k++) {
        sb[k] = AV(me, k);
        rb[k] = inplace ? sb[k] : (aff_t){ -1, -1 };
    }
    CHECK_RC(MPI_Allreduce(inplace ? MPI_IN_PLACE : sb, rb, (int)n, MPI_2INT, op,
                           MPI_COMM_WORLD));
    for (long k = 0; k < n; k++) {
        aff_t want = AV(p - 1, k);
        for (int r = p - 2; r >= 0; r--)
            want = compose(AV(r, k), want);
        if (rb[k].a != want.a || rb[k].b != want.b) {
            CHECK(0, "allreduce affine n=%ld inplace=%d: [%ld] = (%d,%d), want (%d,%d)",
                  n, inplace, k, rb[k].a, rb[k].b, want.a, want.b);
            break;
        }
    }
    MPI_Op_free(&op);
    free(sb);
    free(rb);
}

/* MPI_Scan or MPI_Exscan of n affine maps (rank order shows), in place or
 * not; rank 0's exscan buffer must stay as it was */
static void t_scan_affine(long n, int inplace, int exclusive)
{
    MPI_Op op;
    MPI_Op_create(aff_op, 0, &op);
    aff_t *sb = ct_malloc(sizeof(aff_t) * (size_t)n), *rb = ct_malloc(sizeof(aff_t) * (size_t)n);
    for (long k = 0; k < n; k++) {
        sb[k] = AV(me, k);
        rb[k] = inplace ? sb[k] : (aff_t){ -1, -1 };
    }
    const void *s = inplace ? MPI_IN_PLACE : sb;
    if (exclusive)
        CHECK_RC(MPI_Exscan(s, rb, (int)n, MPI_2INT, op, MPI_COMM_WORLD));
    else
        CHECK_RC(MPI_Scan(s, rb, (int)n, MPI_2INT, op, MPI_COMM_WORLD));
    int last = exclusive ? me - 1 : me;
    for (long k = 0; k < n; k++) {
        aff_t want = last >= 0 ? AV(last, k) : (inplace ? AV(me, k) : (aff_t){ -1, -1 });
        for (int r = last - 1; r >= 0; r--)
            want = compose(AV(r, k), want);
        if (rb[k].a != want.a || rb[k].b != want.b) {
            CHECK(0, "%s affine n=%ld inplace=%d: [%ld] = (%d,%d), want (%d,%d)",
                  exclusive ? "exscan" : "scan", n, inplace, k, rb[k].a, rb[k].b,
                  want.a, want.b);
            break;
        }
    }
    MPI_Op_free(&op);
    free(sb);
    free(rb);
}

#define BV(root, k) ((unsigned char)((k) * 5 + (root) * 11 + 1))

/* bcast of n bytes, or of n / 8 ints every other int (strided type) */
static void t_bcast(long n, int root, int strided)
{
    unsigned char *buf = ct_malloc((size_t)n + 1);
    MPI_Datatype dt = MPI_BYTE;
    long cnt = n;
    if (strided) {
        MPI_Type_vector((int)(n / 8), 1, 2, MPI_INT, &dt);
        MPI_Type_commit(&dt);
        cnt = n ? 1 : 0;
    }
    for (long k = 0; k < n; k++)
        buf[k] = me == root ? BV(root, k) : 0;
    CHECK_RC(MPI_Bcast(buf, (int)cnt, dt, root, MPI_COMM_WORLD));
    for (long k = 0; k < n; k++) {
        int moved = !strided || ((k / 4) % 2 == 0 && k < (n / 8) * 8 - 4);
        unsigned char want = me == root || moved ? BV(root, k) : 0;
        if (buf[k] != want) {
            CHECK(0, "bcast n=%ld root %d strided=%d: [%ld] = %d, want %d", n, root,
                  strided, k, buf[k], want);
            break;
        }
    }
    if (strided)
        MPI_Type_free(&dt);
    free(buf);
}

/* Byte k of the block rank s sends to rank d. */
#define AB(s, d, k) ((unsigned char)((k) * 3 + (s) * 7 + (d) * 13))

/* alltoall (or allgather) of blocks of b bytes, in place or not, as bytes
 * or as b / 4 ints every other int of a strided receive type */
static void t_alltoall(long b, int inplace, int gather, int strided)
{
    size_t tot = (size_t)b * (size_t)p;
    unsigned char *sb = ct_malloc(gather ? (size_t)b : tot);
    unsigned char *rb = ct_malloc(strided ? 2 * tot : tot);
    long sblocks = gather ? 1 : p;
    for (long d = 0; d < sblocks; d++)
        for (long k = 0; k < b; k++)
            sb[d * b + k] = AB(me, gather ? 0 : d, k);
    memset(rb, 0xee, strided ? 2 * tot : tot);
    MPI_Datatype rdt = MPI_BYTE;
    int rcnt = (int)b;
    if (strided) {                   /* b / 4 ints, each followed by a gap */
        MPI_Datatype v;
        MPI_Type_vector((int)(b / 4), 1, 2, MPI_INT, &v);
        MPI_Type_create_resized(v, 0, 2 * b, &rdt);
        MPI_Type_free(&v);
        MPI_Type_commit(&rdt);
        rcnt = 1;
    }
    if (inplace && !strided) {
        for (int s = 0; s < p; s++)
            if (gather ? s == me : 1)
                memcpy(rb + (size_t)s * (size_t)b,
                       sb + (gather ? 0 : (size_t)s * (size_t)b), (size_t)b);
    }
    const void *s = inplace && !strided ? MPI_IN_PLACE : sb;
    /* the strided receive type holds b / 4 ints: send as many */
    int scnt = strided ? (int)(b / 4) : (int)b;
    MPI_Datatype sdt = strided ? MPI_INT : MPI_BYTE;
    if (gather)
        CHECK_RC(MPI_Allgather(s, scnt, sdt, rb, rcnt, rdt, MPI_COMM_WORLD));
    else
        CHECK_RC(MPI_Alltoall(s, scnt, sdt, rb, rcnt, rdt, MPI_COMM_WORLD));
    long stride = strided ? 2 * b : b;
    for (int src = 0; src < p; src++) {
        for (long k = 0; k < b; k++) {
            unsigned char got = rb[src * stride + (strided ? (k / 4) * 8 + k % 4 : k)];
            unsigned char want = AB(src, gather ? 0 : me, k);
            if (strided && k >= (b / 4) * 4)
                break;
            if (got != want) {
                CHECK(0, "%s b=%ld inplace=%d strided=%d: block %d [%ld] = %d, want %d",
                      gather ? "allgather" : "alltoall", b, inplace, strided, src, k,
                      got, want);
                src = p;
                break;
            }
        }
    }
    if (strided)
        MPI_Type_free(&rdt);
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    me = ct_rank;
    p = ct_size;
    /* doubles: 0 .. 8 MiB, around the slot (32 Ki doubles = 256 KiB) */
    static const long dn[] = { 0, 1, 5, 4099, 21845, 32768, 65537, 131075, 1L << 20 };
    for (size_t i = 0; i < sizeof dn / sizeof dn[0]; i++)
        for (int inplace = 0; inplace < 2; inplace++) {
            t_reduce_sum(dn[i], -1, inplace, 0);
            if (dn[i] < (1L << 20))
                t_reduce_sum(dn[i], -1, inplace, 1);
        }
    /* reduce: the two-stage one goes in segments of a slot beyond 1 MiB */
    static const long rn[] = { 0, 5, 131075, 300001, 1L << 20 };
    for (size_t i = 0; i < sizeof rn / sizeof rn[0]; i++)
        for (int inplace = 0; inplace < 2; inplace++)
            t_reduce_sum(rn[i], (int)((i + (size_t)inplace) % (size_t)p), inplace,
                         (int)(i % 2));
    static const long an[] = { 0, 3, 70001 };
    for (size_t i = 0; i < sizeof an / sizeof an[0]; i++)
        for (int inplace = 0; inplace < 2; inplace++)
            t_allreduce_affine(an[i], inplace);
    /* 2.4 MiB: several segments of scan=linear */
    static const long sn[] = { 0, 3, 300001 };
    for (size_t i = 0; i < sizeof sn / sizeof sn[0]; i++)
        for (int inplace = 0; inplace < 2; inplace++)
            for (int exclusive = 0; exclusive < 2; exclusive++)
                t_scan_affine(sn[i], inplace, exclusive);
    static const long bn[] = { 0, 1, 40000, 262147, 1L << 20, 8L << 20 };
    for (size_t i = 0; i < sizeof bn / sizeof bn[0]; i++) {
        t_bcast(bn[i], (int)(i % (size_t)p), 0);
        if (bn[i] >= 8 && bn[i] <= (1L << 20))
            t_bcast(bn[i], p - 1, 1);
    }
    for (int root = 0; root < p; root++)
        t_bcast(300001, root, 0);
    /* blocks up to 8 MiB in all (per rank) */
    long bmax = (8L << 20) / p;
    const long bb[] = { 0, 1, 4096, 40000, 262144, bmax };
    for (size_t i = 0; i < sizeof bb / sizeof bb[0]; i++)
        for (int gather = 0; gather < 2; gather++) {
            t_alltoall(bb[i], 0, gather, 0);
            t_alltoall(bb[i], 1, gather, 0);
            if (bb[i] >= 4 && bb[i] <= 262144)
                t_alltoall(bb[i], 0, gather, 1);
        }
    return ct_finish();
}
