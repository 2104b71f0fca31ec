/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bench.h - shared by the benchmark programs (plain MPI; they build with any
 * mpicc: `mpicc -O2 -o latency latency.c`).
 *
 * Robust on a noisy shared machine: every figure is the MEDIAN over many
 * timed batches, so a batch that was preempted does not move it.
 * Output, one line per size, for bench/table.py:
 *   # <bench> <unit> <lower|higher is better>
 *   <size> <median> <min> <max> <batches>
 * Options: -q (quick: few batches, for smoke tests), -m MAXSIZE, -s MINSIZE
 * (the programs that go through sizes skip those below it).
 */
#ifndef XB_BENCH_H
#define XB_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

typedef struct {
    int quick;
    long maxsize;
    long minsize;
} bench_opts_t;

static inline bench_opts_t bench_parse(int argc, char **argv, long defmax)
{
    bench_opts_t o = { 0, defmax, 0 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-q"))
            o.quick = 1;
        else if (!strcmp(argv[i], "-m") && i + 1 < argc)
            o.maxsize = atol(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            o.minsize = atol(argv[++i]);
    }
    return o;
}

/* The sizes every point-to-point benchmark reports (0 B .. 4 MiB). */
static const long bench_sizes[] = { 0, 1, 8, 64, 512, 4096, 32768, 262144,
                                    1L << 20, 4L << 20 };
#define BENCH_NSIZES ((int)(sizeof bench_sizes / sizeof bench_sizes[0]))

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sort v[0..n) and print "size median min max n" (values already scaled). */
static inline void bench_report(long size, double *v, int n)
{
    qsort(v, n, sizeof v[0], bench_cmp);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    printf("%ld %.4f %.4f %.4f %d\n", size, med, v[0], v[n - 1], n);
    fflush(stdout);
}

/* Iterations per batch so that a batch takes roughly `target` seconds,
 * given a measured time per iteration; the same on every rank. */
static inline int bench_batch_len(double per_iter, double target, int lo, int hi, MPI_Comm comm)
{
    int k = per_iter > 0 ? (int)(target / per_iter) : hi;
    if (k < lo)
        k = lo;
    if (k > hi)
        k = hi;
    MPI_Bcast(&k, 1, MPI_INT, 0, comm);
    return k;
}

static inline void *bench_alloc(long size)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, size ? (size_t)size : 1)) {
        fprintf(stderr, "bench: out of memory for %ld bytes\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(p, 1, size ? (size_t)size : 1);
    return p;
}

/* Microseconds per iteration of a loop of k that began at t0, the slowest
 * rank's (every rank gets it). */
static inline double bench_slowest(double t0, int k)
{
    double t = (MPI_Wtime() - t0) / k * 1e6, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

/* One size: a warm-up, the fastest of three short batches to size the
 * batches (about 25 ms each, 5 ms with quick), then 9 batches (3) of
 * batch(size, k), which returns microseconds per iteration; rank 0 prints
 * the line. */
static inline void bench_measure(long size, double (*batch)(long size, int k), int quick)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    batch(size, 2);
    double probe = 1e30;
    for (int t = 0; t < 3; t++) {
        double x = batch(size, 2) * 1e-6;
        probe = x < probe ? x : probe;
    }
    int k = bench_batch_len(probe, quick ? 5e-3 : 25e-3, 1, 2000, MPI_COMM_WORLD);
    int nb = quick ? 3 : 9;
    double v[16];
    for (int b = 0; b < nb; b++)
        v[b] = batch(size, k);
    if (rank == 0)
        bench_report(size, v, nb);
}

#endif
