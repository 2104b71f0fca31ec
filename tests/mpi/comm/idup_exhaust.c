/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * idup_exhaust.c - MPI_Comm_idup until no context id is left, in batches
 * of 7 requests completed by one MPI_Waitall with MPI_STATUSES_IGNORE (the
 * MPICH suite's errors/comm/too_many_icomms2 hung there): the batch that
 * runs out fails with MPI_ERR_OTHER on every rank, under the parent's
 * MPI_ERRORS_RETURN (not MPI_COMM_SELF's fatal handler), with a sentence
 * that says why; the failed requests leave MPI_COMM_NULL. Then a batch
 * with statuses says which requests failed (MPI_ERR_IN_STATUS), and once
 * the communicators are freed, dups work again.
 */
#include "ctest.h"

enum { BATCH = 7, MAX = 20000 };

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm *c = malloc(sizeof(MPI_Comm) * MAX);
    MPI_Request r[BATCH];
    int n = 0, rc = MPI_SUCCESS;
    while (n + BATCH <= MAX) {
        for (int k = 0; k < BATCH; k++)
            CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &c[n + k], &r[k]));
        rc = MPI_Waitall(BATCH, r, MPI_STATUSES_IGNORE);
        n += BATCH;
        if (rc != MPI_SUCCESS)
            break;
    }
    CHECK(rc != MPI_SUCCESS, "%d idups and no failure", n);
    CHECK(ct_class(rc) == MPI_ERR_OTHER, "exhausted: class %d", ct_class(rc));
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "no context id is free") != NULL, "exhausted: '%s'", msg);
    int nfail = 0;
    for (int i = n - BATCH; i < n; i++)
        nfail += c[i] == MPI_COMM_NULL;
    CHECK(nfail > 0, "no failed idup left MPI_COMM_NULL");
    /* one more batch, with statuses: every request fails, in its status */
    MPI_Comm more[BATCH];
    MPI_Status st[BATCH];
    for (int k = 0; k < BATCH; k++)
        CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &more[k], &r[k]));
    rc = MPI_Waitall(BATCH, r, st);
    CHECK(ct_class(rc) == MPI_ERR_IN_STATUS, "second batch: class %d", ct_class(rc));
    for (int k = 0; k < BATCH; k++)
        CHECK(more[k] == MPI_COMM_NULL && ct_class(st[k].MPI_ERROR) == MPI_ERR_OTHER,
              "second batch %d: comm %s, class %d", k,
              more[k] == MPI_COMM_NULL ? "null" : "set", ct_class(st[k].MPI_ERROR));
    for (int i = 0; i < n; i++)
        if (c[i] != MPI_COMM_NULL)
            CHECK_RC(MPI_Comm_free(&c[i]));
    /* the ids are back */
    MPI_Comm d;
    CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &d, &r[0]));
    CHECK_RC(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    int s = 0;
    CHECK_RC(MPI_Allreduce(&ct_rank, &s, 1, MPI_INT, MPI_SUM, d));
    CHECK(s == ct_size * (ct_size - 1) / 2, "allreduce on a dup after: %d", s);
    CHECK_RC(MPI_Comm_free(&d));
    free(c);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return ct_finish();
}
