/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * copyhelp.c - large single copies that the sender may help with
 * (src/method/shm/shm_help.c): a sender that is busy and cannot help, both
 * ranks exchanging at once (each helps the other), sizes that are not a
 * multiple of the chunk, several senders to one receiver in any order (the
 * receiver's one help slot reused with stale help requests in flight), a
 * window of nonblocking transfers, and every rank sending to every other
 * at once. Every byte is checked.
 */
#include <stdint.h>
#include "ptest.h"

/* Position-dependent bytes: a chunk copied to the wrong offset is caught
 * (pt_fill's pattern repeats every 256 bytes). */
static unsigned char hb(size_t i, int seed)
{
    return (unsigned char)(((uint64_t)i * 0x9E3779B97F4A7C15ull + (uint64_t)seed * 0x632BE5ABull) >> 56);
}
static void fill(unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = hb(i, seed);
}
static int verify(const unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != hb(i, seed)) {
            fprintf(stderr, "rank %d: byte %zu of %zu (seed %d) is %u, not %u\n", pt_rank(),
                    i, n, seed, b[i], hb(i, seed));
            return 1;
        }
    return 0;
}

/* rank 0 sends and computes without calling MPI: rank 1 copies alone */
static void busy_sender(int rank, size_t n)
{
    unsigned char *b = pt_xmalloc(n);
    if (rank == 0) {
        MPI_Request r;
        fill(b, n, 11);
        CHECK_RC(MPI_Isend(b, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &r));
        pt_busy_ms(100);
        CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else if (rank == 1) {
        memset(b, 0, n);
        CHECK_RC(MPI_Recv(b, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(verify(b, n, 11) == 0);
    }
    free(b);
}

/* ranks 0 and 1 swap n bytes at once */
static void exchange(int rank, size_t n, int seed)
{
    if (rank > 1)
        return;
    unsigned char *s = pt_xmalloc(n), *r = pt_xmalloc(n);
    fill(s, n, seed + rank);
    memset(r, 0, n);
    CHECK_RC(MPI_Sendrecv(s, (int)n, MPI_BYTE, 1 - rank, 2, r, (int)n, MPI_BYTE, 1 - rank, 2,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(verify(r, n, seed + 1 - rank) == 0);
    free(s);
    free(r);
}

/* every other rank sends `reps` messages to rank 0, received with ANY_SOURCE */
static void many_to_one(int rank, int size, size_t n, int reps)
{
    unsigned char *b = pt_xmalloc(n);
    for (int k = 0; k < reps; k++) {
        if (rank != 0) {
            fill(b, n, 100 + rank * reps + k);
            CHECK_RC(MPI_Send(b, (int)n, MPI_BYTE, 0, 3, MPI_COMM_WORLD));
            continue;
        }
        for (int i = 1; i < size; i++) {
            MPI_Status st;
            memset(b, 0, n);
            CHECK_RC(MPI_Recv(b, (int)n, MPI_BYTE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st));
            /* the messages of one sender arrive in order: count them */
            static int got[64];
            int src = st.MPI_SOURCE;
            CHECK(src > 0 && src < size && src < 64);
            if (src > 0 && src < size && src < 64)
                CHECK(verify(b, n, 100 + src * reps + got[src]++) == 0);
        }
    }
    free(b);
}

/* a window of nonblocking transfers from rank 0 to rank 1, various sizes */
static void window(int rank)
{
    enum { W = 8 };
    size_t sizes[W] = { 300000, 1 << 20, (1 << 20) + 13, 262144, 2000000, 777777,
                        4 << 20, 262145 };
    unsigned char *b[W];
    MPI_Request q[W];
    if (rank > 1)
        return;
    for (int i = 0; i < W; i++) {
        b[i] = pt_xmalloc(sizes[i]);
        if (rank == 0) {
            fill(b[i], sizes[i], 200 + i);
            CHECK_RC(MPI_Isend(b[i], (int)sizes[i], MPI_BYTE, 1, 4, MPI_COMM_WORLD, &q[i]));
        } else {
            memset(b[i], 0, sizes[i]);
            CHECK_RC(MPI_Irecv(b[i], (int)sizes[i], MPI_BYTE, 0, 4, MPI_COMM_WORLD, &q[i]));
        }
    }
    CHECK_RC(MPI_Waitall(W, q, MPI_STATUSES_IGNORE));
    for (int i = 0; i < W; i++) {
        if (rank == 1)
            CHECK(verify(b[i], sizes[i], 200 + i) == 0);
        free(b[i]);
    }
}

/* every rank sends to every other at once: every rank copies, so with more
 * ranks than CPUs the receivers mostly copy alone (the help choice) */
static void all_to_all(int rank, int size, size_t n)
{
    unsigned char *s = pt_xmalloc(n * (size_t)size), *r = pt_xmalloc(n * (size_t)size);
    MPI_Request *q = pt_xmalloc(2 * (size_t)size * sizeof(*q));
    int nq = 0;
    memset(r, 0, n * (size_t)size);
    for (int k = 1; k < size; k++) {
        int src = (rank - k + size) % size, dst = (rank + k) % size;
        fill(s + (size_t)dst * n, n, 300 + rank * 64 + dst);
        CHECK_RC(MPI_Irecv(r + (size_t)src * n, (int)n, MPI_BYTE, src, 5, MPI_COMM_WORLD,
                           &q[nq++]));
        CHECK_RC(MPI_Isend(s + (size_t)dst * n, (int)n, MPI_BYTE, dst, 5, MPI_COMM_WORLD,
                           &q[nq++]));
    }
    CHECK_RC(MPI_Waitall(nq, q, MPI_STATUSES_IGNORE));
    for (int src = 0; src < size; src++)
        if (src != rank)
            CHECK(verify(r + (size_t)src * n, n, 300 + src * 64 + rank) == 0);
    free(q);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        printf("copyhelp needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    busy_sender(rank, 4 << 20);
    for (int rep = 0; rep < 10; rep++) {
        exchange(rank, (size_t)(1 << 20) * (size_t)(1 + rep % 3) + (size_t)rep * 4099, rep);
        window(rank);
    }
    many_to_one(rank, size, (1 << 20) + 7, 5);
    for (int rep = 0; rep < 4; rep++)
        all_to_all(rank, size, (size_t)(1 << 19) + (size_t)rep * 4097);
    return pt_finish();
}
