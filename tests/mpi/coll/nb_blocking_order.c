/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * nb_blocking_order.c - a nonblocking collective started on one rank before
 * a blocking collective, and on the others after it (issue 8).
 *
 * This is mpi4py's fallback for MPI_Comm_iagree (an MPI_Iallreduce with
 * MPI_BAND) as its test_ulfm.testIAgree drives it: for each root, the root
 * starts the Iallreduce, checks that MPI_Test says "not yet", then enters
 * MPI_Barrier, and waits; every other rank enters MPI_Barrier first and
 * starts the Iallreduce after it. The standard asks for collectives in the
 * same order on every rank; MPICH and Open MPI nevertheless run this
 * (their blocking and nonblocking collectives match in separate
 * sequences), and so does Crossbar: blocking and nonblocking collectives
 * take their sequence numbers (hence their tags) from separate counters
 * (docs/design/coll.md, "Tags"). It hung before.
 *
 * Also: the nonblocking side is an Ibcast/Ibarrier and the blocking side
 * an Allreduce/Bcast, and a persistent collective (its tag comes from the
 * nonblocking counter at _init) started around a blocking one.
 */
#include "ctest.h"

/* mpi4py's iagree pattern; the blocking collective in the middle is
 * MPI_Barrier (which = 0) or MPI_Allreduce (which = 1). */
static void iagree_pattern(MPI_Comm comm, int which)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    for (int root = 0; root < p; root++) {
        int in = me == root ? 0xB : 0xD, out = -1, mid = me + 1, midsum = 0;
        MPI_Request rq;
        MPI_Barrier(comm);
        if (me == root) {
            CHECK_RC(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_BAND, comm, &rq));
            int flag = 1;
            CHECK_RC(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
            CHECK(p == 1 || !flag, "root %d: Iallreduce done before the others "
                  "started it", root);
            if (which == 0)
                CHECK_RC(MPI_Barrier(comm));
            else
                CHECK_RC(MPI_Allreduce(&mid, &midsum, 1, MPI_INT, MPI_SUM, comm));
        } else {
            if (which == 0)
                CHECK_RC(MPI_Barrier(comm));
            else
                CHECK_RC(MPI_Allreduce(&mid, &midsum, 1, MPI_INT, MPI_SUM, comm));
            CHECK_RC(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_BAND, comm, &rq));
        }
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        int want = p == 1 ? 0xB : (0xB & 0xD);
        CHECK(out == want, "root %d: iagree gave %#x, expected %#x", root, out, want);
        if (which == 1)
            CHECK(midsum == p * (p + 1) / 2, "root %d: Allreduce between gave %d, "
                  "expected %d", root, midsum, p * (p + 1) / 2);
    }
}

/* Rank 0 starts an Ibcast and an Ibarrier, then a blocking Bcast; the others
 * do the Bcast first. */
static void ibcast_around_bcast(MPI_Comm comm)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int a[4], b = me == p - 1 ? 4242 : -1;
    for (int k = 0; k < 4; k++)
        a[k] = me == 0 ? 100 + k : -1;
    MPI_Request rq[2];
    if (me == 0) {
        CHECK_RC(MPI_Ibcast(a, 4, MPI_INT, 0, comm, &rq[0]));
        CHECK_RC(MPI_Ibarrier(comm, &rq[1]));
        CHECK_RC(MPI_Bcast(&b, 1, MPI_INT, p - 1, comm));
    } else {
        CHECK_RC(MPI_Bcast(&b, 1, MPI_INT, p - 1, comm));
        CHECK_RC(MPI_Ibcast(a, 4, MPI_INT, 0, comm, &rq[0]));
        CHECK_RC(MPI_Ibarrier(comm, &rq[1]));
    }
    CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK(b == 4242, "Bcast between gave %d", b);
    for (int k = 0; k < 4; k++)
        CHECK(a[k] == 100 + k, "Ibcast a[%d] = %d, expected %d", k, a[k], 100 + k);
}

/* A persistent Allreduce, created in the same order everywhere, started
 * before a blocking Barrier on the last rank and after it on the others. */
static void persistent_around_barrier(MPI_Comm comm)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int in = 0, out = -1;
    MPI_Request rq;
    CHECK_RC(MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &rq));
    for (int round = 0; round < 5; round++) {
        in = me + round;
        if (me == p - 1) {
            CHECK_RC(MPI_Start(&rq));
            CHECK_RC(MPI_Barrier(comm));
        } else {
            CHECK_RC(MPI_Barrier(comm));
            CHECK_RC(MPI_Start(&rq));
        }
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        int want = p * (p - 1) / 2 + p * round;
        CHECK(out == want, "round %d: persistent Allreduce gave %d, expected %d",
              round, out, want);
    }
    CHECK_RC(MPI_Request_free(&rq));
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int rep = 0; rep < 3; rep++) {
        iagree_pattern(MPI_COMM_WORLD, 0);
        iagree_pattern(dup, 1);
        ibcast_around_bcast(rep % 2 ? dup : MPI_COMM_WORLD);
        persistent_around_barrier(dup);
    }
    MPI_Comm_free(&dup);
    return ct_finish();
}
