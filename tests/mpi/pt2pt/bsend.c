/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bsend.c - Buffer_attach/detach, Bsend and Ibsend of small and large
 * messages (the user's buffer is reusable at once), buffer space reused
 * after completion, MPI_ERR_BUFFER when a message does not fit, detach
 * waiting for pending buffered sends.
 */
#include "ptest.h"

enum { BIG = 100000, ROUNDS = 20 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    /* ranks may run a few rounds ahead of their receivers: room for all */
    int bsize = (ROUNDS + 1) * (BIG + 64 + 2 * MPI_BSEND_OVERHEAD);
    char *buf = malloc((size_t)bsize);
    CHECK_RC(MPI_Buffer_attach(buf, bsize));
    unsigned char *sb = malloc(BIG), *rb = malloc(BIG);

    for (int r = 0; r < ROUNDS; r++) {
        pt_fill(sb, BIG, rank + r);
        CHECK_RC(MPI_Bsend(sb, BIG, MPI_BYTE, right, 1, MPI_COMM_WORLD));
        memset(sb, 0, BIG);   /* the buffer is ours again */
        MPI_Request q;
        int small[16];
        for (int i = 0; i < 16; i++)
            small[i] = rank * 100 + r + i;
        CHECK_RC(MPI_Ibsend(small, 16, MPI_INT, right, 2, MPI_COMM_WORLD, &q));
        CHECK_RC(MPI_Wait(&q, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Recv(rb, BIG, MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(pt_verify(rb, BIG, left + r) == 0);
        int got[16];
        CHECK_RC(MPI_Recv(got, 16, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(got[15] == left * 100 + r + 15);
    }
    /* too big for what is attached */
    if (size > 1) {
        unsigned char *huge = calloc(1, (size_t)bsize);
        int rc = MPI_Bsend(huge, bsize, MPI_BYTE, right, 3, MPI_COMM_WORLD);
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_BUFFER);
        free(huge);
    }
    /* detach returns the buffer after pending sends are done; the data arrive */
    pt_fill(sb, BIG, 77);
    CHECK_RC(MPI_Bsend(sb, BIG, MPI_BYTE, right, 4, MPI_COMM_WORLD));
    void *b;
    int bs = 0;
    if (rank % 2 == 0 && size > 1) {   /* detach first: waits for the receiver */
        CHECK_RC(MPI_Buffer_detach(&b, &bs));
        CHECK_RC(MPI_Recv(rb, BIG, MPI_BYTE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else {
        CHECK_RC(MPI_Recv(rb, BIG, MPI_BYTE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Buffer_detach(&b, &bs));
    }
    CHECK(pt_verify(rb, BIG, 77) == 0);
    CHECK(b == buf && bs == bsize);
    /* without a buffer, Bsend fails cleanly */
    if (size > 1) {
        int rc = MPI_Bsend(sb, 10, MPI_BYTE, right, 5, MPI_COMM_WORLD);
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_BUFFER);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(buf);
    free(sb);
    free(rb);
    return pt_finish();
}
