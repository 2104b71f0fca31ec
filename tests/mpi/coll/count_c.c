/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * count_c.c - the large-count (_c) entry points of the collectives, with
 * MPI_Count counts and MPI_Aint displacements: Bcast_c, Allreduce_c,
 * Gatherv_c, Allgatherv_c, Alltoallv_c, Alltoallw_c, Reduce_scatter_c,
 * Ireduce_scatter_block_c, Iexscan_c, Scan_init_c, Reduce_local_c; and
 * argument errors of the new collectives reported with MPI_ERRORS_RETURN
 * (the library stays usable afterwards).
 */
#include "ctest.h"

#define V(s, d, k) ((s) * 1000 + (d) * 10 + (k))

static void movers(void)
{
    int p = ct_size, me = ct_rank;
    MPI_Count cnt[64], sc[64], rc[64];
    MPI_Aint dsp[64], sd[64], rd[64];
    MPI_Datatype ty[64];
    int *all = ct_malloc(sizeof(int) * (size_t)(3 * p + 1));
    int mine[3], bc[5] = { 0 };
    for (int k = 0; k < 5; k++)
        bc[k] = me == 0 ? V(0, 0, k) : -1;
    CHECK_RC(MPI_Bcast_c(bc, 5, MPI_INT, 0, MPI_COMM_WORLD));
    for (int k = 0; k < 5; k++)
        CHECK(bc[k] == V(0, 0, k), "bcast_c [%d] = %d", k, bc[k]);
    MPI_Aint off = 0;
    for (int i = 0; i < p; i++) {
        cnt[i] = i % 3 + 1;
        dsp[i] = off;
        off += cnt[i];
    }
    for (int k = 0; k < me % 3 + 1; k++)
        mine[k] = V(me, 0, k);
    CHECK_RC(MPI_Gatherv_c(mine, me % 3 + 1, MPI_INT, all, cnt, dsp, MPI_INT, p - 1, MPI_COMM_WORLD));
    if (me == p - 1)
        for (int i = 0; i < p; i++)
            for (int k = 0; k < cnt[i]; k++)
                CHECK(all[dsp[i] + k] == V(i, 0, k), "gatherv_c %d[%d]", i, k);
    for (int x = 0; x < off; x++)
        all[x] = -1;
    CHECK_RC(MPI_Allgatherv_c(mine, me % 3 + 1, MPI_INT, all, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < p; i++)
        for (int k = 0; k < cnt[i]; k++)
            CHECK(all[dsp[i] + k] == V(i, 0, k), "allgatherv_c %d[%d] = %d", i, k, all[dsp[i] + k]);
    int *s = ct_malloc(sizeof(int) * (size_t)p), *r = ct_malloc(sizeof(int) * (size_t)p);
    for (int j = 0; j < p; j++) {
        sc[j] = rc[j] = 1;
        sd[j] = rd[j] = p - 1 - j;        /* reversed layout both sides */
        s[p - 1 - j] = V(me, j, 0);
        ty[j] = MPI_INT;
    }
    CHECK_RC(MPI_Alltoallv_c(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD));
    for (int j = 0; j < p; j++)
        CHECK(r[p - 1 - j] == V(j, me, 0), "alltoallv_c from %d: %d", j, r[p - 1 - j]);
    for (int j = 0; j < p; j++)
        sd[j] *= (MPI_Aint)sizeof(int), rd[j] *= (MPI_Aint)sizeof(int), r[j] = -1;
    CHECK_RC(MPI_Alltoallw_c(s, sc, sd, ty, r, rc, rd, ty, MPI_COMM_WORLD));
    for (int j = 0; j < p; j++)
        CHECK(r[p - 1 - j] == V(j, me, 0), "alltoallw_c from %d: %d", j, r[p - 1 - j]);
    free(s);
    free(r);
    free(all);
}

static void reductions(void)
{
    int p = ct_size, me = ct_rank;
    MPI_Count counts[64];
    long in[128] = { 0 }, out[128];
    for (int i = 0; i < p; i++)
        counts[i] = 2;
    for (int k = 0; k < 2 * p; k++)
        in[k] = me + k;
    CHECK_RC(MPI_Allreduce_c(in, out, 2 * p, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    for (int k = 0; k < 2 * p; k++)
        CHECK(out[k] == (long)p * (p - 1) / 2 + (long)p * k, "allreduce_c [%d]", k);
    CHECK_RC(MPI_Reduce_scatter_c(in, out, counts, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    for (int k = 0; k < 2; k++)
        CHECK(out[k] == (long)p * (p - 1) / 2 + (long)p * (2 * me + k), "reduce_scatter_c [%d]", k);
    MPI_Request rq[2];
    long ex = -5, sc_in = me + 1, sc_out = 0;
    CHECK_RC(MPI_Ireduce_scatter_block_c(in, out, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &rq[0]));
    CHECK_RC(MPI_Iexscan_c(&sc_in, &ex, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &rq[1]));
    CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < 2; k++)
        CHECK(out[k] == p - 1 + 2 * me + k, "ireduce_scatter_block_c [%d] = %ld", k, out[k]);
    if (me > 0)
        CHECK(ex == (long)me * (me + 1) / 2, "iexscan_c %ld", ex);
    CHECK_RC(MPI_Scan_init_c(&sc_in, &sc_out, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &rq[0]));
    for (int it = 0; it < 3; it++) {
        CHECK_RC(MPI_Start(&rq[0]));
        CHECK_RC(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
        CHECK(sc_out == (long)(me + 1) * (me + 2) / 2, "scan_init_c %ld", sc_out);
    }
    CHECK_RC(MPI_Request_free(&rq[0]));
    long a[3] = { 1, 2, 3 }, b[3] = { 10, 20, 30 };
    CHECK_RC(MPI_Reduce_local_c(a, b, 3, MPI_LONG, MPI_PROD));
    CHECK(b[0] == 10 && b[1] == 40 && b[2] == 90, "reduce_local_c");
}

/* Errors: a clear class, and the library still works afterwards. */
static void errors(void)
{
    int p = ct_size, me = ct_rank, x = 1, y = 0, cls;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int counts[64], displs[64];
    for (int i = 0; i < p; i++)
        counts[i] = 1, displs[i] = i;
    counts[p - 1] = -1;
    int rc = MPI_Allgatherv(&x, 1, MPI_INT, &y, counts, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "allgatherv with a negative count: class %d", cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Allgatherv") && strstr(msg, "recvcounts"), "message: %s", msg);
    counts[p - 1] = 1;
    rc = MPI_Scan(&x, &y, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OP, "scan with MPI_REPLACE: class %d", cls);
    rc = MPI_Exscan(&x, &y, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OP, "exscan SUM on MPI_2INT: class %d", cls);
    MPI_Request req;
    rc = MPI_Igatherv(MPI_IN_PLACE, 1, MPI_INT, &y, counts, displs, MPI_INT,
                      (me + 1) % p, MPI_COMM_WORLD, &req);
    if (p > 1) {
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_BUFFER, "igatherv in place off the root: class %d", cls);
    } else {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    rc = MPI_Reduce_scatter_block(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OP, "reduce_scatter_block with MPI_OP_NULL: class %d", cls);
    /* still usable */
    CHECK_RC(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(y == p, "allreduce after errors: %d", y);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    if (ct_size > 64)
        MPI_Abort(MPI_COMM_WORLD, 1);
    movers();
    reductions();
    errors();
    return ct_finish();
}
