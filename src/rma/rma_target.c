/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rma_target.c - the target side: the handler of every one-sided active
 * message. It runs inside the progress poll of whatever MPI call this
 * process is in (passive-target progress), under the progress lock, so
 * the accumulates it applies are atomic with respect to one another; on a
 * mapped window it also holds the part's lock (rma_int.h), as the origins
 * that apply theirs directly do.
 *
 * Data messages (put, accumulate, get, get_accumulate, compare_and_swap)
 * carry their target segments; each segment is checked against the window
 * (a dynamic window: against the attached regions) before anything is
 * touched, and the answer carries the error class when one is not.
 */
#include <stdlib.h>
#include <string.h>
#include "rma/rma_int.h"

void *xb_rma_target_ptr(xb_win_t *w, uint64_t addr, uint64_t len)
{
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        if (addr > (uint64_t)w->wsize || len > (uint64_t)w->wsize - addr)
            return NULL;
        return (char *)w->base + addr;
    }
    /* Every byte must be attached; the range may run on from one region
     * into another that starts where it ends (two adjacent attaches). */
    if (len > UINT64_MAX - addr)
        return NULL;
    uint64_t at = addr, end = addr + len;
    while (at < end) {
        int i = 0;
        while (i < w->nregions && !(at >= w->regions[i].base &&
                                    at - w->regions[i].base < (uint64_t)w->regions[i].size))
            i++;
        if (i == w->nregions)
            return NULL;
        at = w->regions[i].base + (uint64_t)w->regions[i].size;
    }
    return (void *)(uintptr_t)addr;
}

/* Resolve every segment; MPI_SUCCESS or MPI_ERR_RMA_RANGE. */
static int resolve(xb_win_t *w, const xb_rma_seg_t *seg, int nseg, void **ptr,
                   size_t *total)
{
    *total = 0;
    for (int i = 0; i < nseg; i++) {
        if (seg[i].len == 0) {
            ptr[i] = NULL;
            continue;
        }
        ptr[i] = xb_rma_target_ptr(w, seg[i].addr, seg[i].len);
        if (ptr[i] == NULL)
            return MPI_ERR_RMA_RANGE;
        *total += seg[i].len;
    }
    return MPI_SUCCESS;
}

static size_t basic_size(uint64_t basic)
{
    const xb_datatype_t *dt = xb_dt_from_handle((MPI_Datatype)(uintptr_t)basic);
    return dt != NULL ? (size_t)xb_dt_size(dt) : 0;
}

/* inout = in op inout, element-wise. The kernels read typed elements, so
 * data that arrived unaligned (a ring's payload) is copied first. */
static int apply_op(const xb_rma_hdr_t *h, const void *in, void *inout, size_t len)
{
    size_t es = basic_size(h->basic);
    if (es == 0 || len % es != 0)
        return MPI_ERR_TYPE;
    void *tmp = NULL;
    if ((uintptr_t)in % 16 != 0 && h->opk != XB_OPK_NO_OP) {
        if ((tmp = malloc(len)) == NULL)
            return MPI_ERR_NO_MEM;
        in = memcpy(tmp, in, len);
    }
    int rc = xb_op_apply_predef((xb_opk_t)h->opk, (MPI_Datatype)(uintptr_t)h->basic,
                                in, inout, len / es);
    free(tmp);
    return rc == XB_OK ? MPI_SUCCESS : MPI_ERR_OP;
}

/* A basic type with a gap (MPI_SHORT_INT, MPI_DOUBLE_INT ...): its fields
 * may lie in two segments, and the kernels read the C struct. */
static bool gapped(const xb_rma_hdr_t *h)
{
    const xb_datatype_t *dt = xb_dt_from_handle((MPI_Datatype)(uintptr_t)h->basic);
    return dt != NULL && xb_dt_size(dt) != xb_dt_extent(dt);
}

/* old (len packed bytes of the target, gathered from the segments) = in op
 * old, through the struct form of the elements. The message holds whole
 * elements (the origin cuts it so). */
static int apply_gapped(const xb_rma_hdr_t *h, const void *in, void *old, size_t len)
{
    const xb_datatype_t *dt = xb_dt_from_handle((MPI_Datatype)(uintptr_t)h->basic);
    size_t es = (size_t)xb_dt_size(dt), n = len / es, ext = (size_t)xb_dt_extent(dt);
    if (len % es != 0)
        return MPI_ERR_TYPE;
    char *sin = malloc(n > 0 ? 2 * n * ext : 1), *sold = sin + n * ext;
    if (sin == NULL)
        return MPI_ERR_NO_MEM;
    size_t done = 0;
    xb_dt_unpack(sin, (MPI_Count)n, dt, 0, in, len);
    xb_dt_unpack(sold, (MPI_Count)n, dt, 0, old, len);
    int rc = xb_op_apply_predef((xb_opk_t)h->opk, (MPI_Datatype)(uintptr_t)h->basic,
                                sin, sold, n);
    if (rc == XB_OK)
        xb_dt_pack(sold, (MPI_Count)n, dt, 0, old, len, &done);
    free(sin);
    return rc == XB_OK ? MPI_SUCCESS : MPI_ERR_OP;
}

/* Gather the segments' bytes into buf (packed), or scatter them back. */
static void gather(const xb_rma_seg_t *seg, int nseg, void **ptr, char *buf, bool back)
{
    for (int i = 0; i < nseg; i++) {
        if (seg[i].len == 0)
            continue;
        if (back)
            memcpy(ptr[i], buf, seg[i].len);
        else
            memcpy(buf, ptr[i], seg[i].len);
        buf += seg[i].len;
    }
}

/* An accumulate of a gapped type: gathered, combined, scattered back. */
static int acc_gapped(const xb_rma_hdr_t *h, const xb_rma_seg_t *seg, void **ptr,
                      const char *data, size_t total)
{
    if (h->opk == XB_OPK_NO_OP)
        return total % (size_t)basic_size(h->basic) == 0 ? MPI_SUCCESS : MPI_ERR_TYPE;
    char *tmp = malloc(total > 0 ? total : 1);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    gather(seg, h->nseg, ptr, tmp, false);
    int st = apply_gapped(h, data, tmp, total);
    if (st == MPI_SUCCESS)
        gather(seg, h->nseg, ptr, tmp, true);
    free(tmp);
    return st;
}

/* Put / accumulate: data follows the segments; answer with an ACK. */
static void do_write(xb_win_t *w, const xb_rma_hdr_t *h, const xb_rma_seg_t *seg,
                     void **ptr, const char *data, size_t dlen)
{
    size_t total;
    int st = resolve(w, seg, h->nseg, ptr, &total);
    if (st == MPI_SUCCESS && total != dlen)
        st = MPI_ERR_INTERN;
    bool whole = st == MPI_SUCCESS && h->kind == XB_RMA_ACC && gapped(h);
    bool locked = st == MPI_SUCCESS && h->kind == XB_RMA_ACC && w->shm_map != NULL;
    if (locked)
        xb_rma_part_lock(w, w->rank);
    if (whole)
        st = acc_gapped(h, seg, ptr, data, total);
    for (int i = 0; st == MPI_SUCCESS && !whole && i < h->nseg; i++) {
        if (seg[i].len == 0)
            continue;
        if (h->kind == XB_RMA_PUT)
            memmove(ptr[i], data, seg[i].len);
        else
            st = apply_op(h, data, ptr[i], seg[i].len);
        data += seg[i].len;
    }
    if (locked)
        xb_rma_part_unlock(w, w->rank);
    xb_rma_hdr_t a = { .kind = XB_RMA_ACK, .cookie = h->cookie, .status = st };
    xb_rma_send(w, h->src_rank, &a, NULL, 0);
}

/* Get / get_accumulate / compare_and_swap: answer with the old data. */
static void do_read(xb_win_t *w, const xb_rma_hdr_t *h, const xb_rma_seg_t *seg,
                    void **ptr, const char *data, size_t dlen)
{
    size_t total;
    int st = resolve(w, seg, h->nseg, ptr, &total);
    if (st == MPI_SUCCESS && h->kind == XB_RMA_GACC && total != dlen)
        st = MPI_ERR_INTERN;
    if (st == MPI_SUCCESS && h->kind == XB_RMA_CAS && dlen != 2 * total)
        st = MPI_ERR_INTERN;
    xb_rma_msg_t *m = xb_rma_msg_new(st == MPI_SUCCESS ? total : 0);
    if (m == NULL)
        return;     /* the origin waits: nothing better to do without memory */
    char *out = xb_rma_msg_data(m);
    bool whole = st == MPI_SUCCESS && h->kind == XB_RMA_GACC && gapped(h);
    bool locked = st == MPI_SUCCESS && h->kind != XB_RMA_GET && w->shm_map != NULL;
    if (locked)
        xb_rma_part_lock(w, w->rank);
    if (whole) {
        gather(seg, h->nseg, ptr, out, false);      /* the old data answered */
        st = acc_gapped(h, seg, ptr, data, total);
    }
    for (int i = 0; st == MPI_SUCCESS && !whole && i < h->nseg; i++) {
        size_t l = seg[i].len;
        if (l == 0)
            continue;
        memcpy(out, ptr[i], l);
        if (h->kind == XB_RMA_GACC) {
            st = apply_op(h, data, ptr[i], l);
            data += l;
        } else if (h->kind == XB_RMA_CAS) {
            if (memcmp(ptr[i], data, l) == 0)      /* data: compare, origin */
                memcpy(ptr[i], data + l, l);
        }
        out += l;
    }
    if (locked)
        xb_rma_part_unlock(w, w->rank);
    xb_rma_hdr_t *a = xb_rma_msg_hdr(m);
    *a = (xb_rma_hdr_t){ .kind = XB_RMA_REPLY, .cookie = h->cookie, .status = st,
                         .off = h->off, .win_id = w->peers[h->src_rank].win_id,
                         .src_rank = w->rank };
    xb_rma_msg_send(w->gpid[h->src_rank], m);
}

static void data_msg(xb_win_t *w, const xb_rma_hdr_t *h, const void *payload, size_t len)
{
    size_t segb = (size_t)h->nseg * sizeof(xb_rma_seg_t);
    if (len < segb)
        return;
    xb_rma_seg_t segs_local[64];
    void *ptr_local[64];
    xb_rma_seg_t *seg = segs_local;
    void **ptr = ptr_local;
    if (h->nseg > 64) {
        seg = malloc(segb);
        ptr = malloc((size_t)h->nseg * sizeof(*ptr));
        if (seg == NULL || ptr == NULL)
            goto out_free;
    }
    memcpy(seg, payload, segb);        /* the payload need not be aligned */
    const char *data = (const char *)payload + segb;
    if (h->kind == XB_RMA_PUT || h->kind == XB_RMA_ACC)
        do_write(w, h, seg, ptr, data, len - segb);
    else
        do_read(w, h, seg, ptr, data, len - segb);
out_free:
    if (seg != segs_local) {
        free(seg);
        free(ptr);
    }
}

static void dispatch(xb_win_t *w, const xb_rma_hdr_t *hp, const void *payload,
                     size_t len)
{
    xb_rma_hdr_t h = *hp;
    switch (h.kind) {
    case XB_RMA_PUT: case XB_RMA_ACC: case XB_RMA_GET: case XB_RMA_GACC:
    case XB_RMA_CAS:
        data_msg(w, &h, payload, len);
        break;
    case XB_RMA_ACK: case XB_RMA_REPLY:
        xb_rma_answer(w, &h, payload, len);
        break;
    case XB_RMA_LOCK: case XB_RMA_GRANT: case XB_RMA_UNLOCK: case XB_RMA_WAKE:
        xb_rma_lock_arrived(w, &h);
        break;
    case XB_RMA_BARRIER:
        xb_rma_barrier_arrived(w, &h);
        break;
    case XB_RMA_POST: case XB_RMA_COMPLETE:
        xb_rma_pscw_arrived(w, &h);
        break;
    default:
        break;
    }
}

/* A peer that finished creating the window may send before this process
 * has (its exchange may still wait here, the peer table half filled): such
 * messages are kept, in order, and handled once the window is ready. */
static void keep_early(xb_win_t *w, const xb_rma_hdr_t *h, const void *payload,
                       size_t len)
{
    xb_rma_early_t *e = malloc(sizeof(*e) + len);
    if (e == NULL)
        return;     /* no memory: the sender waits (nothing better to do) */
    e->next = NULL;
    e->hdr = *h;
    e->len = len;
    if (len > 0)
        memcpy(e->data, payload, len);
    if (w->early_tail != NULL)
        w->early_tail->next = e;
    else
        w->early = e;
    w->early_tail = e;
}

void xb_rma_set_ready(xb_win_t *w)
{
    w->ready = true;
    while (w->early != NULL) {
        xb_rma_early_t *e = w->early;
        w->early = e->next;
        if (w->early == NULL)
            w->early_tail = NULL;
        dispatch(w, &e->hdr, e->data, e->len);
        free(e);
    }
}

void xb_rma_drop_early(xb_win_t *w)
{
    while (w->early != NULL) {
        xb_rma_early_t *e = w->early;
        w->early = e->next;
        free(e);
    }
    w->early_tail = NULL;
}

void xb_rma_am_handler(xb_gpid_t src, const void *hdr, size_t hdr_len,
                       const void *payload, size_t len)
{
    (void)src;
    xb_rma_hdr_t h;
    if (hdr_len < sizeof(h))
        return;
    memcpy(&h, hdr, sizeof(h));
    xb_win_t *w = xb_rma_table_get(h.win_id);
    if (w == NULL || h.src_rank < 0 || h.src_rank >= w->size)
        return;     /* a window freed with traffic in flight: erroneous */
    if (!w->ready && h.kind != XB_RMA_BARRIER)   /* the barrier needs no peers */
        keep_early(w, &h, payload, len);
    else
        dispatch(w, &h, payload, len);
}
