/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_comm_mem.c - the memory of a communicator does not grow with the
 * number of ranks (issue 4: "compact rank maps"): as a singleton, a dup of
 * MPI_COMM_WORLD (and a dup of that dup, idup, dup_with_info) shares the
 * world's group object, whose member map is the identity (no per-rank
 * array); a split or create that keeps every rank in order collapses to an
 * identity map too; an intercommunicator-free world has no remote group.
 * A job of N ranks takes the same paths (the group is made with a NULL
 * list for the whole world), so these are O(1) in N.
 */
#include <stdio.h>
#include "core/core.h"
#include "mpi.h"

#include "unit_check.h"

static xb_comm_t *C(MPI_Comm h) { return xb_comm_from_handle(h); }

int main(int argc, char **argv)
{
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "FAIL: MPI_Init as a singleton\n");
        return 1;
    }
    xb_comm_t *w = xb_comm_world();
    CHECK(w->group->world == NULL, "the world's member map is the identity");
    MPI_Comm d1, d2, d3, d4, s, c;
    MPI_Request rq;
    MPI_Comm_dup(MPI_COMM_WORLD, &d1);
    MPI_Comm_dup(d1, &d2);
    MPI_Comm_dup_with_info(d2, MPI_INFO_NULL, &d3);
    MPI_Comm_idup(MPI_COMM_WORLD, &d4, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Comm ds[4] = { d1, d2, d3, d4 };
    for (int i = 0; i < 4; i++) {
        CHECK(C(ds[i]) != NULL && C(ds[i])->group == w->group,
              "dup %d shares the world's group object", i);
        CHECK(C(ds[i]) != NULL && C(ds[i])->remote == NULL, "dup %d: no remote", i);
    }
    MPI_Comm_split(d1, 0, 0, &s);
    CHECK(C(s) != NULL && C(s)->group->world == NULL,
          "a split keeping every rank in order has an identity map");
    MPI_Group g;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    MPI_Comm_create(MPI_COMM_WORLD, g, &c);
    CHECK(C(c) != NULL && C(c)->group == xb_group_from_handle(g),
          "create shares the group it is given");
    CHECK(C(c) != NULL && C(c)->group->world == NULL, "create: identity map");
    MPI_Group_free(&g);
    MPI_Comm all[6] = { d1, d2, d3, d4, s, c };
    for (int i = 0; i < 6; i++)
        MPI_Comm_free(&all[i]);
    MPI_Finalize();
    return failures != 0;
}
