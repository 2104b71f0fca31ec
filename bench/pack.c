/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pack.c - derived datatypes: MPI_Pack / MPI_Unpack throughput and a
 * ping-pong with the type on both sides, for the layouts of issue 3:
 *   vector   one column of a 4096 x 4096 double matrix (32 KiB of data
 *            spread over 128 MiB: one 8-byte run every 32 KiB);
 *   indexed  4096 irregular 64-byte blocks (8 doubles at gaps of 0..120
 *            bytes, fixed seed): 256 KiB of data;
 *   struct   16384 x { char; double; int } with its padding (24-byte
 *            extent, 13 bytes of data each): 208 KiB of data;
 *   contig   a contiguous type of 32768 doubles (256 KiB), and
 *   bytes    the same 256 KiB as MPI_BYTE, the bar `contig` must reach.
 * MB/s of packed data (10^6 bytes/s), median over timed batches.
 *   mpiexec -n 1 ./pack -k pack|unpack -t TYPE [-q]
 *   mpiexec -n 2 ./pack -k pingpong -t TYPE [-q]
 * Output (bench/table.py): "# pack-TYPE MB/s higher", then one line
 * "<packed bytes> <median> <min> <max> <batches>". Builds with any mpicc.
 */
#include <stddef.h>
#include "bench.h"

enum { N = 4096 };

typedef struct { char c; double d; int i; } padded_t;

static MPI_Datatype make_type(const char *t, long *span)
{
    MPI_Datatype dt;
    if (!strcmp(t, "vector")) {
        MPI_Type_vector(N, 1, N, MPI_DOUBLE, &dt);
        *span = (long)N * N * 8;
    } else if (!strcmp(t, "indexed")) {
        int *bl = malloc(N * sizeof(int)), *dp = malloc(N * sizeof(int));
        unsigned s = 12345;
        int pos = 0;
        for (int i = 0; i < N; i++) {
            s = s * 1103515245u + 12345u;
            bl[i] = 8;
            dp[i] = pos;
            pos += 8 + (int)((s >> 16) % 16);   /* gap of 0..15 doubles */
        }
        MPI_Type_indexed(N, bl, dp, MPI_DOUBLE, &dt);
        *span = (long)pos * 8;
        free(bl);
        free(dp);
    } else if (!strcmp(t, "struct")) {
        int bl[3] = { 1, 1, 1 };
        MPI_Aint dp[3] = { offsetof(padded_t, c), offsetof(padded_t, d),
                           offsetof(padded_t, i) };
        MPI_Datatype ty[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT }, s, r;
        MPI_Type_create_struct(3, bl, dp, ty, &s);
        MPI_Type_create_resized(s, 0, sizeof(padded_t), &r);
        MPI_Type_contiguous(4 * N, r, &dt);
        MPI_Type_free(&s);
        MPI_Type_free(&r);
        *span = 4L * N * (long)sizeof(padded_t);
    } else if (!strcmp(t, "contig")) {
        MPI_Type_contiguous(8 * N, MPI_DOUBLE, &dt);
        *span = 8L * N * 8;
    } else if (!strcmp(t, "bytes")) {
        *span = 8L * N * 8;
        return MPI_BYTE;
    } else {
        fprintf(stderr, "pack: unknown type %s\n", t);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return MPI_DATATYPE_NULL;
    }
    MPI_Type_commit(&dt);
    return dt;
}

/* Seconds for k pack (or unpack) calls of one element. */
static double time_pack(int unpack, char *buf, int count, MPI_Datatype dt,
                        char *packed, int psize, int k)
{
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++) {
        int pos = 0;
        if (unpack)
            MPI_Unpack(packed, psize, &pos, buf, count, dt, MPI_COMM_SELF);
        else
            MPI_Pack(buf, count, dt, packed, psize, &pos, MPI_COMM_SELF);
    }
    return MPI_Wtime() - t0;
}

/* Seconds for k round trips between ranks 0 and 1. */
static double time_pingpong(int rank, char *buf, int count, MPI_Datatype dt, int k)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++) {
        if (rank == 0) {
            MPI_Send(buf, count, dt, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, count, dt, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, count, dt, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, count, dt, 0, 1, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    bench_opts_t o = bench_parse(argc, argv, 0);
    const char *kind = "pack", *type = "vector";
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-k"))
            kind = argv[++i];
        else if (!strcmp(argv[i], "-t"))
            type = argv[++i];
    }
    int pp = !strcmp(kind, "pingpong"), unpack = !strcmp(kind, "unpack");
    if (pp && nprocs != 2) {
        if (rank == 0)
            fprintf(stderr, "pack: -k pingpong needs exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long span = 0;
    MPI_Datatype dt = make_type(type, &span);
    int count = dt == MPI_BYTE ? (int)span : 1, size, psize;
    MPI_Type_size(dt, &size);
    size *= count;
    MPI_Pack_size(count, dt, MPI_COMM_SELF, &psize);
    char *buf = bench_alloc(span), *packed = bench_alloc(psize);
    int nb = o.quick ? 5 : 31, k = 1;
    double per = pp ? time_pingpong(rank, buf, count, dt, 3) / 3
                    : time_pack(unpack, buf, count, dt, packed, psize, 3) / 3;
    k = bench_batch_len(per, o.quick ? 0.005 : 0.02, 1, 100000,
                        pp ? MPI_COMM_WORLD : MPI_COMM_SELF);
    double *v = malloc(nb * sizeof(double));
    for (int b = 0; b < nb; b++) {
        double t = pp ? time_pingpong(rank, buf, count, dt, k)
                      : time_pack(unpack, buf, count, dt, packed, psize, k);
        v[b] = (pp ? 2.0 : 1.0) * size * k / t / 1e6;
    }
    if (rank == 0) {
        printf("# %s-%s MB/s higher\n", kind, type);
        bench_report(size, v, nb);
    }
    if (dt != MPI_BYTE)
        MPI_Type_free(&dt);
    free(v);
    free(buf);
    free(packed);
    MPI_Finalize();
    return 0;
}
