/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * idup_overlap.c - idups of different communicators outstanding at once,
 * started in different orders on different members (MPICH's
 * comm_idup_overlap and idup_with_info): every rank is in two pair
 * communicators of a ring, its left one and its right one, and idups its
 * left one then its right one, and one MPI_Waitall takes both: the two
 * members of a pair start its idup in opposite places (first on one,
 * second on the other), all around the ring. With two ranks, two pair
 * communicators over them, idup'ed in opposite orders. Several times over, so the
 * histories drift; run with XB_COMM_IDUP_SPREAD=no too (every idup starts
 * in the same region of the pool: the rounds and the precedence order of
 * src/comm/comm_idup.c have to settle it). Also: a failed MPI_Comm_dup
 * (an attribute copy callback that fails) leaves MPI_COMM_NULL.
 */
#include "ctest.h"

enum { ITER = 6 };

static int copy_fails(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)key; (void)extra; (void)in; (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

/* A dup whose copy callback fails: an error and MPI_COMM_NULL. */
static void check_failed_dup(void)
{
    MPI_Comm self, d = MPI_COMM_WORLD;
    int key;
    MPI_Comm_dup(MPI_COMM_SELF, &self);
    MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(self, key, NULL);
    int rc = MPI_Comm_dup(self, &d);
    CHECK(rc != MPI_SUCCESS && d == MPI_COMM_NULL, "failed dup: rc %d, newcomm %s",
          rc, d == MPI_COMM_NULL ? "null" : "not null");
    d = MPI_COMM_WORLD;
    rc = MPI_Comm_dup_with_info(self, MPI_INFO_NULL, &d);
    CHECK(rc != MPI_SUCCESS && d == MPI_COMM_NULL, "failed dup_with_info: rc %d", rc);
    if (d != MPI_COMM_NULL && d != MPI_COMM_WORLD)
        MPI_Comm_free(&d);
    MPI_Comm_free(&self);
    MPI_Comm_free_keyval(&key);
}

/* The pair communicator {i, i+1 mod p} for every i, made by splits of the
 * world (a rank in neither gets MPI_COMM_NULL). */
static void make_pairs(MPI_Comm *left, MPI_Comm *right)
{
    int p = ct_size, r = ct_rank;
    for (int i = 0; i < p; i++) {
        int in = r == i || r == (i + 1) % p;
        MPI_Comm c;
        MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, r == i ? 0 : 1, &c);
        if (r == i)
            *right = c;
        else if (r == (i + 1) % p)
            *left = c;
    }
}

static void use(MPI_Comm c, const char *what, int it)
{
    int one = 1, sum = 0, n = 0;
    MPI_Comm_size(c, &n);
    CHECK_RC(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum == n, "%s (iteration %d): allreduce %d of %d", what, it, sum, n);
}

static void use2(MPI_Comm a, MPI_Comm b, int it)
{
    int one = 1, sum[2] = { 0, 0 };
    MPI_Request rq[2];
    CHECK_RC(MPI_Iallreduce(&one, &sum[0], 1, MPI_INT, MPI_SUM, a, &rq[0]));
    CHECK_RC(MPI_Iallreduce(&one, &sum[1], 1, MPI_INT, MPI_SUM, b, &rq[1]));
    CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    CHECK(sum[0] == 2 && sum[1] == 2, "dups of the pairs (iteration %d): allreduce %d, %d",
          it, sum[0], sum[1]);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    check_failed_dup();
    if (ct_size < 3) {          /* the ring needs two distinct neighbours */
        MPI_Comm pair[2], dup[2];
        MPI_Request rq[2];
        for (int it = 0; it < ITER && ct_size == 2; it++) {
            /* MPICH's comm_idup_overlap: two pair communicators over the
             * same two ranks, idup'ed in opposite orders */
            for (int i = 0; i < 2; i++)
                MPI_Comm_split(MPI_COMM_WORLD, 0, ct_rank == i ? 0 : 1, &pair[i]);
            int first = ct_rank;
            CHECK_RC(MPI_Comm_idup(pair[first], &dup[first], &rq[0]));
            CHECK_RC(MPI_Comm_idup(pair[1 - first], &dup[1 - first], &rq[1]));
            CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
            for (int i = 0; i < 2; i++) {
                use(dup[i], "dup of a pair", it);
                MPI_Comm_free(&dup[i]);
                MPI_Comm_free(&pair[i]);
            }
        }
        return ct_finish();
    }
    MPI_Comm left = MPI_COMM_NULL, right = MPI_COMM_NULL;
    make_pairs(&left, &right);
    CHECK(left != MPI_COMM_NULL && right != MPI_COMM_NULL, "pairs not made");
    MPI_Comm kept[ITER][2];
    for (int it = 0; it < ITER; it++) {
        MPI_Comm dl, dr;
        MPI_Request rq[2];
        CHECK_RC(MPI_Comm_idup(left, &dl, &rq[0]));    /* the pair's second */
        CHECK_RC(MPI_Comm_idup(right, &dr, &rq[1]));
        CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        use2(dl, dr, it);            /* both at once: a ring of blocking ones deadlocks */
        kept[it][0] = dl;            /* kept: the histories drift apart */
        kept[it][1] = dr;
    }
    for (int it = 0; it < ITER; it++) {
        MPI_Comm_free(&kept[it][0]);
        MPI_Comm_free(&kept[it][1]);
    }
    MPI_Comm_free(&left);
    MPI_Comm_free(&right);
    return ct_finish();
}
