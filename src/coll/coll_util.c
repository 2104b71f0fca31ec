/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_util.c - helpers every collective algorithm uses: point-to-point on
 * the collective context, temporary buffers, reduction working buffers.
 */
#include <stdlib.h>
#include "coll/coll_int.h"
#include "pt2pt/pt2pt.h"

int xb_coll_send(const void *buf, MPI_Count count, xb_datatype_t *dt, int dest,
                 int tag, xb_comm_t *comm)
{
    return xb_pt2pt_send(buf, count, dt, dest, tag, comm, 1);
}

int xb_coll_recv(void *buf, MPI_Count count, xb_datatype_t *dt, int src,
                 int tag, xb_comm_t *comm)
{
    return xb_pt2pt_recv(buf, count, dt, src, tag, comm, 1, NULL);
}

int xb_coll_waitall(int n, xb_request_t **reqs)
{
    int rc = XB_OK;
    for (int i = 0; i < n; i++) {
        if (reqs[i] == NULL)
            continue;
        int r = xb_request_wait(reqs[i], NULL);
        if (r != XB_OK && rc == XB_OK)
            rc = r;
        xb_request_release(reqs[i]);
        reqs[i] = NULL;
    }
    return rc;
}

int xb_coll_sendrecv(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                     int dest, void *rbuf, MPI_Count rcount,
                     xb_datatype_t *rdt, int src, int tag, xb_comm_t *comm)
{
    xb_request_t *reqs[2] = { NULL, NULL };
    int rc = xb_pt2pt_irecv(rbuf, rcount, rdt, src, tag, comm, 1, &reqs[0]);
    if (rc != XB_OK)
        return rc;
    rc = xb_pt2pt_isend(sbuf, scount, sdt, dest, tag, comm, 1, &reqs[1]);
    int rc2 = xb_coll_waitall(2, reqs);
    return rc != XB_OK ? rc : rc2;
}

/* ---- temporary buffers ---------------------------------------------------- */
static size_t tmp_bytes(MPI_Count count, const xb_datatype_t *dt)
{
    if (count <= 0)
        return 1;
    return (size_t)(xb_dt_true_extent(dt) + (count - 1) * xb_dt_extent(dt));
}

void *xb_coll_tmp_alloc(MPI_Count count, const xb_datatype_t *dt)
{
    char *p = malloc(tmp_bytes(count, dt));
    if (p == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for a %zu-byte collective "
                   "buffer", tmp_bytes(count, dt));
        return NULL;
    }
    return p - xb_dt_true_lb(dt);
}

void xb_coll_tmp_free(void *p, const xb_datatype_t *dt)
{
    if (p != NULL)
        free((char *)p + xb_dt_true_lb(dt));
}

/* ---- reduction working buffers --------------------------------------------- */
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

void *xb_coll_red_alloc(const xb_coll_red_t *r)
{
    return xb_coll_tmp_alloc(r->wcount, r->wdt);
}

void xb_coll_red_free(const xb_coll_red_t *r, void *w)
{
    xb_coll_tmp_free(w, r->wdt);
}

int xb_coll_red_import(const xb_coll_red_t *r, const void *ubuf, void *w)
{
    if (ubuf == w)
        return XB_OK;
    return xb_dt_copy(ubuf, r->count, r->dt, w, r->wcount, r->wdt);
}

int xb_coll_red_export(const xb_coll_red_t *r, const void *w, void *ubuf)
{
    if (ubuf == w)
        return XB_OK;
    return xb_dt_copy(w, r->wcount, r->wdt, ubuf, r->count, r->dt);
}

int xb_coll_red_copy(const xb_coll_red_t *r, const void *src, void *dst)
{
    if (src == dst)
        return XB_OK;
    return xb_dt_copy(src, r->wcount, r->wdt, dst, r->wcount, r->wdt);
}

int xb_coll_red_combine(const xb_coll_red_t *r, const void *in, void *inout)
{
    return xb_op_apply(r->op, in, inout, r->wcount, r->wdt);
}
