/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_util.c - helpers the algorithm builders share: the working
 * representation of reductions, and loading/storing user buffers into it.
 */
#include <stdlib.h>
#include "coll/coll_int.h"

int xb_coll_red_init(xb_coll_red_t *r, MPI_Count count, xb_datatype_t *dt,
                     xb_op_t *op)
{
    r->op = op;
    r->dt = dt;
    r->count = count;
    r->wdt = dt;
    r->wcount = count;
    r->direct = true;
    if (!op->predefined)
        return XB_OK;
    const xb_datatype_t *basic = dt;
    MPI_Count per = 1;
    if (!xb_dt_is_predefined(dt)) {
        basic = xb_dt_basic(dt, &per);
        if (basic == NULL)
            return xb_err_set(XB_ERR_OP, "%s is not defined for datatype %s: "
                              "it mixes several basic types", op->name,
                              xb_dt_name(dt)[0] ? xb_dt_name(dt) : "(derived)");
    }
    int rc = xb_op_check(op, basic);
    if (rc != XB_OK)
        return rc;
    if (basic != dt) {
        r->wdt = (xb_datatype_t *)basic;
        r->wcount = count * per;
        r->direct = false;
    }
    return XB_OK;
}

void *xb_coll_red_load(xb_coll_sched_t *s, const void *ubuf)
{
    void *w = xb_coll_sched_wtmp(s, -1);
    if (w == NULL)
        return NULL;
    if (xb_coll_sched_copy(s, ubuf, s->red.count, s->red.dt, w, s->red.wcount,
                           s->red.wdt) != XB_OK)
        return NULL;
    return w;
}

int xb_coll_red_store(xb_coll_sched_t *s, const void *w, void *ubuf)
{
    if (w == ubuf && s->red.direct)
        return XB_OK;                        /* formed in place (red_acc) */
    return xb_coll_sched_copy(s, w, s->red.wcount, s->red.wdt, ubuf,
                              s->red.count, s->red.dt);
}

void *xb_coll_red_acc(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    if (!s->red.direct || s->red.wcount == 0)
        return xb_coll_red_load(s, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf);
    if (a->sbuf != MPI_IN_PLACE &&
        xb_coll_sched_copy(s, a->sbuf, a->rcount, a->rdt, a->rbuf, a->rcount, a->rdt) != XB_OK)
        return NULL;
    return a->rbuf;
}

char *xb_coll_bytes(xb_coll_sched_t *s, const void *buf, MPI_Count count, xb_datatype_t *dt,
                    bool load)
{
    if (xb_dt_is_contig(dt, count))
        return (char *)buf + xb_dt_true_lb(dt);
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    MPI_Count n = count * xb_dt_size(dt);
    char *tmp = xb_coll_sched_tmp(s, n, byte);
    if (tmp != NULL && load && xb_coll_sched_copy(s, buf, count, dt, tmp, n, byte) != XB_OK)
        return NULL;
    return tmp;
}

int xb_coll_bytes_store(xb_coll_sched_t *s, const char *bytes, void *buf, MPI_Count count,
                        xb_datatype_t *dt)
{
    if (xb_dt_is_contig(dt, count))
        return XB_OK;                        /* bytes is the buffer itself */
    return xb_coll_sched_copy(s, bytes, count * xb_dt_size(dt), xb_dt_from_handle(MPI_BYTE),
                              buf, count, dt);
}

char *xb_coll_bytes_now(void *buf, MPI_Count count, xb_datatype_t *dt, bool load,
                        char **tmp, int *rc)
{
    *tmp = NULL;
    if (xb_dt_is_contig(dt, count))
        return (char *)buf + xb_dt_true_lb(dt);
    MPI_Count n = count * xb_dt_size(dt);
    if ((*tmp = malloc(n > 0 ? (size_t)n : 1)) == NULL) {
        *rc = xb_err_set(XB_ERR_NO_MEM, "no memory to pack %lld bytes of a collective",
                         (long long)n);
        return NULL;
    }
    if (load)
        *rc = xb_dt_copy(buf, count, dt, *tmp, n, xb_dt_from_handle(MPI_BYTE));
    return *tmp;
}

int xb_coll_bytes_now_done(char *tmp, void *buf, MPI_Count count, xb_datatype_t *dt,
                           bool store, int rc)
{
    if (tmp != NULL && store && rc == XB_OK)
        rc = xb_dt_copy(tmp, count * xb_dt_size(dt), xb_dt_from_handle(MPI_BYTE), buf,
                        count, dt);
    free(tmp);
    return rc;
}

int xb_coll_red_bufs(xb_coll_sched_t *s, const xb_coll_args_t *a, const char **src,
                     char **acc)
{
    *src = NULL;
    *acc = NULL;
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK || s->red.wcount == 0)
        return rc;
    const void *usrc = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    if (s->red.direct) {         /* as given: exscan's rank 0 needs no rbuf */
        *src = usrc;
        *acc = a->rbuf;
        return XB_OK;
    }
    *acc = xb_coll_red_load(s, usrc);
    *src = *acc;
    return *acc != NULL ? XB_OK : XB_ERR_NO_MEM;
}

MPI_Count *xb_coll_equal_counts(xb_coll_sched_t *s, int p, MPI_Count count)
{
    MPI_Count *counts = xb_coll_sched_tmp(s, p * (MPI_Count)sizeof(MPI_Count),
                                          xb_dt_from_handle(MPI_BYTE));
    for (int i = 0; counts != NULL && i < p; i++)
        counts[i] = count;
    return counts;
}

int xb_coll_exchange_reduce(xb_coll_sched_t *s, const xb_coll_args_t *a, const char *src,
                            const MPI_Count *off, const MPI_Count *len, char *out,
                            bool own_moves, bool every)
{
    int p = a->comm->size, r = a->comm->rank, rc = XB_OK;
    xb_datatype_t *wdt = s->red.wdt;
    MPI_Aint ext = xb_dt_extent(wdt);
    MPI_Count n = len[r];
    char *piece = xb_coll_sched_wtmp(s, n * p + 1);
    if (piece == NULL)
        return XB_ERR_NO_MEM;
#define PIECE(j) (piece + (MPI_Count)(j) * n * ext)
#define AT(j) (len[j] > 0 ? src + off[j] * ext : src)     /* src: NULL at 0 */
    const char *own = AT(r);
    if (own_moves) {
        rc = xb_coll_sched_copy(s, own, n, wdt, PIECE(r), n, wdt);
        own = PIECE(r);
    }
    for (int j = 0; j < p && rc == XB_OK; j++) {
        if (j == r)
            continue;
        if (n > 0 || every)
            rc = xb_coll_sched_recv(s, PIECE(j), n, wdt, j);
        if (rc == XB_OK && (len[j] > 0 || every))
            rc = xb_coll_sched_send(s, AT(j), len[j], wdt, j);
    }
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    for (int j = p - 1; j >= 0 && rc == XB_OK && n > 0; j--) {
        const char *x = j == r ? own : PIECE(j);
        rc = j == p - 1 ? xb_coll_sched_copy(s, x, n, wdt, out, n, wdt)
                        : xb_coll_sched_reduce(s, x, out, n);
    }
#undef PIECE
#undef AT
    return rc;
}

/* ---- the fold of non-power-of-two sizes (allreduce recdbl, rabenseifner) */
int xb_coll_fold(xb_coll_sched_t *s, void *acc, void *tmp, int rank, int p,
                 xb_coll_fold_t *f)
{
    MPI_Count n = s->red.wcount;
    xb_datatype_t *wdt = s->red.wdt;
    int rc = XB_OK;
    f->pof2 = 1;
    while (f->pof2 * 2 <= p)
        f->pof2 *= 2;
    f->rem = p - f->pof2;
    f->nr = rank - f->rem;
    if (rank >= 2 * f->rem)
        return XB_OK;
    if (rank % 2 == 0) {
        rc = xb_coll_sched_send(s, acc, n, wdt, rank + 1);
        f->nr = -1;
    } else {
        rc = xb_coll_sched_recv(s, tmp, n, wdt, rank - 1);
        if (rc == XB_OK)
            rc = xb_coll_sched_fence(s);
        if (rc == XB_OK)
            rc = xb_coll_sched_reduce(s, tmp, acc, n);   /* x_even op x_odd */
        f->nr = rank / 2;
    }
    return rc == XB_OK ? xb_coll_sched_fence(s) : rc;
}

int xb_coll_unfold(xb_coll_sched_t *s, void *acc, int rank,
                   const xb_coll_fold_t *f)
{
    if (rank >= 2 * f->rem)
        return XB_OK;
    MPI_Count n = s->red.wcount;
    int rc = rank % 2 == 1 ? xb_coll_sched_send(s, acc, n, s->red.wdt, rank - 1)
                           : xb_coll_sched_recv(s, acc, n, s->red.wdt, rank + 1);
    return rc == XB_OK ? xb_coll_sched_fence(s) : rc;
}

MPI_Count xb_coll_max_count(const MPI_Count *counts, int n)
{
    MPI_Count m = 0;
    for (int i = 0; i < n; i++)
        m = counts[i] > m ? counts[i] : m;
    return m;
}

size_t xb_coll_direct_red(xb_coll_red_t *red, const xb_coll_args_t *a)
{
    if (xb_coll_flow_red(red, a->rcount, a->rdt, a->op) != XB_OK) {
        xb_err_clear();
        return 0;
    }
    size_t wb = xb_coll_flow_wbytes(red);
    return xb_dt_is_predefined(red->wdt) && wb <= XB_COLL_DIRECT_MAX ? wb : 0;
}
