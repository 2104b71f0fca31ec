/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * nbpart.c - node channels of communicators that are a part of the node
 * (a split half, a row of a process grid): src/coll/node_nb.c, "The first
 * number". Such a communicator's channel (its context slot) held the calls
 * of other communicators before, different ones on different members, so
 * the members agree on the number of its first call; and a window its
 * first calls overwrite may still be read by a member of the communicator
 * that wrote it before (need_mask).
 *
 *   halves    the ranks split in two (and in a second way, odd and even),
 *             on each part 12 calls outstanding (allreduce, allgather,
 *             alltoall, reduce_scatter_block, barrier), completed in
 *             reverse order, then blocking calls: every result checked;
 *   shuffle   ROUNDS rounds of a split by a color that changes every round
 *             (so each rank's channel meets communicators of other members
 *             in turn, and context ids come back): 1-4 calls per round; the
 *             even ranks wait for them only after the next round's split
 *             and first calls, so a part made of ranks that have finished
 *             may take the same context (channel) while an even rank of
 *             the part before still reads their windows;
 *   late      (3 ranks or more) ranks 0 and 1 make a part A; rank 1 starts
 *             an allgather on it and then stays out of MPI for 300 ms, so it
 *             has not read rank 0's window; rank 0 finishes the call, frees
 *             A, and with rank 2 (MPI_Comm_create_group: rank 1 takes no
 *             part) makes B, which takes A's context, so its calls reach
 *             the window rank 1 still reads: rank 0 must wait for it;
 *   counted   with arg `counted`: the MPI_T counter coll_node_nb_calls
 *             counts every call on the halves (they have channels).
 */
#include "ctest.h"
#include <stdbool.h>
#include <unistd.h>
#include "ct_pvar.h"
#include "ct_nbcalls.h"

enum { AHEAD = 12, ROUNDS = 60, MAXC = 4 };

static void ahead(MPI_Comm comm)
{
    static call_t c[AHEAD];
    MPI_Request rq[AHEAD], rev[AHEAD];
    for (int i = 0; i < AHEAD; i++)
        start(&c[i], i % NBC_KINDS, i, comm, &rq[i]);
    for (int i = 0; i < AHEAD; i++)
        rev[i] = rq[AHEAD - 1 - i];
    CHECK_RC(MPI_Waitall(AHEAD, rev, MPI_STATUSES_IGNORE));
    for (int i = 0; i < AHEAD; i++)
        check(&c[i], "ahead");
    for (int i = 0; i < NBC_KINDS; i++) {
        call_t b;
        start(&b, i, 100 + i, comm, NULL);
        check(&b, "blocking");
    }
}

static void halves(void)
{
    MPI_Comm half, parity;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, ct_rank < ct_size / 2, ct_rank, &half));
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, ct_rank % 2, ct_size - ct_rank, &parity));
    for (int i = 0; i < 3; i++) {
        ahead(half);
        ahead(parity);
    }
    CHECK_RC(MPI_Comm_free(&half));
    CHECK_RC(MPI_Comm_free(&parity));
}

static void shuffle(void)
{
    static call_t c[2][MAXC];
    MPI_Request rq[2][MAXC];
    int n[2] = { 0, 0 };
    for (int round = 0; round < ROUNDS; round++) {
        int cur = round % 2, old = 1 - cur;
        int colors = 2 + round % 3;
        int color = round % 4 == 3 ? ct_rank % 2 : (ct_rank * (round % 5 + 1) + round) % colors;
        MPI_Comm part;
        CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, color, (ct_rank * 7 + round) % ct_size, &part));
        n[cur] = 1 + round % MAXC;        /* the same on every member */
        for (int i = 0; i < n[cur]; i++)
            start(&c[cur][i], (round + i) % NBC_KINDS, round * 10 + i, part, &rq[cur][i]);
        CHECK_RC(MPI_Comm_free(&part));      /* the requests keep it */
        if (ct_rank % 2 == 0 && round > 0) { /* the round before, late */
            CHECK_RC(MPI_Waitall(n[old], rq[old], MPI_STATUSES_IGNORE));
            for (int i = 0; i < n[old]; i++)
                check(&c[old][i], "shuffle (late)");
        }
        if (ct_rank % 2 == 1) {
            CHECK_RC(MPI_Waitall(n[cur], rq[cur], MPI_STATUSES_IGNORE));
            for (int i = 0; i < n[cur]; i++)
                check(&c[cur][i], "shuffle");
        }
    }
    if (ct_rank % 2 == 0) {
        int last = (ROUNDS - 1) % 2;
        CHECK_RC(MPI_Waitall(n[last], rq[last], MPI_STATUSES_IGNORE));
        for (int i = 0; i < n[last]; i++)
            check(&c[last][i], "shuffle (last)");
    }
}

static void late(void)
{
    MPI_Comm a, b;
    int color = ct_rank < 2 ? 0 : 1, go = 0;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, color, ct_rank, &a));
    CHECK_RC(MPI_Barrier(a));            /* A's first number agreed: later */
    if (ct_rank == 1) {                  /* calls write at their start */
        call_t c;
        MPI_Request rq;
        start(&c, 1, 7, a, &rq);                  /* its window written */
        CHECK_RC(MPI_Send(&go, 1, MPI_INT, 0, 5, MPI_COMM_WORLD));
        usleep(300 * 1000);                       /* rank 0's window unread */
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        check(&c, "late reader");
    } else if (ct_rank == 0) {
        call_t c;
        MPI_Request rq;
        CHECK_RC(MPI_Recv(&go, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        start(&c, 1, 7, a, &rq);
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        check(&c, "late writer");
    }
    CHECK_RC(MPI_Comm_free(&a));
    if (ct_rank == 0 || ct_rank == 2) {
        MPI_Group world, pair;
        int two[2] = { 0, 2 };
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, 2, two, &pair);
        CHECK_RC(MPI_Comm_create_group(MPI_COMM_WORLD, pair, 9, &b));
        for (int i = 0; i < 2 * 4 + 1; i++) {    /* every window of B */
            call_t c;
            MPI_Request rq;
            start(&c, i % 2, 20 + i, b, &rq);
            CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            check(&c, "after the late reader");
        }
        CHECK_RC(MPI_Comm_free(&b));
        MPI_Group_free(&pair);
        MPI_Group_free(&world);
    }
    CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
}

static void counted(void)
{
    MPI_T_pvar_session ses;
    CHECK_RC(MPI_T_pvar_session_create(&ses));
    MPI_T_pvar_handle h = ct_pvar_counter(ses, "coll_node_nb_calls");
    CHECK(h != MPI_T_PVAR_HANDLE_NULL, "no pvar coll_node_nb_calls");
    MPI_Comm half;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, ct_rank < ct_size / 2, ct_rank, &half));
    int hp;
    MPI_Comm_size(half, &hp);
    unsigned long long before = ct_pvar_read(ses, h);
    for (int i = 0; i < 8; i++) {
        call_t c;
        MPI_Request rq;
        start(&c, i % NBC_KINDS, i, half, &rq);
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        check(&c, "counted");
    }
    unsigned long long after = ct_pvar_read(ses, h);
    unsigned want = hp > 1 ? 8u : 0u;
    CHECK(after - before == want, "8 calls on a half of %d ranks counted %llu through node "
          "channels, want %u", hp, after - before, want);
    CHECK_RC(MPI_Comm_free(&half));
    CHECK_RC(MPI_T_pvar_handle_free(ses, &h));
    CHECK_RC(MPI_T_pvar_session_free(&ses));
}

int main(int argc, char **argv)
{
    int provided;
    ct_init(&argc, &argv);
    CHECK(ct_size <= 64, "at most 64 ranks");
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    halves();
    shuffle();
    if (ct_size >= 3)
        late();
    if (argc > 1 && strcmp(argv[1], "counted") == 0)
        counted();
    MPI_T_finalize();
    return ct_finish();
}
