/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * freed_pending.c - MPI_Comm_free lets pending operations complete, and
 * the freed communicator's context id is not reused while they are pending.
 *
 * d = split of world over ranks 0 and 2 (d-ranks 0 and 1). Rank 0 posts an
 * irecv on d from d-rank 1, tag 7, and frees d. Ranks 0 and 1 then make new
 * communicators (create_group over {0, 1}, its dup, a split of world): an
 * implementation that put d's context id back into the pool at the free
 * would give it to the first of them (it is the lowest free id on ranks 0
 * and 1). Rank 1 sends NEW on each new communicator with tag 7 from its rank
 * 1 there, the same source and tag as the pending irecv: each must arrive
 * on its own communicator and leave the irecv pending. Then rank 2 sends
 * OLD on d and frees d; the irecv gets OLD (source 1, tag 7).
 *
 * Rank 2 frees d after rank 0 has made new communicators: the test relies
 * on MPI_Comm_free not waiting for the other members (it does not here,
 * nor in Open MPI or MPICH).
 *
 * Also: an idup whose parent is freed before it completes, and a pending
 * Ibarrier on a freed communicator; both complete normally.
 */
#include "ctest.h"

enum { OLD = 4242, NEW = 777, TAG = 7 };

/* Rank 0: receive NEW on c while watching the old irecv, which must not
 * complete first (that would mean it matched c's message). */
static void recv_new(MPI_Comm c, MPI_Request *old, const char *what)
{
    int v = -1, done = 0, odone = 0;
    MPI_Request rq;
    MPI_Irecv(&v, 1, MPI_INT, 1, TAG, c, &rq);
    double t0 = MPI_Wtime();
    while (!done && !odone && MPI_Wtime() - t0 < 20) {
        MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
        MPI_Test(old, &odone, MPI_STATUS_IGNORE);
    }
    if (odone || !done) {
        printf("rank 0: FAIL: the message on %s %s\n", what,
               odone ? "completed the irecv of the freed communicator"
                     : "did not arrive in 20 s");
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    CHECK(v == NEW, "%s: got %d, expected %d", what, v, NEW);
}

static void scenario_irecv(void)
{
    int r = ct_rank;
    MPI_Comm d = MPI_COMM_NULL;
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, r == 0 || r == 2 ? 0 : MPI_UNDEFINED, r, &d));
    MPI_Request old = MPI_REQUEST_NULL;
    int oldv = -1;
    if (r == 0) {
        CHECK_RC(MPI_Irecv(&oldv, 1, MPI_INT, 1, TAG, d, &old));
        CHECK_RC(MPI_Comm_free(&d));
    }
    MPI_Comm c[3] = { MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL };
    const char *names[3] = { "create_group", "its dup", "split" };
    if (r <= 1) {
        MPI_Group wg, g01;
        int two[2] = { 0, 1 };
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_incl(wg, 2, two, &g01);
        CHECK_RC(MPI_Comm_create_group(MPI_COMM_WORLD, g01, 3, &c[0]));
        CHECK_RC(MPI_Comm_dup(c[0], &c[1]));
        MPI_Group_free(&g01);
        MPI_Group_free(&wg);
    }
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, r <= 1 ? 0 : MPI_UNDEFINED, r, &c[2]));
    for (int i = 0; i < 3; i++) {
        if (r == 1) {
            int v = NEW;
            MPI_Send(&v, 1, MPI_INT, 0, TAG, c[i]);
        } else if (r == 0) {
            recv_new(c[i], &old, names[i]);
        }
    }
    if (r == 0) {
        int go = 1, flag = 0;
        MPI_Test(&old, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "the irecv on the freed communicator completed early");
        MPI_Send(&go, 1, MPI_INT, 2, 8, MPI_COMM_WORLD);
        MPI_Status st;
        CHECK_RC(MPI_Wait(&old, &st));
        CHECK(oldv == OLD, "irecv on the freed communicator got %d, expected %d",
              oldv, OLD);
        CHECK(st.MPI_SOURCE == 1 && st.MPI_TAG == TAG, "status source %d tag %d",
              st.MPI_SOURCE, st.MPI_TAG);
    } else if (r == 2) {
        int go = 0, v = OLD;
        MPI_Recv(&go, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_RC(MPI_Send(&v, 1, MPI_INT, 0, TAG, d));
        CHECK_RC(MPI_Comm_free(&d));
    }
    for (int i = 0; i < 3; i++)
        if (c[i] != MPI_COMM_NULL)
            MPI_Comm_free(&c[i]);
}

/* idup of a communicator freed before the idup completes; an Ibarrier on
 * a freed communicator. */
static void scenario_collective(void)
{
    MPI_Comm p, q, n = MPI_COMM_NULL;
    MPI_Request rq[2];
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &p));
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &q));
    CHECK_RC(MPI_Comm_idup(p, &n, &rq[0]));
    CHECK_RC(MPI_Ibarrier(q, &rq[1]));
    CHECK_RC(MPI_Comm_free(&p));
    CHECK_RC(MPI_Comm_free(&q));
    MPI_Comm m;
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &m));   /* may not take p's or q's id */
    CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK(n != MPI_COMM_NULL, "idup of a freed communicator gave MPI_COMM_NULL");
    int sum = 0, one = 1, sum2 = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, n);
    MPI_Allreduce(&one, &sum2, 1, MPI_INT, MPI_SUM, m);
    CHECK(sum == ct_size && sum2 == ct_size, "allreduce on the new comms: %d %d",
          sum, sum2);
    MPI_Comm_free(&n);
    MPI_Comm_free(&m);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    CHECK(ct_size >= 3, "needs 3 ranks, has %d", ct_size);
    if (ct_size >= 3)
        scenario_irecv();
    scenario_collective();
    return ct_finish();
}
