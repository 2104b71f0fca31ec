/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Rendezvous fragments read straight into the receive buffer (tcp,
 * XB_TCP_PLACE_MIN, off by default; docs/design/tcp.md "In place"), run
 * under XB_METHODS=tcp by the testlist with XB_TCP_PLACE_MIN=64k, with
 * 4100-byte fragments all placed (every one padded, so the padding after
 * a payload read in place must be dropped from the stream), and without
 * placing (the same checks through the connection's buffer).
 * Rank 0 sends, rank 1 receives and checks every byte:
 *   - sizes that leave a padded last fragment, each followed by a small
 *     eager message on the same connection (the stream stays in step);
 *   - a receive type whose data starts 24 bytes into the buffer (true lb);
 *   - a strided receive (no place: the fragments are unpacked);
 *   - a receive buffer shorter than the message: MPI_ERR_TRUNCATE, the
 *     accepted prefix right, the bytes after it untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

static int errs;

static unsigned char val(long i, int salt) { return (unsigned char)(i * 31 + salt * 7 + (i >> 9)); }

static void fill(unsigned char *b, long n, int salt)
{
    for (long i = 0; i < n; i++)
        b[i] = val(i, salt);
}

static void check(const unsigned char *b, long n, int salt, const char *what)
{
    for (long i = 0; i < n; i++)
        if (b[i] != val(i, salt)) {
            printf("%s: byte %ld is %u, not %u\n", what, i, b[i], val(i, salt));
            errs++;
            return;
        }
}

/* Odd sizes, each with an 8-byte eager message behind it. */
static void sizes(int rank, unsigned char *buf)
{
    static const long n[] = { 65536 * 8 + 3, 600001, (1L << 20) + 5, 4L << 20, 70001 };
    for (int k = 0; k < (int)(sizeof n / sizeof n[0]); k++) {
        long tail = 0x5eed0000L + k, got = 0;
        if (rank == 0) {
            fill(buf, n[k], k);
            MPI_Send(buf, (int)n[k], MPI_BYTE, 1, k, MPI_COMM_WORLD);
            MPI_Send(&tail, 1, MPI_LONG, 1, 100 + k, MPI_COMM_WORLD);
            continue;
        }
        memset(buf, 0, (size_t)n[k]);
        MPI_Status st;
        int count = -1;
        MPI_Recv(buf, (int)n[k], MPI_BYTE, 0, k, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        char what[64];
        snprintf(what, sizeof what, "message of %ld bytes", n[k]);
        if (count != n[k]) {
            printf("%s: count %d\n", what, count);
            errs++;
        }
        check(buf, n[k], k, what);
        MPI_Recv(&got, 1, MPI_LONG, 0, 100 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (got != tail) {
            printf("the message after %s: %lx, not %lx\n", what, got, tail);
            errs++;
        }
    }
}

/* The receive type starts 24 bytes into the buffer. */
static void offset(int rank, unsigned char *buf)
{
    long n = (2L << 20) + 9;
    if (rank == 0) {
        fill(buf, n, 11);
        MPI_Send(buf, (int)n, MPI_BYTE, 1, 20, MPI_COMM_WORLD);
        return;
    }
    MPI_Datatype t;
    int len = (int)n;
    MPI_Aint disp = 24;
    MPI_Type_create_hindexed(1, &len, &disp, MPI_BYTE, &t);
    MPI_Type_commit(&t);
    memset(buf, 0xee, (size_t)n + 64);
    MPI_Recv(buf, 1, t, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check(buf + 24, n, 11, "receive at a true lb of 24");
    for (int i = 0; i < 24; i++)
        if (buf[i] != 0xee) {
            printf("receive at a true lb of 24: byte %d before it was written\n", i);
            errs++;
            break;
        }
    if (buf[24 + n] != 0xee) {
        printf("receive at a true lb of 24: the byte after it was written\n");
        errs++;
    }
    MPI_Type_free(&t);
}

/* Every other 8-byte block: the fragments are unpacked, not placed. */
static void strided(int rank, unsigned char *buf)
{
    int blocks = 1 << 17;                    /* 1 MiB of data */
    if (rank == 0) {
        fill(buf, blocks * 8L, 12);
        MPI_Send(buf, blocks * 8, MPI_BYTE, 1, 30, MPI_COMM_WORLD);
        return;
    }
    MPI_Datatype v;
    MPI_Type_vector(blocks, 8, 16, MPI_BYTE, &v);
    MPI_Type_commit(&v);
    unsigned char *big = calloc((size_t)blocks, 16);
    MPI_Recv(big, 1, v, 0, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (long b = 0; b < blocks; b++)
        for (int j = 0; j < 16; j++) {
            unsigned char want = j < 8 ? val(b * 8 + j, 12) : 0;
            if (big[b * 16 + j] != want) {
                printf("strided receive: block %ld byte %d is %u, not %u\n", b, j,
                       big[b * 16 + j], want);
                errs++;
                b = blocks;
                break;
            }
        }
    free(big);
    MPI_Type_free(&v);
}

/* 1 MiB into 600000 bytes: truncated, the prefix right, nothing beyond. */
static void truncated(int rank, unsigned char *buf)
{
    long n = 1L << 20, cap = 600000;
    if (rank == 0) {
        fill(buf, n, 13);
        MPI_Send(buf, (int)n, MPI_BYTE, 1, 40, MPI_COMM_WORLD);
        long tail = 0x7a11;
        MPI_Send(&tail, 1, MPI_LONG, 1, 41, MPI_COMM_WORLD);
        return;
    }
    memset(buf, 0xee, (size_t)n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Recv(buf, (int)cap, MPI_BYTE, 0, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE), cls = -1;
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_TRUNCATE) {
        printf("1 MiB into %ld bytes: error class %d, not MPI_ERR_TRUNCATE\n", cap, cls);
        errs++;
    }
    check(buf, cap, 13, "the truncated receive");
    if (buf[cap] != 0xee) {
        printf("the truncated receive wrote past its buffer\n");
        errs++;
    }
    long got = 0;
    MPI_Recv(&got, 1, MPI_LONG, 0, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (got != 0x7a11) {
        printf("the message after the truncated one: %lx\n", got);
        errs++;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned char *buf = malloc((4L << 20) + 64);
    if (rank < 2 && size >= 2) {
        sizes(rank, buf);
        offset(rank, buf);
        strided(rank, buf);
        truncated(rank, buf);
    }
    free(buf);
    int total = 0;
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0)
        printf(total ? " Found %d errors\n" : " No Errors\n", total);
    return errs != 0;
}
