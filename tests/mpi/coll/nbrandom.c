/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * nbrandom.c - random mixes of nonblocking collectives on three
 * communicators at once (MPI_COMM_WORLD, a duplicate, the ranks reversed):
 * each round starts 1-10 calls (allreduce, allgather, bcast, reduce,
 * gather, scan, alltoall, barrier; random roots), the same calls in the
 * same order per communicator on every rank (one seed), but with the
 * communicators interleaved in an order of each rank's own (a seed per
 * rank), as the standard allows; then completes them all at once or one by
 * one in reverse, and checks every result. Aimed at the node channels
 * (src/coll/node_nb.c), whose calls are numbered in start order per
 * communicator; the testlist also forces the rooted ones through them.
 * Argument: rounds (default 2000).
 */
#include "ctest.h"

enum { N = 64, B = 8, MAXQ = 10, NCOMM = 3 };

typedef struct {
    int kind, comm, root, round;
    int in[N], out[N * 8];
} call_t;

static MPI_Comm comms[NCOMM];

static unsigned next(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static int val(int rank, int k, int round) { return rank * 1000 + k + round * 7; }

static void start(call_t *o, MPI_Request *rq)
{
    MPI_Comm c = comms[o->comm];
    int me;
    MPI_Comm_rank(c, &me);
    for (int k = 0; k < N; k++)
        o->in[k] = val(me, k, o->round);
    switch (o->kind) {
    case 0: CHECK_RC(MPI_Iallreduce(o->in, o->out, N, MPI_INT, MPI_SUM, c, rq)); break;
    case 1: CHECK_RC(MPI_Iallgather(o->in, B, MPI_INT, o->out, B, MPI_INT, c, rq)); break;
    case 2: CHECK_RC(MPI_Ibcast(o->in, N, MPI_INT, o->root, c, rq)); break;
    case 3: CHECK_RC(MPI_Ireduce(o->in, o->out, N, MPI_INT, MPI_SUM, o->root, c, rq)); break;
    case 4: CHECK_RC(MPI_Igather(o->in, B, MPI_INT, o->out, B, MPI_INT, o->root, c, rq)); break;
    case 5: CHECK_RC(MPI_Iscan(o->in, o->out, N, MPI_INT, MPI_SUM, c, rq)); break;
    case 6: CHECK_RC(MPI_Ialltoall(o->in, B, MPI_INT, o->out, B, MPI_INT, c, rq)); break;
    default: CHECK_RC(MPI_Ibarrier(c, rq)); break;
    }
}

/* What element k of the call's result must be; *skip = 1 when this rank
 * has no such element. */
static int want_of(const call_t *o, int me, int p, int k, int *skip)
{
    int w = 0;
    *skip = 0;
    switch (o->kind) {
    case 0:
        for (int r = 0; r < p; r++)
            w += val(r, k, o->round);
        return w;
    case 1: case 4:
        if (k >= B * p || (o->kind == 4 && me != o->root))
            break;
        return val(k / B, k % B, o->round);
    case 2: return val(o->root, k, o->round);
    case 3:
        if (me != o->root)
            break;
        for (int r = 0; r < p; r++)
            w += val(r, k, o->round);
        return w;
    case 5:
        for (int r = 0; r <= me; r++)
            w += val(r, k, o->round);
        return w;
    case 6:
        if (k >= B * p)
            break;
        return val(k / B, me * B + k % B, o->round);
    default: break;
    }
    *skip = 1;
    return 0;
}

static void check(const call_t *o)
{
    int me, p;
    MPI_Comm_rank(comms[o->comm], &me);
    MPI_Comm_size(comms[o->comm], &p);
    for (int k = 0; k < N; k++) {
        int skip, want = want_of(o, me, p, k, &skip);
        int got = o->kind == 2 ? o->in[k] : o->out[k];
        if (!skip && got != want) {
            CHECK(0, "round %d, call %d on comm %d (root %d): [%d] = %d, want %d", o->round,
                  o->kind, o->comm, o->root, k, got, want);
            return;
        }
    }
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    comms[0] = MPI_COMM_WORLD;
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]));
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, ct_size - ct_rank, &comms[2]));
    unsigned shared = 12345, own = 777u + (unsigned)ct_rank;
    static call_t calls[MAXQ];
    MPI_Request rq[MAXQ];
    for (int round = 0; round < rounds; round++) {
        int q = 1 + (int)(next(&shared) % MAXQ), cnt[NCOMM] = { 0 }, of[NCOMM][MAXQ];
        for (int i = 0; i < q; i++) {
            calls[i].kind = (int)(next(&shared) % 8);
            calls[i].comm = (int)(next(&shared) % NCOMM);
            calls[i].root = (int)(next(&shared) % (unsigned)ct_size);
            calls[i].round = round;
            of[calls[i].comm][cnt[calls[i].comm]++] = i;
        }
        /* per communicator in order; across them in this rank's own order */
        int taken[NCOMM] = { 0 };
        for (int started = 0; started < q;) {
            int c = (int)(next(&own) % NCOMM);
            if (taken[c] == cnt[c])
                continue;
            int i = of[c][taken[c]++];
            start(&calls[i], &rq[i]);
            started++;
        }
        if (next(&own) % 2)
            CHECK_RC(MPI_Waitall(q, rq, MPI_STATUSES_IGNORE));
        else
            for (int i = q - 1; i >= 0; i--)
                CHECK_RC(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
        for (int i = 0; i < q; i++)
            check(&calls[i]);
    }
    CHECK_RC(MPI_Comm_free(&comms[1]));
    CHECK_RC(MPI_Comm_free(&comms[2]));
    return ct_finish();
}
