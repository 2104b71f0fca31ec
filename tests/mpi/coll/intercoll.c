/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * intercoll.c - collectives on an intercommunicator between the two halves
 * of MPI_COMM_WORLD (sizes (1,2) on 3 ranks, (2,2) on 4, (2,3) on 5), in
 * blocking, nonblocking and persistent form: Barrier, Bcast, Gather(v),
 * Scatter(v) with every root of either group (MPI_ROOT at the root,
 * MPI_PROC_NULL at its group's other ranks: their buffers stay
 * untouched), Allgather(v), Alltoall(v,w), Reduce, Allreduce (SUM and a
 * non-commutative op, so each group must combine the other's values in
 * rank order), Reduce_scatter and Reduce_scatter_block; several
 * nonblocking ones outstanding at once, with one on the local
 * intracommunicator among them. Every result is compared with a reference
 * computed here. Scan, Exscan and MPI_IN_PLACE
 * must fail.
 */
#include "ctest_forms.h"

#define GAP (-7)
#define MAXP 16

static MPI_Comm ic;
static int grp, lrank, lsize, rsize;   /* grp: 0 low half, 1 high half */

/* Value element k of rank r of group g sends to remote rank d. */
static int val(int g, int r, int d, int k) { return 100000 * g + 1000 * r + 10 * d + k; }
static int vc(int r, int d) { return 1 + (r + d) % 3; }

static void fill(int *b, int n, int v) { for (int i = 0; i < n; i++) b[i] = v; }

static void test_bcast(int form, int rg, int root)
{
    int buf[4];
    fill(buf, 4, GAP);
    int my_root = grp == rg ? (lrank == root ? MPI_ROOT : MPI_PROC_NULL) : root;
    if (my_root == MPI_ROOT)
        for (int k = 0; k < 3; k++)
            buf[k] = val(rg, root, 0, k);
    int rc = FORM(form, MPI_Bcast(buf, 3, MPI_INT, my_root, ic),
                  MPI_Ibcast(buf, 3, MPI_INT, my_root, ic, &req_),
                  MPI_Bcast_init(buf, 3, MPI_INT, my_root, ic, MPI_INFO_NULL, &req_));
    CHECK(rc == MPI_SUCCESS, "bcast rc %d", rc);
    for (int k = 0; k < 4; k++) {
        int want = my_root == MPI_PROC_NULL || k == 3 ? GAP : val(rg, root, 0, k);
        CHECK(buf[k] == want, "bcast %s root %d/%d: [%d] = %d, expected %d",
              ct_form_names[form], rg, root, k, buf[k], want);
    }
}

/* gather, gatherv (v), scatter (sc), scatterv */
static void test_rooted(int form, int rg, int root, int sc, int v)
{
    int sbuf[MAXP * 4], rbuf[MAXP * 4], counts[MAXP], displs[MAXP];
    int my_root = grp == rg ? (lrank == root ? MPI_ROOT : MPI_PROC_NULL) : root;
    int n = 0;
    for (int i = 0; i < rsize; i++) {          /* at the root: remote ranks */
        counts[i] = v ? vc(i, 0) : 2;
        displs[i] = (rsize - 1 - i) * 4;       /* reversed, with gaps */
        n = 4 * rsize;
    }
    fill(sbuf, MAXP * 4, GAP);
    fill(rbuf, MAXP * 4, GAP);
    int mycount = v ? vc(lrank, 0) : 2;
    if (!sc && my_root >= 0)
        for (int k = 0; k < mycount; k++)
            sbuf[k] = val(grp, lrank, 0, k);
    if (sc && my_root == MPI_ROOT)
        for (int i = 0; i < rsize; i++)
            for (int k = 0; k < counts[i]; k++)
                sbuf[(v ? displs[i] : i * 2) + k] = val(grp, lrank, i, k);
    int rc;
    if (!sc && !v)
        rc = FORM(form, MPI_Gather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, my_root, ic),
                  MPI_Igather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, my_root, ic, &req_),
                  MPI_Gather_init(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, my_root, ic,
                                  MPI_INFO_NULL, &req_));
    else if (!sc)
        rc = FORM(form, MPI_Gatherv(sbuf, mycount, MPI_INT, rbuf, counts, displs,
                                    MPI_INT, my_root, ic),
                  MPI_Igatherv(sbuf, mycount, MPI_INT, rbuf, counts, displs,
                               MPI_INT, my_root, ic, &req_),
                  MPI_Gatherv_init(sbuf, mycount, MPI_INT, rbuf, counts, displs,
                                   MPI_INT, my_root, ic, MPI_INFO_NULL, &req_));
    else if (!v)
        rc = FORM(form, MPI_Scatter(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, my_root, ic),
                  MPI_Iscatter(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, my_root, ic, &req_),
                  MPI_Scatter_init(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, my_root, ic,
                                   MPI_INFO_NULL, &req_));
    else
        rc = FORM(form, MPI_Scatterv(sbuf, counts, displs, MPI_INT, rbuf, mycount,
                                     MPI_INT, my_root, ic),
                  MPI_Iscatterv(sbuf, counts, displs, MPI_INT, rbuf, mycount,
                                MPI_INT, my_root, ic, &req_),
                  MPI_Scatterv_init(sbuf, counts, displs, MPI_INT, rbuf, mycount,
                                    MPI_INT, my_root, ic, MPI_INFO_NULL, &req_));
    CHECK(rc == MPI_SUCCESS, "rooted rc %d", rc);
    int want[MAXP * 4];
    fill(want, MAXP * 4, GAP);
    if (!sc && my_root == MPI_ROOT)
        for (int i = 0; i < rsize; i++)
            for (int k = 0; k < counts[i]; k++)
                want[(v ? displs[i] : i * 2) + k] = val(1 - grp, i, 0, k);
    if (sc && my_root >= 0)
        for (int k = 0; k < mycount; k++)
            want[k] = val(1 - grp, root, lrank, k);
    (void)n;
    for (int x = 0; x < MAXP * 4; x++)
        CHECK(rbuf[x] == want[x], "%s%s %s root %d/%d: rank %d/%d [%d] = %d, "
              "expected %d", sc ? "scatter" : "gather", v ? "v" : "",
              ct_form_names[form], rg, root, grp, lrank, x, rbuf[x], want[x]);
}

/* kind 0 allgather, 1 allgatherv, 2 alltoall, 3 alltoallv, 4 alltoallw */
static void test_all(int form, int kind)
{
    int sbuf[MAXP * 4], rbuf[MAXP * 4 + 1], want[MAXP * 4 + 1];
    int sc[MAXP], sd[MAXP], rcn[MAXP], rd[MAXP];
    MPI_Aint sdb[MAXP], rdb[MAXP];
    MPI_Datatype st[MAXP], rt[MAXP];
    fill(sbuf, MAXP * 4, GAP);
    fill(rbuf, MAXP * 4 + 1, GAP);
    fill(want, MAXP * 4 + 1, GAP);
    for (int i = 0; i < rsize; i++) {
        sc[i] = kind <= 1 ? vc(lrank, 0) : vc(lrank, i);
        rcn[i] = kind <= 1 ? vc(i, 0) : vc(i, lrank);
        sd[i] = (rsize - 1 - i) * 4;
        rd[i] = (rsize - 1 - i) * 4;
        sdb[i] = sd[i] * (MPI_Aint)sizeof(int);
        rdb[i] = rd[i] * (MPI_Aint)sizeof(int);
        st[i] = rt[i] = MPI_INT;
        for (int k = 0; k < 3; k++) {
            if (kind == 0 || kind == 1)
                sbuf[k] = val(grp, lrank, 0, k);
            else if (kind == 2)
                sbuf[i * 3 + k] = val(grp, lrank, i, k);
            else if (k < sc[i])
                sbuf[sd[i] + k] = val(grp, lrank, i, k);
        }
        int cnt = kind == 0 || kind == 2 ? 3 : rcn[i];
        int at = kind == 0 || kind == 2 ? i * 3 : rd[i];
        for (int k = 0; k < cnt; k++)
            want[at + k] = val(1 - grp, i, kind <= 1 ? 0 : lrank, k);
    }
    int rc;
    switch (kind) {
    case 0:
        rc = FORM(form, MPI_Allgather(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, ic),
                  MPI_Iallgather(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, ic, &req_),
                  MPI_Allgather_init(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, ic,
                                     MPI_INFO_NULL, &req_));
        break;
    case 1:
        rc = FORM(form, MPI_Allgatherv(sbuf, sc[0], MPI_INT, rbuf, rcn, rd, MPI_INT, ic),
                  MPI_Iallgatherv(sbuf, sc[0], MPI_INT, rbuf, rcn, rd, MPI_INT, ic, &req_),
                  MPI_Allgatherv_init(sbuf, sc[0], MPI_INT, rbuf, rcn, rd, MPI_INT, ic,
                                      MPI_INFO_NULL, &req_));
        break;
    case 2:
        rc = FORM(form, MPI_Alltoall(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, ic),
                  MPI_Ialltoall(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, ic, &req_),
                  MPI_Alltoall_init(sbuf, 3, MPI_INT, rbuf, 3, MPI_INT, ic,
                                    MPI_INFO_NULL, &req_));
        break;
    case 3:
        rc = FORM(form, MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rcn, rd, MPI_INT, ic),
                  MPI_Ialltoallv(sbuf, sc, sd, MPI_INT, rbuf, rcn, rd, MPI_INT, ic, &req_),
                  MPI_Alltoallv_init(sbuf, sc, sd, MPI_INT, rbuf, rcn, rd, MPI_INT, ic,
                                     MPI_INFO_NULL, &req_));
        break;
    default: {
        int sdi[MAXP], rdi[MAXP];          /* Alltoallw: byte displacements */
        for (int i = 0; i < rsize; i++)
            sdi[i] = (int)sdb[i], rdi[i] = (int)rdb[i];
        rc = FORM(form, MPI_Alltoallw(sbuf, sc, sdi, st, rbuf, rcn, rdi, rt, ic),
                  MPI_Ialltoallw(sbuf, sc, sdi, st, rbuf, rcn, rdi, rt, ic, &req_),
                  MPI_Alltoallw_init(sbuf, sc, sdi, st, rbuf, rcn, rdi, rt, ic,
                                     MPI_INFO_NULL, &req_));
        break;
    }
    }
    static const char *const kn[] = { "allgather", "allgatherv", "alltoall",
                                      "alltoallv", "alltoallw" };
    CHECK(rc == MPI_SUCCESS, "%s rc %d", kn[kind], rc);
    for (int x = 0; x < MAXP * 4 + 1; x++)
        CHECK(rbuf[x] == want[x], "%s %s: rank %d/%d [%d] = %d, expected %d",
              kn[kind], ct_form_names[form], grp, lrank, x, rbuf[x], want[x]);
}

/* Non-commutative, associative: (a1,b1) o (a2,b2) = (a1*a2, a1*b2 + b1)
 * on pairs of ints mod 1009 (affine maps composed). */
static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *x = in, *y = inout;
    for (int i = 0; i < *len; i++) {
        long a = (long)x[2 * i] * y[2 * i] % 1009;
        long b = ((long)x[2 * i] * y[2 * i + 1] + x[2 * i + 1]) % 1009;
        y[2 * i] = (int)a, y[2 * i + 1] = (int)b;
    }
}

static void pair_of(int g, int r, int k, int *out)
{
    out[0] = 2 + (g * 7 + r * 3 + k) % 11;
    out[1] = 1 + (g * 5 + r + 2 * k) % 13;
}

/* The reference: the group g's values reduced in rank order. */
static void ref_reduce(int g, int n, int idx0, int sum, int *out, int kpairs)
{
    int gs = g == grp ? lsize : rsize;
    for (int k = 0; k < n; k++) {
        if (sum) {
            long s = 0;
            for (int r = 0; r < gs; r++)
                s += val(g, r, 0, idx0 + k);
            out[k] = (int)s;
            continue;
        }
        int acc[2];
        pair_of(g, gs - 1, idx0 + k, acc);
        for (int r = gs - 2; r >= 0; r--) {   /* x_r o acc */
            int x[2], len = 1;
            pair_of(g, r, idx0 + k, x);
            affine(x, acc, &len, NULL);
        }
        out[2 * k] = acc[0], out[2 * k + 1] = acc[1];
    }
    (void)kpairs;
}

/* kind 0 reduce, 1 allreduce, 2 reduce_scatter_block, 3 reduce_scatter */
static void test_red(int form, int kind, int sum, MPI_Op op, MPI_Datatype pt,
                     int rg, int root)
{
    int ne = sum ? 1 : 2;               /* ints per element */
    MPI_Datatype dt = sum ? MPI_INT : pt;
    int n = lsize * rsize;              /* vector length of the scatters */
    int counts[MAXP], first = 0;
    for (int i = 0; i < lsize; i++)
        counts[i] = n / lsize;
    if (lsize > 1)
        counts[0]++, counts[lsize - 1]--;
    for (int i = 0; i < lrank; i++)
        first += kind == 2 ? n / lsize : counts[i];
    int len = kind <= 1 ? 3 : n;
    int sbuf[2 * MAXP * MAXP], rbuf[2 * MAXP * MAXP + 2], want[2 * MAXP * MAXP + 2];
    for (int k = 0; k < len; k++) {
        if (sum)
            sbuf[k] = val(grp, lrank, 0, k);
        else
            pair_of(grp, lrank, k, &sbuf[2 * k]);
    }
    fill(rbuf, 2 * MAXP * MAXP + 2, GAP);
    fill(want, 2 * MAXP * MAXP + 2, GAP);
    int my_root = grp == rg ? (lrank == root ? MPI_ROOT : MPI_PROC_NULL) : root;
    int rc, mine = kind == 2 ? n / lsize : counts[lrank];
    switch (kind) {
    case 0:
        if (my_root == MPI_PROC_NULL) {   /* nothing significant but root */
            rc = FORM(form, MPI_Reduce(NULL, NULL, 0, MPI_BYTE, op, my_root, ic),
                      MPI_Ireduce(NULL, NULL, 0, MPI_BYTE, op, my_root, ic, &req_),
                      MPI_Reduce_init(NULL, NULL, 0, MPI_BYTE, op, my_root, ic,
                                      MPI_INFO_NULL, &req_));
            break;
        }
        rc = FORM(form, MPI_Reduce(sbuf, rbuf, 3, dt, op, my_root, ic),
                  MPI_Ireduce(sbuf, rbuf, 3, dt, op, my_root, ic, &req_),
                  MPI_Reduce_init(sbuf, rbuf, 3, dt, op, my_root, ic, MPI_INFO_NULL, &req_));
        if (my_root == MPI_ROOT)
            ref_reduce(1 - grp, 3, 0, sum, want, 0);
        break;
    case 1:
        rc = FORM(form, MPI_Allreduce(sbuf, rbuf, 3, dt, op, ic),
                  MPI_Iallreduce(sbuf, rbuf, 3, dt, op, ic, &req_),
                  MPI_Allreduce_init(sbuf, rbuf, 3, dt, op, ic, MPI_INFO_NULL, &req_));
        ref_reduce(1 - grp, 3, 0, sum, want, 0);
        break;
    case 2:
        rc = FORM(form, MPI_Reduce_scatter_block(sbuf, rbuf, mine, dt, op, ic),
                  MPI_Ireduce_scatter_block(sbuf, rbuf, mine, dt, op, ic, &req_),
                  MPI_Reduce_scatter_block_init(sbuf, rbuf, mine, dt, op, ic,
                                                MPI_INFO_NULL, &req_));
        ref_reduce(1 - grp, mine, first, sum, want, 0);
        break;
    default:
        rc = FORM(form, MPI_Reduce_scatter(sbuf, rbuf, counts, dt, op, ic),
                  MPI_Ireduce_scatter(sbuf, rbuf, counts, dt, op, ic, &req_),
                  MPI_Reduce_scatter_init(sbuf, rbuf, counts, dt, op, ic,
                                          MPI_INFO_NULL, &req_));
        ref_reduce(1 - grp, mine, first, sum, want, 0);
        break;
    }
    static const char *const kn[] = { "reduce", "allreduce",
                                      "reduce_scatter_block", "reduce_scatter" };
    CHECK(rc == MPI_SUCCESS, "%s rc %d", kn[kind], rc);
    int m = (kind <= 1 ? 3 : mine) * ne + 1;
    for (int x = 0; x < m; x++)
        CHECK(rbuf[x] == want[x], "%s %s %s root %d/%d: rank %d/%d [%d] = %d, "
              "expected %d", kn[kind], sum ? "sum" : "affine",
              ct_form_names[form], rg, root, grp, lrank, x, rbuf[x], want[x]);
}

/* Several nonblocking collectives outstanding at once on the
 * intercommunicator and on the local intracommunicator (whose own
 * collectives must not meet the intercommunicator's local phases). */
static void test_outstanding(MPI_Comm local)
{
    enum { NR = 5 };
    MPI_Request r[NR];
    int a1[3], a2[3], b[3], lsum = -1, g[MAXP * 3], want[3];
    for (int k = 0; k < 3; k++)
        a1[k] = val(grp, lrank, 0, k), a2[k] = 2 * a1[k] + 1;
    int bc = grp == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    if (bc == MPI_ROOT)
        for (int k = 0; k < 3; k++)
            b[k] = val(0, 0, 9, k);
    int sum1[3], sum2[3];
    CHECK_RC(MPI_Iallreduce(a1, sum1, 3, MPI_INT, MPI_SUM, ic, &r[0]));
    CHECK_RC(MPI_Iallreduce(&lrank, &lsum, 1, MPI_INT, MPI_SUM, local, &r[1]));
    CHECK_RC(MPI_Ibcast(b, 3, MPI_INT, bc, ic, &r[2]));
    CHECK_RC(MPI_Iallgather(a1, 3, MPI_INT, g, 3, MPI_INT, ic, &r[3]));
    CHECK_RC(MPI_Iallreduce(a2, sum2, 3, MPI_INT, MPI_SUM, ic, &r[4]));
    CHECK_RC(MPI_Waitall(NR, r, MPI_STATUSES_IGNORE));
    CHECK(lsum == lsize * (lsize - 1) / 2, "local allreduce: %d", lsum);
    ref_reduce(1 - grp, 3, 0, 1, want, 0);
    for (int k = 0; k < 3; k++) {
        CHECK(sum1[k] == want[k], "outstanding allreduce 1 [%d] = %d, expected "
              "%d", k, sum1[k], want[k]);
        CHECK(sum2[k] == 2 * want[k] + rsize, "outstanding allreduce 2 [%d] = "
              "%d, expected %d", k, sum2[k], 2 * want[k] + rsize);
        if (grp == 1)
            CHECK(b[k] == val(0, 0, 9, k), "outstanding bcast [%d] = %d", k, b[k]);
        for (int i = 0; i < rsize; i++)
            CHECK(g[3 * i + k] == val(1 - grp, i, 0, k), "outstanding "
                  "allgather block %d [%d] = %d", i, k, g[3 * i + k]);
    }
}

/* Messages large enough for the rendezvous protocol: Bcast of 1.2 MB,
 * Allreduce of 400 KB, Alltoall of 80 KB blocks. */
static void test_large(int form)
{
    enum { NB = 300000, NR = 100000, NA = 20000 };
    int *b = ct_malloc(sizeof(int) * NB);
    int *x = ct_malloc(sizeof(int) * NR), *y = ct_malloc(sizeof(int) * NR);
    int *sa = ct_malloc(sizeof(int) * NA * MAXP), *ra = ct_malloc(sizeof(int) * NA * MAXP);
    int bc = grp == 1 ? (lrank == lsize - 1 ? MPI_ROOT : MPI_PROC_NULL) : rsize - 1;
    for (int k = 0; k < NB; k++)
        b[k] = bc == MPI_ROOT ? k ^ 0x5a5a : -1;
    CHECK_RC(FORM(form, MPI_Bcast(b, NB, MPI_INT, bc, ic),
                  MPI_Ibcast(b, NB, MPI_INT, bc, ic, &req_),
                  MPI_Bcast_init(b, NB, MPI_INT, bc, ic, MPI_INFO_NULL, &req_)));
    int bad = 0;
    for (int k = 0; k < NB; k++)
        bad += b[k] != (bc == MPI_PROC_NULL ? -1 : k ^ 0x5a5a);
    CHECK(bad == 0, "large bcast %s: %d wrong elements", ct_form_names[form], bad);
    for (int k = 0; k < NR; k++)
        x[k] = (grp + 1) * (lrank + 1) + k % 7;
    CHECK_RC(FORM(form, MPI_Allreduce(x, y, NR, MPI_INT, MPI_SUM, ic),
                  MPI_Iallreduce(x, y, NR, MPI_INT, MPI_SUM, ic, &req_),
                  MPI_Allreduce_init(x, y, NR, MPI_INT, MPI_SUM, ic, MPI_INFO_NULL, &req_)));
    bad = 0;
    for (int k = 0; k < NR; k++)
        bad += y[k] != (2 - grp) * rsize * (rsize + 1) / 2 + rsize * (k % 7);
    CHECK(bad == 0, "large allreduce %s: %d wrong elements", ct_form_names[form], bad);
    for (int i = 0; i < rsize; i++)
        for (int k = 0; k < NA; k++)
            sa[i * NA + k] = val(grp, lrank, i, k % 10) + k;
    CHECK_RC(FORM(form, MPI_Alltoall(sa, NA, MPI_INT, ra, NA, MPI_INT, ic),
                  MPI_Ialltoall(sa, NA, MPI_INT, ra, NA, MPI_INT, ic, &req_),
                  MPI_Alltoall_init(sa, NA, MPI_INT, ra, NA, MPI_INT, ic,
                                    MPI_INFO_NULL, &req_)));
    bad = 0;
    for (int i = 0; i < rsize; i++)
        for (int k = 0; k < NA; k++)
            bad += ra[i * NA + k] != val(1 - grp, i, lrank, k % 10) + k;
    CHECK(bad == 0, "large alltoall %s: %d wrong elements", ct_form_names[form], bad);
    free(b), free(x), free(y), free(sa), free(ra);
}

static void test_errors(void)
{
    int x = 1, y = 0, cls = -1;
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    int rc = MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, ic);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "Scan on an intercommunicator: class %d", cls);
    MPI_Request req;
    rc = MPI_Iexscan(&x, &y, 1, MPI_INT, MPI_SUM, ic, &req);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "Iexscan on an intercommunicator: class %d", cls);
    rc = MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, ic);
    CHECK(rc != MPI_SUCCESS, "Allreduce with MPI_IN_PLACE on an "
          "intercommunicator succeeded");
    rc = MPI_Neighbor_allgather(&x, 1, MPI_INT, &y, 1, MPI_INT, ic);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TOPOLOGY, "Neighbor_allgather on an "
          "intercommunicator: class %d", cls);
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    if (ct_size < 2 || ct_size > MAXP) {
        if (ct_rank == 0)
            printf("intercoll: needs 2..%d ranks\n", MAXP);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int low = ct_size / 2;
    grp = ct_rank >= low;
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, grp, ct_rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, grp ? 0 : low, 7, &ic);
    MPI_Comm_rank(ic, &lrank);
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Op aff;
    MPI_Op_create(affine, 0, &aff);
    MPI_Datatype pt;
    MPI_Type_contiguous(2, MPI_INT, &pt);
    MPI_Type_commit(&pt);
    test_errors();
    test_outstanding(local);
    {   /* a duplicate and a split of the intercommunicator work alike */
        MPI_Comm keep = ic, d, sp;
        MPI_Comm_dup(keep, &d);
        MPI_Comm_split(keep, 0, -lrank, &sp);
        ic = d;
        test_all(CT_BLOCKING, 3);
        test_red(CT_NONBLOCKING, 1, 0, aff, pt, 0, 0);
        ic = sp;
        MPI_Comm_rank(ic, &lrank);      /* reversed order in each group */
        test_all(CT_PERSISTENT, 2);
        test_red(CT_BLOCKING, 1, 0, aff, pt, 0, 0);
        MPI_Comm_free(&d);
        MPI_Comm_free(&sp);
        ic = keep;
        MPI_Comm_rank(ic, &lrank);
    }
    for (int form = 0; form < CT_NFORMS; form++) {
        CHECK_RC(FORM(form, MPI_Barrier(ic), MPI_Ibarrier(ic, &req_),
                      MPI_Barrier_init(ic, MPI_INFO_NULL, &req_)));
        for (int rg = 0; rg < 2; rg++)
            for (int root = 0; root < (rg == grp ? lsize : rsize); root++) {
                test_bcast(form, rg, root);
                for (int sc = 0; sc < 2; sc++)
                    for (int v = 0; v < 2; v++)
                        test_rooted(form, rg, root, sc, v);
                test_red(form, 0, 1, MPI_SUM, pt, rg, root);
                test_red(form, 0, 0, aff, pt, rg, root);
            }
        for (int kind = 0; kind < 5; kind++)
            test_all(form, kind);
        test_large(form);
        for (int kind = 1; kind < 4; kind++) {
            test_red(form, kind, 1, MPI_SUM, pt, 0, 0);
            test_red(form, kind, 0, aff, pt, 0, 0);
        }
    }
    MPI_Op_free(&aff);
    MPI_Type_free(&pt);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    return ct_finish();
}
