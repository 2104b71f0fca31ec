/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * sendleaves.c - once MPI_Send has returned, its message reaches the
 * receiver even if the sender makes no further MPI call. Rank 0 sends N
 * eager messages to rank 1, which starts receiving only a moment later (so
 * the socket fills and a method could be tempted to keep copies in a queue
 * of its own), then waits WITHOUT calling MPI until rank 1 has created a
 * file saying it received them all. A message left in rank 0's queue never
 * arrives: rank 1 blocks, rank 0 waits, and the test's time limit fails it.
 * Run with XB_METHODS=tcp and small socket buffers (testlist); on shared
 * memory it checks the same promise.
 */
#include <errno.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "ptest.h"

enum { N = 48, LEN = 16 << 10 };

static void nap(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char dir[64] = "";
    if (rank == 0 && mkdtemp(strcpy(dir, "/tmp/xb-sendleaves-XXXXXX")) == NULL) {
        perror("mkdtemp");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    char flag[96];
    snprintf(flag, sizeof flag, "%s/received", dir);
    char *buf = malloc(LEN);
    CHECK(buf != NULL);
    if (rank == 0) {
        for (int i = 0; i < N; i++) {
            memset(buf, 'a' + i % 26, LEN);
            CHECK_RC(MPI_Send(buf, LEN, MPI_CHAR, 1, i, MPI_COMM_WORLD));
        }
        /* no MPI call until rank 1 says it has everything */
        struct stat sb;
        while (stat(flag, &sb) != 0)
            nap(2);
        unlink(flag);
        rmdir(dir);
    } else if (rank == 1) {
        nap(200);        /* let rank 0 run ahead: its socket fills up */
        for (int i = 0; i < N; i++) {
            MPI_Status st;
            CHECK_RC(MPI_Recv(buf, LEN, MPI_CHAR, 0, i, MPI_COMM_WORLD, &st));
            int n = -1;
            MPI_Get_count(&st, MPI_CHAR, &n);
            CHECK(n == LEN && buf[0] == 'a' + i % 26 && buf[LEN - 1] == 'a' + i % 26);
        }
        FILE *f = fopen(flag, "w");
        CHECK(f != NULL);
        if (f != NULL)
            fclose(f);
    }
    free(buf);
    return pt_finish();
}
