/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_select.c - which algorithm runs: the algorithm registry, the ordered
 * rule table (first match wins), the XB_COLL_ALGO override, and the
 * xb_coll_* entry points that consult them.
 *
 * Issue 2 rules are simple on purpose (one textbook algorithm per
 * collective); later issues add size/bytes/topology rules and algorithms
 * without touching the algorithm files.
 */
#include <stdio.h>
#include <string.h>
#include "coll/coll_int.h"
#include "runtime/tunable.h"

XB_TUNABLE(COLL_ALGO, XB_TT_STRING, "", XB_TL_TUNER,
           "Force collective algorithms by name: a comma-separated list of "
           "collective=algorithm, e.g. bcast=linear,allreduce=reduce_bcast");

static const char *const kind_names[XB_COLL_NKINDS] = {
    "barrier", "bcast", "reduce", "allreduce", "gather", "scatter",
    "allgather", "alltoall",
};

typedef struct {
    xb_coll_kind_t kind;
    const char    *name;
    xb_coll_fn_t   fn;
    bool           needs_commute;   /* only valid for commutative ops */
} algo_t;

static const algo_t algos[] = {
    { XB_COLL_BARRIER,   "dissemination", xb_coll_barrier_dissemination, false },
    { XB_COLL_BCAST,     "binomial",      xb_coll_bcast_binomial, false },
    { XB_COLL_BCAST,     "linear",        xb_coll_bcast_linear, false },
    { XB_COLL_REDUCE,    "binomial",      xb_coll_reduce_binomial, true },
    { XB_COLL_REDUCE,    "ordered",       xb_coll_reduce_ordered, false },
    { XB_COLL_ALLREDUCE, "recdbl",        xb_coll_allreduce_recdbl, false },
    { XB_COLL_ALLREDUCE, "reduce_bcast",  xb_coll_allreduce_reduce_bcast, false },
    { XB_COLL_GATHER,    "linear",        xb_coll_gather_linear, false },
    { XB_COLL_SCATTER,   "linear",        xb_coll_scatter_linear, false },
    { XB_COLL_ALLGATHER, "ring",          xb_coll_allgather_ring, false },
    { XB_COLL_ALLTOALL,  "pairwise",      xb_coll_alltoall_pairwise, false },
};

/* The rule table: for each collective, the first rule whose conditions hold
 * names the algorithm. min_size: communicator size at least this. */
typedef struct {
    xb_coll_kind_t kind;
    int            min_size;
    const char    *algo;
} rule_t;

static const rule_t rules[] = {
    { XB_COLL_BARRIER,   1, "dissemination" },
    { XB_COLL_BCAST,     1, "binomial" },
    { XB_COLL_REDUCE,    1, "binomial" },   /* skipped for non-commutative ops */
    { XB_COLL_REDUCE,    1, "ordered" },
    { XB_COLL_ALLREDUCE, 1, "recdbl" },
    { XB_COLL_GATHER,    1, "linear" },
    { XB_COLL_SCATTER,   1, "linear" },
    { XB_COLL_ALLGATHER, 1, "ring" },
    { XB_COLL_ALLTOALL,  1, "pairwise" },
};

static const algo_t *forced[XB_COLL_NKINDS];

static const algo_t *find_algo(xb_coll_kind_t kind, const char *name, size_t len)
{
    for (size_t i = 0; i < XB_ARRAY_LEN(algos); i++)
        if (algos[i].kind == kind && strlen(algos[i].name) == len &&
            strncmp(algos[i].name, name, len) == 0)
            return &algos[i];
    return NULL;
}

static bool usable(const algo_t *al, const xb_coll_args_t *a)
{
    return !al->needs_commute || a->op == NULL || a->op->commute;
}

xb_coll_fn_t xb_coll_select(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    if (forced[kind] != NULL && usable(forced[kind], a))
        return forced[kind]->fn;
    for (size_t i = 0; i < XB_ARRAY_LEN(rules); i++) {
        if (rules[i].kind != kind || a->comm->size < rules[i].min_size)
            continue;
        const algo_t *al = find_algo(kind, rules[i].algo, strlen(rules[i].algo));
        if (al != NULL && usable(al, a))
            return al->fn;
    }
    return NULL;   /* not reached: every kind has a catch-all rule */
}

/* "bcast=linear,allreduce=reduce_bcast" */
static int parse_force(const char *s)
{
    while (s != NULL && *s != '\0') {
        const char *end = strchr(s, ',');
        size_t len = end != NULL ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        int k = -1;
        for (int i = 0; eq != NULL && i < XB_COLL_NKINDS; i++)
            if (strlen(kind_names[i]) == (size_t)(eq - s) &&
                strncmp(kind_names[i], s, (size_t)(eq - s)) == 0)
                k = i;
        const algo_t *al = k < 0 ? NULL
                         : find_algo((xb_coll_kind_t)k, eq + 1, len - (size_t)(eq - s) - 1);
        if (al == NULL)
            return xb_err_set(XB_ERR_ARG, "XB_COLL_ALGO: '%.*s' names no known "
                              "collective=algorithm pair", (int)len, s);
        forced[k] = al;
        s = end != NULL ? end + 1 : NULL;
    }
    return XB_OK;
}

int xb_coll_init(void)
{
    memset(forced, 0, sizeof(forced));
    return parse_force(xb_tn_COLL_ALGO.v.s);
}

void xb_coll_fini(void)
{
    memset(forced, 0, sizeof(forced));
}

/* ---- entry points ------------------------------------------------------ */
static int run(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    a->comm->coll_seq++;
    return xb_coll_select(kind, a)(a);
}

int xb_coll_barrier(xb_comm_t *comm)
{
    if (comm->size == 1)
        return XB_OK;
    xb_coll_args_t a = { .comm = comm };
    return run(XB_COLL_BARRIER, &a);
}

int xb_coll_bcast(void *buf, MPI_Count count, xb_datatype_t *dt, int root,
                  xb_comm_t *comm)
{
    if (count == 0 || comm->size == 1)
        return XB_OK;
    xb_coll_args_t a = { .rbuf = buf, .rcount = count, .rdt = dt, .root = root,
                         .comm = comm };
    return run(XB_COLL_BCAST, &a);
}

int xb_coll_reduce(const void *sbuf, void *rbuf, MPI_Count count,
                   xb_datatype_t *dt, xb_op_t *op, int root, xb_comm_t *comm)
{
    if (count == 0)
        return XB_OK;
    xb_coll_args_t a = { .sbuf = sbuf, .rbuf = rbuf, .rcount = count, .rdt = dt,
                         .op = op, .root = root, .comm = comm };
    return run(XB_COLL_REDUCE, &a);
}

int xb_coll_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                      xb_datatype_t *dt, xb_op_t *op, xb_comm_t *comm)
{
    if (count == 0)
        return XB_OK;
    xb_coll_args_t a = { .sbuf = sbuf, .rbuf = rbuf, .rcount = count, .rdt = dt,
                         .op = op, .comm = comm };
    return run(XB_COLL_ALLREDUCE, &a);
}


int xb_coll_gather(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                   void *rbuf, MPI_Count rcount, xb_datatype_t *rdt, int root,
                   xb_comm_t *comm)
{
    xb_coll_args_t a = { sbuf, scount, sdt, rbuf, rcount, rdt, NULL, root, comm };
    return run(XB_COLL_GATHER, &a);
}

int xb_coll_scatter(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                    void *rbuf, MPI_Count rcount, xb_datatype_t *rdt, int root,
                    xb_comm_t *comm)
{
    xb_coll_args_t a = { sbuf, scount, sdt, rbuf, rcount, rdt, NULL, root, comm };
    return run(XB_COLL_SCATTER, &a);
}

int xb_coll_allgather(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                      void *rbuf, MPI_Count rcount, xb_datatype_t *rdt,
                      xb_comm_t *comm)
{
    xb_coll_args_t a = { sbuf, scount, sdt, rbuf, rcount, rdt, NULL, 0, comm };
    return run(XB_COLL_ALLGATHER, &a);
}

int xb_coll_alltoall(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                     void *rbuf, MPI_Count rcount, xb_datatype_t *rdt,
                     xb_comm_t *comm)
{
    xb_coll_args_t a = { sbuf, scount, sdt, rbuf, rcount, rdt, NULL, 0, comm };
    return run(XB_COLL_ALLTOALL, &a);
}
