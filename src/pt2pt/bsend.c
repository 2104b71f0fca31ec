/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bsend.c - buffered sends: the placement engine over a buffer slot
 * (xb_bbuf_t, src/core/core.h), the process's slot (MPI_Buffer_attach),
 * attach/detach/flush of any slot, and the Bsend copy.
 *
 * A buffered send packs the message into a block of the attached buffer
 * (packed size + MPI_BSEND_OVERHEAD bytes of accounting, as the standard
 * tells users to reserve), then sends the block as bytes with an internal
 * request that frees the block when it completes. The user's request is
 * complete at once. The block list (outside the user's buffer, sorted by
 * offset) gives first-fit placement. With MPI_BUFFER_AUTOMATIC the block's
 * memory is malloc'd per message instead (the standard's "the library
 * allocates as needed"). The slot used is the communicator's when one is
 * attached to it, else its session's, else the process's (MPI 4.1).
 *
 * Detach and flush wait until no block of the slot is in flight; an iflush
 * request sits on the slot's flush list until then. Every block holds a
 * reference to its slot, so a message may outlive the communicator or
 * session that owned the buffer.
 */
#include <stdlib.h>
#include "pt2pt/proto.h"

typedef struct xb_bblk {
    struct xb_bblk *next;
    size_t          off, len;
    void           *mem;     /* MPI_BUFFER_AUTOMATIC: the malloc'd block */
    xb_bbuf_t      *slot;    /* retained */
} bblk_t;

static xb_bbuf_t proc_slot = { .refs = 1, .empty = 1 };

xb_bbuf_t *xb_pt2pt_proc_bbuf(void) { return &proc_slot; }

static bool is_auto(const xb_bbuf_t *s) { return s->base == MPI_BUFFER_AUTOMATIC; }

int xb_pt2pt_bbuf_attach(xb_bbuf_t *s, void *buf, size_t size, const char *owner)
{
    if (s->base != NULL)
        return xb_err_set(XB_ERR_BUFFER, "%s has a buffer attached already (%s); detach it "
                          "first", owner, is_auto(s) ? "MPI_BUFFER_AUTOMATIC" : "");
    if (buf == NULL)
        return xb_err_set(XB_ERR_BUFFER, "buffer is NULL");
    s->base = buf;
    s->size = buf == MPI_BUFFER_AUTOMATIC ? 0 : size;
    return XB_OK;
}

int xb_pt2pt_bbuf_flush(xb_bbuf_t *s, const char *what)
{
    if (s->blocks != NULL)
        xb_progress_wait_flag(xb_progress_default(), &s->empty, what);
    return XB_OK;
}

int xb_pt2pt_bbuf_detach(xb_bbuf_t *s, void **buf_p, size_t *size_p, const char *what)
{
    xb_pt2pt_bbuf_flush(s, what);
    *buf_p = s->base;
    *size_p = s->size;
    s->base = NULL;
    s->size = 0;
    return XB_OK;
}

int xb_pt2pt_bbuf_iflush(xb_bbuf_t *s, MPI_Request *request)
{
    xb_request_t *r = xb_request_alloc(XB_REQ_COLL);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    r->fn = "a buffer flush";
    xb_status_set_empty(&r->status);
    if (s->blocks == NULL) {
        xb_request_complete(r);
    } else {
        r->extra = xb_bbuf_retain(s);
        r->next = s->flushes;
        s->flushes = r;
    }
    *request = xb_request_to_handle(r);
    return XB_OK;
}

static void flushes_complete(xb_bbuf_t *s)
{
    while (s->flushes != NULL) {
        xb_request_t *r = s->flushes;
        s->flushes = r->next;
        r->next = NULL;
        r->extra = NULL;
        xb_request_complete(r);   /* may free r (MPI_Request_free'd) */
        xb_bbuf_release(s);
    }
}

static bblk_t *blk_alloc(xb_bbuf_t *s, size_t need)
{
    bblk_t *b = malloc(sizeof(*b));
    if (b == NULL)
        return NULL;
    *b = (bblk_t){ .len = need, .slot = s };
    if (is_auto(s)) {
        if ((b->mem = malloc(need)) == NULL) {
            free(b);
            return NULL;
        }
        b->next = s->blocks;
        s->blocks = b;
    } else {
        size_t at = 0;
        bblk_t **link = &s->blocks;
        while (*link != NULL && (*link)->off - at < need) {
            at = (*link)->off + (*link)->len;
            link = &(*link)->next;
        }
        if (*link == NULL && s->size - at < need) {
            free(b);
            return NULL;
        }
        b->off = at;
        b->next = *link;
        *link = b;
    }
    xb_bbuf_retain(s);
    atomic_store(&s->empty, 0);
    return b;
}

static void blk_free_locked(xb_request_t *r)
{
    bblk_t *b = r->bsend_blk;
    xb_bbuf_t *s = b->slot;
    for (bblk_t **link = &s->blocks; *link != NULL; link = &(*link)->next) {
        if (*link == b) {
            *link = b->next;
            break;
        }
    }
    free(b->mem);
    free(b);
    r->bsend_blk = NULL;
    if (s->blocks == NULL) {
        atomic_store(&s->empty, 1);
        flushes_complete(s);
    }
    xb_bbuf_release(s);
}

/* A lane completes its internal sends under the lane's lock only, and two
 * lanes may share a slot: a leaf mutex orders them (every other access to
 * the slot holds all the locks; docs/design/threads.md). */
static void blk_free(xb_request_t *r)
{
    bool guard = xb_mt_on && xb_mt_nlanes != 0 && r->chan != 0;
    if (guard)
        xb_mutex_lock(&xb_mt_lanes_shared);
    blk_free_locked(r);
    if (guard)
        xb_mutex_unlock(&xb_mt_lanes_shared);
}

/* The slot a buffered send on comm uses. */
static xb_bbuf_t *slot_for(const xb_comm_t *c)
{
    if (c->bbuf != NULL && c->bbuf->base != NULL)
        return c->bbuf;
    if (c->session_bbuf != NULL && c->session_bbuf->base != NULL)
        return c->session_bbuf;
    return &proc_slot;
}

static int no_room(const xb_bbuf_t *s, size_t bytes)
{
    if (s->base == NULL)
        return xb_err_set(XB_ERR_BUFFER, "no buffer is attached (to the communicator, its "
                          "session or the process) for a buffered message of %zu bytes",
                          bytes);
    if (is_auto(s))
        return xb_err_set(XB_ERR_NO_MEM, "no memory to buffer a message of %zu bytes "
                          "(MPI_BUFFER_AUTOMATIC)", bytes);
    return xb_err_set(XB_ERR_BUFFER, "the attached buffer (%zu bytes) has no room for a "
                      "message of %zu bytes plus MPI_BSEND_OVERHEAD (%d)", s->size, bytes,
                      (int)MPI_BSEND_OVERHEAD);
}

/* The internal send of a packed block. */
static int send_block(xb_request_t *r, bblk_t *b, void *data, size_t bytes)
{
    xb_request_t *in = xb_request_alloc_chan(XB_REQ_SEND, r->chan);
    if (in == NULL) {
        xb_request_t tmp = { .bsend_blk = b };
        blk_free(&tmp);
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
    }
    return rc;
}

int xb_pt2pt_bsend_start(xb_request_t *r)
{
    if (r->peer == MPI_PROC_NULL) {
        xb_status_set_proc_null(&r->status);
        xb_request_complete(r);
        return XB_OK;
    }
    xb_bbuf_t *s = slot_for(r->comm);
    size_t bytes = (size_t)(r->count * xb_dt_size(r->dt));
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    bblk_t *b = s->base != NULL ? blk_alloc(s, need) : NULL;
    if (b == NULL && s->base != NULL && !is_auto(s)) {
        xb_progress_poll(xb_progress_default());   /* finished sends free room */
        b = blk_alloc(s, need);
    }
    if (b == NULL)
        return no_room(s, bytes);
    char *data = b->mem != NULL ? b->mem : (char *)s->base + b->off;
    size_t done = 0;
    if (bytes > 0)
        xb_dt_pack(r->buf, r->count, r->dt, 0, data, bytes, &done);
    int rc = send_block(r, b, data, bytes);
    if (rc < 0)
        return rc;
    r->status.count = (MPI_Count)bytes;
    xb_request_complete(r);
    return XB_OK;
}

void xb_pt2pt_bsend_fini(void)
{
    while (proc_slot.blocks != NULL) {
        bblk_t *b = proc_slot.blocks;
        proc_slot.blocks = b->next;
        free(b->mem);
        free(b);
    }
    proc_slot.base = NULL;
    proc_slot.size = 0;
    proc_slot.refs = 1;
    atomic_store(&proc_slot.empty, 1);
}
