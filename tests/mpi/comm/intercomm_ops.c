/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * intercomm_ops.c - constructors on an intercommunicator between the
 * evens and the odds of the world:
 *   MPI_Comm_create: each side gives a subgroup of its own side (the evens
 *     drop their local rank 0 and reverse the rest, the odds keep their
 *     even local ranks); members get an intercommunicator between the two
 *     subgroups, the others MPI_COMM_NULL; an empty group on one side gives
 *     MPI_COMM_NULL everywhere; a group with a remote process fails on
 *     that side (MPI_ERR_GROUP) while the other side gets MPI_COMM_NULL;
 *   MPI_Comm_split_type(SHARED): the local and remote processes of the
 *     same node, ordered by key (-world rank), one rank MPI_UNDEFINED;
 *     checked against the node of each rank found on MPI_COMM_WORLD;
 *   MPI_Comm_split with MPI_UNDEFINED on some ranks;
 *   MPI_Comm_idup / idup_with_info: two in flight with point-to-point on
 *     the parent before the wait, interleaved with an idup of the world;
 *   MPI_Comm_create_group on an intercommunicator is MPI_ERR_COMM.
 * Every result is checked by its sizes, its remote group (world ranks),
 * point-to-point from every local to every remote rank, and
 * MPI_Intercomm_merge + MPI_Allreduce (which uses its local communicator).
 */
#include <stdbool.h>
#include "ctest.h"

static int side;                 /* 0: evens, 1: odds */

static void check_p2p(MPI_Comm ic, int rsize, const int *rworld, const char *what)
{
    MPI_Request *rq = ct_malloc((size_t)rsize * sizeof(MPI_Request));
    for (int i = 0; i < rsize; i++)
        MPI_Isend(&ct_rank, 1, MPI_INT, i, 7, ic, &rq[i]);
    for (int i = 0; i < rsize; i++) {
        MPI_Status st;
        int v = -1;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, ic, &st);
        bool ok = st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize;
        CHECK(ok, "%s: source %d", what, st.MPI_SOURCE);
        if (ok)
            CHECK(v == rworld[st.MPI_SOURCE], "%s: from remote %d got %d want %d",
                  what, st.MPI_SOURCE, v, rworld[st.MPI_SOURCE]);
    }
    MPI_Waitall(rsize, rq, MPI_STATUSES_IGNORE);
    free(rq);
}

/* ic joins lworld[0..ln) (I am one) with rworld[0..rn). */
static void check_inter(MPI_Comm ic, int ln, const int *lworld, int rn,
                        const int *rworld, const char *what)
{
    int flag = 0, ls = -1, rs = -1, lr = -1;
    MPI_Comm_test_inter(ic, &flag);
    CHECK(flag, "%s: not an intercommunicator", what);
    MPI_Comm_size(ic, &ls);
    MPI_Comm_remote_size(ic, &rs);
    MPI_Comm_rank(ic, &lr);
    CHECK(ls == ln && rs == rn, "%s: sizes %d/%d want %d/%d", what, ls, rs, ln, rn);
    CHECK(lr >= 0 && lr < ln && lworld[lr] == ct_rank, "%s: local rank %d", what, lr);
    if (ls != ln || rs != rn)
        return;
    MPI_Group rg, wg;
    MPI_Comm_remote_group(ic, &rg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int *idx = ct_malloc((size_t)rn * sizeof(int)), *tr = ct_malloc((size_t)rn * sizeof(int));
    for (int i = 0; i < rn; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(rg, rn, idx, wg, tr);
    for (int i = 0; i < rn; i++)
        CHECK(tr[i] == rworld[i], "%s: remote %d is world %d want %d", what, i,
              tr[i], rworld[i]);
    free(idx);
    free(tr);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
    check_p2p(ic, rn, rworld, what);
    /* merge (evens low) and an allreduce over the merged communicator */
    MPI_Comm m;
    CHECK_RC(MPI_Intercomm_merge(ic, side, &m));
    int want = 0, sum = -1, mr = -1;
    for (int i = 0; i < ln; i++) want += lworld[i];
    for (int i = 0; i < rn; i++) want += rworld[i];
    MPI_Allreduce(&ct_rank, &sum, 1, MPI_INT, MPI_SUM, m);
    MPI_Comm_rank(m, &mr);
    CHECK(sum == want, "%s: merged allreduce %d want %d", what, sum, want);
    CHECK(mr == (side == 0 ? lr : rn + lr), "%s: merged rank %d", what, mr);
    MPI_Comm_free(&m);
}

/* The group of `n` world ranks w[], as a subgroup of my side. */
static MPI_Group world_group(int n, const int *w)
{
    MPI_Group wg, g;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, n, w, &g);
    MPI_Group_free(&wg);
    return g;
}

/* World ranks of side s's members in the create test, in group order. */
static int create_members(int s, int *w)
{
    int n = 0, all[64], na = 0;
    for (int r = s; r < ct_size; r += 2)
        all[na++] = r;
    if (s == 0) {                    /* drop local rank 0 (if not alone), reverse */
        for (int i = na - 1; i >= (na > 1 ? 1 : 0); i--)
            w[n++] = all[i];
    } else {                         /* even local ranks */
        for (int i = 0; i < na; i += 2)
            w[n++] = all[i];
    }
    return n;
}

static bool in(int n, const int *w, int x)
{
    for (int i = 0; i < n; i++)
        if (w[i] == x)
            return true;
    return false;
}

static void test_create(MPI_Comm ic)
{
    int lw[64], rw[64];
    int ln = create_members(side, lw), rn = create_members(1 - side, rw);
    MPI_Group g = world_group(ln, lw);
    MPI_Comm nc = MPI_COMM_NULL;
    CHECK_RC(MPI_Comm_create(ic, g, &nc));
    MPI_Group_free(&g);
    if (!in(ln, lw, ct_rank))
        CHECK(nc == MPI_COMM_NULL, "create: non-member got a communicator");
    else if (nc == MPI_COMM_NULL)
        CHECK(0, "create: member got MPI_COMM_NULL");
    else {
        check_inter(nc, ln, lw, rn, rw, "create");
        MPI_Comm d;                  /* a dup of the result works too */
        CHECK_RC(MPI_Comm_dup(nc, &d));
        check_inter(d, ln, lw, rn, rw, "dup of create");
        MPI_Comm_free(&d);
        MPI_Comm_free(&nc);
    }
    /* one side empty: nobody gets a communicator */
    MPI_Group lg;
    MPI_Comm_group(ic, &lg);
    CHECK_RC(MPI_Comm_create(ic, side == 0 ? MPI_GROUP_EMPTY : lg, &nc));
    CHECK(nc == MPI_COMM_NULL, "create with an empty side gave a communicator");
    /* odds give a group holding an even (remote) process: they fail with
     * MPI_ERR_GROUP, the evens get MPI_COMM_NULL */
    MPI_Group bad = world_group(1, (int[]){ 0 });
    int rc = MPI_Comm_create(ic, side == 1 ? bad : lg, &nc), cls = -1;
    MPI_Error_class(rc, &cls);
    if (side == 1)
        CHECK(cls == MPI_ERR_GROUP, "create with a remote process: class %d", cls);
    else
        CHECK(rc == MPI_SUCCESS && nc == MPI_COMM_NULL,
              "create against a failing side: rc %d", rc);
    MPI_Group_free(&bad);
    MPI_Group_free(&lg);
    rc = MPI_Comm_create_group(ic, MPI_GROUP_EMPTY, 5, &nc);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "create_group on an intercommunicator: class %d", cls);
}

/* Members of side s on node `node` (world ranks), minus world rank `skip`,
 * ordered by key -world rank (so descending). */
static int node_members(int s, int node, const int *node_of, int skip, int *w)
{
    int n = 0;
    for (int r = ct_size - 1; r >= 0; r--)
        if (r % 2 == s && node_of[r] == node && r != skip)
            w[n++] = r;
    return n;
}

static void test_split_type(MPI_Comm ic)
{
    /* the node of every rank: the lowest world rank of its SHARED comm */
    MPI_Comm nodec;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &nodec);
    int mynode = -1, node_of[64];
    MPI_Allreduce(&ct_rank, &mynode, 1, MPI_INT, MPI_MIN, nodec);
    MPI_Allgather(&mynode, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Comm_free(&nodec);
    int skip = ct_size - 1;                    /* it passes MPI_UNDEFINED */
    MPI_Comm nc = MPI_COMM_NULL;
    CHECK_RC(MPI_Comm_split_type(ic, ct_rank == skip ? MPI_UNDEFINED :
                                 MPI_COMM_TYPE_SHARED, -ct_rank, MPI_INFO_NULL, &nc));
    int lw[64], rw[64];
    int ln = node_members(side, mynode, node_of, skip, lw);
    int rn = node_members(1 - side, mynode, node_of, skip, rw);
    if (ct_rank == skip || rn == 0)
        CHECK(nc == MPI_COMM_NULL, "split_type: expected MPI_COMM_NULL");
    else if (nc == MPI_COMM_NULL)
        CHECK(0, "split_type: got MPI_COMM_NULL");
    else {
        check_inter(nc, ln, lw, rn, rw, "split_type");
        MPI_Comm_free(&nc);
    }
    /* intercommunicator split: colour 0 for world ranks < 3, else
     * MPI_UNDEFINED; key = world rank */
    CHECK_RC(MPI_Comm_split(ic, ct_rank < 3 ? 0 : MPI_UNDEFINED, ct_rank, &nc));
    ln = rn = 0;
    for (int r = 0; r < 3 && r < ct_size; r++) {
        if (r % 2 == side)
            lw[ln++] = r;
        else
            rw[rn++] = r;
    }
    if (ct_rank >= 3 || rn == 0)
        CHECK(nc == MPI_COMM_NULL, "split: expected MPI_COMM_NULL");
    else if (nc == MPI_COMM_NULL)
        CHECK(0, "split: got MPI_COMM_NULL");
    else {
        check_inter(nc, ln, lw, rn, rw, "split");
        MPI_Comm_free(&nc);
    }
}

static void test_idup(MPI_Comm ic, int ln, const int *lw, int rn, const int *rw)
{
    MPI_Comm c1, c2, cw;
    MPI_Request rq[3];
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "crossbar_idup", "inter");
    CHECK_RC(MPI_Comm_idup(ic, &c1, &rq[0]));
    CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &cw, &rq[1]));
    CHECK_RC(MPI_Comm_idup_with_info(ic, info, &c2, &rq[2]));
    MPI_Info_free(&info);
    check_p2p(ic, rn, rw, "parent during idup");
    MPI_Status st[3];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rc = MPI_Waitall(3, rq, st);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    for (int i = 0; i < 3 && rc != MPI_SUCCESS; i++) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(st[i].MPI_ERROR, msg, &len);
        CHECK(st[i].MPI_ERROR == MPI_SUCCESS, "idup %d failed: %s", i, msg);
    }
    if (rc != MPI_SUCCESS)
        return;
    check_inter(c1, ln, lw, rn, rw, "idup");
    check_inter(c2, ln, lw, rn, rw, "idup_with_info");
    MPI_Info got;
    MPI_Comm_get_info(c2, &got);
    char val[16] = "";
    int flag = 0;
    MPI_Info_get(got, "crossbar_idup", 15, val, &flag);
    CHECK(flag && strcmp(val, "inter") == 0, "idup_with_info hint: %d '%s'", flag, val);
    MPI_Info_free(&got);
    int sum = 0;
    MPI_Allreduce(&ct_rank, &sum, 1, MPI_INT, MPI_SUM, cw);
    CHECK(sum == ct_size * (ct_size - 1) / 2, "idup of world: allreduce %d", sum);
    /* an idup of an idup's result, waited for by Test */
    MPI_Comm c3;
    CHECK_RC(MPI_Comm_idup(c1, &c3, &rq[0]));
    for (int done = 0; !done;)
        MPI_Test(&rq[0], &done, MPI_STATUS_IGNORE);
    check_inter(c3, ln, lw, rn, rw, "idup of idup");
    MPI_Comm_free(&c3);
    MPI_Comm_free(&c1);
    MPI_Comm_free(&c2);
    MPI_Comm_free(&cw);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    if (ct_size < 2 || ct_size > 64) {
        printf("No Errors\n");
        MPI_Finalize();
        return 0;
    }
    side = ct_rank % 2;
    MPI_Comm half, ic;
    MPI_Comm_split(MPI_COMM_WORLD, side, ct_rank, &half);
    CHECK_RC(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - side, 41, &ic));
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    int lw[64], rw[64], ln = 0, rn = 0;
    for (int r = 0; r < ct_size; r++) {
        if (r % 2 == side)
            lw[ln++] = r;
        else
            rw[rn++] = r;
    }
    check_inter(ic, ln, lw, rn, rw, "parent");
    test_create(ic);
    test_split_type(ic);
    test_idup(ic, ln, lw, rn, rw);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&half);
    return ct_finish();
}
