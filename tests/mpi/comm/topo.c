/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * topo.c - topologies. Dims_create against the standard's examples and
 * its errors; a 2-D Cartesian grid (periodic in dimension 0 only): coords,
 * rank (wrap in the periodic dimension, error in the other), shifts checked
 * against neighbours computed by hand, a message along each shift, Cart_get,
 * Cart_sub of each dimension, Cart_map, Topo_test, and ranks beyond the
 * grid getting MPI_COMM_NULL; a ring as a graph (neighbours, get, map); a
 * ring as a distributed graph made both adjacent and from edges, with
 * weights; topology errors on a communicator without one.
 */
#include "ctest.h"

static void dims_examples(void)
{
    int d[3];
    d[0] = d[1] = 0;
    CHECK_RC(MPI_Dims_create(6, 2, d));
    CHECK(d[0] == 3 && d[1] == 2, "dims(6,2) = %d,%d", d[0], d[1]);
    d[0] = d[1] = 0;
    MPI_Dims_create(7, 2, d);
    CHECK(d[0] == 7 && d[1] == 1, "dims(7,2) = %d,%d", d[0], d[1]);
    d[0] = 0, d[1] = 3, d[2] = 0;
    MPI_Dims_create(6, 3, d);
    CHECK(d[0] == 2 && d[1] == 3 && d[2] == 1, "dims(6,3,{0,3,0}) = %d,%d,%d",
          d[0], d[1], d[2]);
    d[0] = 0, d[1] = 3, d[2] = 0;
    CHECK(ct_class(MPI_Dims_create(7, 3, d)) == MPI_ERR_DIMS, "dims(7,3,{0,3,0}) error");
    d[0] = d[1] = d[2] = 0;
    MPI_Dims_create(24, 3, d);
    CHECK(d[0] == 4 && d[1] == 3 && d[2] == 2, "dims(24,3) = %d,%d,%d", d[0], d[1], d[2]);
    d[0] = d[1] = d[2] = 0;                /* smallest spread, not smallest max */
    MPI_Dims_create(10800, 3, d);
    CHECK(d[0] == 27 && d[1] == 20 && d[2] == 20, "dims(10800,3) = %d,%d,%d", d[0],
          d[1], d[2]);
    d[0] = -1, d[1] = 0;
    CHECK(ct_class(MPI_Dims_create(4, 2, d)) == MPI_ERR_DIMS, "negative dims entry");
}

static void cart(void)
{
    int p = ct_size, dims[2] = { 0, 0 }, periods[2] = { 1, 0 };
    MPI_Dims_create(p, 2, dims);
    MPI_Comm c;
    CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c));
    int rank, coords[2], status;
    MPI_Comm_rank(c, &rank);
    MPI_Topo_test(c, &status);
    CHECK(status == MPI_CART, "topo_test %d", status);
    MPI_Cart_coords(c, rank, 2, coords);
    CHECK(coords[0] == rank / dims[1] && coords[1] == rank % dims[1], "coords");
    int r2 = -1;
    MPI_Cart_rank(c, coords, &r2);
    CHECK(r2 == rank, "cart_rank %d want %d", r2, rank);
    int wrap[2] = { coords[0] + dims[0], coords[1] };
    MPI_Cart_rank(c, wrap, &r2);
    CHECK(r2 == rank, "periodic wrap %d", r2);
    int off[2] = { coords[0], dims[1] };
    CHECK(ct_class(MPI_Cart_rank(c, off, &r2)) == MPI_ERR_ARG, "non-periodic overflow");
    /* shifts by hand */
    for (int dir = 0; dir < 2; dir++) {
        int src, dst, esrc, edst, cs = coords[dir];
        MPI_Cart_shift(c, dir, 1, &src, &dst);
        int a[2] = { coords[0], coords[1] }, b[2] = { coords[0], coords[1] };
        a[dir] = cs + 1;
        b[dir] = cs - 1;
        if (dir == 0) {
            a[0] = (a[0] + dims[0]) % dims[0];
            b[0] = (b[0] + dims[0]) % dims[0];
            edst = a[0] * dims[1] + a[1];
            esrc = b[0] * dims[1] + b[1];
        } else {
            edst = a[1] < dims[1] ? a[0] * dims[1] + a[1] : MPI_PROC_NULL;
            esrc = b[1] >= 0 ? b[0] * dims[1] + b[1] : MPI_PROC_NULL;
        }
        CHECK(src == esrc && dst == edst, "shift dir %d: %d,%d want %d,%d", dir,
              src, dst, esrc, edst);
        int got = -7;
        MPI_Sendrecv(&rank, 1, MPI_INT, dst, dir, &got, 1, MPI_INT, src, dir, c,
                     MPI_STATUS_IGNORE);
        CHECK(got == (src == MPI_PROC_NULL ? -7 : src), "shift message %d", got);
    }
    int gd[2], gp[2], gc[2];
    MPI_Cart_get(c, 2, gd, gp, gc);
    CHECK(gd[0] == dims[0] && gd[1] == dims[1] && gp[0] == 1 && gp[1] == 0 &&
          gc[0] == coords[0] && gc[1] == coords[1], "cart_get");
    for (int keep = 0; keep < 2; keep++) {
        int remain[2] = { keep == 0, keep == 1 }, nd = -1, sz, sr;
        MPI_Comm s;
        CHECK_RC(MPI_Cart_sub(c, remain, &s));
        MPI_Cartdim_get(s, &nd);
        MPI_Comm_size(s, &sz);
        MPI_Comm_rank(s, &sr);
        CHECK(nd == 1 && sz == dims[keep] && sr == coords[keep], "cart_sub keep %d: "
              "ndims %d size %d rank %d", keep, nd, sz, sr);
        MPI_Comm_free(&s);
    }
    int nr;
    MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &nr);
    CHECK(nr == ct_rank, "cart_map %d", nr);
    MPI_Comm_free(&c);
    /* a grid smaller than the world */
    int one[1] = { 1 };
    CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, 1, one, periods, 1, &c));
    CHECK((ct_rank == 0) == (c != MPI_COMM_NULL), "1-process grid");
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    int big[1] = { ct_size + 1 };
    CHECK(ct_class(MPI_Cart_create(MPI_COMM_WORLD, 1, big, periods, 0, &c)) == MPI_ERR_ARG,
          "grid larger than the communicator");
}

static void graph(void)
{
    int p = ct_size, *index = ct_malloc((size_t)p * sizeof(int));
    int *edges = ct_malloc((size_t)(2 * p) * sizeof(int)), ne = 0;
    for (int i = 0; i < p; i++) {          /* ring: i-1 and i+1 */
        edges[ne++] = (i + p - 1) % p;
        edges[ne++] = (i + 1) % p;
        index[i] = ne;
    }
    MPI_Comm g;
    CHECK_RC(MPI_Graph_create(MPI_COMM_WORLD, p, index, edges, 0, &g));
    int st, nn, nedges, cnt, nb[2];
    MPI_Topo_test(g, &st);
    CHECK(st == MPI_GRAPH, "graph topo_test %d", st);
    MPI_Graphdims_get(g, &nn, &nedges);
    CHECK(nn == p && nedges == 2 * p, "graphdims %d %d", nn, nedges);
    MPI_Graph_neighbors_count(g, ct_rank, &cnt);
    MPI_Graph_neighbors(g, ct_rank, 2, nb);
    CHECK(cnt == 2 && nb[0] == (ct_rank + p - 1) % p && nb[1] == (ct_rank + 1) % p,
          "graph neighbours");
    int *gi = ct_malloc((size_t)p * sizeof(int)), *ge = ct_malloc((size_t)(2 * p) * sizeof(int));
    MPI_Graph_get(g, p, 2 * p, gi, ge);
    CHECK(gi[p - 1] == 2 * p && ge[1] == 1 % p, "graph_get");
    int nr;
    MPI_Graph_map(MPI_COMM_WORLD, p, index, edges, &nr);
    CHECK(nr == ct_rank, "graph_map %d", nr);
    CHECK(ct_class(MPI_Cartdim_get(g, &nn)) == MPI_ERR_TOPOLOGY, "cartdim on a graph");
    MPI_Comm_free(&g);
    free(gi), free(ge), free(index), free(edges);
}

static void check_dist(MPI_Comm d, const char *what)
{
    int p = ct_size, in, out, w, st;
    MPI_Topo_test(d, &st);
    CHECK(st == MPI_DIST_GRAPH, "%s: topo_test %d", what, st);
    MPI_Dist_graph_neighbors_count(d, &in, &out, &w);
    CHECK(in == 1 && out == 1 && w, "%s: counts %d %d %d", what, in, out, w);
    int s, sw, t, tw;
    MPI_Dist_graph_neighbors(d, 1, &s, &sw, 1, &t, &tw);
    CHECK(s == (ct_rank + p - 1) % p && sw == s + 100, "%s: source %d w %d", what, s, sw);
    CHECK(t == (ct_rank + 1) % p && tw == ct_rank + 100, "%s: dest %d w %d", what, t, tw);
}

static void dist_graph(void)
{
    int p = ct_size, src = (ct_rank + p - 1) % p, dst = (ct_rank + 1) % p;
    int sw = src + 100, dw = ct_rank + 100;
    MPI_Comm d;
    CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, &sw, 1, &dst, &dw,
                                            MPI_INFO_NULL, 0, &d));
    check_dist(d, "adjacent");
    MPI_Comm_free(&d);
    /* from edges: rank r declares the edge (r+1)%p -> (r+2)%p */
    int a = (ct_rank + 1) % p, deg = 1, b = (ct_rank + 2) % p, w = a + 100;
    CHECK_RC(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &a, &deg, &b, &w, MPI_INFO_NULL,
                                   0, &d));
    check_dist(d, "create");
    MPI_Comm_free(&d);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    dims_examples();
    cart();
    graph();
    dist_graph();
    int st, nd;
    MPI_Topo_test(MPI_COMM_WORLD, &st);
    CHECK(st == MPI_UNDEFINED, "world topo_test %d", st);
    CHECK(ct_class(MPI_Cartdim_get(MPI_COMM_WORLD, &nd)) == MPI_ERR_TOPOLOGY,
          "cartdim on the world");
    return ct_finish();
}
