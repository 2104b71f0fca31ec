/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * idup.c - MPI_Comm_idup / idup_with_info are nonblocking: rank 0 starts
 * an idup and then waits for a message that rank 1 sends only before its
 * own idup (a blocking dup would deadlock here); several idups in flight
 * with blocking dups interleaved (their communicators must all differ:
 * messages on each stay on each); attributes copied (DUP_FN) and hints
 * set; MPI_Request_free semantics are not used.
 */
#include "ctest.h"

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int p = ct_size, r = ct_rank;
    MPI_Comm c1 = MPI_COMM_NULL, c2 = MPI_COMM_NULL, c3 = MPI_COMM_NULL, d = MPI_COMM_NULL;
    MPI_Request rq[3];
    int key;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    static int attrval = 42;
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, &attrval);

    if (p >= 2 && r == 1) {
        int v = 9;
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &c1, &rq[0]));
    if (p >= 2 && r == 0) {
        int v = 0;
        MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(v == 9, "message %d", v);
    }
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "crossbar_idup", "1");
    CHECK_RC(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &c2, &rq[1]));
    MPI_Info_free(&info);
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &d));       /* blocking, in between */
    CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &c3, &rq[2]));
    CHECK_RC(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
    MPI_Comm cs[4] = { c1, c2, c3, d };
    for (int i = 0; i < 4; i++) {
        CHECK(cs[i] != MPI_COMM_NULL, "comm %d is null", i);
        int cmp = -1;
        MPI_Comm_compare(cs[i], MPI_COMM_WORLD, &cmp);
        CHECK(cmp == MPI_CONGRUENT, "comm %d compare %d", i, cmp);
    }
    /* the same tag on all four at once: each message stays on its comm */
    int in[4], out[4];
    MPI_Request sr[8];
    for (int i = 0; i < 4; i++) {
        out[i] = 1000 * i + r;
        MPI_Irecv(&in[i], 1, MPI_INT, (r + p - 1) % p, 5, cs[i], &sr[i]);
    }
    for (int i = 3; i >= 0; i--)
        MPI_Isend(&out[i], 1, MPI_INT, (r + 1) % p, 5, cs[i], &sr[4 + i]);
    MPI_Waitall(8, sr, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 4; i++)
        CHECK(in[i] == 1000 * i + (r + p - 1) % p, "comm %d got %d", i, in[i]);
    int *v, flag = 0;
    MPI_Comm_get_attr(c1, key, &v, &flag);
    CHECK(flag && *v == 42, "attribute not copied by idup");
    MPI_Info got;
    char val[8];
    MPI_Comm_get_info(c2, &got);
    MPI_Info_get(got, "crossbar_idup", 7, val, &flag);
    CHECK(flag && strcmp(val, "1") == 0, "idup_with_info hint");
    MPI_Info_free(&got);
    for (int i = 0; i < 4; i++)
        MPI_Comm_free(&cs[i]);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    MPI_Comm_free_keyval(&key);
    return ct_finish();
}
