/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * barrier.c - MPI_Barrier really separates: in round k, rank k % p sends a
 * message to every other rank only AFTER leaving the barrier, and every
 * other rank checks with MPI_Iprobe, BEFORE entering it, that no such
 * message is there yet. Also a loop of plain barriers on world and a dup.
 */
#include "ctest.h"

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    for (int k = 0; k < 50; k++) {
        int sender = k % ct_size, flag = 0;
        if (ct_rank != sender) {
            MPI_Iprobe(sender, k, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            CHECK(!flag, "round %d: message from %d before the barrier", k, sender);
        }
        CHECK_RC(MPI_Barrier(MPI_COMM_WORLD));
        if (ct_rank == sender) {
            for (int r = 0; r < ct_size; r++)
                if (r != sender)
                    MPI_Send(&k, 1, MPI_INT, r, k, MPI_COMM_WORLD);
        } else {
            int v = -1;
            MPI_Recv(&v, 1, MPI_INT, sender, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(v == k, "round %d: got %d", k, v);
        }
    }
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int k = 0; k < 500; k++)
        CHECK_RC(MPI_Barrier(k % 2 ? dup : MPI_COMM_WORLD));
    CHECK_RC(MPI_Barrier(MPI_COMM_SELF));
    MPI_Comm_free(&dup);
    return ct_finish();
}
