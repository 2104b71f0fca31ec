/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * spawn.c - the cost of a dynamic process round: MPI_Comm_spawn of one
 * process (this program again), a zero-byte message each way between the
 * child and the parents' root, MPI_Comm_disconnect on both sides; the
 * child then finalizes and exits (the parents do not wait for that).
 * With -t T, T threads of each parent do it at once, each on its own
 * duplicate of MPI_COMM_WORLD (MPI_THREAD_MULTIPLE), as a task manager
 * does; a round is then T spawns. Milliseconds per round, the slowest
 * parent's view, median over rounds (bench.h). Builds with any mpicc.
 *   mpiexec -n 1 ./spawn [-t T] [-q]
 */
#include <pthread.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include "bench.h"

enum { MAX_THREADS = 16 };

static char self[PATH_MAX];
static MPI_Comm dups[MAX_THREADS];
static int world_rank;

static void check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "spawn: %s failed (%d)\n", what, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* One spawn + hello + disconnect over dups[id]. */
static void *task(void *arg)
{
    int id = (int)(size_t)arg;
    MPI_Comm child;
    check(MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, dups[id], &child,
                         MPI_ERRCODES_IGNORE), "MPI_Comm_spawn");
    if (world_rank == 0) {
        check(MPI_Recv(NULL, 0, MPI_BYTE, 0, 1, child, MPI_STATUS_IGNORE), "MPI_Recv");
        check(MPI_Send(NULL, 0, MPI_BYTE, 0, 1, child), "MPI_Send");
    }
    check(MPI_Comm_disconnect(&child), "MPI_Comm_disconnect");
    return NULL;
}

static void child_main(MPI_Comm parent)
{
    check(MPI_Send(NULL, 0, MPI_BYTE, 0, 1, parent), "MPI_Send");
    check(MPI_Recv(NULL, 0, MPI_BYTE, 0, 1, parent, MPI_STATUS_IGNORE), "MPI_Recv");
    check(MPI_Comm_disconnect(&parent), "MPI_Comm_disconnect");
}

/* One round: every thread's spawn; ms, the slowest parent. */
static double round_ms(int nthreads)
{
    pthread_t th[MAX_THREADS];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (nthreads == 1) {
        task(NULL);
    } else {
        for (int i = 0; i < nthreads; i++)
            pthread_create(&th[i], NULL, task, (void *)(size_t)i);
        for (int i = 0; i < nthreads; i++)
            pthread_join(th[i], NULL);
    }
    double t = (MPI_Wtime() - t0) * 1e3, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

int main(int argc, char **argv)
{
    int nthreads = 1, provided, size;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-t"))
            nthreads = atoi(argv[i + 1]);
    if (nthreads < 1 || nthreads > MAX_THREADS)
        nthreads = 1;
    MPI_Init_thread(&argc, &argv, nthreads > 1 ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE,
                    &provided);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        child_main(parent);
        MPI_Finalize();
        return 0;
    }
    if (nthreads > 1 && provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "spawn: -t %d needs MPI_THREAD_MULTIPLE\n", nthreads);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0) {
        fprintf(stderr, "spawn: cannot read /proc/self/exe\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    self[n] = '\0';
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bench_opts_t o = bench_parse(argc, argv, 0);
    for (int i = 0; i < nthreads; i++)
        MPI_Comm_dup(MPI_COMM_WORLD, &dups[i]);
    round_ms(nthreads);                          /* warm-up: page cache, ports */
    int nr = o.quick ? 5 : 21;
    double v[64];
    for (int r = 0; r < nr; r++)
        v[r] = round_ms(nthreads);
    if (world_rank == 0) {
        printf("# spawn%s ms lower\n", nthreads > 1 ? "_mt" : "");
        bench_report(size, v, nr);
    }
    for (int i = 0; i < nthreads; i++)
        MPI_Comm_free(&dups[i]);
    MPI_Finalize();
    return 0;
}
