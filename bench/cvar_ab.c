/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * cvar_ab.c - A/B of one switch within one run, for a machine whose load
 * moves the medians of separate runs by more than the effect: batches of
 * K calls alternate between the control variable VAR = 0 and VAR = 1
 * (written with MPI_T_cvar_write, so VAR must be writable at run time: a
 * live tunable in Crossbar), the order flipped every pair, and the figure
 * is the median over PAIRS of (time with 1) / (time with 0), with its
 * quartiles; >1: the setting 0 is faster. Times are the slowest rank's.
 * Plain MPI (MPI_T is MPI 3.0); an MPI without VAR says so and stops.
 *   mpiexec -n 2 ./cvar_ab -v XB_SHM_HELP_EXCHANGE -c alltoall [-s SIZE]
 *           [-b PAIRS] [-k CALLS]
 * NAME: sendrecv (to the next rank, from the previous), irecv_send (Irecv
 * from the previous, Send to the next, Wait: MPICH's perf/sendrecvl),
 * alltoall, allgather (SIZE: the block), allreduce (SIZE: the vector,
 * MPI_SUM on doubles). Defaults: SIZE 1 MiB, PAIRS 41, CALLS 4.
 * Output: "# cvar_ab VAR NAME-<p>r" and
 *   <size> <median t0 us> <median t1 us> <ratio median> <q1> <q3> <pairs>
 */
#include "bench.h"

enum { MAXPAIRS = 1001 };

static const char *what = "alltoall";
static char *sbuf, *rbuf;
static int me, np;

static void one(long n)
{
    int c = (int)n, next = (me + 1) % np, prev = (me + np - 1) % np;
    MPI_Comm w = MPI_COMM_WORLD;
    if (!strcmp(what, "sendrecv")) {
        MPI_Sendrecv(sbuf, c, MPI_BYTE, next, 1, rbuf, c, MPI_BYTE, prev, 1, w,
                     MPI_STATUS_IGNORE);
    } else if (!strcmp(what, "irecv_send")) {
        MPI_Request q;
        MPI_Irecv(rbuf, c, MPI_BYTE, prev, 2, w, &q);
        MPI_Send(sbuf, c, MPI_BYTE, next, 2, w);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else if (!strcmp(what, "alltoall")) {
        MPI_Alltoall(sbuf, c, MPI_BYTE, rbuf, c, MPI_BYTE, w);
    } else if (!strcmp(what, "allgather")) {
        MPI_Allgather(sbuf, c, MPI_BYTE, rbuf, c, MPI_BYTE, w);
    } else {
        MPI_Allreduce(sbuf, rbuf, c / 8, MPI_DOUBLE, MPI_SUM, w);
    }
}

static double batch(MPI_T_cvar_handle h, int val, long n, int k)
{
    MPI_T_cvar_write(h, &val);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++)
        one(n);
    double t = (MPI_Wtime() - t0) / k * 1e6, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

static double quant(double *v, int n, int q) { return v[(n - 1) * q / 4]; }

int main(int argc, char **argv)
{
    const char *var = NULL;
    long n = 1L << 20;
    int pairs = 41, k = 4, prov, idx, cnt;
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &prov);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-v"))
            var = argv[++i];
        else if (!strcmp(argv[i], "-c"))
            what = argv[++i];
        else if (!strcmp(argv[i], "-s"))
            n = atol(argv[++i]);
        else if (!strcmp(argv[i], "-b"))
            pairs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-k"))
            k = atoi(argv[++i]);
    }
    MPI_T_cvar_handle h;
    if (var == NULL || MPI_T_cvar_get_index(var, &idx) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(idx, NULL, &h, &cnt) != MPI_SUCCESS || pairs < 1 ||
        pairs > MAXPAIRS || k < 1 || n < 8) {
        if (me == 0)
            fprintf(stderr, "usage: cvar_ab -v VAR -c NAME [-s SIZE] [-b PAIRS] [-k CALLS] "
                            "(VAR: a control variable of this MPI; see cvar_ab.c)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long per = !strcmp(what, "alltoall") || !strcmp(what, "allgather") ? np : 1;
    sbuf = bench_alloc(n * per);
    rbuf = bench_alloc(n * per);
    static double t[2][MAXPAIRS], ratio[MAXPAIRS];
    batch(h, 0, n, k);                          /* warm up both */
    batch(h, 1, n, k);
    for (int i = 0; i < pairs; i++)
        for (int j = 0; j < 2; j++) {
            int val = (i & 1) ? 1 - j : j;
            t[val][i] = batch(h, val, n, k);
        }
    for (int i = 0; i < pairs; i++)
        ratio[i] = t[1][i] / t[0][i];
    qsort(t[0], pairs, sizeof(double), bench_cmp);
    qsort(t[1], pairs, sizeof(double), bench_cmp);
    qsort(ratio, pairs, sizeof(double), bench_cmp);
    if (me == 0) {
        printf("# cvar_ab %s %s-%dr\n", var, what, np);
        printf("%ld %.1f %.1f %.3f %.3f %.3f %d\n", n, quant(t[0], pairs, 2),
               quant(t[1], pairs, 2), quant(ratio, pairs, 2), quant(ratio, pairs, 1),
               quant(ratio, pairs, 3), pairs);
    }
    MPI_T_cvar_handle_free(&h);
    free(sbuf);
    free(rbuf);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
