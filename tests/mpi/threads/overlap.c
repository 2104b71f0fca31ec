/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* The progress thread (XB_ASYNC_PROGRESS=1 in the testlist) at work: a
 * 4 MiB Isend/Irecv pair (rendezvous) and an Iallreduce are started, the
 * application computes without calling MPI, then waits; the data must be
 * right (the hidden fraction is measured by bench/threads.c, not here).
 * Runs at MPI_THREAD_SINGLE: the progress thread needs no MULTIPLE from the
 * application. Finalize must stop the thread cleanly.
 *
 * Placement: a rank that mpiexec bound to one CPU must have a progress
 * thread that runs elsewhere (on the CPUs of XB_NODE_CPUS, never on the
 * rank's own), or it moves nothing while the rank computes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "mpi.h"

#define LEN (1 << 20)        /* ints: 4 MiB */

static double spin(double seconds)
{
    double t0 = MPI_Wtime(), x = 1.0;
    while (MPI_Wtime() - t0 < seconds)
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
    return x;
}

/* "0-3,8" -> set; 0 on a malformed list. */
static int parse_list(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    while (*s != '\0' && *s != '\n') {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            return 0;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long c = a; c <= b && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, set);
        s = *end == ',' ? end + 1 : end;
    }
    return 1;
}

/* Every thread of this process but the main one; errors counted. */
static int check_placement(int rank)
{
    cpu_set_t mine, node, t;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0 || CPU_COUNT(&mine) != 1)
        return 0;                               /* not bound: nothing to check */
    const char *list = getenv("XB_NODE_CPUS");
    if (list == NULL || !parse_list(list, &node) || CPU_COUNT(&node) < 2)
        return 0;                               /* bound by someone else, or one CPU */
    int errs = 0, seen = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || atoi(e->d_name) == (int)getpid())
            continue;
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        while (f != NULL && fgets(line, sizeof line, f) != NULL) {
            if (strncmp(line, "Cpus_allowed_list:", 18) != 0)
                continue;
            seen++;
            const char *v = line + 18 + strspn(line + 18, " \t");
            cpu_set_t outside, own;
            if (!parse_list(v, &t))
                CPU_ZERO(&t);
            CPU_XOR(&outside, &t, &node);
            CPU_AND(&outside, &outside, &t);    /* its CPUs not in XB_NODE_CPUS */
            CPU_AND(&own, &t, &mine);           /* the rank's own CPU */
            if (CPU_COUNT(&t) == 0 || CPU_COUNT(&outside) != 0 || CPU_COUNT(&own) != 0) {
                printf("rank %d: thread %s may run on CPUs %.*s (the rank is bound to one of "
                       "XB_NODE_CPUS=%s; the thread must run on the others)\n",
                       rank, e->d_name, (int)strcspn(v, "\n"), v, list);
                errs++;
            }
        }
        if (f != NULL)
            fclose(f);
    }
    if (d != NULL)
        closedir(d);
    if (seen == 0) {
        printf("rank %d: no progress thread found in /proc/self/task\n", rank);
        errs++;
    }
    return errs;
}

int main(int argc, char **argv)
{
    int rank, size, errs = 0, provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided != MPI_THREAD_SINGLE) {
        printf("provided %d for SINGLE\n", provided);
        errs++;
    }
    errs += check_placement(rank);
    int *buf = malloc(LEN * sizeof(int));
    int peer = rank ^ 1;
    for (int it = 0; it < 5; it++) {
        MPI_Request r[2];
        int nr = 0, v = rank + it, sum = 0;
        if (peer < size) {
            if (rank % 2 == 0) {
                for (int i = 0; i < LEN; i++)
                    buf[i] = i ^ it;
                MPI_Isend(buf, LEN, MPI_INT, peer, it, MPI_COMM_WORLD, &r[nr++]);
            } else {
                memset(buf, 0, LEN * sizeof(int));
                MPI_Irecv(buf, LEN, MPI_INT, peer, it, MPI_COMM_WORLD, &r[nr++]);
            }
        }
        MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[nr++]);
        volatile double x = spin(0.005);
        (void)x;
        MPI_Waitall(nr, r, MPI_STATUSES_IGNORE);
        if (sum != size * it + size * (size - 1) / 2) {
            printf("rank %d iter %d: sum %d\n", rank, it, sum);
            errs++;
        }
        if (peer < size && rank % 2 == 1)
            for (int i = 0; i < LEN; i++)
                if (buf[i] != (i ^ it)) {
                    printf("rank %d iter %d: buf[%d] = %d\n", rank, it, i, buf[i]);
                    errs++;
                    break;
                }
    }
    free(buf);
    int total = 0;
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0)
        printf(total ? " Found %d errors\n" : " No Errors\n", total);
    return errs != 0;
}
