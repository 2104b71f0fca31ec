/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * many_comms.c - context-id capacity and reuse: 16,000 duplicates of
 * MPI_COMM_WORLD alive at once (every 1000th used for a message and a
 * collective), all freed, then as many created again (ids were returned);
 * then communicators created concurrently on overlapping groups with
 * MPI_Comm_create_group (each rank belongs to two groups, called in
 * different orders, told apart by tag) and checked by an allreduce.
 */
#include "ctest.h"

enum { NCOMM = 16000 };

static void use(MPI_Comm c, const char *what, int i)
{
    int size, rank, sum = 0;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum == size * (size - 1) / 2, "%s %d: allreduce %d", what, i, sum);
    int got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, i % 100, &got, 1, MPI_INT,
                 (rank + size - 1) % size, i % 100, c, MPI_STATUS_IGNORE);
    CHECK(got == (rank + size - 1) % size, "%s %d: ring %d", what, i, got);
}

static void live_many(MPI_Comm *cs, const char *what)
{
    int made = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < NCOMM; i++) {
        if (MPI_Comm_dup(MPI_COMM_WORLD, &cs[i]) != MPI_SUCCESS)
            break;
        made++;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK(made == NCOMM, "%s: only %d communicators could be made", what, made);
    for (int i = 0; i < made; i += 1000)
        use(cs[i], what, i);
    if (made > 0)
        use(cs[made - 1], what, made - 1);
    for (int i = 0; i < made; i++)
        MPI_Comm_free(&cs[i]);
}

/* Group {a, a+1, ..., a+k-1} mod p of the world, as a new communicator. */
static MPI_Comm window(int a, int k, int tag)
{
    MPI_Group wg, g;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *r = ct_malloc((size_t)k * sizeof(int));
    for (int i = 0; i < k; i++)
        r[i] = (a + i) % ct_size;
    MPI_Group_incl(wg, k, r, &g);
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_RC(MPI_Comm_create_group(MPI_COMM_WORLD, g, tag, &c));
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(r);
    return c;
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm *cs = ct_malloc(NCOMM * sizeof(MPI_Comm));
    live_many(cs, "first round");
    live_many(cs, "second round");
    free(cs);

    /* overlapping windows: rank r is in window r (starting at r) and in
     * window r-1 (starting at r-1); even ranks make theirs first, odd ranks
     * the other first, so the two creations interleave across ranks */
    int p = ct_size, k = p >= 2 ? 2 : 1;
    for (int round = 0; round < 20 && p >= 2; round++) {
        MPI_Comm mine, prev;
        int tmine = 2 * ct_rank, tprev = 2 * ((ct_rank + p - 1) % p);
        if (ct_rank % 2 == 0) {
            mine = window(ct_rank, k, tmine);
            prev = window((ct_rank + p - 1) % p, k, tprev);
        } else {
            prev = window((ct_rank + p - 1) % p, k, tprev);
            mine = window(ct_rank, k, tmine);
        }
        /* use them in one global order (by first member), so no cycle of
         * waits can form: the window starting lower first */
        int smine = ct_rank, sprev = (ct_rank + p - 1) % p;
        use(smine < sprev ? mine : prev, "window low", round);
        use(smine < sprev ? prev : mine, "window high", round);
        MPI_Comm_free(&mine);
        MPI_Comm_free(&prev);
    }
    return ct_finish();
}
