/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * nullbuf.c - every collective with count 0 and NULL buffers (mpi4py's
 * test_msgzero does this), blocking and nonblocking: each must succeed on
 * every rank and leave the
 * ranks in step, so a bcast with data after them still matches. A rank that
 * failed early (MPI_ERR_NO_MEM for a NULL receive buffer of 0 bytes, once)
 * left its peer's message unmatched and the job hung later on.
 */
#include "ctest.h"

#define RUN(call)                                                            \
    do {                                                                     \
        int rc_ = (call);                                                    \
        if (rc_ != MPI_SUCCESS) {                                            \
            char s_[MPI_MAX_ERROR_STRING];                                   \
            int l_;                                                          \
            MPI_Error_string(rc_, s_, &l_);                                  \
            CHECK(0, "%s: %s", #call, s_);                                   \
        }                                                                    \
    } while (0)

/* The nonblocking form: start (q_ names the request), then wait. */
#define RUNI(call)                                                           \
    do {                                                                     \
        MPI_Request q_ = MPI_REQUEST_NULL;                                   \
        RUN(call);                                                           \
        RUN(MPI_Wait(&q_, MPI_STATUS_IGNORE));                               \
    } while (0)

static void nonblocking(MPI_Comm c, const int *zeros)
{
    for (int root = 0; root < ct_size; root++) {
        RUNI(MPI_Ireduce(NULL, NULL, 0, MPI_INT, MPI_SUM, root, c, &q_));
        RUNI(MPI_Ibcast(NULL, 0, MPI_INT, root, c, &q_));
        RUNI(MPI_Igather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, root, c, &q_));
        RUNI(MPI_Iscatter(NULL, 0, MPI_INT, NULL, 0, MPI_INT, root, c, &q_));
    }
    RUNI(MPI_Iallreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, c, &q_));
    RUNI(MPI_Iallreduce(NULL, NULL, 0, MPI_DOUBLE, MPI_MAX, c, &q_));
    RUNI(MPI_Ireduce_scatter_block(NULL, NULL, 0, MPI_INT, MPI_SUM, c, &q_));
    RUNI(MPI_Ireduce_scatter(NULL, NULL, zeros, MPI_INT, MPI_SUM, c, &q_));
    RUNI(MPI_Iscan(NULL, NULL, 0, MPI_INT, MPI_SUM, c, &q_));
    RUNI(MPI_Iexscan(NULL, NULL, 0, MPI_INT, MPI_SUM, c, &q_));
    RUNI(MPI_Iallgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, c, &q_));
    RUNI(MPI_Ialltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, c, &q_));
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm c = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int zeros[64] = { 0 };
    for (int round = 0; round < 3; round++) {
        for (int root = 0; root < ct_size; root++) {
            RUN(MPI_Reduce(NULL, NULL, 0, MPI_INT, MPI_SUM, root, c));
            RUN(MPI_Bcast(NULL, 0, MPI_INT, root, c));
            RUN(MPI_Gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, root, c));
            RUN(MPI_Scatter(NULL, 0, MPI_INT, NULL, 0, MPI_INT, root, c));
        }
        RUN(MPI_Allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, c));
        RUN(MPI_Allreduce(NULL, NULL, 0, MPI_DOUBLE, MPI_MAX, c));
        RUN(MPI_Reduce_scatter_block(NULL, NULL, 0, MPI_INT, MPI_SUM, c));
        RUN(MPI_Reduce_scatter(NULL, NULL, zeros, MPI_INT, MPI_SUM, c));
        RUN(MPI_Scan(NULL, NULL, 0, MPI_INT, MPI_SUM, c));
        RUN(MPI_Exscan(NULL, NULL, 0, MPI_INT, MPI_SUM, c));
        RUN(MPI_Allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, c));
        RUN(MPI_Alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, c));
        nonblocking(c, zeros);
        /* still in step: data from every root arrives whole */
        for (int root = 0; root < ct_size; root++) {
            int v = ct_rank == root ? 1000 + root + round : -1;
            RUN(MPI_Bcast(&v, 1, MPI_INT, root, c));
            CHECK(v == 1000 + root + round, "round %d: bcast from %d gave %d", round, root, v);
        }
    }
    return ct_finish();
}
