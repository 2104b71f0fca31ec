/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * headtohead.c - large exchanges where both ranks of a pair send to each
 * other at once, so each receive is one side of an exchange (a single-copy
 * send of the receiver's own to the same peer is in flight: pt2pt's
 * gets_out, shm_help.c's "When to ask"): MPI_Sendrecv, Irecv + Send + Wait,
 * Isend + Recv, persistent requests restarted, Sendrecv_replace, a send
 * cancelled before its exchange, one side late (its partner copies while
 * it waits: help may be asked again), and the 2-rank exchanges of the
 * collectives (alltoall, allgather, allreduce) on pairs of ranks. Sizes
 * around the split copy's threshold and chunks, not multiples of either.
 * Every byte is checked. Run with the rule (default) and without it
 * (XB_SHM_HELP_EXCHANGE=on), see testlist.
 */
#include <stdint.h>
#include "ptest.h"

/* Position-dependent bytes (pt_fill's pattern repeats every 256 bytes, so
 * a chunk copied to a wrong multiple of 256 would pass). */
static unsigned char hb(size_t i, int seed)
{
    return (unsigned char)(((uint64_t)i * 0x9E3779B97F4A7C15ull + (uint64_t)seed * 0x632BE5ABull) >>
                           56);
}

static void fill(unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = hb(i, seed);
}

static int verify(const char *what, const unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != hb(i, seed)) {
            fprintf(stderr, "rank %d: %s: byte %zu of %zu (seed %d) is %u, not %u\n", pt_rank(),
                    what, i, n, seed, b[i], hb(i, seed));
            return 1;
        }
    return 0;
}

static const size_t sizes[] = { 262144, 262145, 300001, (1 << 20) + 4097, 2 << 20,
                                (3 << 20) + 5 };
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

/* The pair's messages: seed of what rank `from` sends in pattern `pat`. */
static int seed_of(int pat, int from, int rep) { return pat * 1000 + from * 100 + rep; }

/* One exchange of n bytes with the partner in pattern pat. */
static void swap(MPI_Comm pair, int me, int pat, size_t n, int rep)
{
    int peer = 1 - me, cnt = (int)n;
    unsigned char *s = pt_xmalloc(n), *r = pt_xmalloc(n);
    fill(s, n, seed_of(pat, me, rep));
    memset(r, 0, n);
    MPI_Request q[2];
    switch (pat) {
    case 0:
        CHECK_RC(MPI_Sendrecv(s, cnt, MPI_BYTE, peer, 1, r, cnt, MPI_BYTE, peer, 1, pair,
                              MPI_STATUS_IGNORE));
        break;
    case 1:                             /* MPICH's perf/sendrecvl pattern */
        CHECK_RC(MPI_Irecv(r, cnt, MPI_BYTE, peer, 2, pair, &q[0]));
        CHECK_RC(MPI_Send(s, cnt, MPI_BYTE, peer, 2, pair));
        CHECK_RC(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
        break;
    case 2:                             /* our send first: in flight at the get */
        CHECK_RC(MPI_Isend(s, cnt, MPI_BYTE, peer, 3, pair, &q[0]));
        CHECK_RC(MPI_Recv(r, cnt, MPI_BYTE, peer, 3, pair, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
        break;
    case 3:                             /* one side late: rank 1 copies first */
        if (me == 0)
            pt_busy_ms(20);
        CHECK_RC(MPI_Sendrecv(s, cnt, MPI_BYTE, peer, 4, r, cnt, MPI_BYTE, peer, 4, pair,
                              MPI_STATUS_IGNORE));
        break;
    default:                            /* in place */
        memcpy(r, s, n);
        CHECK_RC(MPI_Sendrecv_replace(r, cnt, MPI_BYTE, peer, 5, peer, 5, pair,
                                      MPI_STATUS_IGNORE));
        break;
    }
    char what[64];
    snprintf(what, sizeof what, "pattern %d, %zu bytes", pat, n);
    CHECK(verify(what, r, n, seed_of(pat, peer, rep)) == 0);
    free(s);
    free(r);
}

/* Persistent send and receive, started together again and again: the
 * request's count of our in-flight sends is re-armed at every start. */
static void persistent(MPI_Comm pair, int me, size_t n)
{
    int peer = 1 - me;
    unsigned char *s = pt_xmalloc(n), *r = pt_xmalloc(n);
    MPI_Request q[2];
    CHECK_RC(MPI_Recv_init(r, (int)n, MPI_BYTE, peer, 6, pair, &q[0]));
    CHECK_RC(MPI_Send_init(s, (int)n, MPI_BYTE, peer, 6, pair, &q[1]));
    for (int rep = 0; rep < 6; rep++) {
        fill(s, n, seed_of(6, me, rep));
        memset(r, 0, n);
        CHECK_RC(MPI_Startall(2, q));
        CHECK_RC(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
        CHECK(verify("persistent", r, n, seed_of(6, peer, rep)) == 0);
    }
    CHECK_RC(MPI_Request_free(&q[0]));
    CHECK_RC(MPI_Request_free(&q[1]));
    free(s);
    free(r);
}

/* A large send that nobody receives, cancelled; the exchanges after it
 * still see their data. */
static void cancelled(MPI_Comm pair, int me, size_t n)
{
    unsigned char *s = pt_xmalloc(n);
    fill(s, n, 7);
    MPI_Request q;
    MPI_Status st;
    int flag = 0;
    CHECK_RC(MPI_Isend(s, (int)n, MPI_BYTE, 1 - me, 99, pair, &q));
    CHECK_RC(MPI_Cancel(&q));
    CHECK_RC(MPI_Wait(&q, &st));
    CHECK_RC(MPI_Test_cancelled(&st, &flag));
    CHECK(flag);
    CHECK_RC(MPI_Barrier(pair));        /* no rank has received tag 99 */
    free(s);
    swap(pair, me, 0, n, 50);
    swap(pair, me, 1, n, 51);
}

/* The 2-rank exchanges of the collectives, blocks around the threshold. */
static void collectives(MPI_Comm pair, int me, size_t n)
{
    int cnt = (int)n, peer = 1 - me;
    unsigned char *s = pt_xmalloc(2 * n), *r = pt_xmalloc(2 * n);
    /* alltoall: block j goes to rank j */
    fill(s, n, seed_of(8, me, 0));
    fill(s + n, n, seed_of(8, me, 1));
    memset(r, 0, 2 * n);
    CHECK_RC(MPI_Alltoall(s, cnt, MPI_BYTE, r, cnt, MPI_BYTE, pair));
    CHECK(verify("alltoall own", r + (size_t)me * n, n, seed_of(8, me, me)) == 0);
    CHECK(verify("alltoall peer", r + (size_t)peer * n, n, seed_of(8, peer, me)) == 0);
    /* allgather */
    fill(s, n, seed_of(9, me, 0));
    memset(r, 0, 2 * n);
    CHECK_RC(MPI_Allgather(s, cnt, MPI_BYTE, r, cnt, MPI_BYTE, pair));
    CHECK(verify("allgather own", r + (size_t)me * n, n, seed_of(9, me, 0)) == 0);
    CHECK(verify("allgather peer", r + (size_t)peer * n, n, seed_of(9, peer, 0)) == 0);
    /* allreduce of ints: exact */
    int d = cnt / (int)sizeof(int);
    int *x = (int *)(void *)s, *y = (int *)(void *)r;
    for (int i = 0; i < d; i++)
        x[i] = i * (me + 1) + me;
    memset(y, 0, (size_t)d * sizeof(int));
    CHECK_RC(MPI_Allreduce(x, y, d, MPI_INT, MPI_SUM, pair));
    int bad = -1;
    for (int i = 0; i < d && bad < 0; i++)
        if (y[i] != i * 3 + 1)
            bad = i;
    if (bad >= 0)
        fprintf(stderr, "rank %d: allreduce of %d ints: [%d] is %d, not %d\n", pt_rank(), d,
                bad, y[bad], bad * 3 + 1);
    CHECK(bad < 0);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        printf("headtohead needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* pairs (0,1), (2,3), ...; an odd last rank sits out */
    int in_pair = rank < size - size % 2;
    MPI_Comm pair;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, in_pair ? rank / 2 : MPI_UNDEFINED, rank, &pair));
    if (in_pair) {
        int me = rank % 2;
        for (int rep = 0; rep < 3; rep++)
            for (int pat = 0; pat < 5; pat++)
                for (int i = 0; i < NSIZES; i++)
                    swap(pair, me, pat, sizes[(i + (size_t)rep) % NSIZES], rep);
        persistent(pair, me, (2 << 20) + 3);
        cancelled(pair, me, 1 << 20);
        for (int i = 0; i < NSIZES; i++)
            collectives(pair, me, sizes[i]);
        CHECK_RC(MPI_Comm_free(&pair));
    }
    return pt_finish();
}
