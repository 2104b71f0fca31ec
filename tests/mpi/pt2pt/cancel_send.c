/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * cancel_send.c - MPI_Cancel of sends (issue 8; docs/design/pt2pt.md,
 * "Cancel").
 *
 * A send the receiver has not matched is cancelled: a rendezvous send
 * (1 MiB, no receive posted) and a synchronous send (Issend, small) to a
 * rank that posts nothing until after the cancel, and an Issend to self.
 * The cancelled message must be gone: a later message with the same
 * envelope is what the receive gets, and Iprobe finds nothing.
 * A send that was matched is not cancelled and delivers its data: an eager
 * standard send (already delivered), and a rendezvous send whose receive
 * was posted before it. A persistent Ssend is cancelled once, then
 * restarted and received. Cancel of a completed send and of a receive
 * still work as before.
 */
#include "ctest.h"

enum { BIG = 1 << 20, SMALL = 64, T_BIG = 10, T_SYNC = 11, T_EAGER = 12,
       T_MATCHED = 13, T_PERS = 14, T_SELF = 15, T_READY = 16 };

static void fill(int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = seed * 7919 + i;
}

static int bad(const int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        if (b[i] != seed * 7919 + i)
            return i + 1;
    return 0;
}

static void expect_cancelled(MPI_Request *rq, int want, const char *what)
{
    MPI_Status st;
    CHECK_RC(MPI_Wait(rq, &st));
    int flag = -1;
    CHECK_RC(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == want, "%s: Test_cancelled gave %d, expected %d", what, flag, want);
}

/* Nothing is left with this envelope at the receiver. */
static void expect_nothing(int src, int tag, const char *what)
{
    int flag = 1;
    CHECK_RC(MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "%s: a cancelled message can still be probed", what);
}

/* Rank 0 sends to rank 1; rank 1 posts nothing until rank 0 cancelled. */
static void unmatched(int seed)
{
    int *big = malloc(sizeof(int) * BIG), small[SMALL], token = 0;
    if (ct_rank == 0) {
        MPI_Request rq[2];
        fill(big, BIG, seed);
        fill(small, SMALL, seed + 1);
        CHECK_RC(MPI_Isend(big, BIG, MPI_INT, 1, T_BIG, MPI_COMM_WORLD, &rq[0]));
        CHECK_RC(MPI_Issend(small, SMALL, MPI_INT, 1, T_SYNC, MPI_COMM_WORLD, &rq[1]));
        CHECK_RC(MPI_Cancel(&rq[0]));
        CHECK_RC(MPI_Cancel(&rq[1]));
        CHECK_RC(MPI_Cancel(&rq[1]));           /* twice is harmless */
        expect_cancelled(&rq[0], 1, "unmatched rendezvous send");
        expect_cancelled(&rq[1], 1, "unmatched Issend");
        CHECK_RC(MPI_Send(&token, 1, MPI_INT, 1, T_READY, MPI_COMM_WORLD));
        /* the same envelopes again, other data: these must be received */
        fill(big, BIG, seed + 2);
        fill(small, SMALL, seed + 3);
        CHECK_RC(MPI_Send(big, BIG, MPI_INT, 1, T_BIG, MPI_COMM_WORLD));
        CHECK_RC(MPI_Send(small, SMALL, MPI_INT, 1, T_SYNC, MPI_COMM_WORLD));
        CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
    } else if (ct_rank == 1) {
        MPI_Status st;
        /* rank 0 has cancelled when this token comes */
        CHECK_RC(MPI_Recv(&token, 1, MPI_INT, 0, T_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Recv(big, BIG, MPI_INT, 0, T_BIG, MPI_COMM_WORLD, &st));
        CHECK(!bad(big, BIG, seed + 2), "rendezvous: received the cancelled message "
              "(element %d)", bad(big, BIG, seed + 2) - 1);
        CHECK_RC(MPI_Recv(small, SMALL, MPI_INT, 0, T_SYNC, MPI_COMM_WORLD, &st));
        CHECK(!bad(small, SMALL, seed + 3), "Issend: received the cancelled message");
        expect_nothing(0, T_BIG, "rendezvous");
        expect_nothing(0, T_SYNC, "Issend");
        CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
    } else {
        CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
    }
    free(big);
}

/* Sends the receiver matched (or that were delivered) are not cancelled. */
static void matched(int seed)
{
    int *big = malloc(sizeof(int) * BIG), small[SMALL], token = 0;
    if (ct_rank == 0) {
        MPI_Request rq;
        fill(small, SMALL, seed);
        CHECK_RC(MPI_Isend(small, SMALL, MPI_INT, 1, T_EAGER, MPI_COMM_WORLD, &rq));
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        /* an eager message leaves at once: not cancellable */
        CHECK_RC(MPI_Isend(small, SMALL, MPI_INT, 1, T_EAGER, MPI_COMM_WORLD, &rq));
        CHECK_RC(MPI_Cancel(&rq));
        expect_cancelled(&rq, 0, "eager send");
        /* rank 1 posted its receive before this send starts */
        CHECK_RC(MPI_Recv(&token, 1, MPI_INT, 1, T_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        fill(big, BIG, seed + 1);
        CHECK_RC(MPI_Isend(big, BIG, MPI_INT, 1, T_MATCHED, MPI_COMM_WORLD, &rq));
        CHECK_RC(MPI_Cancel(&rq));
        expect_cancelled(&rq, 0, "matched rendezvous send");
    } else if (ct_rank == 1) {
        for (int k = 0; k < 2; k++) {
            CHECK_RC(MPI_Recv(small, SMALL, MPI_INT, 0, T_EAGER, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
            CHECK(!bad(small, SMALL, seed), "eager message %d: wrong data", k);
        }
        MPI_Request rq;
        CHECK_RC(MPI_Irecv(big, BIG, MPI_INT, 0, T_MATCHED, MPI_COMM_WORLD, &rq));
        CHECK_RC(MPI_Send(&token, 1, MPI_INT, 0, T_READY, MPI_COMM_WORLD));
        expect_cancelled(&rq, 0, "receive of a matched rendezvous send");
        CHECK(!bad(big, BIG, seed + 1), "matched rendezvous: wrong data");
    }
    free(big);
}

/* A persistent Ssend: cancelled once, then started again and received. */
static void persistent(int seed)
{
    int small[SMALL], token = 0;
    if (ct_rank == 0) {
        MPI_Request rq;
        fill(small, SMALL, seed);
        CHECK_RC(MPI_Ssend_init(small, SMALL, MPI_INT, 1, T_PERS, MPI_COMM_WORLD, &rq));
        CHECK_RC(MPI_Start(&rq));
        CHECK_RC(MPI_Cancel(&rq));
        expect_cancelled(&rq, 1, "persistent Ssend");
        CHECK_RC(MPI_Send(&token, 1, MPI_INT, 1, T_READY, MPI_COMM_WORLD));
        fill(small, SMALL, seed + 1);
        CHECK_RC(MPI_Start(&rq));
        expect_cancelled(&rq, 0, "persistent Ssend, second start");
        CHECK_RC(MPI_Request_free(&rq));
    } else if (ct_rank == 1) {
        CHECK_RC(MPI_Recv(&token, 1, MPI_INT, 0, T_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Recv(small, SMALL, MPI_INT, 0, T_PERS, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(!bad(small, SMALL, seed + 1), "persistent: received the cancelled message");
    }
}

/* Issend to self, cancelled; an Irecv that is not matched, cancelled. */
static void self(int seed)
{
    int small[SMALL], got[SMALL];
    MPI_Request rq;
    fill(small, SMALL, seed);
    CHECK_RC(MPI_Issend(small, SMALL, MPI_INT, ct_rank, T_SELF, MPI_COMM_WORLD, &rq));
    int flag = 1;
    CHECK_RC(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "Issend to self completed before a receive");
    CHECK_RC(MPI_Cancel(&rq));
    expect_cancelled(&rq, 1, "Issend to self");
    expect_nothing(ct_rank, T_SELF, "Issend to self");
    CHECK_RC(MPI_Irecv(got, SMALL, MPI_INT, ct_rank, T_SELF, MPI_COMM_WORLD, &rq));
    CHECK_RC(MPI_Cancel(&rq));
    expect_cancelled(&rq, 1, "unmatched Irecv");
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    for (int rep = 0; rep < 3; rep++) {
        self(rep);
        if (ct_size >= 2) {
            unmatched(10 * rep);
            matched(10 * rep + 5);
            persistent(10 * rep + 7);
        }
        CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
    }
    return ct_finish();
}
