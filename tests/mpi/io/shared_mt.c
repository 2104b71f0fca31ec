/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shared_mt.c - the shared file pointer under MPI_THREAD_MULTIPLE: T
 * threads per rank append records with write_shared at once. Every record
 * must land exactly once and whole (the answers of rank 0 go to the thread
 * that asked: each asks on a tag of its own), checked in the plain bytes.
 */
#include <pthread.h>
#include "iotest.h"

#define T 3
#define NREC 30
typedef struct { int rank, thread, seq, check; } rec_t;

static MPI_File fh;
static int thread_errors;

static void *writer(void *arg)
{
    int t = (int)(intptr_t)arg, k = t + 1;     /* records per call differ */
    for (int s = 0; s < NREC; s += k) {
        rec_t r[T];
        int m = NREC - s < k ? NREC - s : k;
        for (int j = 0; j < m; j++)
            r[j] = (rec_t){ ct_rank, t, s + j, ct_rank * 1000 + t * 100 + s + j };
        MPI_Status st;
        int n = -1;
        if (MPI_File_write_shared(fh, r, 4 * m, MPI_INT, &st) != MPI_SUCCESS)
            __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
        MPI_Get_count(&st, MPI_INT, &n);
        if (n != 4 * m)
            __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    io_setup();
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("mt"), MPI_MODE_WRONLY | MPI_MODE_CREATE |
                           MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    pthread_t th[T];
    for (int t = 0; t < T; t++)
        pthread_create(&th[t], NULL, writer, (void *)(intptr_t)t);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    CHECK(thread_errors == 0, "%d write_shared calls failed", thread_errors);
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0) {
        long len, nrec = (long)ct_size * T * NREC;
        rec_t *f = (rec_t *)io_slurp("mt", &len);
        char *seen = calloc((size_t)nrec, 1);
        CHECK(len == nrec * (long)sizeof(rec_t), "file size %ld", len);
        for (long i = 0; f != NULL && i < len / (long)sizeof(rec_t); i++) {
            rec_t r = f[i];
            if (r.rank < 0 || r.rank >= ct_size || r.thread < 0 || r.thread >= T ||
                r.seq < 0 || r.seq >= NREC ||
                r.check != r.rank * 1000 + r.thread * 100 + r.seq) {
                CHECK(0, "record %ld is garbage", i);
                break;
            }
            seen[(r.rank * T + r.thread) * NREC + r.seq]++;
        }
        for (long i = 0; f != NULL && i < nrec; i++)
            if (seen[i] != 1) {
                CHECK(0, "record %ld seen %d times", i, seen[i]);
                break;
            }
        free(seen);
        free(f);
    }
    CHECK_RC(MPI_File_close(&fh));
    io_teardown();
    return ct_finish();
}
