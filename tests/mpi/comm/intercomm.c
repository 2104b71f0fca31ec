/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * intercomm.c - intercommunicators between the disjoint halves of the
 * world (evens and odds): MPI_Intercomm_create, test_inter, remote_size,
 * remote_group, point-to-point across (every local rank sends to every
 * remote rank; sources in the status are remote ranks), MPI_Comm_dup of
 * the intercommunicator, MPI_Intercomm_merge with high on either side (the
 * low side's ranks come first), MPI_Intercomm_create_from_groups, and the
 * error of merge on an intracommunicator.
 */
#include "ctest.h"

static void check_p2p(MPI_Comm ic, int lsize, int rsize, const int *rworld,
                      const char *what)
{
    int lrank;
    MPI_Comm_rank(ic, &lrank);
    MPI_Request *rq = ct_malloc((size_t)rsize * sizeof(MPI_Request));
    int *in = ct_malloc((size_t)rsize * sizeof(int));
    for (int i = 0; i < rsize; i++)
        MPI_Isend(&ct_rank, 1, MPI_INT, i, 5, ic, &rq[i]);
    for (int i = 0; i < rsize; i++) {
        MPI_Status st;
        int v = -1;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, ic, &st);
        CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize, "%s: source %d", what,
              st.MPI_SOURCE);
        if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize)
            CHECK(v == rworld[st.MPI_SOURCE], "%s: from remote %d got %d want %d",
                  what, st.MPI_SOURCE, v, rworld[st.MPI_SOURCE]);
    }
    MPI_Waitall(rsize, rq, MPI_STATUSES_IGNORE);
    (void)lsize;
    free(rq);
    free(in);
}

static void check_inter(MPI_Comm ic, int lsize, int rsize, const int *rworld,
                        const char *what)
{
    int flag = 0, rs = -1, ls = -1;
    MPI_Comm_test_inter(ic, &flag);
    CHECK(flag, "%s: test_inter false", what);
    MPI_Comm_size(ic, &ls);
    MPI_Comm_remote_size(ic, &rs);
    CHECK(ls == lsize && rs == rsize, "%s: sizes %d/%d want %d/%d", what, ls, rs,
          lsize, rsize);
    MPI_Group rg, wg;
    MPI_Comm_remote_group(ic, &rg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *idx = ct_malloc((size_t)rsize * sizeof(int)), *tr = ct_malloc((size_t)rsize * sizeof(int));
    for (int i = 0; i < rsize; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(rg, rsize, idx, wg, tr);
    for (int i = 0; i < rsize; i++)
        CHECK(tr[i] == rworld[i], "%s: remote %d is world %d", what, i, tr[i]);
    free(idx);
    free(tr);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
    check_p2p(ic, lsize, rsize, rworld, what);
}

static void check_merge(MPI_Comm ic, int high, int mine_first, int want_sum,
                        const char *what)
{
    MPI_Comm m;
    CHECK_RC(MPI_Intercomm_merge(ic, high, &m));
    int size, rank, lsize, lrank, rsize;
    MPI_Comm_size(m, &size);
    MPI_Comm_rank(m, &rank);
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_rank(ic, &lrank);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(size == lsize + rsize, "%s: merged size %d", what, size);
    int want = mine_first ? lrank : rsize + lrank;
    CHECK(rank == want, "%s: merged rank %d want %d", what, rank, want);
    int sum = 0;
    MPI_Allreduce(&ct_rank, &sum, 1, MPI_INT, MPI_SUM, m);
    CHECK(sum == want_sum, "%s: allreduce %d want %d", what, sum, want_sum);
    MPI_Comm_free(&m);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    if (ct_size < 2) {
        printf("No Errors\n");
        MPI_Finalize();
        return 0;
    }
    int color = ct_rank % 2;
    MPI_Comm half, ic, ic2;
    MPI_Comm_split(MPI_COMM_WORLD, color, ct_rank, &half);
    int lsize, n[2] = { 0, 0 };
    MPI_Comm_size(half, &lsize);
    int *world[2];
    world[0] = ct_malloc((size_t)ct_size * sizeof(int));
    world[1] = ct_malloc((size_t)ct_size * sizeof(int));
    for (int i = 0; i < ct_size; i++)
        world[i % 2][n[i % 2]++] = i;
    /* leaders: local rank 0; remote leader: world rank 1 or 0 */
    CHECK_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 33, &ic));
    check_inter(ic, lsize, n[1 - color], world[1 - color], "create");
    CHECK_RC(MPI_Comm_dup(ic, &ic2));
    check_inter(ic2, lsize, n[1 - color], world[1 - color], "dup");
    int cmp = -1;
    MPI_Comm_compare(ic, ic2, &cmp);
    CHECK(cmp == MPI_CONGRUENT, "compare intercomm with its dup: %d", cmp);
    MPI_Comm_compare(ic, half, &cmp);
    CHECK(cmp == MPI_UNEQUAL, "compare inter with intra: %d", cmp);
    MPI_Comm_free(&ic2);
    /* evens low: evens first */
    int all = ct_size * (ct_size - 1) / 2;
    check_merge(ic, color, color == 0, all, "merge evens low");
    check_merge(ic, 1 - color, color == 1, all, "merge odds low");
    /* same high: the side with world rank 0 first */
    check_merge(ic, 0, color == 0, all, "merge equal");
    /* split of the intercommunicator: colour = world rank / 4 (the halves
     * mix), key = -world rank (reverses); colours with no member on the
     * other side give MPI_COMM_NULL */
    MPI_Comm sc;
    int col = ct_rank / 4;
    CHECK_RC(MPI_Comm_split(ic, col, -ct_rank, &sc));
    int lw[8], rw[8], nl = 0, nr = 0;
    for (int i = ct_size - 1; i >= 0; i--)
        if (i / 4 == col) {
            if (i % 2 == color)
                lw[nl++] = i;
            else
                rw[nr++] = i;
        }
    if (nr == 0)
        CHECK(sc == MPI_COMM_NULL, "split without a remote partner");
    else if (sc == MPI_COMM_NULL)
        CHECK(0, "split gave MPI_COMM_NULL");
    else {
        int lr;
        MPI_Comm_rank(sc, &lr);
        CHECK(lr < nl && lw[lr] == ct_rank, "split: local rank %d", lr);
        check_inter(sc, nl, nr, rw, "split");
        int part = 0;
        for (int i = 0; i < nl; i++) part += lw[i];
        for (int i = 0; i < nr; i++) part += rw[i];
        check_merge(sc, color, color == 0, part, "merge of split");
        MPI_Comm_free(&sc);
    }
    MPI_Comm_free(&ic);

    /* from groups: no parent communicator */
    MPI_Group wg, lg, rg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, n[color], world[color], &lg);
    MPI_Group_incl(wg, n[1 - color], world[1 - color], &rg);
    CHECK_RC(MPI_Intercomm_create_from_groups(lg, 0, rg, 0, "crossbar-test",
                                              MPI_INFO_NULL, MPI_ERRORS_RETURN, &ic));
    check_inter(ic, lsize, n[1 - color], world[1 - color], "from_groups");
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(ic, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "from_groups errhandler not set");
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&ic);
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* a bad remote_leader on both sides: every rank fails, nobody hangs */
    MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
    int brc = MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, ct_size, 34, &ic), bcls = -1;
    MPI_Error_class(brc, &bcls);
    CHECK(bcls == MPI_ERR_RANK, "bad remote_leader: class %d", bcls);
    MPI_Comm m;
    int rc = MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &m), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "merge of an intracommunicator: class %d", cls);
    int rs;
    rc = MPI_Comm_remote_size(MPI_COMM_WORLD, &rs);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "remote_size of an intracommunicator: class %d", cls);
    MPI_Comm_free(&half);
    free(world[0]);
    free(world[1]);
    return ct_finish();
}
