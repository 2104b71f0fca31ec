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
#include <string.h>
#include "method/method_int.h"

static xb_peer_t *peers;
static int npeers;
static int my_rank;
static int world_size;
/* Processes of other jobs (dpm), entry i is peer world_size + i. */
static xb_proc_id_t *foreign;
static int nforeign, foreign_cap;
static xb_peer_grow_fn_t grow_hook;
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
    world_size = rt->size;
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
    free(foreign);
    foreign = NULL;
    nforeign = foreign_cap = 0;
}

static XB_NOINLINE int peer_unreachable(xb_gpid_t peer)
{
    uint32_t r = xb_gpid_rank(peer);
    if (xb_gpid_job(peer) != 0 || r >= (uint32_t)npeers)
        return xb_err_set(XB_ERR_INTERN, "process %u of job %u is not in the peer "
                          "table (%d entries)", r, xb_gpid_job(peer), npeers);
    if (r >= (uint32_t)world_size)
        return xb_err_set(XB_ERR_OTHER, "no method reaches rank %u of another job "
                          "(job key %016llx) from rank %d: processes of other jobs "
                          "are reached by tcp only (XB_METHODS)",
                          foreign[r - (uint32_t)world_size].rank,
                          (unsigned long long)foreign[r - (uint32_t)world_size].job,
                          my_rank);
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
    if (r >= (uint32_t)world_size) {
        char how[200] = "";
        if (p->method == XB_METHOD_TCP)
            xb_tcp_peer_describe((int)r, how, sizeof(how));
        snprintf(buf, len, "process %u (rank %u of job %016llx): %s%s%s", r,
                 foreign[r - (uint32_t)world_size].rank,
                 (unsigned long long)foreign[r - (uint32_t)world_size].job,
                 p->method == XB_METHOD_TCP ? "tcp" : "none", how[0] ? ", " : "", how);
    }
    else if (p->method == NO_METHOD)
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

/* ---- processes of other jobs (dpm) ---------------------------------------- */

void xb_peer_on_grow(xb_peer_grow_fn_t fn)
{
    grow_hook = fn;
}

int xb_peer_self_desc(void *buf, size_t *len_p)
{
    xb_peer_desc_t *d = buf;
    if (*len_p < sizeof(*d))
        return xb_err_set(XB_ERR_INTERN, "a process description needs more than "
                          "%zu bytes", *len_p);
    xb_method_t *tcp = xb_method_get(XB_METHOD_TCP);
    if (!tcp->enabled)
        return xb_err_set(XB_ERR_OTHER, "processes of other jobs are reached by tcp, "
                          "which is off here (%s)", tcp->why_off != NULL ?
                          tcp->why_off : "not initialised");
    memset(d, 0, sizeof(*d));
    d->id.job = xb_tcp_job_key();
    d->id.rank = (uint32_t)my_rank;
    size_t blen = sizeof(d->tcp);
    int rc = xb_tcp_dpm_blob(d->tcp, &blen);
    if (rc != XB_OK)
        return rc;
    d->tcp_len = (uint32_t)blen;
    *len_p = sizeof(*d);
    return XB_OK;
}

static int foreign_find(const xb_proc_id_t *id)
{
    for (int i = 0; i < nforeign; i++)
        if (foreign[i].job == id->job && foreign[i].rank == id->rank)
            return world_size + i;
    return -1;
}

int xb_peer_find_foreign(uint64_t job, uint32_t rank)
{
    xb_proc_id_t id = { .job = job, .rank = rank };
    return foreign_find(&id);
}

/* Room for one more entry in the peer table and the foreign list. */
static int foreign_room(void)
{
    if (nforeign == foreign_cap) {
        int cap = foreign_cap == 0 ? 8 : 2 * foreign_cap;
        xb_proc_id_t *f = realloc(foreign, (size_t)cap * sizeof(*f));
        if (f == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "no memory for %d processes of other "
                              "jobs", cap);
        foreign = f;
        foreign_cap = cap;
    }
    xb_peer_t *t = realloc(peers, (size_t)(npeers + 1) * sizeof(*t));
    if (t == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a peer table of %d entries",
                          npeers + 1);
    peers = t;
    return XB_OK;
}

int xb_peer_add_desc(const void *desc, size_t len, xb_gpid_t *gpid_p)
{
    const xb_peer_desc_t *d = desc;
    if (len != sizeof(*d) || d->tcp_len > sizeof(d->tcp))
        return xb_err_set(XB_ERR_OTHER, "a process description of %zu bytes (expected "
                          "%zu): the other job runs another Crossbar version", len,
                          sizeof(*d));
    if (d->id.job == xb_tcp_job_key()) {       /* one of ours */
        if (d->id.rank >= (uint32_t)world_size)
            return xb_err_set(XB_ERR_OTHER, "a process description names rank %u of "
                              "this job, which has %d", d->id.rank, world_size);
        *gpid_p = xb_gpid_make(0, d->id.rank);
        return XB_OK;
    }
    int x = foreign_find(&d->id);
    if (x >= 0) {
        *gpid_p = xb_gpid_make(0, (uint32_t)x);
        return XB_OK;
    }
    int rc = foreign_room();
    if (rc == XB_OK && grow_hook != NULL)
        rc = grow_hook(npeers + 1);
    if (rc != XB_OK)
        return rc;
    x = npeers;
    xb_peer_t *p = &peers[x];
    memset(p, 0, sizeof(*p));
    p->node = XB_PEER_NODE_FOREIGN;
    p->method = NO_METHOD;
    p->state = XB_PEER_FAILED;
    xb_method_t *tcp = xb_method_get(XB_METHOD_TCP);
    if (tcp->enabled && xb_tcp_foreign(x, &d->id, d->tcp, d->tcp_len) == XB_OK) {
        p->method = XB_METHOD_TCP;
        p->state = XB_PEER_UNKNOWN;
        per_method[XB_METHOD_TCP]++;
    }
    else
        xb_err_clear();
    foreign[nforeign++] = d->id;
    npeers++;
    if (p->method == XB_METHOD_TCP)
        xb_method_plan_polling();
    *gpid_p = xb_gpid_make(0, (uint32_t)x);
    return XB_OK;
}

int xb_peer_id(xb_gpid_t g, xb_proc_id_t *id)
{
    uint32_t r = xb_gpid_rank(g);
    if (xb_gpid_job(g) != 0 || r >= (uint32_t)npeers)
        return peer_unreachable(g);
    if (r < (uint32_t)world_size) {
        id->job = xb_method_get(XB_METHOD_TCP)->enabled ? xb_tcp_job_key() : 0;
        id->rank = r;
    }
    else
        *id = foreign[r - (uint32_t)world_size];
    id->pad = 0;
    return XB_OK;
}
