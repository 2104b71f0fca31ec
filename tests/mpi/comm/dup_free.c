/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dup_free.c - MPI_Comm_dup / MPI_Comm_free: 1000 dup+free cycles of
 * COMM_WORLD (context ids are returned), 200 duplicates alive at once, each
 * isolated from the others (a message sent on one is not received on
 * another), dups of dups, the errhandler is inherited, and 16000
 * communicators alive at once (dups of COMM_SELF).
 */
#include "ctest.h"

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size;
    for (int k = 0; k < 1000; k++) {
        MPI_Comm c;
        CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        if (k % 100 == 0) {
            int s = 0;
            MPI_Allreduce(&ct_rank, &s, 1, MPI_INT, MPI_SUM, c);
            CHECK(s == p * (p - 1) / 2, "dup %d allreduce %d", k, s);
        }
        CHECK_RC(MPI_Comm_free(&c));
        CHECK(c == MPI_COMM_NULL, "free sets MPI_COMM_NULL");
    }

    enum { NALIVE = 200 };
    static MPI_Comm alive[NALIVE];
    for (int k = 0; k < NALIVE; k++) {
        MPI_Comm parent = k == 0 ? MPI_COMM_WORLD : alive[k - 1];
        CHECK_RC(MPI_Comm_dup(parent, &alive[k]));
    }
    /* isolation: rank 0 sends tag 5 on every dup, value = index; receivers
     * take them in reverse order of communicator */
    if (p > 1) {
        if (ct_rank == 0) {
            for (int k = 0; k < NALIVE; k++)
                MPI_Send(&k, 1, MPI_INT, 1, 5, alive[k]);
        } else if (ct_rank == 1) {
            for (int k = NALIVE - 1; k >= 0; k--) {
                int v = -1;
                MPI_Recv(&v, 1, MPI_INT, 0, 5, alive[k], MPI_STATUS_IGNORE);
                CHECK(v == k, "message on dup %d carried %d", k, v);
            }
        }
    }
    for (int k = 0; k < NALIVE; k += 37) {
        int s = 0, size = 0, rank = -1;
        MPI_Comm_size(alive[k], &size);
        MPI_Comm_rank(alive[k], &rank);
        CHECK(size == p && rank == ct_rank, "dup %d: size %d rank %d", k, size, rank);
        MPI_Allreduce(&rank, &s, 1, MPI_INT, MPI_SUM, alive[k]);
        CHECK(s == p * (p - 1) / 2, "dup %d allreduce %d", k, s);
    }
    for (int k = NALIVE - 1; k >= 0; k -= 2)      /* free in a scattered order */
        MPI_Comm_free(&alive[k]);
    for (int k = 0; k < NALIVE; k += 2)
        MPI_Comm_free(&alive[k]);

    /* errhandler inheritance */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(d, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "dup inherits the errhandler");
    MPI_Comm_free(&d);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* 16000 communicators alive at once */
    enum { NMANY = 16000 };
    MPI_Comm *many = ct_malloc(NMANY * sizeof(MPI_Comm));
    int made = 0;
    for (; made < NMANY; made++)
        if (MPI_Comm_dup(MPI_COMM_SELF, &many[made]) != MPI_SUCCESS)
            break;
    CHECK(made == NMANY, "only %d communicators could be created", made);
    int one = 1, got = 0;
    MPI_Allreduce(&one, &got, 1, MPI_INT, MPI_SUM, many[made - 1]);
    CHECK(got == 1, "allreduce on the last self dup: %d", got);
    for (int k = 0; k < made; k++)
        MPI_Comm_free(&many[k]);
    free(many);
    return ct_finish();
}
