/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * errh_request.c - the error of a failed request goes to the error handler
 * of the request's communicator (MPI standard; Open MPI and MPICH do the
 * same), not to MPI_COMM_SELF's, which stays MPI_ERRORS_ARE_FATAL here, so
 * a wrong routing ends the job. Truncated receives on a communicator with
 * MPI_ERRORS_RETURN, completed by MPI_Wait, MPI_Test, MPI_Waitany,
 * MPI_Waitsome, MPI_Testall and MPI_Waitall (MPI_ERR_IN_STATUS with the
 * class in the failed status, MPI_SUCCESS in the others), and matched
 * messages received by MPI_Mrecv and MPI_Imrecv; a user error
 * handler on a duplicate sees that communicator, once per failing call;
 * and a request whose communicator was freed before the wait still
 * reaches that communicator's handler. An even number of ranks (pairs).
 */
#include "ptest.h"

static int calls;
static MPI_Comm seen;

static void count_errh(MPI_Comm *c, int *code, ...)
{
    (void)code;
    calls++;
    seen = *c;
}

static void expect_trunc(int rc, const char *what)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_TRUNCATE) {
        pt_errs++;
        fprintf(stderr, "rank %d: %s gave class %d, expected MPI_ERR_TRUNCATE\n", pt_rank(),
                what, cls);
    }
}

/* The sender's part of one round on comm: n messages of 8 ints. */
static void send_n(MPI_Comm comm, int peer, int n)
{
    int v[8] = { 0 };
    for (int i = 0; i < n; i++)
        CHECK_RC(MPI_Send(v, 8, MPI_INT, peer, i, comm));
}

static void receiver(MPI_Comm comm, int peer)
{
    int b[4][8];
    MPI_Request r[4];
    MPI_Status st[4];
    int flag = 0, idx = -1, out = 0, ids[4];

    /* Wait, Test */
    CHECK_RC(MPI_Irecv(b[0], 4, MPI_INT, peer, 0, comm, &r[0]));
    expect_trunc(MPI_Wait(&r[0], &st[0]), "MPI_Wait");
    CHECK_RC(MPI_Irecv(b[0], 4, MPI_INT, peer, 1, comm, &r[0]));
    int rc;
    do
        rc = MPI_Test(&r[0], &flag, &st[0]);
    while (rc == MPI_SUCCESS && !flag);
    expect_trunc(rc, "MPI_Test");
    /* Waitany, Waitsome: one of two truncates */
    CHECK_RC(MPI_Irecv(b[0], 4, MPI_INT, peer, 2, comm, &r[0]));
    expect_trunc(MPI_Waitany(1, r, &idx, &st[0]), "MPI_Waitany");
    CHECK(idx == 0);
    CHECK_RC(MPI_Irecv(b[0], 4, MPI_INT, peer, 3, comm, &r[0]));
    rc = MPI_Waitsome(1, r, &out, ids, st);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_IN_STATUS && out == 1);
    expect_trunc(st[0].MPI_ERROR, "MPI_Waitsome's status");
    /* Testall, Waitall: the second of three truncates */
    for (int k = 0; k < 3; k++)
        CHECK_RC(MPI_Irecv(b[k], k == 1 ? 4 : 8, MPI_INT, peer, 4 + k, comm, &r[k]));
    do
        rc = MPI_Testall(3, r, &flag, st);
    while (rc == MPI_SUCCESS && !flag);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_IN_STATUS);
    CHECK(st[0].MPI_ERROR == MPI_SUCCESS && st[2].MPI_ERROR == MPI_SUCCESS);
    expect_trunc(st[1].MPI_ERROR, "MPI_Testall's status");
    for (int k = 0; k < 3; k++)
        CHECK_RC(MPI_Irecv(b[k], k == 1 ? 4 : 8, MPI_INT, peer, 7 + k, comm, &r[k]));
    rc = MPI_Waitall(3, r, st);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_IN_STATUS);
    expect_trunc(st[1].MPI_ERROR, "MPI_Waitall's status");
    CHECK(st[0].MPI_ERROR == MPI_SUCCESS && st[2].MPI_ERROR == MPI_SUCCESS);
    /* Mrecv, Imrecv: the matched message's communicator */
    MPI_Message m;
    CHECK_RC(MPI_Mprobe(peer, 10, comm, &m, MPI_STATUS_IGNORE));
    expect_trunc(MPI_Mrecv(b[0], 4, MPI_INT, &m, &st[0]), "MPI_Mrecv");
    CHECK_RC(MPI_Mprobe(peer, 11, comm, &m, MPI_STATUS_IGNORE));
    CHECK_RC(MPI_Imrecv(b[0], 4, MPI_INT, &m, &r[0]));
    expect_trunc(MPI_Wait(&r[0], &st[0]), "MPI_Wait of an MPI_Imrecv");
}

enum { NMSG = 12 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2 != 0) {
        if (rank == 0)
            fprintf(stderr, "errh_request needs an even number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int peer = rank ^ 1, recv_side = rank % 2 == 1;

    /* 1: MPI_COMM_WORLD with MPI_ERRORS_RETURN */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (recv_side)
        receiver(MPI_COMM_WORLD, peer);
    else
        send_n(MPI_COMM_WORLD, peer, NMSG);
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2: a duplicate with a user handler: called with the duplicate, once
     * for each of the 8 failing calls */
    MPI_Comm dup;
    MPI_Errhandler eh;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_errhandler(count_errh, &eh);
    MPI_Comm_set_errhandler(dup, eh);
    if (recv_side) {
        receiver(dup, peer);
        CHECK(calls == 8);
        int same = MPI_UNEQUAL;
        MPI_Comm_compare(seen, dup, &same);
        CHECK(same == MPI_IDENT);
    } else
        send_n(dup, peer, NMSG);

    /* 3: the communicator freed while its receive is pending */
    MPI_Comm gone;
    MPI_Comm_dup(dup, &gone);             /* inherits the user handler */
    if (recv_side) {
        int b[4];
        MPI_Request r;
        calls = 0;
        CHECK_RC(MPI_Irecv(b, 4, MPI_INT, peer, 0, gone, &r));
        MPI_Comm_free(&gone);
        expect_trunc(MPI_Wait(&r, MPI_STATUS_IGNORE), "MPI_Wait after MPI_Comm_free");
        CHECK(calls == 1);
    } else {
        send_n(gone, peer, 1);
        MPI_Comm_free(&gone);
    }
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&dup);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &pt_errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && pt_errs == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return pt_errs != 0;
}
