/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * neighbor.c - MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w) in
 * their blocking, nonblocking and persistent forms on four topologies: a
 * 2-D periodic Cartesian grid, a 2-D non-periodic one (MPI_PROC_NULL
 * neighbours: their receive blocks stay untouched), a graph (a ring, so on
 * 2 ranks both neighbours are the same process) and a distributed graph
 * with a repeated edge and a self edge. The test computes every process's
 * neighbour lists from the topology's definition and the block each
 * receive slot must hold (Cartesian: what the -1 neighbour sent towards
 * +1 lands in the -1 slot, also when both neighbours are one process;
 * graphs: the k-th edge from a to b meets the k-th edge into b from a),
 * then checks every element (Neighbor_alltoallw receives strided vectors
 * that leave every other int untouched). A communicator without topology
 * must give MPI_ERR_TOPOLOGY.
 */
#include "ctest_forms.h"

#define MAXN 16
#define GAP (-7)

enum { T_CART_PER, T_CART, T_GRAPH, T_DIST, T_N };
static const char *const tnames[T_N] = { "periodic cart", "cart", "graph",
                                         "dist graph" };
static int dims[2];

typedef struct { int in, out, src[MAXN], dst[MAXN]; } nbrs_t;

static int cart_shift(int r, int d, int disp, int periodic)
{
    int c[2] = { r / dims[1], r % dims[1] };
    c[d] += disp;
    if (c[d] < 0 || c[d] >= dims[d]) {
        if (!periodic)
            return MPI_PROC_NULL;
        c[d] = (c[d] + dims[d]) % dims[d];
    }
    return c[0] * dims[1] + c[1];
}

/* The neighbour lists of rank r, from the topology's definition. */
static void lists(int t, int r, nbrs_t *n)
{
    int p = ct_size;
    if (t == T_CART_PER || t == T_CART) {
        n->in = n->out = 4;
        for (int d = 0; d < 2; d++) {
            n->src[2 * d] = n->dst[2 * d] = cart_shift(r, d, -1, t == T_CART_PER);
            n->src[2 * d + 1] = n->dst[2 * d + 1] = cart_shift(r, d, 1, t == T_CART_PER);
        }
    } else if (t == T_GRAPH) {             /* ring: next, previous */
        n->in = n->out = p > 1 ? 2 : 0;
        if (p > 1) {
            n->src[0] = n->dst[0] = (r + 1) % p;
            n->src[1] = n->dst[1] = (r - 1 + p) % p;
        }
    } else {                               /* r -> r+1, r+2, r+1, r */
        n->out = 4, n->in = 4;
        int d[4] = { (r + 1) % p, (r + 2) % p, (r + 1) % p, r };
        int s[4] = { r, (r - 2 + 2 * p) % p, (r - 1 + p) % p, (r - 1 + p) % p };
        memcpy(n->dst, d, sizeof d);
        memcpy(n->src, s, sizeof s);
    }
}

/* The sender's slot whose block lands in receive slot i of rank r. */
static int sender_slot(int t, int r, int i)
{
    nbrs_t me, sn;
    lists(t, r, &me);
    int s = me.src[i];
    if (t == T_CART_PER || t == T_CART)
        return i ^ 1;
    int m = 0;
    for (int k = 0; k < i; k++)
        m += me.src[k] == s;
    lists(t, s, &sn);
    for (int j = 0; j < sn.out; j++)
        if (sn.dst[j] == r && m-- == 0)
            return j;
    return -1;
}

static MPI_Comm make(int t)
{
    MPI_Comm c = MPI_COMM_NULL;
    int p = ct_size;
    if (t == T_CART_PER || t == T_CART) {
        int periods[2] = { t == T_CART_PER, t == T_CART_PER };
        CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c));
    } else if (t == T_GRAPH) {
        int index[64], edges[128], e = 0;
        for (int r = 0; r < p; r++) {
            nbrs_t n;
            lists(t, r, &n);
            for (int k = 0; k < n.out; k++)
                edges[e++] = n.dst[k];
            index[r] = e;
        }
        CHECK_RC(MPI_Graph_create(MPI_COMM_WORLD, p, index, edges, 0, &c));
    } else {
        nbrs_t n;
        lists(t, ct_rank, &n);
        int w[MAXN] = { 1, 1, 1, 1 };
        CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n.in, n.src,
                 w, n.out, n.dst, w, MPI_INFO_NULL, 0, &c));
    }
    return c;
}

/* The library's lists must be the definition's. */
static void check_lists(int t, MPI_Comm c, const nbrs_t *n)
{
    if (t == T_CART_PER || t == T_CART) {
        for (int d = 0; d < 2; d++) {
            int s, r;
            MPI_Cart_shift(c, d, 1, &s, &r);
            CHECK(s == n->src[2 * d] && r == n->src[2 * d + 1],
                  "%s: Cart_shift(%d) gives %d %d", tnames[t], d, s, r);
        }
    } else if (t == T_DIST) {
        int in, out, w, src[MAXN], dst[MAXN], sw[MAXN], dw[MAXN];
        MPI_Dist_graph_neighbors_count(c, &in, &out, &w);
        CHECK(in == n->in && out == n->out, "dist graph degrees %d %d", in, out);
        MPI_Dist_graph_neighbors(c, MAXN, src, sw, MAXN, dst, dw);
        for (int i = 0; i < in && i < n->in; i++)
            CHECK(src[i] == n->src[i], "dist graph source %d: %d", i, src[i]);
    }
}

#define VAL(s, j, k) ((s) * 10000 + (j) * 100 + (k))
static int vcnt(int s, int j) { return (s + j) % 3; }   /* zeros included */

/* kind: 0 allgather, 1 allgatherv, 2 alltoall, 3 alltoallv, 4 alltoallw */
static void run(int t, MPI_Comm c, int kind, int form)
{
    static const char *const kn[] = { "allgather", "allgatherv", "alltoall",
                                      "alltoallv", "alltoallw" };
    nbrs_t n;
    lists(t, ct_rank, &n);
    int me = ct_rank, B = 3;        /* room for up to 3 elements per block */
    int sbuf[MAXN * 4], rbuf[MAXN * 8 + 1];
    int W = kind == 4 ? 2 * B + 1 : B + 1;   /* room per receive block */
    int wcounts[MAXN];                        /* alltoallw: vectors */
    int scounts[MAXN], sdispls[MAXN], rcounts[MAXN], rdispls[MAXN];
    MPI_Aint sbytes[MAXN], rbytes[MAXN];
    MPI_Datatype stypes[MAXN], rtypes[MAXN];
    for (int j = 0; j < n.out; j++) {
        scounts[j] = kind == 1 ? vcnt(me, 0) : vcnt(me, j);
        sdispls[j] = (n.out - 1 - j) * B;                 /* reversed */
        sbytes[j] = (MPI_Aint)sdispls[j] * (MPI_Aint)sizeof(int);
        stypes[j] = MPI_INT;
        for (int k = 0; k < B; k++)
            sbuf[j * B + k] = kind <= 1 ? VAL(me, 0, k) : VAL(me, j, k);
    }
    if (kind == 3 || kind == 4)       /* v/w: blocks at the reversed places */
        for (int j = 0; j < n.out; j++)
            for (int k = 0; k < B; k++)
                sbuf[sdispls[j] + k] = VAL(me, j, k);
    for (int i = 0; i < n.in; i++) {
        int s = n.src[i], j = s == MPI_PROC_NULL ? 0 : sender_slot(t, me, i);
        rcounts[i] = s == MPI_PROC_NULL ? 1 : kind == 1 ? vcnt(s, 0) : vcnt(s, j);
        rdispls[i] = (n.in - 1 - i) * W;                 /* reversed, gaps */
        rbytes[i] = (MPI_Aint)rdispls[i] * (MPI_Aint)sizeof(int);
        /* alltoallw receives one strided vector (every other int) */
        wcounts[i] = rcounts[i] > 0 ? 1 : 0;
        rtypes[i] = MPI_INT;
        if (kind == 4 && rcounts[i] > 0) {
            MPI_Type_vector(rcounts[i], 1, 2, MPI_INT, &rtypes[i]);
            MPI_Type_commit(&rtypes[i]);
        }
    }
    int rn = n.in * W + 1;
    for (int x = 0; x < rn; x++)
        rbuf[x] = GAP;
    int rc;
    switch (kind) {
    case 0:
        rc = FORM(form, MPI_Neighbor_allgather(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c),
                  MPI_Ineighbor_allgather(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c, &req_),
                  MPI_Neighbor_allgather_init(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c,
                                              MPI_INFO_NULL, &req_));
        break;
    case 1:
        rc = FORM(form, MPI_Neighbor_allgatherv(sbuf, vcnt(me, 0), MPI_INT, rbuf,
                                                rcounts, rdispls, MPI_INT, c),
                  MPI_Ineighbor_allgatherv(sbuf, vcnt(me, 0), MPI_INT, rbuf, rcounts,
                                           rdispls, MPI_INT, c, &req_),
                  MPI_Neighbor_allgatherv_init(sbuf, vcnt(me, 0), MPI_INT, rbuf, rcounts,
                                               rdispls, MPI_INT, c, MPI_INFO_NULL, &req_));
        break;
    case 2:
        rc = FORM(form, MPI_Neighbor_alltoall(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c),
                  MPI_Ineighbor_alltoall(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c, &req_),
                  MPI_Neighbor_alltoall_init(sbuf, B, MPI_INT, rbuf, B, MPI_INT, c,
                                             MPI_INFO_NULL, &req_));
        break;
    case 3:
        rc = FORM(form, MPI_Neighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf,
                                               rcounts, rdispls, MPI_INT, c),
                  MPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf,
                                          rcounts, rdispls, MPI_INT, c, &req_),
                  MPI_Neighbor_alltoallv_init(sbuf, scounts, sdispls, MPI_INT, rbuf,
                                              rcounts, rdispls, MPI_INT, c,
                                              MPI_INFO_NULL, &req_));
        break;
    default:
        rc = FORM(form, MPI_Neighbor_alltoallw(sbuf, scounts, sbytes, stypes, rbuf,
                                               wcounts, rbytes, rtypes, c),
                  MPI_Ineighbor_alltoallw(sbuf, scounts, sbytes, stypes, rbuf,
                                          wcounts, rbytes, rtypes, c, &req_),
                  MPI_Neighbor_alltoallw_init(sbuf, scounts, sbytes, stypes, rbuf,
                                              wcounts, rbytes, rtypes, c,
                                              MPI_INFO_NULL, &req_));
        for (int i = 0; i < n.in; i++)
            if (rtypes[i] != MPI_INT)
                MPI_Type_free(&rtypes[i]);
        break;
    }
    CHECK(rc == MPI_SUCCESS, "%s %s %s: rc %d", tnames[t], kn[kind],
          ct_form_names[form], rc);
    /* expected: slot i holds the sender's block for it; the rest GAP */
    int want[MAXN * 8 + 1];
    for (int x = 0; x < rn; x++)
        want[x] = GAP;
    for (int i = 0; i < n.in; i++) {
        int s = n.src[i];
        if (s == MPI_PROC_NULL)
            continue;
        int j = sender_slot(t, me, i);
        int cnt = kind == 0 || kind == 2 ? B : rcounts[i];
        int at = kind == 0 || kind == 2 ? i * B : rdispls[i];
        for (int k = 0; k < cnt; k++)
            want[at + (kind == 4 ? 2 * k : k)] = kind <= 1 ? VAL(s, 0, k)
                                                           : VAL(s, j, k);
    }
    for (int x = 0; x < rn; x++)
        CHECK(rbuf[x] == want[x], "%s %s %s: rank %d element %d is %d, "
              "expected %d", tnames[t], kn[kind], ct_form_names[form], me, x,
              rbuf[x], want[x]);
}

/* The large-count forms: Neighbor_alltoallv_c and Neighbor_allgather_c on
 * the same lists (MPI_Count counts, MPI_Aint displacements). */
static void large_count(int t, MPI_Comm c)
{
    nbrs_t n;
    lists(t, ct_rank, &n);
    int me = ct_rank, sbuf[MAXN], rbuf[MAXN + 1], want[MAXN + 1];
    MPI_Count sc[MAXN], rcn[MAXN];
    MPI_Aint sd[MAXN], rd[MAXN];
    for (int j = 0; j < n.out; j++)
        sbuf[j] = VAL(me, j, 0), sc[j] = 1, sd[j] = j;
    for (int i = 0; i < n.in; i++)
        rcn[i] = 1, rd[i] = n.in - 1 - i;
    for (int x = 0; x <= MAXN; x++)
        rbuf[x] = want[x] = GAP;
    for (int i = 0; i < n.in; i++)
        if (n.src[i] != MPI_PROC_NULL)
            want[rd[i]] = VAL(n.src[i], sender_slot(t, me, i), 0);
    CHECK_RC(MPI_Neighbor_alltoallv_c(sbuf, sc, sd, MPI_INT, rbuf, rcn, rd,
                                      MPI_INT, c));
    for (int x = 0; x <= MAXN; x++)
        CHECK(rbuf[x] == want[x], "%s alltoallv_c: [%d] = %d, expected %d",
              tnames[t], x, rbuf[x], want[x]);
    for (int x = 0; x <= MAXN; x++)
        rbuf[x] = want[x] = GAP;
    for (int i = 0; i < n.in; i++)
        if (n.src[i] != MPI_PROC_NULL)
            want[i] = VAL(n.src[i], 0, 0);
    sbuf[0] = VAL(me, 0, 0);
    CHECK_RC(MPI_Neighbor_allgather_c(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, c));
    for (int x = 0; x <= MAXN; x++)
        CHECK(rbuf[x] == want[x], "%s allgather_c: [%d] = %d, expected %d",
              tnames[t], x, rbuf[x], want[x]);
}

static void no_topology(void)
{
    int x = 0, y[4];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Neighbor_allgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TOPOLOGY, "Neighbor_allgather without topology: "
          "class %d", cls);
    MPI_Request req;
    rc = MPI_Ineighbor_alltoallv(&x, y, y, MPI_INT, y, y, y, MPI_INT,
                                 MPI_COMM_WORLD, &req);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TOPOLOGY, "Ineighbor_alltoallv without topology: "
          "class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    if (ct_size > MAXN) {
        printf("neighbor: at most %d ranks\n", MAXN);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Dims_create(ct_size, 2, dims);
    no_topology();
    for (int t = 0; t < T_N; t++) {
        MPI_Comm c = make(t);
        nbrs_t n;
        lists(t, ct_rank, &n);
        check_lists(t, c, &n);
        for (int kind = 0; kind < 5; kind++)
            for (int form = 0; form < CT_NFORMS; form++)
                run(t, c, kind, form);
        large_count(t, c);
        MPI_Comm_free(&c);
    }
    return ct_finish();
}
