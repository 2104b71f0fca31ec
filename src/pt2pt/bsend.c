/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bsend.c - buffered sends: MPI_Buffer_attach/detach and the Bsend copy.
 *
 * A buffered send packs the message into a block of the attached buffer
 * (packed size + MPI_BSEND_OVERHEAD bytes of accounting, as the standard
 * tells users to reserve), then sends the block as bytes with an internal
 * request that frees the block when it completes. The user's request is
 * complete at once. The block list (outside the user's buffer, sorted by
 * offset) gives first-fit placement. Detach waits for every block to go.
 */
#include <stdlib.h>
#include "pt2pt/proto.h"

typedef struct bblk {
    struct bblk *next;
    size_t       off, len;
} bblk_t;

static struct {
    char       *base;
    size_t      size;
    bblk_t     *blocks;     /* in use, sorted by off */
    atomic_uint empty;      /* 1 when no block is in use */
} bb;

int xb_pt2pt_buffer_attach(void *buf, size_t size)
{
    if (bb.base != NULL)
        return xb_err_set(XB_ERR_BUFFER, "a buffer of %zu bytes is already attached; detach it first",
                          bb.size);
    bb.base = buf;
    bb.size = size;
    atomic_store(&bb.empty, 1);
    return XB_OK;
}

int xb_pt2pt_buffer_detach(void **buf_p, size_t *size_p)
{
    if (bb.base == NULL) {
        *buf_p = NULL;
        *size_p = 0;
        return XB_OK;
    }
    if (bb.blocks != NULL)
        xb_progress_wait_flag(xb_progress_default(), &bb.empty,
                              "MPI_Buffer_detach(waiting for buffered sends)");
    *buf_p = bb.base;
    *size_p = bb.size;
    bb.base = NULL;
    bb.size = 0;
    return XB_OK;
}

static bblk_t *blk_alloc(size_t need)
{
    size_t at = 0;
    bblk_t **link = &bb.blocks;
    while (*link != NULL && (*link)->off - at < need) {
        at = (*link)->off + (*link)->len;
        link = &(*link)->next;
    }
    if (*link == NULL && bb.size - at < need)
        return NULL;
    bblk_t *b = malloc(sizeof(*b));
    if (b == NULL)
        return NULL;
    b->off = at;
    b->len = need;
    b->next = *link;
    *link = b;
    atomic_store(&bb.empty, 0);
    return b;
}

static void blk_free(xb_request_t *r)
{
    bblk_t *b = r->bsend_blk;
    for (bblk_t **link = &bb.blocks; *link != NULL; link = &(*link)->next) {
        if (*link == b) {
            *link = b->next;
            free(b);
            break;
        }
    }
    if (bb.blocks == NULL)
        atomic_store(&bb.empty, 1);
}

int xb_pt2pt_bsend_start(xb_request_t *r)
{
    if (r->peer == MPI_PROC_NULL) {
        xb_status_set_proc_null(&r->status);
        xb_request_complete(r);
        return XB_OK;
    }
    size_t bytes = (size_t)(r->count * xb_dt_size(r->dt));
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    bblk_t *b = bb.base != NULL ? blk_alloc(need) : NULL;
    if (b == NULL) {
        xb_progress_poll(xb_progress_default());   /* finished sends free room */
        b = bb.base != NULL ? blk_alloc(need) : NULL;
    }
    if (b == NULL)
        return xb_err_set(XB_ERR_BUFFER,
                          "the attached buffer (%zu bytes) has no room for a message of %zu "
                          "bytes plus MPI_BSEND_OVERHEAD (%d)",
                          bb.size, bytes, (int)MPI_BSEND_OVERHEAD);
    char *data = bb.base + b->off;
    size_t done = 0;
    if (bytes > 0)
        xb_dt_pack(r->buf, r->count, r->dt, 0, data, bytes, &done);
    xb_request_t *in = xb_request_alloc(XB_REQ_SEND);
    if (in == NULL) {
        r->bsend_blk = b;
        blk_free(r);
        return XB_ERR_NO_MEM;
    }
    in->buf = data;
    in->count = (MPI_Count)bytes;
    in->dt = xb_dt_from_handle(MPI_BYTE);
    xb_dt_retain(in->dt);
    in->comm = r->comm;
    xb_comm_retain(in->comm);
    in->peer = r->peer;
    in->tag = r->tag;
    in->ctx = r->ctx;
    in->mode = XB_MODE_STANDARD;
    in->flags = XB_REQ_F_AUTOFREE | XB_REQ_F_INTERNAL;
    in->bsend_blk = b;
    in->on_complete = blk_free;
    int rc = xb_pt2pt_start(in);
    if (rc < 0) {
        blk_free(in);
        xb_request_free(in);
        return rc;
    }
    r->status.count = (MPI_Count)bytes;
    xb_request_complete(r);
    return XB_OK;
}

void xb_pt2pt_bsend_fini(void)
{
    while (bb.blocks != NULL) {
        bblk_t *b = bb.blocks;
        bb.blocks = b->next;
        free(b);
    }
    bb.base = NULL;
    bb.size = 0;
}
