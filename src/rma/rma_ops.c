/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rma_ops.c - the origin side of every data operation: the checks, and the
 * cutting of one operation into self-contained messages.
 *
 * An operation moves `bytes` = target_count * size(target_datatype) packed
 * bytes. The target datatype is flattened here, at the origin (the type
 * handle means nothing at the target): xb_dt_to_iov on a fictitious base
 * gives its blocks as offsets, which become target segments {disp *
 * disp_unit + offset, length}. A message carries at most SEG_MAX segments
 * and at most the peer method's fragment size; for an accumulate its data
 * ends on an element boundary, so the target applies whole elements.
 * Every message is answered (ACK or REPLY, rma_answer.c); the operation
 * record lives until the last answer and completes its request then.
 */
#include <stdlib.h>
#include <string.h>
#include "rma/rma_int.h"

int xb_rma_check_epoch(xb_win_t *w, int target, const char *what)
{
    if (w->fence_open || w->lock_all || w->lk_state[target] == XB_LK_HELD)
        return XB_OK;
    if (w->start_grp != NULL)
        for (int i = 0; i < w->start_grp->size; i++)
            if (w->start_rank[i] == target)
                return XB_OK;
    return xb_err_set(XB_RMA_ERR_SYNC, "%s to rank %d outside an access epoch "
                      "(open one with MPI_Win_fence, MPI_Win_start, MPI_Win_lock "
                      "or MPI_Win_lock_all first)", what, target);
}

static int check_type(const char *arg, xb_datatype_t *dt)
{
    if (!xb_dt_is_committed(dt))
        return xb_err_set(XB_ERR_TYPE, "invalid argument %s: the datatype is not "
                          "committed", arg);
    return XB_OK;
}

/* Common checks of an operation to target_rank; *skip when there is
 * nothing to do (MPI_PROC_NULL). */
static int check_target(xb_win_t *w, int target, MPI_Aint disp, MPI_Count tcount,
                        xb_datatype_t *tdt, const char *what, bool *skip)
{
    *skip = false;
    if (target == MPI_PROC_NULL) {
        *skip = true;
        return XB_OK;
    }
    if (target < 0 || target >= w->size)
        return xb_err_set(XB_ERR_RANK, "invalid target rank %d (the window's group "
                          "has %d ranks)", target, w->size);
    if (disp < 0 && w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return xb_err_set(XB_RMA_ERR_DISP, "invalid argument target_disp: %lld (must "
                          "not be negative)", (long long)disp);
    int rc = check_type("target_datatype", tdt);
    if (rc != XB_OK)
        return rc;
    if ((rc = xb_rma_check_epoch(w, target, what)) != XB_OK)
        return rc;
    MPI_Count bytes = tcount * xb_dt_size(tdt);
    if (bytes == 0 || w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return XB_OK;      /* dynamic: the target checks its regions */
    const xb_rma_peer_t *p = &w->peers[target];
    MPI_Aint ext = xb_dt_extent(tdt), tlb = xb_dt_true_lb(tdt);
    MPI_Aint start = (MPI_Aint)disp * p->disp_unit + tlb;
    MPI_Aint lo = start + (ext < 0 ? (MPI_Aint)(tcount - 1) * ext : 0);
    MPI_Aint hi = start + xb_dt_true_extent(tdt) +
                  (ext > 0 ? (MPI_Aint)(tcount - 1) * ext : 0);
    if (lo < 0 || hi > p->size)
        return xb_err_set(XB_RMA_ERR_RANGE, "target region [%lld, %lld) of rank %d "
                          "lies outside its window of %lld bytes (target_disp %lld, "
                          "disp_unit %d)", (long long)lo, (long long)hi, target,
                          (long long)p->size, (long long)disp, p->disp_unit);
    return XB_OK;
}

/* The element type of an accumulate; checks op and types. */
static int acc_basic(xb_op_t *op, xb_datatype_t *odt, xb_datatype_t *tdt,
                     const xb_datatype_t **basic_p)
{
    if (!op->predefined)
        return xb_err_set(XB_ERR_OP, "invalid argument op: a user-defined operation "
                          "(one-sided accumulates take predefined operations only)");
    MPI_Count per;
    const xb_datatype_t *tb = xb_dt_basic(tdt, &per);
    const xb_datatype_t *ob = odt != NULL ? xb_dt_basic(odt, &per) : tb;
    if (tb == NULL || (ob == NULL && op->kind != XB_OPK_NO_OP))
        return xb_err_set(XB_ERR_TYPE, "invalid datatype: an accumulate's datatypes "
                          "must be made of one predefined type");
    if (ob != tb && op->kind != XB_OPK_NO_OP)
        return xb_err_set(XB_ERR_TYPE, "invalid datatypes: origin elements are %s, "
                          "target elements %s (they must be the same)",
                          xb_dt_name(ob), xb_dt_name(tb));
    if (!xb_op_predef_defined(op->kind, xb_dt_to_handle((xb_datatype_t *)tb)))
        return xb_err_set(XB_ERR_OP, "invalid argument op: %s is not defined for %s",
                          op->name, xb_dt_name(tb));
    *basic_p = tb;
    return XB_OK;
}

static int check_sizes(const char *a, MPI_Count ac, xb_datatype_t *adt,
                       MPI_Count tcount, xb_datatype_t *tdt)
{
    MPI_Count ab = ac * xb_dt_size(adt), tb = tcount * xb_dt_size(tdt);
    if (ab != tb)
        return xb_err_set(XB_ERR_ARG, "the %s buffer holds %lld bytes but the target "
                          "region %lld (the type signatures must match)", a,
                          (long long)ab, (long long)tb);
    return XB_OK;
}

/* Put and get (and their request forms): the target and the sizes checked,
 * then the transfer issued; a PROC_NULL target completes at once. */
static int put_get(xb_rma_xfer_t *x, const char *what, xb_win_t *w, xb_request_t **req_p)
{
    bool skip;
    int rc = check_target(w, x->target, x->disp, x->tcount, x->tdt, what, &skip);
    if (rc == XB_OK && !skip)
        rc = x->kind == XB_RMA_PUT ? check_sizes("origin", x->scount, x->sdt, x->tcount, x->tdt)
                                   : check_sizes("origin", x->dcount, x->ddt, x->tcount, x->tdt);
    if (rc != XB_OK)
        return rc;
    if (skip)
        return req_p != NULL ? xb_rma_done_request(req_p) : XB_OK;
    return xb_rma_issue(w, x, req_p);
}

/* Put and Rput. */
static int put(const void *obuf, MPI_Count ocount, xb_datatype_t *odt, int target,
               MPI_Aint disp, MPI_Count tcount, xb_datatype_t *tdt, xb_win_t *w,
               xb_request_t **req_p)
{
    xb_rma_xfer_t x = { .kind = XB_RMA_PUT, .es = 1, .src = obuf, .scount = ocount,
                        .sdt = odt, .target = target, .disp = disp, .tcount = tcount,
                        .tdt = tdt };
    return put_get(&x, "a put", w, req_p);
}

static int get(void *obuf, MPI_Count ocount, xb_datatype_t *odt, int target,
               MPI_Aint disp, MPI_Count tcount, xb_datatype_t *tdt, xb_win_t *w,
               xb_request_t **req_p)
{
    xb_rma_xfer_t x = { .kind = XB_RMA_GET, .es = 1, .dst = obuf, .dcount = ocount,
                        .ddt = odt, .target = target, .disp = disp, .tcount = tcount,
                        .tdt = tdt };
    return put_get(&x, "a get", w, req_p);
}

/* Accumulate (result NULL) and get_accumulate. */
static int acc(const void *obuf, MPI_Count ocount, xb_datatype_t *odt, void *rbuf,
               MPI_Count rcount, xb_datatype_t *rdt, int target, MPI_Aint disp,
               MPI_Count tcount, xb_datatype_t *tdt, xb_op_t *op, xb_win_t *w,
               xb_request_t **req_p)
{
    bool skip, noop = op->kind == XB_OPK_NO_OP, fetch = rdt != NULL;
    const xb_datatype_t *basic = NULL;
    int rc = check_target(w, target, disp, tcount, tdt, fetch ? "a get_accumulate" :
                          "an accumulate", &skip);
    if (rc == XB_OK && !noop && odt == NULL)
        rc = xb_err_set(XB_ERR_TYPE, "invalid argument origin_datatype: "
                        "MPI_DATATYPE_NULL");
    /* NULL is MPI_BOTTOM for a derived type, and nothing is read when the
     * buffer holds no bytes */
    if (rc == XB_OK && fetch && !noop && obuf == NULL && xb_dt_is_predefined(odt) &&
        ocount * xb_dt_size(odt) > 0)
        rc = xb_err_set(XB_ERR_BUFFER, "invalid argument origin_addr: NULL");
    if (rc == XB_OK && !noop)
        rc = check_type("origin_datatype", odt);
    if (rc == XB_OK && !skip && tcount * xb_dt_size(tdt) == 0)
        skip = true;    /* nothing is combined: no op/type pair to check */
    if (rc == XB_OK && skip)
        return req_p != NULL ? xb_rma_done_request(req_p) : XB_OK;
    if (rc == XB_OK)
        rc = acc_basic(op, noop ? NULL : odt, tdt, &basic);
    if (rc == XB_OK && !noop)
        rc = check_sizes("origin", ocount, odt, tcount, tdt);
    if (rc == XB_OK && fetch)
        rc = check_sizes("result", rcount, rdt, tcount, tdt);
    if (rc != XB_OK)
        return rc;
    xb_rma_xfer_t x = { .kind = fetch ? XB_RMA_GACC : XB_RMA_ACC, .opk = op->kind,
                        .basic = xb_dt_to_handle((xb_datatype_t *)basic),
                        .es = (size_t)xb_dt_size(basic), .src = obuf,
                        .scount = ocount, .sdt = noop ? NULL : odt, .dst = rbuf,
                        .dcount = rcount, .ddt = rdt, .target = target, .disp = disp,
                        .tcount = tcount, .tdt = tdt };
    if (!fetch && noop)
        x.sdt = NULL;
    return xb_rma_issue(w, &x, req_p);
}

int xb_impl_put(const void *origin_addr, MPI_Count origin_count, xb_datatype_t *origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                xb_datatype_t *target_datatype, xb_win_t *win)
{
    return put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
               target_count, target_datatype, win, NULL);
}

int xb_impl_rput(const void *origin_addr, MPI_Count origin_count, xb_datatype_t *origin_datatype,
                 int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                 xb_datatype_t *target_datatype, xb_win_t *win, MPI_Request *request)
{
    xb_request_t *r = NULL;
    int rc = put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                 target_count, target_datatype, win, &r);
    if (rc == XB_OK)
        *request = xb_request_to_handle(r);
    return rc;
}

int xb_impl_get(void *origin_addr, MPI_Count origin_count, xb_datatype_t *origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                xb_datatype_t *target_datatype, xb_win_t *win)
{
    return get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
               target_count, target_datatype, win, NULL);
}

int xb_impl_rget(void *origin_addr, MPI_Count origin_count, xb_datatype_t *origin_datatype,
                 int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                 xb_datatype_t *target_datatype, xb_win_t *win, MPI_Request *request)
{
    xb_request_t *r = NULL;
    int rc = get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                 target_count, target_datatype, win, &r);
    if (rc == XB_OK)
        *request = xb_request_to_handle(r);
    return rc;
}

int xb_impl_accumulate(const void *origin_addr, MPI_Count origin_count,
                       xb_datatype_t *origin_datatype, int target_rank,
                       MPI_Aint target_disp, MPI_Count target_count,
                       xb_datatype_t *target_datatype, xb_op_t *op, xb_win_t *win)
{
    return acc(origin_addr, origin_count, origin_datatype, NULL, 0, NULL, target_rank,
               target_disp, target_count, target_datatype, op, win, NULL);
}

int xb_impl_raccumulate(const void *origin_addr, MPI_Count origin_count,
                        xb_datatype_t *origin_datatype, int target_rank,
                        MPI_Aint target_disp, MPI_Count target_count,
                        xb_datatype_t *target_datatype, xb_op_t *op, xb_win_t *win,
                        MPI_Request *request)
{
    xb_request_t *r = NULL;
    int rc = acc(origin_addr, origin_count, origin_datatype, NULL, 0, NULL, target_rank,
                 target_disp, target_count, target_datatype, op, win, &r);
    if (rc == XB_OK)
        *request = xb_request_to_handle(r);
    return rc;
}

int xb_impl_get_accumulate(const void *origin_addr, MPI_Count origin_count,
                           xb_datatype_t *origin_datatype, void *result_addr,
                           MPI_Count result_count, xb_datatype_t *result_datatype,
                           int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                           xb_datatype_t *target_datatype, xb_op_t *op, xb_win_t *win)
{
    return acc(origin_addr, origin_count, origin_datatype, result_addr, result_count,
               result_datatype, target_rank, target_disp, target_count,
               target_datatype, op, win, NULL);
}

int xb_impl_rget_accumulate(const void *origin_addr, MPI_Count origin_count,
                            xb_datatype_t *origin_datatype, void *result_addr,
                            MPI_Count result_count, xb_datatype_t *result_datatype,
                            int target_rank, MPI_Aint target_disp,
                            MPI_Count target_count, xb_datatype_t *target_datatype,
                            xb_op_t *op, xb_win_t *win, MPI_Request *request)
{
    xb_request_t *r = NULL;
    int rc = acc(origin_addr, origin_count, origin_datatype, result_addr, result_count,
                 result_datatype, target_rank, target_disp, target_count,
                 target_datatype, op, win, &r);
    if (rc == XB_OK)
        *request = xb_request_to_handle(r);
    return rc;
}

int xb_impl_fetch_and_op(const void *origin_addr, void *result_addr,
                         xb_datatype_t *datatype, int target_rank, MPI_Aint target_disp,
                         xb_op_t *op, xb_win_t *win)
{
    if (!xb_dt_is_predefined(datatype))
        return xb_err_set(XB_ERR_TYPE, "invalid argument datatype: %s is not a "
                          "predefined datatype", xb_dt_name(datatype));
    return acc(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank,
               target_disp, 1, datatype, op, win, NULL);
}

int xb_impl_compare_and_swap(const void *origin_addr, const void *compare_addr,
                             void *result_addr, xb_datatype_t *datatype, int target_rank,
                             MPI_Aint target_disp, xb_win_t *win)
{
    bool skip;
    if (!xb_dt_is_predefined(datatype))
        return xb_err_set(XB_ERR_TYPE, "invalid argument datatype: %s is not a "
                          "predefined datatype", xb_dt_name(datatype));
    if (!xb_op_predef_defined(XB_OPK_BAND, xb_dt_to_handle(datatype)) &&
        datatype != xb_dt_from_handle(MPI_C_BOOL) &&
        datatype != xb_dt_from_handle(MPI_CXX_BOOL))
        return xb_err_set(XB_ERR_TYPE, "invalid argument datatype: %s is not an "
                          "integer, logical or byte type (compare_and_swap)",
                          xb_dt_name(datatype));
    int rc = check_target(win, target_rank, target_disp, 1, datatype,
                          "a compare_and_swap", &skip);
    if (rc != XB_OK || skip)
        return rc;
    if (origin_addr == NULL || compare_addr == NULL || result_addr == NULL)
        return xb_err_set(XB_ERR_BUFFER, "invalid argument %s: NULL",
                          origin_addr == NULL ? "origin_addr" : compare_addr == NULL
                          ? "compare_addr" : "result_addr");
    size_t es = (size_t)xb_dt_size(datatype);
    xb_rma_xfer_t x = { .kind = XB_RMA_CAS, .es = es, .src = origin_addr,
                        .cmp = compare_addr, .dst = result_addr, .dcount = 1,
                        .ddt = datatype, .target = target_rank, .disp = target_disp,
                        .tcount = 1, .tdt = datatype };
    return xb_rma_issue(win, &x, NULL);
}
