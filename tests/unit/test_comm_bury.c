/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_comm_bury.c - a communicator whose last reference goes under one
 * lane's lock (docs/design/threads.md "Progress contexts") is destroyed
 * only by xb_comm_bury, under all the locks: its context id stays taken
 * until then. As a singleton: a duplicate of MPI_COMM_WORLD, freed by the
 * user while a reference (a request's) remains, released in a simulated
 * lane call (lanes set up, lane 1's lock held). Before 2026-11-29 the
 * release destroyed it at once, under the lane's lock only.
 */
#include <stdio.h>
#include "core/core.h"
#include "util/xb_lanes.h"
#include "mpi.h"

#include "unit_check.h"

static bool ctx_taken(uint32_t ctx)
{
    uint32_t s = ctx / 2;
    return (xb_ctx_mask()[s / 64] & (UINT64_C(1) << (s % 64))) == 0;
}

int main(int argc, char **argv)
{
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "FAIL: MPI_Init as a singleton\n");
        return 1;
    }
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    xb_comm_t *c = xb_comm_from_handle(d);
    CHECK(c != NULL, "no communicator");
    if (c == NULL)
        return 1;
    uint32_t ctx = c->ctx;
    xb_comm_retain(c);                  /* a pending request's reference */
    MPI_Comm_free(&d);
    CHECK(ctx_taken(ctx), "context id %u free while a reference remains", ctx);

    xb_mt_lanes_setup(2);
    int cs = xb_cs_enter_lanes(1);      /* a lane call */
    CHECK(xb_mt_lanes_held() == 2, "held %d, want lane 1's lock", xb_mt_lanes_held());
    xb_comm_release(c);                 /* the last reference */
    CHECK(ctx_taken(ctx), "destroyed under lane 1's lock alone (context id %u back)", ctx);
    xb_cs_unlock(cs);
    xb_comm_bury();                     /* nothing is locked: as under all */
    CHECK(!ctx_taken(ctx), "xb_comm_bury did not destroy it (context id %u taken)", ctx);
    xb_mt_lanes_setup(0);

    MPI_Finalize();
    return failures != 0;
}
