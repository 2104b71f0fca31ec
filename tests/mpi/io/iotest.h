/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * iotest.h - helpers of the MPI-IO tests: a per-run temporary directory
 * (made by rank 0 under $TMPDIR or /tmp, removed at the end, and checked
 * to be empty then, so a test that leaves a file behind fails), paths in
 * it, and plain POSIX reads of a file as the reference.
 */
#ifndef IOTEST_H
#define IOTEST_H

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ctest.h"

static char io_dir[256];

static inline void io_setup(void)
{
    if (ct_rank == 0) {
        const char *t = getenv("TMPDIR");
        snprintf(io_dir, sizeof(io_dir), "%.200s/xbio.XXXXXX", t && *t ? t : "/tmp");
        if (mkdtemp(io_dir) == NULL) {
            perror("mkdtemp");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Bcast(io_dir, sizeof(io_dir), MPI_CHAR, 0, MPI_COMM_WORLD);
}

/* path of file `name` in the test directory (static buffer per slot). */
static inline const char *io_path(const char *name)
{
    static char buf[4][600];
    static int slot;
    char *p = buf[slot++ % 4];
    size_t n = strlen(io_dir);
    memcpy(p, io_dir, n);
    p[n] = '/';
    snprintf(p + n + 1, 600 - n - 1, "%.300s", name);
    return p;
}

static inline int io_exists(const char *name)
{
    struct stat sb;
    return stat(io_path(name), &sb) == 0;
}

/* The whole file as plain POSIX sees it (malloc'd; *len_p its size). */
static inline char *io_slurp(const char *name, long *len_p)
{
    int fd = open(io_path(name), O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        *len_p = -1;
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *b = malloc((size_t)sb.st_size + 1);
    long got = 0;
    while (got < sb.st_size) {
        ssize_t k = pread(fd, b + got, (size_t)(sb.st_size - got), got);
        if (k <= 0)
            break;
        got += k;
    }
    close(fd);
    *len_p = got;
    return b;
}

/* Every rank: the directory must be empty; rank 0 removes it. */
static inline void io_teardown(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0) {
        DIR *d = opendir(io_dir);
        struct dirent *e;
        int left = 0;
        while (d != NULL && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            CHECK(0, "file '%s' left in the test directory", e->d_name);
            left++;
            unlink(io_path(e->d_name));
        }
        if (d != NULL)
            closedir(d);
        CHECK(rmdir(io_dir) == 0, "cannot remove %s", io_dir);
        (void)left;
    }
}

/* The error class of an MPI return code. */
static inline int io_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

#endif
