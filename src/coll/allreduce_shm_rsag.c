/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_shm_rsag.c - large allreduce through the node's shared memory:
 * a reduce-scatter then an allgather, both through the slots, in rounds of
 * one slot of each rank's vector.
 *
 * Round k covers m working elements of the vector, cut into p parts (part
 * j is rank j's). Every rank copies its m elements into the input region
 * of its slot; after a node barrier rank j reduces part j over all p slots
 * (x0 op (x1 op ... x_last), rank order: non-commutative ops are right,
 * and every element is computed by one rank only, so all ranks get
 * bit-identical results), writes it into its result buffer and into the
 * result region of its slot; after the next barrier every rank copies the
 * others' parts out of their result regions. Per rank and round: one copy
 * of the round in, 1/p of it reduced over p operands, one copy out - where
 * allreduce_shm (every rank reduces every slot) reduces all of it over p
 * operands, and messages move it log2(p) times.
 *
 * The phases overlap, one node barrier per round (rounds alternate the
 * two areas, xb_coll_node_parity):
 *
 *   copy in 0 | B | reduce 0, copy in 1 | B | out 0, reduce 1, in 2 | B ...
 *
 * In phase k a rank writes round k+1's input into the other area, whose
 * input region the others finished reading in phase k-1 (before the
 * barrier), while they read round k-1's results from its result region:
 * the regions differ. With MPI_IN_PLACE the reduction overwrites the
 * rank's own part of its input, so the whole round goes into the slot and
 * the rank reads its own operand from there.
 *
 * Blocking form, node-complete communicators, a predefined working type
 * (xb_coll_node_rounds_fit); derived types of one basic type go through a
 * working copy (coll_util.c). At two ranks the rounds begin with a flow
 * call that learns whether the peer is in them too: counts on both sides
 * of the 64 KiB where the table goes from the cells to the rounds meet in
 * pair's messages and fail there (xb_coll_pair_rounds_agree).
 */
#include "coll/coll_int.h"

typedef struct rsag {
    xb_coll_sched_t *s;
    const xb_comm_t *comm;
    int              p, me;
    MPI_Aint         ext;
    MPI_Count        per;       /* elements per round (input region)      */
    const char      *in;        /* working vectors: input and result      */
    char            *out;
    bool             inplace;   /* in == out                              */
} rsag_t;

/* First element of part j of a round of m elements. */
static MPI_Count part(MPI_Count m, int p, int j)
{
    MPI_Count q = m / p, r = m % p;
    return j * q + (j < r ? j : r);
}

static char *slot(const rsag_t *g, int par, int j)
{
    return xb_coll_node_slot(g->comm, par, j);
}

/* Round k's input (m elements from element off) into this rank's slot:
 * all of it in place, else all but its own part. */
static int copy_in(const rsag_t *g, int par, MPI_Count off, MPI_Count m)
{
    xb_datatype_t *wdt = g->s->red.wdt;
    const char *src = g->in + off * g->ext;
    char *dst = slot(g, par, g->me);
    if (g->inplace)
        return xb_coll_sched_copy(g->s, src, m, wdt, dst, m, wdt);
    MPI_Count lo = part(m, g->p, g->me), hi = part(m, g->p, g->me + 1);
    int rc = XB_OK;
    if (lo > 0)
        rc = xb_coll_sched_copy(g->s, src, lo, wdt, dst, lo, wdt);
    if (rc == XB_OK && hi < m)
        rc = xb_coll_sched_copy(g->s, src + hi * g->ext, m - hi, wdt, dst + hi * g->ext,
                                m - hi, wdt);
    return rc;
}

/* This rank's part of round k, right to left over the slots, into out and
 * into the result region of its slot. */
static int reduce_mine(const rsag_t *g, int par, MPI_Count off, MPI_Count m)
{
    xb_datatype_t *wdt = g->s->red.wdt;
    MPI_Count lo = part(m, g->p, g->me), cnt = part(m, g->p, g->me + 1) - lo;
    if (cnt == 0)
        return XB_OK;
    char *acc = g->out + (off + lo) * g->ext;
    int rc = XB_OK;
    for (int j = g->p - 1; j >= 0 && rc == XB_OK; j--) {
        const char *x = j != g->me || g->inplace ? slot(g, par, j) + lo * g->ext
                                                 : g->in + (off + lo) * g->ext;
        if (j == g->p - 1)
            rc = xb_coll_sched_copy(g->s, x, cnt, wdt, acc, cnt, wdt);
        else
            rc = xb_coll_sched_reduce(g->s, x, acc, cnt);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_copy(g->s, acc, cnt, wdt, slot(g, par, g->me) + g->per * g->ext,
                                cnt, wdt);
    return rc;
}

/* The other ranks' parts of round k from their result regions. */
static int copy_out(const rsag_t *g, int par, MPI_Count off, MPI_Count m)
{
    xb_datatype_t *wdt = g->s->red.wdt;
    int rc = XB_OK;
    for (int j = 0; j < g->p && rc == XB_OK; j++) {
        MPI_Count lo = part(m, g->p, j), cnt = part(m, g->p, j + 1) - lo;
        if (j != g->me && cnt > 0)
            rc = xb_coll_sched_copy(g->s, slot(g, par, j) + g->per * g->ext, cnt, wdt,
                                    g->out + (off + lo) * g->ext, cnt, wdt);
    }
    return rc;
}

static int rounds(rsag_t *g, MPI_Count n)
{
    int rc = XB_OK, par = xb_coll_node_parity(), prev = -1;
    MPI_Count off = 0, m = n < g->per ? n : g->per, poff = 0, pm = 0;
    rc = copy_in(g, par, off, m);
    xb_coll_node_sign(g->comm, par, n * g->ext, n * g->ext);   /* the whole vector */
    while (rc == XB_OK && m > 0) {
        /* the first round's barrier checks the signatures: every rank
         * stops there alike when the vectors differ */
        rc = off == 0 ? xb_coll_sched_node_barrier_check(g->s, par, NULL, NULL)
                      : xb_coll_sched_node_barrier(g->s);
        if (rc == XB_OK && prev >= 0)
            rc = copy_out(g, prev, poff, pm);
        if (rc == XB_OK)
            rc = reduce_mine(g, par, off, m);
        MPI_Count noff = off + m, nm = n - noff < g->per ? n - noff : g->per;
        int npar = nm > 0 ? xb_coll_node_parity() : -1;
        if (rc == XB_OK && nm > 0)
            rc = copy_in(g, npar, noff, nm);
        prev = par, poff = off, pm = m;
        par = npar, off = noff, m = nm;
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_node_barrier(g->s);
    if (rc == XB_OK)
        rc = copy_out(g, prev, poff, pm);
    return rc;
}

int xb_coll_allreduce_shm_rsag(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    if (a->comm->size == 2) {          /* the peer may be in the cells */
        int rc = xb_coll_pair_rounds_agree(a);
        if (rc != XB_OK)
            return rc == XB_ERR_AGAIN ? xb_coll_allreduce_pair(a, s->tag) : rc;
    }
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK || s->red.wcount == 0)
        return rc;
    rsag_t g = { .s = s, .comm = a->comm, .p = a->comm->size, .me = a->comm->rank,
                 .ext = xb_dt_extent(s->red.wdt) };
    /* input region: per elements; result region: up to ceil(per / p) */
    MPI_Count cap = (MPI_Count)xb_coll_node_slot_size() / g.ext;
    g.per = (cap - 1) * g.p / (g.p + 1);
    if (g.per < 1)
        return xb_err_set(XB_ERR_INTERN, "node slots of %zu bytes hold no round of "
                          "%s", xb_coll_node_slot_size(), xb_dt_name(s->red.wdt));
    const void *ubuf = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    if (s->red.direct) {
        g.in = ubuf;
        g.out = a->rbuf;
    } else {
        g.in = xb_coll_red_load(s, ubuf);
        g.out = xb_coll_sched_wtmp(s, -1);
        if (g.in == NULL || g.out == NULL)
            return XB_ERR_NO_MEM;
    }
    g.inplace = g.in == g.out;
    /* rounds of equal size: the pipeline stays balanced */
    MPI_Count n = s->red.wcount, nr = (n + g.per - 1) / g.per;
    g.per = (n + nr - 1) / nr;
    rc = rounds(&g, n);
    if (rc == XB_OK && !s->red.direct)
        rc = xb_coll_red_store(s, g.out, a->rbuf);
    return rc;
}
