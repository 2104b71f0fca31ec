/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * apps.c - two application patterns of issue 5, plain MPI:
 *   -c round   the broadcast round: every rank in turn broadcasts 1 MiB to
 *              all (microseconds per round, the slowest rank's view);
 *   -c matmul  a column-distributed dense matrix multiply C = A B: each rank
 *              holds N/p columns of A, B and C; in step k rank k broadcasts
 *              its columns of A and every rank adds A_k B(k-th row block, its
 *              columns) to its C (milliseconds per multiply). The result is
 *              checked against a formula. -N sets N (default 1024).
 *   mpiexec -n 4 ./apps -c round [-q]
 *   mpiexec -n 4 ./apps -c matmul [-N 2048] [-q]
 */
#include "bench.h"

static int rank, nranks;

static double round_once(char *buf, long n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int root = 0; root < nranks; root++)
        MPI_Bcast(buf, (int)n, MPI_BYTE, root, MPI_COMM_WORLD);
    double t = (MPI_Wtime() - t0) * 1e6, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

static void bench_round(int quick)
{
    long n = 1L << 20;
    char *buf = bench_alloc(n);
    double v[32];
    int nb = quick ? 3 : 15;
    if (rank == 0)
        printf("# bcast-round-%dr us lower\n", nranks);
    round_once(buf, n);
    for (int b = 0; b < nb; b++)
        v[b] = round_once(buf, n);
    if (rank == 0)
        bench_report(n, v, nb);
    free(buf);
}

/* A(i,j) = i + 2j, B(i,j) = (i == j) + 1, so C(i,j) = A(i,j) + sum_k A(i,k). */
static double a_of(long i, long j) { return (double)(i + 2 * j); }

static double matmul_once(long N, long w, double *a, double *b, double *c, double *ak)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    memset(c, 0, sizeof(double) * (size_t)(N * w));
    for (int k = 0; k < nranks; k++) {
        double *src = k == rank ? a : ak;
        MPI_Bcast(src, (int)(N * w), MPI_DOUBLE, k, MPI_COMM_WORLD);
        /* C(:, j) += A_k(:, l) * B(k*w + l, j), column-major */
        for (long j = 0; j < w; j++)
            for (long l = 0; l < w; l++) {
                double blj = b[j * N + k * w + l];
                const double *col = src + l * N;
                double *cj = c + j * N;
                for (long i = 0; i < N; i++)
                    cj[i] += col[i] * blj;
            }
    }
    double t = (MPI_Wtime() - t0) * 1e3, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

static void bench_matmul(long N, int quick)
{
    if (N % nranks != 0) {
        if (rank == 0)
            fprintf(stderr, "apps: N=%ld is not a multiple of %d ranks\n", N, nranks);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long w = N / nranks, j0 = rank * w;
    double *a = malloc(sizeof(double) * (size_t)(N * w)), *b = malloc(sizeof(double) * (size_t)(N * w));
    double *c = malloc(sizeof(double) * (size_t)(N * w)), *ak = malloc(sizeof(double) * (size_t)(N * w));
    if (!a || !b || !c || !ak)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (long j = 0; j < w; j++)
        for (long i = 0; i < N; i++) {
            a[j * N + i] = a_of(i, j0 + j);
            b[j * N + i] = (i == j0 + j) + 1.0;
        }
    double v[16];
    int nb = quick ? 1 : 5;
    if (rank == 0)
        printf("# matmul-%dr ms lower\n", nranks);
    for (int r = 0; r < nb; r++)
        v[r] = matmul_once(N, w, a, b, c, ak);
    long bad = 0;
    for (long j = 0; j < w; j++)
        for (long i = 0; i < N; i++) {
            /* sum_k A(i,k) = N*i + 2 * N(N-1)/2 */
            double want = a_of(i, j0 + j) + (double)N * (double)i + (double)N * (double)(N - 1);
            double d = c[j * N + i] - want;
            bad += (d < 0 ? -d : d) > 1e-6 * (want < 0 ? -want : want);
        }
    long badall = 0;
    MPI_Allreduce(&bad, &badall, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (badall != 0 && rank == 0)
        fprintf(stderr, "apps: matmul: %ld wrong elements\n", badall);
    if (rank == 0)
        bench_report(N, v, nb);
    free(a), free(b), free(c), free(ak);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    bench_opts_t o = bench_parse(argc, argv, 1L << 20);
    const char *what = "";
    long N = 1024;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-c"))
            what = argv[i + 1];
        else if (!strcmp(argv[i], "-N"))
            N = atol(argv[i + 1]);
    }
    if (!strcmp(what, "round"))
        bench_round(o.quick);
    else if (!strcmp(what, "matmul"))
        bench_matmul(N, o.quick);
    else if (rank == 0)
        fprintf(stderr, "usage: apps -c round|matmul [-N N] [-q]\n");
    MPI_Finalize();
    return 0;
}
