/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * peer.c - the peer table: one small entry per process of the job, naming
 * the method that serves it and (once opened) its endpoint.
 *
 * The rule, evaluated once per peer at xb_method_ready_all() and identical
 * on both sides of a pair:
 *     the process itself         -> self
 *     otherwise, in XB_METHODS order, the first enabled method whose
 *     reachable(peer) is true    -> shm when the launcher put the peer on
 *                                   my node (xb_rt()->node_of), tcp later.
 * A peer no method reaches is marked FAILED; sending to it fails with a
 * sentence naming both nodes. Endpoints open lazily on the first send (or
 * xb_peer_ep), so a job where ranks talk to few peers pays for few.
 */
#include <stdio.h>
#include <stdlib.h>
#include "method/method_int.h"

static xb_peer_t *peers;
static int npeers;
static int my_rank;
static int per_method[XB_METHOD_NREG];   /* peers served, self excluded */
xb_method_stats_t xb_method_stats[XB_METHOD_NREG];   /* method.h */

enum { NO_METHOD = 0xff };

static uint8_t pick_method(int rank)
{
    const uint8_t *ord;
    int n = xb_method_order(&ord);
    if (rank == my_rank)
        return XB_METHOD_SELF;
    for (int i = 0; i < n; i++) {
        xb_method_t *m = xb_method_get(ord[i]);
        if (m->enabled && m->ops->reachable(m, (xb_gpid_t)rank))
            return ord[i];
    }
    return NO_METHOD;
}

int xb_peer_table_init(const xb_rt_info_t *rt)
{
    xb_peer_t *t = calloc((size_t)rt->size, sizeof(*t));
    if (t == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a peer table of %d entries",
                          rt->size);
    my_rank = rt->rank;
    for (int i = 0; i < XB_METHOD_NREG; i++)
        per_method[i] = 0;
    for (int r = 0; r < rt->size; r++) {
        t[r].node = rt->node_of != NULL ? rt->node_of[r] : 0;
        t[r].method = pick_method(r);
        t[r].state = t[r].method == NO_METHOD ? XB_PEER_FAILED : XB_PEER_UNKNOWN;
        if (t[r].method != NO_METHOD && r != rt->rank)
            per_method[t[r].method]++;
    }
    peers = t;
    npeers = rt->size;
    for (int r = 0; r < rt->size; r++) {
        char line[160];
        if (xb_log_levels[XB_LOG_METHOD] >= XB_LOG_DEBUG &&
            xb_peer_describe((xb_gpid_t)r, line, sizeof(line)) == XB_OK)
            xb_log_msg(XB_LOG_METHOD, XB_LOG_DEBUG, "%s", line);
    }
    return XB_OK;
}

int xb_peer_count(int idx)
{
    return idx >= 0 && idx < XB_METHOD_NREG ? per_method[idx] : 0;
}

void xb_peer_table_fini(void)
{
    for (int r = 0; r < npeers; r++)
        if (peers[r].ep != NULL) {
            xb_method_t *m = xb_method_get(peers[r].method);
            if (m->ops->ep_close != NULL)
                m->ops->ep_close(peers[r].ep);
        }
    free(peers);
    peers = NULL;
    npeers = 0;
}

static XB_NOINLINE int peer_unreachable(xb_gpid_t peer)
{
    uint32_t r = xb_gpid_rank(peer);
    if (xb_gpid_job(peer) != 0 || r >= (uint32_t)npeers)
        return xb_err_set(XB_ERR_INTERN, "process %u of job %u is not in the peer "
                          "table (%d entries)", r, xb_gpid_job(peer), npeers);
    return xb_err_set(XB_ERR_OTHER, "no method reaches rank %u on node %u from rank "
                      "%d on node %u (methods allowed: XB_METHODS)", r,
                      peers[r].node, my_rank, peers[my_rank].node);
}

/* Open the endpoint of a peer (cold path of xb_method_send). */
static XB_NOINLINE int peer_open(xb_peer_t *p, xb_gpid_t peer)
{
    if (p->state == XB_PEER_FAILED)
        return peer_unreachable(peer);
    xb_method_t *m = xb_method_get(p->method);
    xb_ep_t *ep = NULL;
    int rc = m->ops->ep_open(m, peer, &ep);
    if (rc != XB_OK)
        return rc;
    p->ep = ep;
    p->state = XB_PEER_READY;
    return XB_OK;
}

int xb_peer_ep(xb_gpid_t peer, xb_ep_t **ep_p)
{
    uint32_t r = xb_gpid_rank(peer);
    if (XB_UNLIKELY(xb_gpid_job(peer) != 0 || r >= (uint32_t)npeers))
        return peer_unreachable(peer);
    xb_peer_t *p = &peers[r];
    if (XB_UNLIKELY(p->ep == NULL)) {
        int rc = peer_open(p, peer);
        if (rc != XB_OK)
            return rc;
    }
    *ep_p = p->ep;
    return XB_OK;
}

xb_method_t *xb_peer_method(xb_gpid_t peer)
{
    uint32_t r = xb_gpid_rank(peer);
    if (xb_gpid_job(peer) != 0 || r >= (uint32_t)npeers || peers[r].method == NO_METHOD)
        return NULL;
    return xb_method_get(peers[r].method);
}

int xb_method_peer_hint(xb_gpid_t peer, const char *key, const char *value)
{
    xb_method_t *m = xb_peer_method(peer);
    if (m == NULL || m->ops->peer_hint == NULL)
        return XB_OK;
    return m->ops->peer_hint(m, peer, key, value);
}

int xb_method_send(xb_gpid_t peer, uint8_t am_id, const void *hdr, size_t hdr_len,
                   const xb_payload_t *pl, xb_am_done_t *done)
{
    uint32_t r = xb_gpid_rank(peer);
    if (XB_UNLIKELY(xb_gpid_job(peer) != 0 || r >= (uint32_t)npeers))
        return peer_unreachable(peer);
    xb_peer_t *p = &peers[r];
    if (XB_UNLIKELY(p->ep == NULL)) {
        int rc = peer_open(p, peer);
        if (rc != XB_OK)
            return rc;
    }
    int rc = xb_method_get(p->method)->ops->send_am(p->ep, am_id, hdr, hdr_len, pl, done);
    if (XB_LIKELY(rc >= 0)) {
        xb_method_stats[p->method].am_sent++;
        xb_method_stats[p->method].am_bytes += pl != NULL ? pl->len : 0;
    }
    return rc;
}

int xb_peer_describe(xb_gpid_t peer, char *buf, size_t len)
{
    uint32_t r = xb_gpid_rank(peer);
    if (xb_gpid_job(peer) != 0 || r >= (uint32_t)npeers)
        return peer_unreachable(peer);
    const xb_peer_t *p = &peers[r];
    const char *state = p->state == XB_PEER_READY ? "open" :
                        p->state == XB_PEER_FAILED ? "unreachable" : "not opened";
    if (p->method == NO_METHOD)
        snprintf(buf, len, "rank %u: none (node %u, no allowed method reaches it)",
                 r, p->node);
    else if (p->method == XB_METHOD_SELF)
        snprintf(buf, len, "rank %u: self (this process), %s", r, state);
    else if (p->method == XB_METHOD_SHM)
        snprintf(buf, len, "rank %u: shm (same node %u), %s", r, p->node, state);
    else if (p->method == XB_METHOD_TCP) {
        char how[200];
        xb_tcp_peer_describe((int)r, how, sizeof(how));
        snprintf(buf, len, "rank %u: tcp (node %u%s), %s", r, p->node,
                 p->node == peers[my_rank].node ? ", same node: forced by XB_METHODS"
                                                 : "", how);
    }
    else
        snprintf(buf, len, "rank %u: %s (node %u), %s", r,
                 xb_method_get(p->method)->ops->name, p->node, state);
    return XB_OK;
}
