/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * ct_nbcalls.h - the collectives the node-channel tests (nbnode, nbpart)
 * start and check: kind 0 allreduce, 1 allgather, 2 alltoall, 3
 * reduce_scatter_block, 4 barrier, nonblocking (rq) or blocking (rq NULL),
 * on any communicator of at most 64 ranks; every value depends on the
 * round, the rank in the call's communicator and the element.
 */
#ifndef CT_NBCALLS_H
#define CT_NBCALLS_H

#include "ctest.h"

enum { NBC_N = 29 };

static int val(int round, int rank, int k) { return round * 7919 + rank * 101 + k; }

enum { NBC_KINDS = 5, NBC_RSB = 3 };   /* reduce_scatter_block: NBC_RSB ints a rank */

typedef struct {
    int in[NBC_N], out[NBC_N], *ag, a2a_s[64], a2a_r[64], rsb_in[NBC_RSB * 64],
        rsb_out[NBC_RSB];
    int kind, round, me, p;
} call_t;

static void start(call_t *c, int kind, int round, MPI_Comm comm, MPI_Request *rq)
{
    MPI_Comm_rank(comm, &c->me);
    MPI_Comm_size(comm, &c->p);
    c->kind = kind;
    c->round = round;
    c->ag = NULL;
    int me = c->me, p = c->p;
    for (int k = 0; k < NBC_N; k++)
        c->in[k] = val(round, me, k);
    switch (kind) {
    case 0:
        CHECK_RC(rq ? MPI_Iallreduce(c->in, c->out, NBC_N, MPI_INT, MPI_SUM, comm, rq)
                    : MPI_Allreduce(c->in, c->out, NBC_N, MPI_INT, MPI_SUM, comm));
        break;
    case 1:
        c->ag = ct_malloc(sizeof(int) * (size_t)(NBC_N * p));
        CHECK_RC(rq ? MPI_Iallgather(c->in, NBC_N, MPI_INT, c->ag, NBC_N, MPI_INT, comm, rq)
                    : MPI_Allgather(c->in, NBC_N, MPI_INT, c->ag, NBC_N, MPI_INT, comm));
        break;
    case 2:
        for (int j = 0; j < p; j++)
            c->a2a_s[j] = val(round, me, j);
        CHECK_RC(rq ? MPI_Ialltoall(c->a2a_s, 1, MPI_INT, c->a2a_r, 1, MPI_INT, comm, rq)
                    : MPI_Alltoall(c->a2a_s, 1, MPI_INT, c->a2a_r, 1, MPI_INT, comm));
        break;
    case 3:
        for (int k = 0; k < NBC_RSB * p; k++)
            c->rsb_in[k] = val(round, me, k);
        CHECK_RC(rq ? MPI_Ireduce_scatter_block(c->rsb_in, c->rsb_out, NBC_RSB, MPI_INT, MPI_SUM,
                                                comm, rq)
                    : MPI_Reduce_scatter_block(c->rsb_in, c->rsb_out, NBC_RSB, MPI_INT, MPI_SUM,
                                               comm));
        break;
    default:
        CHECK_RC(rq ? MPI_Ibarrier(comm, rq) : MPI_Barrier(comm));
    }
}

/* Check a finished call (every value is a function of the rank in the
 * call's communicator) and free what start() allocated. */
static void check(call_t *c, const char *what)
{
    int round = c->round, me = c->me, p = c->p;
    switch (c->kind) {
    case 0:
        for (int k = 0; k < NBC_N; k++) {
            int want = 0;
            for (int r = 0; r < p; r++)
                want += val(round, r, k);
            CHECK(c->out[k] == want, "%s round %d: allreduce [%d] = %d, want %d", what, round, k,
                  c->out[k], want);
        }
        break;
    case 1:
        for (int r = 0; r < p; r++)
            for (int k = 0; k < NBC_N; k++)
                CHECK(c->ag[r * NBC_N + k] == val(round, r, k), "%s round %d: allgather [%d][%d] = %d",
                      what, round, r, k, c->ag[r * NBC_N + k]);
        free(c->ag);
        break;
    case 2:
        for (int j = 0; j < p; j++)
            CHECK(c->a2a_r[j] == val(round, j, me), "%s round %d: alltoall [%d] = %d", what,
                  round, j, c->a2a_r[j]);
        break;
    case 3:
        for (int k = 0; k < NBC_RSB; k++) {
            int want = 0;
            for (int r = 0; r < p; r++)
                want += val(round, r, me * NBC_RSB + k);
            CHECK(c->rsb_out[k] == want, "%s round %d: reduce_scatter_block [%d] = %d, want %d",
                  what, round, k, c->rsb_out[k], want);
        }
        break;
    default:
        break;
    }
}

#endif
