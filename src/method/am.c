/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * am.c - the active-message table: am_id -> handler of the upper layer that
 * owns the id (pt2pt 1..15, coll 16..31, rma 32..63). Handlers are registered
 * at init, before any message can arrive, and stay until finalize; the table
 * is read without a lock on every arrival. The placement table (the same
 * ids) tells a stream method where a large payload may be read to.
 */
#include "method/method.h"
#include "runtime/runtime.h"

static xb_am_handler_t am_table[XB_AM_MAX];
static xb_am_place_t   place_table[XB_AM_MAX];

int xb_am_batch = XB_AM_BATCH;   /* method.h */

int xb_am_register(uint8_t am_id, xb_am_handler_t handler)
{
    if (am_id == 0 || am_id >= XB_AM_MAX)
        return xb_err_set(XB_ERR_INTERN, "active-message id %u is out of range "
                          "1..%d", am_id, XB_AM_MAX - 1);
    if (handler != NULL && am_table[am_id] != NULL && am_table[am_id] != handler)
        return xb_err_set(XB_ERR_INTERN, "active-message id %u is registered twice",
                          am_id);
    am_table[am_id] = handler;
    return XB_OK;
}

static XB_NOINLINE void am_unknown(uint8_t am_id, xb_gpid_t src)
{
    xb_log(XB_LOG_METHOD, XB_LOG_WARN, "dropped an active message with id %u "
           "from rank %u: no handler is registered", am_id, xb_gpid_rank(src));
}

void xb_am_dispatch(uint8_t am_id, xb_gpid_t src, const void *hdr, size_t hdr_len,
                    const void *payload, size_t len)
{
    xb_am_handler_t h = am_id < XB_AM_MAX ? am_table[am_id] : NULL;
    if (XB_LIKELY(h != NULL))
        h(src, hdr, hdr_len, payload, len);
    else
        am_unknown(am_id, src);
}

int xb_am_register_place(uint8_t am_id, xb_am_place_t place)
{
    if (am_id == 0 || am_id >= XB_AM_MAX)
        return xb_err_set(XB_ERR_INTERN, "active-message id %u is out of range "
                          "1..%d", am_id, XB_AM_MAX - 1);
    place_table[am_id] = place;
    return XB_OK;
}

void *xb_am_place(uint8_t am_id, xb_gpid_t src, const void *hdr, size_t hdr_len, size_t len)
{
    xb_am_place_t f = am_id < XB_AM_MAX ? place_table[am_id] : NULL;
    return f != NULL ? f(src, hdr, hdr_len, len) : NULL;
}
