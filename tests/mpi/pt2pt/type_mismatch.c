/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * type_mismatch.c - a message shorter than the receive buffer that ends
 * inside a basic element of the receive type (3 chars into ints, 6 bytes
 * into ints, 6 bytes into {int, char} pairs) fails with MPI_ERR_TYPE, for
 * eager and rendezvous sizes, posted and unexpected, blocking and
 * nonblocking; short messages that end on an element boundary (8 bytes
 * into 4 ints, 5 and 14 bytes into {int, char}) still succeed with the
 * right MPI_Get_count (MPI_UNDEFINED for 14) and MPI_Get_elements; the
 * library keeps working. Needs an even number of ranks >= 2.
 */
#include "ptest.h"

enum { BIG = 300001 };      /* rendezvous on every method; odd: mid-int */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int peer = rank ^ 1;
    if (peer >= size)
        peer = MPI_PROC_NULL;

    /* {int, char}: 5 bytes of data, MPI_Get_elements counts 2 per instance */
    MPI_Datatype ic;
    int bl[2] = { 1, 1 };
    MPI_Aint dp[2] = { 0, 4 };
    MPI_Datatype ty[2] = { MPI_INT, MPI_CHAR };
    MPI_Type_create_struct(2, bl, dp, ty, &ic);
    MPI_Type_commit(&ic);

    /* the MPICH case: 3 chars spread out, received as an indexed of ints */
    MPI_Datatype sc, ix;
    MPI_Aint sdp[3] = { 0, 2, 4 };
    int sbl[3] = { 1, 1, 1 }, ibl[3] = { 1, 2, 1 }, idp[3] = { 4, 8, 16 };
    MPI_Datatype sty[3] = { MPI_CHAR, MPI_CHAR, MPI_CHAR };
    MPI_Type_create_struct(3, sbl, sdp, sty, &sc);
    MPI_Type_commit(&sc);
    MPI_Type_indexed(3, ibl, idp, MPI_INT, &ix);
    MPI_Type_commit(&ix);

    char *sb = calloc(BIG, 1), *rb = calloc(BIG + 64, 1);
    for (int i = 0; i < BIG; i++)
        sb[i] = (char)(i * 7 + 1);

    /* case: send bytes (count, type), receive (rcount, rtype), expected class */
    struct {
        int n;
        MPI_Datatype st;
        int rn;
        MPI_Datatype *rt;
        int want;
        int count, elems;     /* MPI_Get_count and _elements when it succeeds */
    } cases[] = {
        { 1, MPI_DATATYPE_NULL, 1, &ix, MPI_ERR_TYPE, 0, 0 },      /* sc -> ix */
        { 6, MPI_BYTE, 4, NULL, MPI_ERR_TYPE, 0, 0 },              /* -> MPI_INT */
        { 8, MPI_BYTE, 4, NULL, MPI_SUCCESS, 2, 2 },
        { 6, MPI_BYTE, 3, &ic, MPI_ERR_TYPE, 0, 0 },
        { 13, MPI_BYTE, 3, &ic, MPI_ERR_TYPE, 0, 0 },
        { 5, MPI_BYTE, 3, &ic, MPI_SUCCESS, 1, 2 },
        { 14, MPI_BYTE, 3, &ic, MPI_SUCCESS, MPI_UNDEFINED, 5 },
        { BIG, MPI_BYTE, BIG / 4 + 8, NULL, MPI_ERR_TYPE, 0, 0 },
        { BIG - 1, MPI_BYTE, BIG / 4 + 8, NULL, MPI_SUCCESS, (BIG - 1) / 4, (BIG - 1) / 4 },
    };
    int ncases = (int)(sizeof(cases) / sizeof(cases[0]));
    for (int c = 0; c < ncases && peer != MPI_PROC_NULL; c++) {
        MPI_Datatype st = cases[c].st == MPI_DATATYPE_NULL ? sc : cases[c].st;
        MPI_Datatype rt = cases[c].rt != NULL ? *cases[c].rt : MPI_INT;
        for (int mode = 0; mode < 3; mode++) {  /* Recv posted late, Irecv, Recv after Probe */
            int tag = c * 3 + mode;
            if (rank % 2 == 0) {
                CHECK_RC(MPI_Send(sb, cases[c].n, st, peer, tag, MPI_COMM_WORLD));
                continue;
            }
            MPI_Status s;
            int rc;
            if (mode == 1) {
                MPI_Request r;
                CHECK_RC(MPI_Irecv(rb, cases[c].rn, rt, peer, tag, MPI_COMM_WORLD, &r));
                rc = MPI_Wait(&r, &s);
                CHECK(r == MPI_REQUEST_NULL);
            } else {
                if (mode == 2)
                    CHECK_RC(MPI_Probe(peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                rc = MPI_Recv(rb, cases[c].rn, rt, peer, tag, MPI_COMM_WORLD, &s);
            }
            int cls = -1;
            MPI_Error_class(rc, &cls);
            if (cls != cases[c].want) {
                fprintf(stderr, "case %d mode %d: class %d, want %d\n", c, mode, cls,
                        cases[c].want);
                CHECK(0);
            }
            if (rc != MPI_SUCCESS) {
                char msg[MPI_MAX_ERROR_STRING];
                int len;
                MPI_Error_string(rc, msg, &len);
                CHECK(strstr(msg, "ends inside a basic element") != NULL);
                CHECK(strstr(msg, mode == 1 ? "MPI_Wait" : "MPI_Recv") != NULL);
            } else {
                int cnt = 0, el = -1;
                MPI_Get_count(&s, rt, &cnt);
                MPI_Get_elements(&s, rt, &el);
                CHECK(cnt == cases[c].count);
                CHECK(el == cases[c].elems);
            }
        }
    }
    /* still works */
    int v = rank, w = -1;
    CHECK_RC(MPI_Sendrecv(&v, 1, MPI_INT, peer, 999, &w, 1, MPI_INT, peer, 999, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    CHECK(peer == MPI_PROC_NULL || w == peer);
    MPI_Type_free(&ic);
    MPI_Type_free(&sc);
    MPI_Type_free(&ix);
    free(sb);
    free(rb);
    return pt_finish();
}
