/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_mismatch.c - a broadcast whose receivers pass a count other than the
 * root's (an erroneous program; MPICH's errors/coll/bcastlength): under
 * MPI_ERRORS_RETURN every such receiver gets MPI_ERR_TRUNCATE, whether its
 * buffer is too small (nothing written past it) or too large, in the
 * blocking, nonblocking and persistent forms, from a few bytes to several
 * MiB (the flow cell, the stream, its segments, the two-rank "direct", the
 * message algorithms;
 * testlist forces each by XB_COLL_BCAST), and the communicator keeps
 * working: a correct broadcast and a barrier follow each case. A receiver
 * with the root's count gets the root's data or (below a rank that failed,
 * in the message trees) the same error.
 *
 * Not covered (docs/design/coll.md, Checks): counts on both sides of a
 * byte threshold where the root and the receivers choose different
 * algorithms (nonblocking, 3 or more ranks: 16 KiB; shm_nb, forced, in
 * every form: a 16 KiB window), and the data
 * of a rank with the root's count beside mismatched ones in
 * scatter_allgather.
 */
#include "ctest.h"

enum { GUARD = 64, NB_CUT = 16 * 1024 };

static int form_bcast(int form, int *buf, int count, int root, MPI_Comm comm)
{
    MPI_Request r;
    int rc;
    if (form == 0)
        return MPI_Bcast(buf, count, MPI_INT, root, comm);
    if (form == 1)
        rc = MPI_Ibcast(buf, count, MPI_INT, root, comm, &r);
    else
        rc = MPI_Bcast_init(buf, count, MPI_INT, root, comm, MPI_INFO_NULL, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if (form == 2 && (rc = MPI_Start(&r)) != MPI_SUCCESS)
        return rc;
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (form == 2)
        MPI_Request_free(&r);
    return rc;
}

/* A correct broadcast and a barrier: the communicator still works. */
static void after(int form, int root, MPI_Comm comm, const char *what)
{
    int v[3] = { -1, -1, -1 };
    if (ct_rank == root)
        v[0] = 11, v[1] = 22, v[2] = 33;
    int rc = form_bcast(form, v, 3, root, comm);
    CHECK(rc == MPI_SUCCESS && v[0] == 11 && v[1] == 22 && v[2] == 33,
          "%s: the correct bcast after it: rc %d, %d %d %d", what, rc, v[0], v[1], v[2]);
    CHECK_RC(MPI_Barrier(comm));
}

/* One case: the root sends n ints; rank r passes cnt(r). */
/* scatter_allgather cuts the bytes into p chunks by each rank's own count:
 * a rank with the root's count may get a mismatched rank's chunk of the
 * same size (docs/design/coll.md, Checks); the mismatched ranks still fail */
static int chunked, nb_forced;

static void one(int form, int n, int root, int mode, MPI_Comm comm)
{
    int mine = ct_rank == root ? n
             : mode == 0 ? n / 2                       /* every receiver short */
             : mode == 1 ? 2 * n + 1                   /* every receiver long  */
             : ct_rank % 3 == 1 ? n / 2 : ct_rank % 3 == 2 ? n + 3 : n;  /* mixed */
    if ((form != 0 && ct_size >= 3) || nb_forced) {
        /* the message algorithms switch at 16 KiB, and so does shm_nb (a
         * window) in every form: keep each case on one side */
        long long a = 4LL * n, lo = 4LL * (n / 2), hi = 4LL * (2 * n + 1);
        if ((a < NB_CUT) != (lo < NB_CUT) || (a < NB_CUT) != (hi < NB_CUT) ||
            (a < NB_CUT) != (4LL * (n + 3) < NB_CUT))
            return;
    }
    char what[96];
    snprintf(what, sizeof what, "form %d, %d ints, root %d, mode %d", form, n, root, mode);
    int *buf = malloc(((size_t)mine + GUARD) * sizeof(int));
    for (int i = 0; i < mine + GUARD; i++)
        buf[i] = ct_rank == root ? i * 7 + 1 : -5;
    int rc = form_bcast(form, buf, mine, root, comm);
    if (ct_rank == root) {
        CHECK(rc == MPI_SUCCESS, "%s: the root failed (%d)", what, rc);
    } else if (mine != n) {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "%s: a receiver of %d ints got class %d, want "
              "MPI_ERR_TRUNCATE", what, mine, cls);
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "root") != NULL, "%s: message '%s' names no root", what, msg);
    } else if (rc == MPI_SUCCESS && !chunked) {
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += buf[i] != i * 7 + 1;
        CHECK(bad == 0, "%s: %d wrong ints with the root's count", what, bad);
    } else if (rc != MPI_SUCCESS) {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "%s: a receiver with the root's count got class %d",
              what, cls);
    }
    if (ct_rank != root && mine < n) {
        int bad = 0;
        for (int i = mine; i < mine + GUARD; i++)
            bad += buf[i] != -5;
        CHECK(bad == 0, "%s: %d ints written past a buffer of %d", what, bad, mine);
    }
    free(buf);
    after(form, root, comm, what);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    const char *forced = getenv("XB_COLL_BCAST");
    chunked = forced != NULL && strcmp(forced, "scatter_allgather") == 0;
    nb_forced = forced != NULL && strcmp(forced, "shm_nb") == 0;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    /* ints: 4 B .. 4.8 MiB: inside a flow cell, across it (128 ints = 512 B),
     * the two-rank 2 KiB cut, the stream, the two-rank 96 KiB cut to
     * "direct" (20000 and 30000 ints: the root on one side, the receivers
     * of modes 1 and 0 on the other), a slot (960 KiB) and its segments */
    static const int sizes[] = { 1, 2, 10, 100, 128, 300, 1000, 3000, 20000, 30000, 50000,
                                 300000, 1200000 };
    int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    for (int form = 0; form < 3; form++)
        for (int k = 0; k < nsizes; k++)
            for (int mode = 0; mode < 3; mode++) {
                one(form, sizes[k], 0, mode, comm);
                if (ct_size > 1)
                    one(form, sizes[k], ct_size - 1, mode, comm);
            }
    /* a slot collective just before: the stream's node barrier (LATE) */
    int x = 1, y = 0;
    for (int k = 0; k < nsizes; k++) {
        CHECK_RC(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, comm));
        one(0, sizes[k], 0, 0, comm);
        CHECK_RC(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, comm));
        one(0, sizes[k], 0, 1, comm);
    }
    MPI_Comm_free(&comm);
    return ct_finish();
}
