/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * request.c - the request pool, request handles and status conversion.
 *
 * The pool is a free list refilled by slabs of XB_REQ_SLAB requests (the
 * slow path, out of line); slabs are kept on a list and freed at finalize.
 * One pool per channel (the main one and each lane of several progress
 * contexts, docs/design/threads.md), protected by its context's lock
 * (taken under MPI_THREAD_MULTIPLE only); a request goes back to the pool
 * of its channel.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "core/request.h"
#include "util/xb_lanes.h"

/* 64 requests of ~200 bytes: one 16 KiB-ish allocation per refill. */
#define XB_REQ_SLAB 64

typedef struct req_slab {
    struct req_slab *next;
    xb_request_t     reqs[XB_REQ_SLAB];
} req_slab_t;

typedef struct req_pool {
    xb_request_t *free;     /* linked through ->next */
    req_slab_t   *slabs;
} req_pool_t;

static req_pool_t pools[XB_LANES_MAX + 1];
/* Requests reported without the lock (progress/wait_fast.c), per channel:
 * pushed by any thread, taken whole under the channel's lock (request.h). */
_Atomic(xb_request_t *) xb_request_deferred[XB_LANES_MAX + 1];

static XB_NOINLINE int pool_grow(req_pool_t *pool)
{
    req_slab_t *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory allocating %zu bytes for requests",
                          sizeof(*s));
    s->next = pool->slabs;
    pool->slabs = s;
    for (int i = XB_REQ_SLAB - 1; i >= 0; i--) {
        __atomic_store_n(&s->reqs[i].magic, XB_MAGIC_FREED, __ATOMIC_RELAXED);
        s->reqs[i].next = pool->free;
        pool->free = &s->reqs[i];
    }
    return XB_OK;
}

void xb_request_free_deferred(xb_request_t *r)
{
    _Atomic(xb_request_t *) *top = &xb_request_deferred[r->chan];
    /* freed for xb_request_from_handle from now on: a second report
     * through a stale copy of the handle would push it twice (a cycle the
     * next drain never leaves); it gets MPI_ERR_REQUEST instead */
    __atomic_store_n(&r->magic, XB_MAGIC_FREED, __ATOMIC_RELAXED);
    xb_request_t *old = atomic_load_explicit(top, memory_order_relaxed);
    do
        r->deferred_next = old;
    while (!atomic_compare_exchange_weak_explicit(top, &old, r, memory_order_release,
                                                  memory_order_relaxed));
}

/* Under the channel's lock: the pushes' release and this acquire order the
 * lock-free reporters' reads before the frees here. */
XB_NOINLINE void xb_request_drain_slow(unsigned chan)
{
    xb_request_t *r = atomic_exchange_explicit(&xb_request_deferred[chan], NULL,
                                               memory_order_acquire);
    while (r != NULL) {
        xb_request_t *next = r->deferred_next;
        xb_request_free(r);
        r = next;
    }
}

void xb_request_drain_all(void)
{
    for (int c = 0; c <= xb_mt_nlanes; c++)
        xb_request_drain_slow((unsigned)c);
}

/* The pool is empty: take the deferred requests back first (the polls
 * take them too, xb_request_drain), then grow. */
static XB_NOINLINE xb_request_t *alloc_slow(xb_req_kind_t kind, unsigned chan)
{
    xb_request_drain(chan);
    if (pools[chan].free == NULL && pool_grow(&pools[chan]) != XB_OK)
        return NULL;
    return xb_request_alloc_chan(kind, chan);
}

xb_request_t *xb_request_alloc_chan(xb_req_kind_t kind, unsigned chan)
{
    req_pool_t *pool = &pools[chan];
    xb_request_t *r = pool->free;
    if (XB_UNLIKELY(r == NULL))
        return alloc_slow(kind, chan);
    pool->free = r->next;
    /* all but the magic, which a lock-free reader of a stale handle may
     * be loading (xb_request_from_handle) */
    memset((char *)r + sizeof(r->magic), 0, sizeof(*r) - sizeof(r->magic));
    r->chan = (uint8_t)chan;
    __atomic_store_n(&r->magic, XB_MAGIC_REQ, __ATOMIC_RELAXED);
    r->kind = (uint8_t)kind;
    r->persistent = (kind == XB_REQ_PSEND || kind == XB_REQ_PRECV);
    return r;
}

void xb_request_free(xb_request_t *r)
{
    if (r == NULL)
        return;
    if (r->ops != NULL && r->ops->destroy != NULL)
        r->ops->destroy(r);
    if (r->dt != NULL)
        xb_dt_release(r->dt);
    r->dt = NULL;
    if (r->comm != NULL)
        xb_comm_release(r->comm);
    r->comm = NULL;
    __atomic_store_n(&r->magic, XB_MAGIC_FREED, __ATOMIC_RELAXED);
    req_pool_t *pool = &pools[r->chan];
    r->next = pool->free;
    pool->free = r;
}

xb_request_t *xb_request_alloc(xb_req_kind_t kind)
{
    return xb_request_alloc_chan(kind, 0);
}

void xb_request_pool_fini(void)
{
    for (int c = 0; c <= XB_LANES_MAX; c++) {
        while (pools[c].slabs != NULL) {
            req_slab_t *s = pools[c].slabs;
            pools[c].slabs = s->next;
            free(s);
        }
        pools[c].free = NULL;
        /* drained by MPI_Finalize, after the attribute callbacks */
        atomic_store_explicit(&xb_request_deferred[c], NULL, memory_order_relaxed);
    }
}

xb_request_t *xb_request_from_handle(MPI_Request h)
{
    if (h == MPI_REQUEST_NULL || xb_handle_is_predef((const void *)h))
        return NULL;
    xb_request_t *r = (xb_request_t *)h;
    /* atomic: a lock-free call may test a stale handle while another
     * thread frees or reuses the request (an erroneous program, which
     * gets MPI_ERR_REQUEST or a live request, never a torn read) */
    return __atomic_load_n(&r->magic, __ATOMIC_RELAXED) == XB_MAGIC_REQ ? r : NULL;
}

MPI_Request xb_request_to_handle(xb_request_t *r)
{
    return r == NULL ? MPI_REQUEST_NULL : (MPI_Request)r;
}

void (*xb_request_mt_completed)(unsigned chan);

/* The completion itself: clear a persistent request's activity, run the
 * owner's hook, then free or flag the request. */
static inline void finish(xb_request_t *r)
{
    if (r->persistent)
        xb_request_set_active(r, XB_REQ_COMPLETING);
    if (r->on_complete != NULL)
        r->on_complete(r);
    if (r->flags & (XB_REQ_F_AUTOFREE | XB_REQ_F_USERFREED)) {
        xb_request_free(r);
    } else if (!r->persistent) {
        atomic_store_explicit(&r->done, 1, memory_order_release);
    } else if (xb_request_active(r) == XB_REQ_COMPLETING) {    /* not restarted */
        /* done before inactive: a lock-free reader that sees active 0
         * then sees done (wait_fast.c) */
        atomic_store_explicit(&r->done, 1, memory_order_release);
        atomic_store_explicit(&r->active, 0, memory_order_release);
    }
}

/* Under MULTIPLE: the same, then wake the waiters of the request's
 * channel (read first: r may be freed). Apart, so the path without
 * threads stays as short as it was. */
static XB_NOINLINE void complete_mt(xb_request_t *r)
{
    unsigned chan = r->chan;
    finish(r);
    xb_request_mt_completed(chan);
}

void xb_request_complete(xb_request_t *r)
{
    if (XB_UNLIKELY(xb_request_mt_completed != NULL)) {
        complete_mt(r);
        return;
    }
    finish(r);
}

/* ---- statuses -------------------------------------------------------------- */

void xb_status_set_empty(xb_status_t *st)
{
    st->source = MPI_ANY_SOURCE;
    st->tag = MPI_ANY_TAG;
    st->error = MPI_SUCCESS;
    st->cancelled = false;
    st->count = 0;
}

void xb_mpi_status_empty(MPI_Status *out, bool write_error)
{
    xb_status_t e;
    xb_status_set_empty(&e);
    xb_status_to_mpi(&e, out, write_error);
}

void xb_status_set_proc_null(xb_status_t *st)
{
    xb_status_set_empty(st);
    st->source = MPI_PROC_NULL;
}

/* The five internal ints follow MPI_SOURCE, MPI_TAG, MPI_ERROR (ABI). */
static int *status_ints(MPI_Status *st) { return (int *)(void *)st; }
static const int *status_cints(const MPI_Status *st) { return (const int *)(const void *)st; }
_Static_assert(sizeof(MPI_Status) == 8 * sizeof(int), "MPI 5.0 ABI: MPI_Status is 8 ints");
_Static_assert(offsetof(xb_request_t, magic) == 0, "xb_request_alloc_chan clears what follows magic");

void xb_mpi_status_set_count(MPI_Status *st, MPI_Count bytes)
{
    uint64_t u = (uint64_t)bytes;
    status_ints(st)[3] = (int)(uint32_t)u;
    status_ints(st)[4] = (int)(uint32_t)(u >> 32);
}

MPI_Count xb_mpi_status_get_count(const MPI_Status *st)
{
    uint64_t lo = (uint32_t)status_cints(st)[3];
    uint64_t hi = (uint32_t)status_cints(st)[4];
    return (MPI_Count)(lo | (hi << 32));
}

void xb_mpi_status_set_cancelled(MPI_Status *st, bool flag)
{
    status_ints(st)[5] = flag ? 1 : 0;
}

bool xb_mpi_status_get_cancelled(const MPI_Status *st)
{
    return status_cints(st)[5] != 0;
}

void xb_status_to_mpi(const xb_status_t *s, MPI_Status *out, bool write_error)
{
    if (out == NULL || out == MPI_STATUS_IGNORE)
        return;
    out->MPI_SOURCE = s->source;
    out->MPI_TAG = s->tag;
    if (write_error)
        out->MPI_ERROR = s->error;
    xb_mpi_status_set_count(out, s->count);
    xb_mpi_status_set_cancelled(out, s->cancelled);
    status_ints(out)[6] = 0;
    status_ints(out)[7] = 0;
}
