/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * slot_mismatch.c - the node-slot collectives of 3 or more ranks
 * (MPI_Allreduce, MPI_Allgather, MPI_Allgatherv, MPI_Alltoall,
 * MPI_Reduce_scatter_block, MPI_Reduce_scatter) where rank 1's count
 * differs from the others' (an erroneous program), under
 * MPI_ERRORS_RETURN: every rank fails with MPI_ERR_TRUNCATE (each sees
 * rank 1's signature in the head of its slot after the node barrier,
 * node_shm.c), nobody hangs, and a correct call follows with the right
 * result. The counts lie within a slot (both ranks in `shm`), across the
 * large allreduce's 32 KiB (rank 1 in `shm_rsag`'s rounds, the others in
 * `shm`, or the reverse) and beyond it (both in the rounds, which stop
 * after their first barrier on every rank). Before 2026-12-07 the slots
 * carried no byte count: every case but the rounds' read the wrong bytes
 * and reported success, and the rounds' took parities of their own
 * number of rounds, so that the next call read the wrong area. A count of
 * 0 against 10 is one too (an allreduce of 0, and alltoall's rounds,
 * returned before their barrier until the second session of 2026-12-07,
 * and the others waited there).
 *
 * Allgather's and allgatherv's blocks on both sides of a slot's size (the
 * slots against `linear`'s messages, which take the slots' signed barrier
 * first since the second session of 2026-12-07; they hung before) and
 * beyond it. Reduce_scatter(_block)'s vectors on both sides of a slot
 * (against `pairwise`'s messages, which take that barrier since the
 * evening of 2026-12-07; they hung before).
 *
 * Alltoall's blocks on both sides of 16 KiB (the slots against `linear`'s
 * messages, or `pairwise`'s in place), and beyond it: the message ranks
 * pass the slots' barrier with their signature (xb_coll_node_pass), and a
 * rank in the slots that sees it trades a failing message with each of
 * them. They hung until 2026-12-07 evening.
 *
 * Not covered here: the rooted calls and scans (flow cells, rings and
 * chains: coll/reduce_mismatch, coll/rooted_mismatch).
 */
#include "ctest.h"

enum { ALLREDUCE, ALLGATHER, ALLGATHERV, ALLTOALL, RSB, RS, ALLTOALL_IP, NCOLL };
static const char *names[] = { "MPI_Allreduce", "MPI_Allgather", "MPI_Allgatherv",
                               "MPI_Alltoall", "MPI_Reduce_scatter_block",
                               "MPI_Reduce_scatter", "MPI_Alltoall in place" };

/* Every rank's counts and displacements say n for each rank. */
static int call(int coll, const int *s, int *r, int n, int *counts, int *displs)
{
    for (int i = 0; i < ct_size; i++)
        counts[i] = n, displs[i] = i * n;
    switch (coll) {
    case ALLREDUCE: return MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    case ALLGATHER: return MPI_Allgather(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD);
    case ALLGATHERV:
        return MPI_Allgatherv(s, n, MPI_INT, r, counts, displs, MPI_INT, MPI_COMM_WORLD);
    case ALLTOALL:  return MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD);
    case ALLTOALL_IP:
        memcpy(r, s, (size_t)n * (size_t)ct_size * sizeof(int));
        return MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, n, MPI_INT, MPI_COMM_WORLD);
    case RSB:       return MPI_Reduce_scatter_block(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    default:        return MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
}

/* Element 0 of a correct call of 2 ints per block, s[k] = 10 * rank + k. */
static int want0(int coll)
{
    int p = ct_size, me = ct_rank, sum = 10 * p * (p - 1) / 2;
    switch (coll) {
    case ALLREDUCE: return sum;
    case ALLGATHER: case ALLGATHERV: return 0;
    case ALLTOALL: case ALLTOALL_IP: return 2 * me;    /* rank 0's block for me */
    default:        return sum + 2 * me * p;           /* element 2 me of the sum */
    }
}

static void one(int coll, int n, int odd)
{
    int p = ct_size, me = ct_rank, mine = me == 1 ? odd : n, max = n > odd ? n : odd;
    size_t len = (size_t)max * (size_t)p;
    int *s = ct_malloc(len * sizeof(int)), *r = ct_malloc(len * sizeof(int));
    int *counts = ct_malloc((size_t)p * sizeof(int)), *displs = ct_malloc((size_t)p * sizeof(int));
    for (size_t k = 0; k < len; k++)
        s[k] = me + 1, r[k] = -1;
    int rc = call(coll, s, r, mine, counts, displs);
    CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "%s, %d ints on rank 1 and %d on the others: rank "
          "%d got class %d, want MPI_ERR_TRUNCATE", names[coll], odd, n, me, ct_class(rc));
    for (int k = 0; k < 2 * p; k++)
        s[k] = 10 * me + k;
    CHECK_RC(call(coll, s, r, 2, counts, displs));
    CHECK(r[0] == want0(coll), "%s after the mismatch (%d against %d ints): rank %d got %d, "
          "want %d", names[coll], odd, n, me, r[0], want0(coll));
    free(s), free(r), free(counts), free(displs);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (ct_size < 3) {
        CHECK(0, "runs at 3 ranks or more, not %d", ct_size);
        return ct_finish();
    }
    /* ints: within a slot; allreduce also across 32 KiB and beyond it
     * (rsag's rounds); alltoall's blocks stay below 16 KiB */
    static const int small[][2] = { { 10, 12 }, { 12, 10 }, { 10, 300 }, { 300, 2000 },
                                    { 2000, 3000 }, { 0, 10 }, { 10, 0 } };
    static const int large[][2] = { { 1000, 20000 }, { 20000, 1000 }, { 50000, 60000 },
                                    { 300000, 200000 } };
    /* allgather(v) blocks on both sides of a slot (960 KiB) and beyond it */
    static const int beyond[][2] = { { 200000, 300000 }, { 300000, 200000 },
                                     { 300000, 310000 } };
    /* alltoall blocks on both sides of 16 KiB and beyond it */
    static const int a2a[][2] = { { 3000, 5000 }, { 5000, 3000 }, { 5000, 6000 },
                                  { 0, 5000 }, { 5000, 0 } };
    for (int coll = 0; coll < NCOLL; coll++) {
        for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
            one(coll, small[i][0], small[i][1]);
        for (size_t i = 0; coll == ALLREDUCE && i < sizeof large / sizeof large[0]; i++)
            one(coll, large[i][0], large[i][1]);
        for (size_t i = 0; (coll == ALLGATHER || coll == ALLGATHERV) &&
                           i < sizeof beyond / sizeof beyond[0]; i++)
            one(coll, beyond[i][0], beyond[i][1]);
        for (size_t i = 0; (coll == ALLTOALL || coll == ALLTOALL_IP) &&
                           i < sizeof a2a / sizeof a2a[0]; i++)
            one(coll, a2a[i][0], a2a[i][1]);
        if (coll == RSB || coll == RS) {
            /* whole vectors of about 0.9 and 1.1 MB: on both sides of a slot */
            int lo = 900000 / (4 * ct_size), hi = 1100000 / (4 * ct_size);
            one(coll, lo, hi);
            one(coll, hi, lo);
        }
    }
    return ct_finish();
}
