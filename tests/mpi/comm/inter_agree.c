/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * inter_agree.c - the standard calls that mpi4py's ULFM fallbacks make on
 * an intercommunicator (mpi4py's test_ulfm.TestULFMInter, issue 8):
 * Comm_agree is an MPI_Allreduce_c with MPI_BAND, Comm_iagree an
 * MPI_Iallreduce_c whose input buffer is kept alive by an attribute whose
 * delete callback frees it and its keyval, Comm_shrink/ishrink are
 * MPI_Comm_dup/idup, Comm_ack_failed checks MPI_Comm_test_inter. The
 * intercommunicator is built as the test builds it (the world split in
 * halves, local leader 0, remote leaders 0 and size/2). On an
 * intercommunicator an allreduce gives each group the reduction of the
 * other group's values (MPI 4.1 section 6.9.6): checked with different
 * values in the two groups.
 */
#include "ctest.h"

static int deleted;

static int free_fn(MPI_Comm c, int keyval, void *val, void *extra)
{
    (void)c; (void)extra;
    free(val);
    deleted++;
    return MPI_Comm_free_keyval(&keyval);
}

static void check_same(MPI_Comm ic, MPI_Comm d, const char *what)
{
    int a, b, inter = 0;
    MPI_Comm_test_inter(d, &inter);
    CHECK(inter, "%s: not an intercommunicator", what);
    MPI_Comm_size(ic, &a);
    MPI_Comm_size(d, &b);
    CHECK(a == b, "%s: size %d, parent %d", what, b, a);
    MPI_Comm_remote_size(ic, &a);
    MPI_Comm_remote_size(d, &b);
    CHECK(a == b, "%s: remote size %d, parent %d", what, b, a);
    MPI_Comm_rank(ic, &a);
    MPI_Comm_rank(d, &b);
    CHECK(a == b, "%s: rank %d, parent %d", what, b, a);
}

static void agree(MPI_Comm ic, int color)
{
    for (int i = 0; i < 5; i++) {
        int ibuf = i, flag = -1;
        CHECK_RC(MPI_Allreduce_c(&ibuf, &flag, 1, MPI_INT, MPI_BAND, ic));
        CHECK(flag == i, "agree %d: flag %d", i, flag);
    }
    /* each group gets the AND of the other group's values */
    int mine = color == 0 ? 0xb : 0x6, got = -1;
    CHECK_RC(MPI_Allreduce_c(&mine, &got, 1, MPI_INT, MPI_BAND, ic));
    CHECK(got == (color == 0 ? 0x6 : 0xb), "group %d: allreduce gave %#x", color, got);
}

static void iagree(MPI_Comm ic, int *keys)
{
    for (int i = 0; i < 5; i++) {
        int keyval, flag = -1, *ibuf = malloc(sizeof(int));
        MPI_Request rq;
        CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_fn, &keyval, NULL));
        CHECK_RC(MPI_Comm_set_attr(ic, keyval, ibuf));
        ibuf[0] = i;
        CHECK_RC(MPI_Iallreduce_c(ibuf, &flag, 1, MPI_INT, MPI_BAND, ic, &rq));
        CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(flag == i, "iagree %d: flag %d", i, flag);
        (*keys)++;
    }
}

static void shrink(MPI_Comm ic)
{
    MPI_Comm d;
    MPI_Request rq;
    int flag = 0;
    CHECK_RC(MPI_Comm_dup(ic, &d));
    check_same(ic, d, "shrink (dup)");
    MPI_Comm_free(&d);
    CHECK_RC(MPI_Comm_idup(ic, &d, &rq));
    CHECK(rq != MPI_REQUEST_NULL, "ishrink: no request");
    CHECK_RC(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(rq == MPI_REQUEST_NULL, "ishrink: request not freed");
    check_same(ic, d, "ishrink (idup)");
    CHECK_RC(MPI_Comm_test_inter(d, &flag));      /* ack_failed's check */
    MPI_Comm_free(&d);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    if (ct_size < 2) {
        printf("inter_agree: needs 2 ranks or more\n");
        return ct_finish();
    }
    int color = ct_rank < ct_size / 2 ? 0 : 1, keys = 0;
    MPI_Comm half, ic;
    MPI_Comm_split(MPI_COMM_WORLD, color, 0, &half);
    CHECK_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? ct_size / 2 : 0,
                                  0, &ic));
    MPI_Comm_free(&half);
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    agree(ic, color);
    iagree(ic, &keys);
    shrink(ic);
    CHECK(deleted == 0, "%d attributes deleted before the free", deleted);
    MPI_Comm_free(&ic);
    CHECK(deleted == keys, "%d of %d attributes deleted by the free", deleted, keys);
    return ct_finish();
}
