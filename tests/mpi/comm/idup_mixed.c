/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * idup_mixed.c - MPI_Comm_idup when the members' communicator histories
 * differ, and many idups interleaved with blocking dups and frees in
 * different orders on different ranks (as far as the standard allows:
 * the nonblocking collectives of one communicator start in one order on
 * every member, and so do the blocking ones; the two kinds, and operations
 * on different communicators, interleave freely).
 *
 * 1. Lopsided: the lower half of the ranks holds NHELD communicators the
 *    upper half is not in (split with MPI_UNDEFINED), so their free context
 *    ids differ wildly; then idups of COMM_WORLD.
 * 2. Rounds: idups of COMM_WORLD and of a half communicator outstanding
 *    together; even ranks complete some before starting the next, odd
 *    ranks do not; blocking dups and frees of earlier results placed
 *    before or after the idups by parity; waits in different orders.
 * Every communicator made is checked: congruent with its parent, an
 * allreduce on it, and one message with the same tag on all of them at
 * once (each stays on its own communicator).
 */
#include "ctest.h"

enum { NHELD = 600, ROUNDS = 12, NB = 4 };

static void check_comms(MPI_Comm *cs, int n, MPI_Comm parent, const char *what)
{
    int r, p;
    MPI_Comm_rank(parent, &r);
    MPI_Comm_size(parent, &p);
    for (int i = 0; i < n; i++) {
        CHECK(cs[i] != MPI_COMM_NULL, "%s: comm %d is MPI_COMM_NULL", what, i);
        if (cs[i] == MPI_COMM_NULL)
            return;
        int cmp = -1, sum = 0, one = 1;
        MPI_Comm_compare(cs[i], parent, &cmp);
        CHECK(cmp == MPI_CONGRUENT, "%s: comm %d compare %d", what, i, cmp);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, cs[i]);
        CHECK(sum == p, "%s: comm %d allreduce %d, expected %d", what, i, sum, p);
    }
    int *in = ct_malloc(sizeof(int) * (size_t)n), *out = ct_malloc(sizeof(int) * (size_t)n);
    MPI_Request *rq = ct_malloc(sizeof(MPI_Request) * 2 * (size_t)n);
    for (int i = 0; i < n; i++) {
        out[i] = 1000 * i + r;
        in[i] = -1;
        MPI_Irecv(&in[i], 1, MPI_INT, (r + p - 1) % p, 5, cs[i], &rq[i]);
    }
    for (int i = n - 1; i >= 0; i--)
        MPI_Isend(&out[i], 1, MPI_INT, (r + 1) % p, 5, cs[i], &rq[n + i]);
    MPI_Waitall(2 * n, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < n; i++)
        CHECK(in[i] == 1000 * i + (r + p - 1) % p, "%s: comm %d got %d", what, i, in[i]);
    free(in);
    free(out);
    free(rq);
}

static void wait_idups(MPI_Request *rq, int n, const char *what)
{
    MPI_Status st[NB];
    int rc = MPI_Waitall(n, rq, st);
    CHECK(rc == MPI_SUCCESS, "%s: MPI_Waitall returned %d", what, rc);
    for (int i = 0; i < n && rc != MPI_SUCCESS; i++)
        CHECK(st[i].MPI_ERROR == MPI_SUCCESS, "%s: idup %d failed (error %d)", what,
              i, st[i].MPI_ERROR);
}

static void lopsided(void)
{
    int r = ct_rank, p = ct_size, low = r < (p + 1) / 2;
    MPI_Comm *held = ct_malloc(sizeof(MPI_Comm) * NHELD);
    for (int i = 0; i < NHELD; i++)
        CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, low ? 0 : MPI_UNDEFINED, r, &held[i]));
    MPI_Comm c[NB];
    MPI_Request rq[NB];
    for (int i = 0; i < NB; i++)
        CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &c[i], &rq[i]));
    wait_idups(rq, NB, "lopsided");
    check_comms(c, NB, MPI_COMM_WORLD, "lopsided");
    /* the other way round: now the upper half holds more */
    for (int i = 0; i < NHELD; i++)
        if (held[i] != MPI_COMM_NULL)
            MPI_Comm_free(&held[i]);
    for (int i = 0; i < NHELD; i++)
        CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, low ? MPI_UNDEFINED : 0, r, &held[i]));
    MPI_Comm e[NB];
    for (int i = 0; i < NB; i++)
        CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &e[i], &rq[i]));
    wait_idups(rq, NB, "lopsided, reversed");
    check_comms(e, NB, MPI_COMM_WORLD, "lopsided, reversed");
    for (int i = 0; i < NHELD; i++)
        if (held[i] != MPI_COMM_NULL)
            MPI_Comm_free(&held[i]);
    for (int i = 0; i < NB; i++) {
        MPI_Comm_free(&c[i]);
        MPI_Comm_free(&e[i]);
    }
    free(held);
}

static void rounds(void)
{
    int r = ct_rank, p = ct_size, even = r % 2 == 0;
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, r < p / 2, r, &half);
    MPI_Comm prev[NB + 1] = { MPI_COMM_NULL };
    int nprev = 0;
    for (int k = 0; k < ROUNDS; k++) {
        MPI_Comm c[NB], h = MPI_COMM_NULL, d = MPI_COMM_NULL;
        MPI_Request rq[NB], hr;
        /* odd ranks free the previous round's communicators first */
        if (!even)
            for (int i = 0; i < nprev; i++)
                MPI_Comm_free(&prev[i]);
        CHECK_RC(MPI_Comm_idup(half, &h, &hr));
        for (int i = 0; i < NB; i++) {
            if (even && i == 2)
                CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &d));     /* blocking */
            CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &c[i], &rq[i]));
            if (even && (i + k) % 2 == 0)
                CHECK_RC(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));  /* early */
        }
        if (!even)
            CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &d));
        if (even)
            for (int i = 0; i < nprev; i++)
                MPI_Comm_free(&prev[i]);
        if (even) {
            wait_idups(rq, NB, "round");
            CHECK_RC(MPI_Wait(&hr, MPI_STATUS_IGNORE));
        } else {
            CHECK_RC(MPI_Wait(&hr, MPI_STATUS_IGNORE));
            for (int i = NB - 1; i >= 0; i--)
                CHECK_RC(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
        }
        MPI_Comm all[NB + 1];
        for (int i = 0; i < NB; i++)
            all[i] = c[i];
        all[NB] = d;
        check_comms(all, NB + 1, MPI_COMM_WORLD, "round");
        check_comms(&h, 1, half, "round, half");
        MPI_Comm_free(&h);
        for (int i = 0; i <= NB; i++)
            prev[i] = all[i];
        nprev = NB + 1;
    }
    for (int i = 0; i < nprev; i++)
        MPI_Comm_free(&prev[i]);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    lopsided();
    rounds();
    return ct_finish();
}
