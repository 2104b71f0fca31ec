/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * session_world.c - the world model and the sessions model in one program:
 * MPI_Init, then a session; the communicator made from mpi://WORLD is
 * congruent to MPI_COMM_WORLD, traffic on both does not mix (same tag,
 * same ranks, different contexts), the session's errhandler is separate
 * from COMM_WORLD's, and the session is finalized before MPI_Finalize.
 */
#include "ctest.h"

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Session s;
    CHECK_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Group g;
    CHECK_RC(MPI_Group_from_session_pset(s, "mpi://world", &g));
    MPI_Comm c;
    CHECK_RC(MPI_Comm_create_from_group(g, "world-and-session", MPI_INFO_NULL,
                                        MPI_ERRORS_RETURN, &c));
    int cmp = -1;
    MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp);
    CHECK(cmp == MPI_CONGRUENT, "compare %d", cmp);
    int n = ct_size, r = ct_rank, a = -1, b = -1;
    int va = 100 + r, vb = 200 + r;
    MPI_Request rq[2];
    /* send on the session communicator first, receive on the world first */
    MPI_Isend(&vb, 1, MPI_INT, (r + 1) % n, 3, c, &rq[0]);
    MPI_Isend(&va, 1, MPI_INT, (r + 1) % n, 3, MPI_COMM_WORLD, &rq[1]);
    MPI_Recv(&a, 1, MPI_INT, (r + n - 1) % n, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&b, 1, MPI_INT, (r + n - 1) % n, 3, c, MPI_STATUS_IGNORE);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    CHECK(a == 100 + (r + n - 1) % n && b == 200 + (r + n - 1) % n,
          "contexts mixed: world got %d, session comm got %d", a, b);
    MPI_Errhandler e;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &e);
    CHECK(e == MPI_ERRORS_ARE_FATAL, "world errhandler changed by the session");
    MPI_Errhandler_free(&e);
    MPI_Group bad;
    int rc = MPI_Group_from_session_pset(s, "mpi://nothing", &bad);
    CHECK(rc != MPI_SUCCESS, "unknown pset accepted");
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    CHECK_RC(MPI_Session_finalize(&s));
    CHECK(s == MPI_SESSION_NULL, "finalize resets the handle");
    int flag = 0;
    MPI_Initialized(&flag);
    CHECK(flag, "world model still initialized");
    return ct_finish();
}
