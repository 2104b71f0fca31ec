/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Unexpected messages of every record class: rank 0 sends messages of
 * sizes around each class boundary (256 B << k up to 16 KiB, and beyond),
 * each with its own tag and contents, then rank 1 receives them last tag
 * first, so every message waits in the unexpected queue. Three rounds,
 * with the sizes in a different order each time, so that cached records
 * are reused for other messages of their class; every byte is checked
 * (a record too small for its message, or one that kept an earlier
 * message's bytes, fails here or under ASan). */
#include <stdlib.h>
#include "ctest.h"

static const int sizes[] = { 0, 1, 255, 256, 257, 511, 512, 513, 1000, 1024, 2047, 2048,
                             4095, 4096, 4097, 8191, 8192, 8193, 16383, 16384, 16385,
                             40000 };
enum { N = sizeof(sizes) / sizeof(sizes[0]) };

static unsigned char pat(int round, int m, int i)
{
    return (unsigned char)(round * 31 + m * 7 + i * 13 + (i >> 8));
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    unsigned char *buf = ct_malloc(40000);
    for (int round = 0; round < 3 && ct_size >= 2; round++) {
        if (ct_rank == 0) {
            /* nonblocking: the largest goes by rendezvous, which completes
             * only once the receiver takes it, after the marker */
            unsigned char *out[N];
            MPI_Request req[N];
            for (int j = 0; j < N; j++) {
                int m = round == 1 ? N - 1 - j : j;      /* another order */
                out[m] = ct_malloc((size_t)sizes[m]);
                for (int i = 0; i < sizes[m]; i++)
                    out[m][i] = pat(round, m, i);
                CHECK_RC(MPI_Isend(out[m], sizes[m], MPI_BYTE, 1, m, MPI_COMM_WORLD, &req[j]));
            }
            CHECK_RC(MPI_Send(NULL, 0, MPI_BYTE, 1, 100, MPI_COMM_WORLD));
            CHECK_RC(MPI_Waitall(N, req, MPI_STATUSES_IGNORE));
            for (int m = 0; m < N; m++)
                free(out[m]);
        } else if (ct_rank == 1) {
            /* the marker comes last: every message before it is unexpected */
            CHECK_RC(MPI_Recv(NULL, 0, MPI_BYTE, 0, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            for (int m = N - 1; m >= 0; m--) {
                MPI_Status st;
                int got;
                for (int i = 0; i < 40000; i++)
                    buf[i] = 0xee;
                CHECK_RC(MPI_Recv(buf, 40000, MPI_BYTE, 0, m, MPI_COMM_WORLD, &st));
                MPI_Get_count(&st, MPI_BYTE, &got);
                CHECK(got == sizes[m], "round %d tag %d: %d bytes, sent %d", round, m, got,
                      sizes[m]);
                int bad = 0;
                for (int i = 0; i < sizes[m]; i++)
                    bad += buf[i] != pat(round, m, i);
                for (int i = sizes[m]; i < sizes[m] + 16 && i < 40000; i++)
                    bad += buf[i] != 0xee;
                CHECK(bad == 0, "round %d, %d bytes: %d wrong", round, sizes[m], bad);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    return ct_finish();
}
