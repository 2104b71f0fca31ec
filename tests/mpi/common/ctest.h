/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* ctest.h - tiny helpers shared by the MPI test programs (header only). */
#ifndef CTEST_H
#define CTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

static int ct_errors;
static int ct_rank, ct_size;

/* Count a failed condition in errs and print the first `most` of them
 * (CHECK: the process's count; a thread may keep its own). */
#define CHECK_INTO(errs, most, cond, ...)                                    \
    do {                                                                     \
        if (!(cond)) {                                                       \
            if (++(errs) <= (most)) {                                        \
                printf("rank %d: FAIL %s:%d: ", ct_rank, __FILE__, __LINE__); \
                printf(__VA_ARGS__);                                         \
                printf("\n");                                                \
                fflush(stdout);                                              \
            }                                                                \
        }                                                                    \
    } while (0)
#define CHECK(cond, ...) CHECK_INTO(ct_errors, 20, cond, __VA_ARGS__)

#define CHECK_RC(call)                                                       \
    do {                                                                     \
        int rc_ = (call);                                                    \
        CHECK(rc_ == MPI_SUCCESS, "%s returned %d", #call, rc_);             \
    } while (0)

/* The error class of a return code (-1 when MPI_Error_class refuses it). */
static inline int ct_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static inline void ct_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
}

/* Sum the error counts (by point-to-point, so a broken collective cannot
 * hide errors); rank 0 prints "No Errors" when there are none. */
static inline int ct_finish(void)
{
    int total = ct_errors;
    if (ct_rank == 0) {
        for (int r = 1; r < ct_size; r++) {
            int e = 0;
            MPI_Recv(&e, 1, MPI_INT, r, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            total += e;
        }
    } else {
        MPI_Send(&ct_errors, 1, MPI_INT, 0, 999, MPI_COMM_WORLD);
    }
    if (ct_rank == 0) {
        if (total == 0)
            printf("No Errors\n");
        else
            printf("Found %d errors\n", total);
    }
    MPI_Finalize();
    return total != 0;
}

static inline void *ct_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        printf("rank %d: out of memory (%zu bytes)\n", ct_rank, n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

#endif
