/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * nbnode.c - nonblocking collectives through the communicators' channels in
 * the node's shared memory (src/coll/node_nb.c, shm_nb.c), where the calls
 * of a channel are numbered and each writes one of a few windows:
 *
 *   ahead     3 x 4 calls outstanding on one communicator (more than its
 *             windows: later calls wait for room), completed in reverse
 *             order, every result checked;
 *   crossed   two duplicates whose collectives start in opposite orders on
 *             even and odd ranks (legal: each communicator keeps its order);
 *   reuse     40 rounds of MPI_Comm_dup, two calls started, MPI_Comm_free
 *             while they are pending, then the waits: the next duplicate
 *             takes the same channel, whose numbering must go on;
 *   restart   a persistent allreduce started 100 times between nonblocking
 *             calls on the same communicator;
 *   counted   the MPI_T counter coll_node_nb_calls counts every call on
 *             MPI_COMM_WORLD and none on a duplicate whose context is beyond
 *             the channels (its calls take messages and must be right too).
 *
 * Argument "nochan": the run has no node channels (XB_METHODS=tcp), so the
 * counter must stay at 0.
 */
#include "ctest.h"
#include <stdbool.h>
#include "ct_pvar.h"
#include "ct_nbcalls.h"

enum { N = 37, AHEAD = 12, ROUNDS = 40, RESTARTS = 100, DUPS = 16 };

static int me, p;

static void ahead(MPI_Comm comm)
{
    static call_t c[AHEAD];
    MPI_Request rq[AHEAD + 1], rev[AHEAD + 1];
    for (int i = 0; i < AHEAD; i++)
        start(&c[i], i % 4, i, comm, &rq[i]);
    CHECK_RC(MPI_Ibarrier(comm, &rq[AHEAD]));
    for (int i = 0; i <= AHEAD; i++)
        rev[i] = rq[AHEAD - i];
    CHECK_RC(MPI_Waitall(AHEAD + 1, rev, MPI_STATUSES_IGNORE));
    for (int i = 0; i < AHEAD; i++)
        check(&c[i], "ahead");
}

static void crossed(void)
{
    MPI_Comm a, b;
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &b));
    for (int round = 0; round < 10; round++) {
        call_t ca, cb;
        MPI_Request rq[2];
        if (me % 2 == 0) {
            start(&ca, 0, round, a, &rq[0]);
            start(&cb, 1, round, b, &rq[1]);
        } else {
            start(&cb, 1, round, b, &rq[1]);
            start(&ca, 0, round, a, &rq[0]);
        }
        CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        check(&ca, "crossed");
        check(&cb, "crossed");
    }
    CHECK_RC(MPI_Comm_free(&a));
    CHECK_RC(MPI_Comm_free(&b));
}

static void reuse(void)
{
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm d;
        call_t c[2];
        MPI_Request rq[2];
        CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        start(&c[0], round % 4, round, d, &rq[0]);
        start(&c[1], (round + 1) % 4, round + 1, d, &rq[1]);
        CHECK_RC(MPI_Comm_free(&d));           /* pending calls complete normally */
        CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        check(&c[0], "reuse");
        check(&c[1], "reuse");
    }
}

static void restart(void)
{
    int in[N] = { 0 }, out[N];
    MPI_Request pr;
    CHECK_RC(MPI_Allreduce_init(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                                &pr));
    for (int round = 0; round < RESTARTS; round++) {
        call_t c;
        MPI_Request rq[2];
        for (int k = 0; k < N; k++)
            in[k] = val(round, me, k) ^ 5;
        CHECK_RC(MPI_Start(&pr));
        start(&c, (round % 3) + 1, round, MPI_COMM_WORLD, &rq[1]);
        rq[0] = pr;
        CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        check(&c, "restart");
        for (int k = 0; k < N; k++) {
            int want = 0;
            for (int r = 0; r < p; r++)
                want += val(round, r, k) ^ 5;
            CHECK(out[k] == want, "restart %d: persistent allreduce [%d] = %d, want %d", round, k,
                  out[k], want);
        }
    }
    CHECK_RC(MPI_Request_free(&pr));
}

static void counted(bool chans)
{
    MPI_T_pvar_session ses;
    CHECK_RC(MPI_T_pvar_session_create(&ses));
    MPI_T_pvar_handle h = ct_pvar_counter(ses, "coll_node_nb_calls");
    CHECK(h != MPI_T_PVAR_HANDLE_NULL, "no pvar coll_node_nb_calls");
    MPI_Comm dups[DUPS];
    for (int i = 0; i < DUPS; i++)
        CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dups[i]));
    unsigned long long before = ct_pvar_read(ses, h);
    for (int i = 0; i < 8; i++) {
        call_t c;
        MPI_Request rq;
        start(&c, i % 4, i, MPI_COMM_WORLD, &rq);
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        check(&c, "counted world");
    }
    unsigned long long mid = ct_pvar_read(ses, h);
    CHECK(mid - before == (chans ? 8u : 0u), "8 calls on MPI_COMM_WORLD counted %llu through "
          "node channels, want %d", mid - before, chans ? 8 : 0);
    for (int i = 0; i < 8; i++) {      /* the last duplicate's context is past the channels */
        call_t c;
        MPI_Request rq;
        start(&c, i % 4, i, dups[DUPS - 1], &rq);
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        check(&c, "counted beyond");
    }
    unsigned long long after = ct_pvar_read(ses, h);
    CHECK(after == mid, "calls on a communicator without a channel counted %llu", after - mid);
    for (int i = 0; i < DUPS; i++)
        CHECK_RC(MPI_Comm_free(&dups[i]));
    CHECK_RC(MPI_T_pvar_handle_free(ses, &h));
    CHECK_RC(MPI_T_pvar_session_free(&ses));
}

int main(int argc, char **argv)
{
    int provided;
    ct_init(&argc, &argv);
    me = ct_rank;
    p = ct_size;
    bool chans = !(argc > 1 && strcmp(argv[1], "nochan") == 0);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm rev;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, p - me, &rev));
    for (int i = 0; i < 3; i++) {
        ahead(MPI_COMM_WORLD);
        ahead(rev);
    }
    CHECK_RC(MPI_Comm_free(&rev));
    crossed();
    reuse();
    restart();
    counted(chans && p > 1);
    MPI_T_finalize();
    return ct_finish();
}
