/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * truncate.c - a message longer than the receive buffer: MPI_ERR_TRUNCATE
 * from the call (status.MPI_ERROR left as the caller set it: only the
 * multiple-completion calls write it), the part that fits delivered,
 * nothing past the buffer written, the sender completes normally; for
 * eager and rendezvous sizes, blocking and nonblocking, and the library
 * keeps working afterwards. Needs an even number of ranks >= 2.
 */
#include "ptest.h"

static const int sizes[] = { 100, 16000, 200000, 3000000 };

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
    unsigned char *sb = malloc(3000000), *rb = malloc(3000000 + 64);

    for (int k = 0; k < 4 && peer != MPI_PROC_NULL; k++) {
        int n = sizes[k], fit = n / 2;
        if (rank % 2 == 0) {
            pt_fill(sb, (size_t)n, k);
            CHECK_RC(MPI_Send(sb, n, MPI_BYTE, peer, k, MPI_COMM_WORLD));
            MPI_Request r;
            CHECK_RC(MPI_Isend(sb, n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &r));
            CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            MPI_Status st;
            memset(rb, 0xab, (size_t)fit + 64);
            st.MPI_ERROR = MPI_ERR_DIMS;
            int rc = MPI_Recv(rb, fit, MPI_BYTE, peer, k, MPI_COMM_WORLD, &st);
            int cls = -1;
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_TRUNCATE);
            CHECK(st.MPI_ERROR == MPI_ERR_DIMS);
            CHECK(pt_verify(rb, (size_t)fit, k) == 0);
            CHECK(rb[fit] == 0xab && rb[fit + 63] == 0xab);
            char msg[MPI_MAX_ERROR_STRING];
            int len;
            MPI_Error_string(rc, msg, &len);
            CHECK(strstr(msg, "MPI_Recv") != NULL);
            /* nonblocking */
            MPI_Request r;
            memset(rb, 0xab, (size_t)fit + 64);
            CHECK_RC(MPI_Irecv(rb, fit, MPI_BYTE, peer, k, MPI_COMM_WORLD, &r));
            rc = MPI_Wait(&r, &st);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_TRUNCATE);
            CHECK(r == MPI_REQUEST_NULL);
            CHECK(pt_verify(rb, (size_t)fit, k) == 0);
            CHECK(rb[fit] == 0xab);
            int cnt;
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            CHECK(cnt == fit);
        }
    }
    /* still works */
    int v = rank, w = -1;
    CHECK_RC(MPI_Sendrecv(&v, 1, MPI_INT, peer, 99, &w, 1, MPI_INT, peer, 99, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE));
    CHECK(peer == MPI_PROC_NULL || w == peer);
    free(sb);
    free(rb);
    return pt_finish();
}
