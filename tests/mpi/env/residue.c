/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* After MPI_Finalize the process holds no shared memory of the library: no
 * memfd open or mapped, nothing of ours in /dev/shm. (The memfds then vanish
 * with the launcher's copies.) */
#include <mpi.h>
#include <dirent.h>
#include "env_util.h"

static int count_memfd_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;
    char path[300], target[512];

    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL) {
        snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(path, target, sizeof(target) - 1);
        if (len <= 0)
            continue;
        target[len] = '\0';
        if (strstr(target, "memfd:") != NULL || strstr(target, "/dev/shm/") != NULL) {
            fprintf(stderr, "still open: fd %s -> %s\n", e->d_name, target);
            n++;
        }
    }
    closedir(d);
    return n;
}

static int count_memfd_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int n = 0;

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL)
        if (strstr(line, "memfd:") != NULL || strstr(line, "/dev/shm/") != NULL) {
            fprintf(stderr, "still mapped: %s", line);
            n++;
        }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    int rank, size, x;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* use the shared memory: a ring */
    x = rank;
    MPI_Sendrecv_replace(&x, 1, MPI_INT, (rank + 1) % size, 0,
                         (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(x == (rank + size - 1) % size, "ring value %d", x);
    /* not vacuous: under our launcher the job segment is mapped now */
    if (getenv("XB_JOBSEG_FD") != NULL) {
        FILE *f = fopen("/proc/self/maps", "r");
        char line[1024];
        int n = 0;
        while (f != NULL && fgets(line, sizeof(line), f) != NULL)
            n += strstr(line, "memfd:") != NULL;
        if (f != NULL)
            fclose(f);
        CHECK(n > 0, "no memfd mapped during the job: the check below proves nothing");
    }
    MPI_Finalize();
    CHECK(count_memfd_fds() == 0, "memfd descriptors left open after MPI_Finalize");
    CHECK(count_memfd_maps() == 0, "memfd mappings left after MPI_Finalize");
    if (errs != 0)
        fprintf(stderr, "rank %d: %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs != 0;
}
