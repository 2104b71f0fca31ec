/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bind_lane.c - the channel of a handle argument, before any lock is taken
 * (bind_lane.h).
 */
#include "binding/bind_lane.h"
#include "core/core.h"
#include "core/request.h"

/* Resolved here rather than with xb_comm_from_handle/xb_request_from_handle:
 * another caller of those would stop their link-time inlining into every
 * binding (+9 instructions in MPI_Send, callgrind 2026-11-24). COMM_WORLD,
 * COMM_SELF and every predefined handle are on channel 0. */
static int comm_chan(MPI_Comm h)
{
    if (xb_handle_is_predef(h))
        return 0;
    const xb_comm_t *c = (const xb_comm_t *)h;
    return c->magic == XB_MAGIC_COMM && !c->user_freed ? c->chan : 0;
}

static int req_chan(const MPI_Request *p)
{
    if (p == NULL || *p == MPI_REQUEST_NULL || xb_handle_is_predef((const void *)*p))
        return 0;
    const xb_request_t *r = (const xb_request_t *)*p;
    if (__atomic_load_n(&r->magic, __ATOMIC_RELAXED) != XB_MAGIC_REQ || r->chan == 0)
        return 0;
    /* Only point-to-point requests live on a lane: a partitioned request
     * (kind COLL) is made on its communicator's channel but moves its data
     * on the main one; a buffered send's start touches its buffer slot,
     * which lanes share. */
    bool p2p = r->kind == XB_REQ_SEND || r->kind == XB_REQ_RECV ||
               r->kind == XB_REQ_PSEND || r->kind == XB_REQ_PRECV || r->kind == XB_REQ_PAIR;
    return p2p && r->mode != XB_MODE_BUFFERED ? r->chan : 0;
}

int xb_cs_enter_comm_mt(MPI_Comm h)
{
    if (xb_mt_nlanes == 0) {
        xb_mutex_lock(&xb_mt_big);
        return 1;
    }
    return xb_cs_enter_lanes(comm_chan(h));
}

int xb_cs_enter_req_mt(const MPI_Request *p)
{
    if (xb_mt_nlanes == 0) {
        xb_mutex_lock(&xb_mt_big);
        return 1;
    }
    return xb_cs_enter_lanes(req_chan(p));
}
