/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rma_issue.c - one origin operation as messages, and their answers.
 *
 * The operation record (op_t) counts the answers it still expects; a
 * guard of one is held while the messages are made, since an answer can
 * arrive during a send (the self method delivers at once). The window
 * counts expected answers per target (flush, unlock, fence and complete
 * wait for zero). A REPLY's data lands in the destination buffer at the
 * packed offset the message carried, so answers may come in any order.
 *
 * On a window whose parts this process has mapped (shared windows, and
 * MPI_Win_allocate on one node: win_shared.c) the origin does the work
 * instead, and the operation is complete when the call returns: Put and
 * Get are copies (the standard does not make them atomic with respect to
 * accumulates); accumulates, get_accumulates and compare_and_swaps are
 * applied under the target part's lock, which the target takes too for
 * those that come as messages (a pair type with a gap, whose fields may
 * lie in two blocks). The epoch's synchronisation messages, which leave
 * after the copies, make them visible to the target.
 *
 * On a window of the user's memory (MPI_Win_create) a Put or Get to the
 * origin's own part is a plain copy, and one of XB_RMA_COPY_MIN bytes or
 * more to another process of this node is one copy by the origin too
 * (issue_copy): the method's single copy (shm: process_vm_writev/readv)
 * between contiguous regions. The target takes no part, so a target busy
 * outside MPI does not hold the origin's flush up either.
 */
#include <stdlib.h>
#include <string.h>
#include "rma/rma_int.h"
#include "runtime/tunable.h"

/* 1 KiB: below it the system call costs more than the messages (Put or Get
 * of 8-512 B plus a flush at 2 ranks 0.94-1.46 us against 0.51-0.94; from
 * 4 KiB 2-5x faster, 2026-12-07, bench/rma.c -c). */
XB_TUNABLE(RMA_COPY_MIN, XB_TT_SIZE, "1024", XB_TL_TUNER,
           "Smallest MPI_Put/MPI_Get on a window of the user's memory (MPI_Win_create) "
           "that the origin copies itself when the target runs on this node "
           "(process_vm_writev/readv); smaller ones, and all when the kernel refuses, "
           "go as messages");

enum {
    SEG_MAX = 64,                 /* segments per message                   */
    MSG_DATA_MAX = 256 * 1024,    /* data bytes per message (the method's
                                     frag_max caps it further: shm's is a
                                     quarter of a ring)                     */
};
/* Offsets of a target type are taken relative to this address: far from
 * both ends of the address space, so no pointer arithmetic wraps. */
#define FAKE_BASE ((char *)((uintptr_t)1 << 62))

typedef struct op {
    xb_win_t      *w;
    int            target;
    int            remaining;
    int            err;       /* MPI class of the first failed answer */
    void          *dst;
    MPI_Count      dcount;
    xb_datatype_t *ddt;
    xb_request_t  *req;
} op_t;

static void op_finish(op_t *o)
{
    if (o->req != NULL) {
        xb_status_set_empty(&o->req->status);
        o->req->status.error = o->err;
        xb_request_complete(o->req);
    }
    if (o->ddt != NULL)
        xb_dt_release(o->ddt);
    free(o);
}

static void op_drop(op_t *o)
{
    if (--o->remaining == 0)
        op_finish(o);
}

void xb_rma_answer(xb_win_t *w, const xb_rma_hdr_t *h, const void *pl, size_t len)
{
    op_t *o = (op_t *)(uintptr_t)h->cookie;
    if (h->status != MPI_SUCCESS) {
        if (o->err == MPI_SUCCESS)
            o->err = h->status;
        if (w->err == MPI_SUCCESS) {
            w->err = h->status;
            w->err_rank = h->src_rank;
        }
    } else if (h->kind == XB_RMA_REPLY && o->dst != NULL && len > 0) {
        xb_dt_unpack(o->dst, o->dcount, o->ddt, (size_t)h->off, pl, len);
    }
    w->pending[h->src_rank]--;
    w->npending--;
    op_drop(o);
}

int xb_rma_done_request(xb_request_t **req_p)
{
    xb_request_t *r = xb_request_alloc(XB_REQ_RMA);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    r->fn = "MPI_Rput/Rget/Raccumulate";
    xb_status_set_empty(&r->status);
    xb_request_complete(r);
    *req_p = r;
    return XB_OK;
}

/* The segments of packed bytes [p, p + budget) of the target, at most
 * SEG_MAX; returns the bytes they cover (a multiple of es). */
static size_t target_segs(xb_win_t *w, const xb_rma_xfer_t *x, size_t p, size_t budget,
                          xb_rma_seg_t *seg, int *nseg)
{
    struct iovec iov[SEG_MAX];
    int n = 0;
    size_t covered = 0, total = 0;
    xb_dt_to_iov(FAKE_BASE, x->tcount, x->tdt, p, iov, SEG_MAX, &n, &covered);
    uint64_t origin = w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? (uint64_t)x->disp
        : (uint64_t)((MPI_Aint)x->disp * w->peers[x->target].disp_unit);
    int k;
    for (k = 0; k < n && total < budget; k++) {
        size_t l = iov[k].iov_len;
        if (l > budget - total)
            l = budget - total;
        seg[k].addr = origin + (uint64_t)((char *)iov[k].iov_base - FAKE_BASE);
        seg[k].len = l;
        total += l;
    }
    /* Whole elements only: a pair type's fields may lie in two segments
     * (MPI_SHORT_INT: 2 and 4 bytes), and SEG_MAX can fall between them. */
    while (total % x->es != 0) {
        size_t cut = total % x->es < seg[k - 1].len ? total % x->es : seg[k - 1].len;
        seg[k - 1].len -= cut;
        total -= cut;
        if (seg[k - 1].len == 0)
            k--;
    }
    *nseg = k;
    return total;
}

/* One message: segments of [p, ...), data (put/accumulates) packed after
 * them. Returns the bytes it covers (0: error, detail recorded). */
static size_t one_msg(xb_win_t *w, const xb_rma_xfer_t *x, op_t *o, size_t p,
                      size_t budget, int *rc)
{
    xb_rma_seg_t seg[SEG_MAX];
    int nseg;
    size_t d = target_segs(w, x, p, budget, seg, &nseg);
    bool carries = x->kind != XB_RMA_GET;
    size_t segb = (size_t)nseg * sizeof(xb_rma_seg_t);
    size_t plen = segb + (carries ? d : 0) + (x->kind == XB_RMA_CAS ? d : 0);
    xb_rma_msg_t *m = d > 0 ? xb_rma_msg_new(plen) : NULL;
    if (m == NULL) {
        *rc = d > 0 ? XB_ERR_NO_MEM : xb_err_set(XB_ERR_INTERN, "empty RMA fragment");
        return 0;
    }
    char *pl = xb_rma_msg_data(m);
    memcpy(pl, seg, segb);
    if (x->kind == XB_RMA_CAS) {
        memcpy(pl + segb, x->cmp, d);
        memcpy(pl + segb + d, x->src, d);
    } else if (carries && x->sdt != NULL) {
        size_t done = 0;
        xb_dt_pack(x->src, x->scount, x->sdt, p, pl + segb, d, &done);
    } else if (carries) {
        memset(pl + segb, 0, d);
    }
    xb_rma_hdr_t *h = xb_rma_msg_hdr(m);
    *h = (xb_rma_hdr_t){ .win_id = w->peers[x->target].win_id, .kind = (uint8_t)x->kind,
                         .opk = (uint8_t)x->opk, .nseg = (uint16_t)nseg,
                         .src_rank = w->rank, .cookie = (uint64_t)(uintptr_t)o,
                         .off = p, .basic = (uint64_t)(uintptr_t)x->basic };
    o->remaining++;
    w->pending[x->target]++;
    w->npending++;
    *rc = xb_rma_msg_send(w->gpid[x->target], m);
    if (*rc != XB_OK) {         /* never answered */
        o->remaining--;
        w->pending[x->target]--;
        w->npending--;
        return 0;
    }
    return d;
}

/* Where x's target region starts in this process's mapping. */
static char *mapped_at(const xb_win_t *w, const xb_rma_xfer_t *x)
{
    return (char *)w->shm_map + w->shm_off[x->target] +
           (MPI_Aint)x->disp * w->peers[x->target].disp_unit;
}

/* A Put or Get as a copy between the origin's buffer and the target's
 * region at `at`, in this address space; complete at once. */
static int copy_at(const xb_rma_xfer_t *x, char *at, xb_request_t **req_p)
{
    int rc = x->kind == XB_RMA_PUT
        ? xb_dt_copy(x->src, x->scount, x->sdt, at, x->tcount, x->tdt)
        : xb_dt_copy(at, x->tcount, x->tdt, x->dst, x->dcount, x->ddt);
    if (rc == XB_OK && req_p != NULL)
        rc = xb_rma_done_request(req_p);
    return rc;
}

/* A Put or Get on a window of the target's private memory, by one copy
 * (see the top); XB_ERR_AGAIN where that does not apply: another process
 * and fewer than XB_RMA_COPY_MIN bytes, the target on another node, a
 * region or origin buffer that is not contiguous, or a kernel that refuses
 * the single copy (then the operation goes as messages, which also fill in
 * whatever a refused copy left). */
static int issue_copy(xb_win_t *w, const xb_rma_xfer_t *x, xb_request_t **req_p)
{
    bool put = x->kind == XB_RMA_PUT;
    char *at = (char *)(uintptr_t)w->peers[x->target].base +
               (MPI_Aint)x->disp * w->peers[x->target].disp_unit;
    if (x->target == w->rank)
        return copy_at(x, at, req_p);
    const xb_datatype_t *odt = put ? x->sdt : x->ddt;
    MPI_Count ocount = put ? x->scount : x->dcount;
    size_t bytes = (size_t)(x->tcount * xb_dt_size(x->tdt));
    xb_method_t *m = xb_peer_method(w->gpid[x->target]);
    xb_ep_t *ep;
    if (bytes < xb_tn_RMA_COPY_MIN.v.size || m == NULL ||
        !(m->caps.flags & XB_METHOD_CAP_GET) ||
        (put ? m->ops->put : m->ops->get) == NULL ||
        !xb_dt_is_contig(x->tdt, x->tcount) || !xb_dt_is_contig(odt, ocount) ||
        xb_peer_ep(w->gpid[x->target], &ep) != XB_OK)
        return XB_ERR_AGAIN;
    char *obuf = (char *)(put ? (void *)(uintptr_t)x->src : x->dst) + xb_dt_true_lb(odt);
    struct iovec l = { obuf, bytes };
    uint64_t remote = (uint64_t)(uintptr_t)(at + xb_dt_true_lb(x->tdt));
    int rc = put ? m->ops->put(ep, &l, 1, remote, bytes)
                 : m->ops->get(ep, &l, 1, remote, bytes);
    if (rc != XB_OK) {
        xb_err_clear();
        return XB_ERR_AGAIN;
    }
    return req_p != NULL ? xb_rma_done_request(req_p) : XB_OK;
}

/* A basic type whose size is not its extent (MPI_SHORT_INT ...). */
static bool gapped_basic(MPI_Datatype basic)
{
    const xb_datatype_t *dt = xb_dt_from_handle(basic);
    return dt == NULL || xb_dt_size(dt) != xb_dt_extent(dt);
}

/* Accumulate, get_accumulate, compare_and_swap on a mapped window: the
 * old data out (into dst at its packed offset), then combined in place,
 * block by block of the target type, under the part's lock. */
static int acc_direct(xb_win_t *w, const xb_rma_xfer_t *x, xb_request_t **req_p)
{
    char *at = mapped_at(w, x);
    size_t bytes = (size_t)(x->tcount * xb_dt_size(x->tdt));
    _Alignas(16) char small[256];
    char *in = small;
    if (x->kind != XB_RMA_CAS) {            /* the origin's data, packed */
        if (bytes > sizeof(small) && (in = malloc(bytes)) == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "no memory for a one-sided operation");
        size_t done = 0;
        if (x->sdt != NULL)
            xb_dt_pack(x->src, x->scount, x->sdt, 0, in, bytes, &done);
        else
            memset(in, 0, bytes);
    }
    int rc = XB_OK;
    struct iovec iov[SEG_MAX];
    xb_rma_part_lock(w, x->target);
    for (size_t p = 0; p < bytes && rc == XB_OK;) {
        int n = 0;
        size_t covered = 0;
        xb_dt_to_iov(at, x->tcount, x->tdt, p, iov, SEG_MAX, &n, &covered);
        if (n == 0)
            rc = xb_err_set(XB_ERR_INTERN, "the target type ended at byte %zu of %zu", p, bytes);
        for (int k = 0; k < n && rc == XB_OK; k++) {
            char *t = iov[k].iov_base;
            size_t l = iov[k].iov_len;
            if (x->dst != NULL && x->ddt != NULL)
                xb_dt_unpack(x->dst, x->dcount, x->ddt, p, t, l);
            if (x->kind == XB_RMA_CAS) {
                if (memcmp(t, x->cmp, l) == 0)
                    memcpy(t, x->src, l);
            } else if (xb_op_apply_predef(x->opk, x->basic, in + p, t, l / x->es) != XB_OK) {
                rc = xb_err_set(XB_ERR_OP, "the operation is not defined on %s",
                                xb_dt_name(xb_dt_from_handle(x->basic)));
            }
            p += l;
        }
    }
    xb_rma_part_unlock(w, x->target);
    if (in != small)
        free(in);
    if (rc == XB_OK && req_p != NULL)
        rc = xb_rma_done_request(req_p);
    return rc;
}

int xb_rma_issue(xb_win_t *w, const xb_rma_xfer_t *x, xb_request_t **req_p)
{
    if (w->shm_map != NULL) {
        if ((x->kind == XB_RMA_PUT && x->sdt != NULL) || x->kind == XB_RMA_GET)
            return copy_at(x, mapped_at(w, x), req_p);
        if (x->kind == XB_RMA_CAS || !gapped_basic(x->basic))
            return acc_direct(w, x, req_p);
    } else if (w->flavor == MPI_WIN_FLAVOR_CREATE &&
               ((x->kind == XB_RMA_PUT && x->sdt != NULL) || x->kind == XB_RMA_GET)) {
        int rc = issue_copy(w, x, req_p);
        if (rc != XB_ERR_AGAIN)
            return rc;
    }
    op_t *o = calloc(1, sizeof(*o));
    if (o == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a one-sided operation");
    *o = (op_t){ .w = w, .target = x->target, .remaining = 1, .dst = x->dst,
                 .dcount = x->dcount, .ddt = x->ddt };
    if (o->ddt != NULL)
        xb_dt_retain(o->ddt);
    if (req_p != NULL) {
        o->req = xb_request_alloc(XB_REQ_RMA);
        if (o->req == NULL) {
            op_finish(o);
            return XB_ERR_NO_MEM;
        }
        o->req->fn = "a request-based RMA operation";
        *req_p = o->req;
    }
    size_t bytes = (size_t)(x->tcount * xb_dt_size(x->tdt));
    xb_method_t *meth = xb_peer_method(w->gpid[x->target]);
    size_t budget = MSG_DATA_MAX;
    if (meth != NULL && meth->caps.frag_max < budget + SEG_MAX * sizeof(xb_rma_seg_t))
        budget = meth->caps.frag_max - SEG_MAX * sizeof(xb_rma_seg_t);
    if (x->kind == XB_RMA_CAS)
        budget /= 2;
    budget = budget / x->es * x->es;
    int rc = XB_OK;
    for (size_t p = 0; p < bytes && rc == XB_OK;) {
        size_t d = one_msg(w, x, o, p, budget, &rc);
        p += d;
    }
    if (rc != XB_OK && o->req != NULL) {
        xb_request_free(o->req);   /* the caller gets the error, not a request */
        o->req = NULL;
        *req_p = NULL;
    }
    op_drop(o);
    return rc;
}

int xb_rma_flush(xb_win_t *w, int target)
{
    const int *cnt = target < 0 ? &w->npending : &w->pending[target];
    int rc = xb_rma_wait_zero(cnt, "the completion of one-sided operations");
    if (rc == XB_OK && w->err != MPI_SUCCESS) {
        rc = xb_err_set(-w->err, "an earlier operation to rank %d failed at the "
                        "target (%s)", w->err_rank, w->err == MPI_ERR_RMA_RANGE ?
                        "its region is outside the target's window or attached "
                        "memory" : "the target could not apply it");
        w->err = MPI_SUCCESS;
    }
    return rc;
}
