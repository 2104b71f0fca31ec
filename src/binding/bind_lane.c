/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bind_lane.c - the channel of a handle argument, before any lock is taken
 * (bind_lane.h).
 */
#include "binding/bind_lane.h"
#include "core/core.h"
#include "core/request.h"

int xb_bind_comm_chan(MPI_Comm h)
{
    const xb_comm_t *c = xb_comm_from_handle(h);
    return c != NULL ? c->chan : 0;
}

int xb_bind_req_chan(const MPI_Request *p)
{
    const xb_request_t *r = p != NULL ? xb_request_from_handle(*p) : NULL;
    if (r == NULL || r->chan == 0)
        return 0;
    /* Only point-to-point requests live on a lane: a partitioned request
     * (kind COLL) is made on its communicator's channel but moves its data
     * on the main one; a buffered send's start touches its buffer slot,
     * which lanes share. */
    bool p2p = r->kind == XB_REQ_SEND || r->kind == XB_REQ_RECV ||
               r->kind == XB_REQ_PSEND || r->kind == XB_REQ_PRECV || r->kind == XB_REQ_PAIR;
    return p2p && r->mode != XB_MODE_BUFFERED ? r->chan : 0;
}
