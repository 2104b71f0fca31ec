/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_mcast.c - broadcast across nodes by UDP multicast, then inside each
 * node through shared memory (XB_MCAST=1; docs/design/mcast.md).
 *
 * Who. A node-whole communicator over several nodes (hier.c), blocking,
 * on a job that agreed on multicast at init (coll_agree.c). The root
 * multicasts; on each other node the job's lowest rank (the process that
 * joined the group: the node's "leader") receives; then every node's head
 * (the root on its node, the leader elsewhere) broadcasts inside the node
 * (xb_coll_node_bcast). One datagram per frame crosses the LAN, whatever
 * the number of nodes.
 *
 * How, per window of at most xb_coll_mcast_window bytes (what the
 * smallest receive buffer holds, so a leader that is not in the call yet,
 * or busy elsewhere, loses nothing to overflow):
 *   1. the root multicasts the window's frames, then sends each leader END
 *      by point-to-point: the message's number, which its frames carry
 *      too (the root's count of its multicast messages);
 *   2. a leader drains its socket until END has come (then once more),
 *      keeping the frames from the root (the latest of an index wins),
 *      posts receives for the runs of frames it lacks or holds with
 *      another number (stale: an earlier message of the root), and sends
 *      the root its status: a bitmap of those frames;
 *   3. the root waits for every status and sends each leader the runs it
 *      lacks by point-to-point (the repair), straight from the message;
 *      only then does it multicast the next window (the statuses are the
 *      flow control).
 * A window needs no scout: frames that reach a leader before it enters
 * the call wait in its socket, which holds a window, and its first drain
 * keeps those of this call (it drops what earlier calls left). Frames that
 * come while the leader is in another communicator's multicast broadcast
 * are dropped there and repaired here.
 * Point-to-point is reliable, so a broadcast completes whatever the
 * network loses: with no multicast at all every frame comes by repair.
 * Messages use the collective context and the call's tag; a leader posts
 * END's receive, then its repairs', in the order the root sends them.
 * Datagrams carry the sender's world rank and its number for the message:
 * unique in the job, where a context id and a tag come back (a
 * communicator freed and made again, split halves that share an id).
 * The waits sleep on the sockets (xb_progress_wait_net), not on shared
 * memory: every event they wait for comes from another node.
 *
 * Cost per window: one END and one status per leader (linear at the root:
 * meant for the tens of nodes of one LAN) around one multicast; a call of
 * one window is two one-way latencies plus the frames' time on the wire.
 */
#include <stdlib.h>
#include <string.h>
#include "coll/coll_int.h"
#include "method/mcast/mcast.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt.h"
#include "runtime/runtime.h"

/* This process's multicast messages as root, numbered: the number goes in
 * every frame and in END, so a leader keeps only this message's frames. */
static uint32_t calls;

typedef struct {
    xb_comm_t     *comm;
    int            tag;
    uint32_t       root;          /* the root's world rank                 */
    char          *buf;           /* the message as bytes                  */
    size_t         len, frame;
    uint32_t       nframes, wframes, nwin;
    size_t         sbytes;        /* a status: window number + bitmap      */
    xb_datatype_t *byte;
    xb_request_t **reqs;          /* repairs in flight                     */
    int            nreqs, cap;
} mc_t;

static uint32_t win_first(const mc_t *m, uint32_t w) { return w * m->wframes; }

static uint32_t win_frames(const mc_t *m, uint32_t w)
{
    uint32_t left = m->nframes - win_first(m, w);
    return left < m->wframes ? left : m->wframes;
}

static size_t frame_len(const mc_t *m, uint32_t f)
{
    size_t off = (size_t)f * m->frame;
    return m->len - off < m->frame ? m->len - off : m->frame;
}

static int push(mc_t *m, xb_request_t *r)
{
    if (m->nreqs == m->cap) {
        int cap = m->cap ? 2 * m->cap : 16;
        xb_request_t **n = realloc(m->reqs, (size_t)cap * sizeof *n);
        if (n == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "no memory for multicast repairs");
        m->reqs = n;
        m->cap = cap;
    }
    m->reqs[m->nreqs++] = r;
    return XB_OK;
}

/* Repair the runs of frames set in bitmap (window w) between the root and
 * peer: the root sends them, a leader receives them. */
static int repair(mc_t *m, uint32_t w, const uint32_t *bits, int peer, bool send)
{
    uint32_t first = win_first(m, w), n = win_frames(m, w);
    int rc = XB_OK;
    for (uint32_t i = 0; i < n && rc == XB_OK; i++) {
        if (!(bits[i / 32] & (1u << (i % 32))))
            continue;
        uint32_t j = i;
        while (j + 1 < n && (bits[(j + 1) / 32] & (1u << ((j + 1) % 32))))
            j++;
        size_t off = (size_t)(first + i) * m->frame;
        size_t bytes = (size_t)(first + j) * m->frame + frame_len(m, first + j) - off;
        xb_request_t *r = NULL;
        rc = send ? xb_pt2pt_isend(m->buf + off, (MPI_Count)bytes, m->byte, peer, m->tag,
                                   m->comm, 1, &r)
                  : xb_pt2pt_irecv(m->buf + off, (MPI_Count)bytes, m->byte, peer, m->tag,
                                   m->comm, 1, &r);
        if (rc == XB_OK && push(m, r) != XB_OK) {
            rc = xb_progress_wait(xb_progress_default(), r);   /* no room: done here */
            xb_request_free(r);
            rc = rc == XB_OK ? XB_ERR_NO_MEM : rc;
        }
        if (!send)
            xb_mcast_stats.repaired_bytes += bytes;
        i = j;
    }
    return rc;
}

typedef struct { int n; xb_request_t **r; } reqs_t;

static bool all_done(void *arg)
{
    const reqs_t *q = arg;
    for (int i = 0; i < q->n; i++)
        if (q->r[i] != NULL && !xb_request_is_done(q->r[i]))
            return false;
    return true;
}

/* Wait for n requests whose completion comes from other nodes (statuses,
 * END), then free them; the first error. */
static int wait_net(int n, xb_request_t **r, const char *what)
{
    reqs_t q = { n, r };
    xb_progress_wait_net(xb_progress_default(), all_done, &q, what, -1);
    int rc = XB_OK;
    for (int i = 0; i < n; i++)
        if (r[i] != NULL) {
            int e = xb_request_status_rc(r[i]);
            rc = rc == XB_OK ? e : rc;
            xb_request_free(r[i]);
            r[i] = NULL;
        }
    return rc;
}

static int root_stage(mc_t *m, const int *leaders, int nl)
{
    uint32_t *st = malloc((size_t)nl * m->sbytes);
    xb_request_t **rq = calloc((size_t)nl, sizeof *rq);
    int rc = st != NULL && rq != NULL ? XB_OK
           : xb_err_set(XB_ERR_NO_MEM, "no memory for %d multicast statuses", nl);
    size_t words = m->sbytes / sizeof(uint32_t);
    uint32_t call = calls++;
    for (uint32_t w = 0; w < m->nwin && rc == XB_OK; w++) {
        rc = xb_mcast_send(call, m->buf, m->len, win_first(m, w), win_frames(m, w));
        for (int i = 0; i < nl && rc == XB_OK; i++)       /* END: the message's number */
            rc = xb_pt2pt_send(&call, sizeof call, m->byte, leaders[i], m->tag, m->comm, 1);
        for (int i = 0; i < nl && rc == XB_OK; i++)
            rc = xb_pt2pt_irecv(st + i * words, (MPI_Count)m->sbytes, m->byte, leaders[i],
                                m->tag, m->comm, 1, &rq[i]);
        int wr = wait_net(nl, rq, "MPI_Bcast (multicast: the leaders' statuses)");
        rc = rc == XB_OK ? wr : rc;
        for (int i = 0; i < nl && rc == XB_OK; i++) {
            if (st[i * words] != w)
                rc = xb_err_set(XB_ERR_INTERN, "multicast bcast: leader %d reported "
                                "window %u, not %u", leaders[i], st[i * words], w);
            else
                rc = repair(m, w, st + i * words + 1, leaders[i], true);
        }
    }
    free(st);
    free(rq);
    return rc;
}

typedef struct {
    mc_t          *m;
    uint32_t       w;
    uint32_t      *got;       /* bitmap of the window's frames in hand */
    uint32_t      *call;      /* [wframes] the number each came with    */
    xb_request_t  *end;
    uint32_t       endcall;   /* END: the root's number for the message */
    int            rc;
} drain_t;

/* Take every datagram waiting; keep the root's frames of window d->w.
 * Until END says which message is this one, a frame of an earlier message
 * of the root (late, or left in the socket) looks the same: the latest
 * frame of an index wins, and the check after END drops the others. */
static void drain(drain_t *d)
{
    const mc_t *m = d->m;
    uint32_t first = win_first(m, d->w), n = win_frames(m, d->w);
    xb_mcast_hdr_t h;
    const void *payload;
    int got;
    while ((got = xb_mcast_next(&h, &payload)) > 0) {
        uint32_t i = h.index - first;
        if (h.sender != m->root || h.index < first || i >= n ||
            h.len != frame_len(m, h.index) ||
            ((d->got[i / 32] & (1u << (i % 32))) && d->call[i] == h.call))
            continue;
        memcpy(m->buf + (size_t)h.index * m->frame, payload, h.len);
        d->got[i / 32] |= 1u << (i % 32);
        d->call[i] = h.call;
    }
    if (got < 0 && d->rc == XB_OK)
        d->rc = got;
}

/* END has come (the frames keep being drained meanwhile). */
static bool end_arrived(void *arg)
{
    drain_t *d = arg;
    drain(d);
    return xb_request_is_done(d->end);
}

static int leader_stage(mc_t *m, int root)
{
    size_t words = m->sbytes / sizeof(uint32_t);
    drain_t d = { .m = m };
    uint32_t *st = calloc(words, sizeof *st);
    d.got = calloc(words, sizeof *d.got);
    d.call = calloc(m->wframes, sizeof *d.call);
    int rc = st != NULL && d.got != NULL && d.call != NULL ? XB_OK
           : xb_err_set(XB_ERR_NO_MEM, "no memory for a multicast receive");
    for (uint32_t w = 0; w < m->nwin && rc == XB_OK; w++) {
        rc = xb_pt2pt_irecv(&d.endcall, sizeof d.endcall, m->byte, root, m->tag, m->comm, 1,
                            &d.end);
        if (rc != XB_OK)
            break;
        d.w = w;
        memset(d.got, 0, words * sizeof *d.got);
        /* the first drain also drops what earlier calls left in the socket */
        xb_progress_wait_net(xb_progress_default(), end_arrived, &d,
                             "MPI_Bcast (multicast: the root's frames and END)", xb_mcast_fd());
        drain(&d);
        rc = xb_request_status_rc(d.end);
        xb_request_free(d.end);
        d.end = NULL;
        rc = rc == XB_OK ? d.rc : rc;
        st[0] = w;
        memset(st + 1, 0, (words - 1) * sizeof *st);
        for (uint32_t i = 0; i < win_frames(m, w); i++)
            if (!(d.got[i / 32] & (1u << (i % 32))) || d.call[i] != d.endcall)
                st[1 + i / 32] |= 1u << (i % 32);           /* missing, or stale */
        if (rc == XB_OK)
            rc = repair(m, w, st + 1, root, false);
        if (rc == XB_OK)
            rc = xb_pt2pt_send(st, (MPI_Count)m->sbytes, m->byte, root, m->tag, m->comm, 1);
    }
    free(st);
    free(d.got);
    free(d.call);
    return rc;
}

/* Per node spanned: the head of its node stage (the root on the root's
 * node, else the job's lowest rank there, which joined the group). */
static int leaders_of(xb_coll_sched_t *s, const xb_comm_t *comm, int root, int **lead_p)
{
    const xb_rt_info_t *rt = xb_rt();
    xb_datatype_t *int_dt = xb_dt_from_handle(MPI_INT);
    int *lead = xb_coll_sched_tmp(s, rt->nnodes, int_dt);
    int *low = xb_coll_sched_tmp(s, rt->nnodes, int_dt);
    if (lead == NULL || low == NULL)
        return XB_ERR_NO_MEM;
    for (int i = 0; i < rt->nnodes; i++)
        lead[i] = -1, low[i] = rt->size;
    for (int r = 0; r < comm->size; r++) {
        int w = (int)xb_gpid_rank(xb_comm_gpid(comm, r)), nd = xb_coll_node_of(comm, r);
        if (w < low[nd])
            low[nd] = w, lead[nd] = r;
    }
    lead[xb_coll_node_of(comm, root)] = root;
    *lead_p = lead;
    return XB_OK;
}

int xb_coll_bcast_mcast(const xb_coll_args_t *a, int tag)
{
    xb_comm_t *comm = a->comm;
    const xb_rt_info_t *rt = xb_rt();
    xb_coll_sched_t s;
    xb_coll_sched_init(&s, comm, XB_COLL_BCAST);
    xb_coll_nodeset_t ns;
    int *lead = NULL;
    int rc = xb_coll_hier_plan(&s, comm, a->root, &ns);
    if (rc == XB_ERR_AGAIN) {            /* not node-whole: alike on every rank */
        xb_coll_sched_destroy(&s);
        return xb_coll_bcast_binomial_direct(a, tag);
    }
    if (rc == XB_OK)
        rc = leaders_of(&s, comm, a->root, &lead);
    int rootnode = xb_coll_node_of(comm, a->root);
    int head = lead != NULL ? lead[rt->my_node] : -1;
    size_t len = (size_t)(a->rcount * xb_dt_size(a->rdt));
    if (rc == XB_OK && len > 0 && comm->rank == head) {
        bool root = comm->rank == a->root;
        char *tmp;
        mc_t m = { .comm = comm, .tag = tag, .len = len, .frame = xb_mcast_frame(),
                   .byte = xb_dt_from_handle(MPI_BYTE),
                   .root = xb_gpid_rank(xb_comm_gpid(comm, a->root)) };
        m.nframes = (uint32_t)((len + m.frame - 1) / m.frame);
        m.wframes = (uint32_t)(xb_coll_mcast_window / m.frame);
        m.wframes = m.wframes < 1 ? 1 : m.wframes;
        m.nwin = (m.nframes + m.wframes - 1) / m.wframes;
        m.sbytes = sizeof(uint32_t) * (1 + (m.wframes + 31) / 32);
        m.buf = xb_coll_bytes_now(a->rbuf, a->rcount, a->rdt, root, &tmp, &rc);
        if (rc == XB_OK && root) {
            int nl = 0;
            for (int nd = 0; nd < rt->nnodes; nd++)
                if (lead[nd] >= 0 && nd != rootnode)
                    lead[nl++] = lead[nd];        /* lead[] is not read again */
            rc = root_stage(&m, lead, nl);
        } else if (rc == XB_OK) {
            rc = leader_stage(&m, a->root);
        }
        int wr = wait_net(m.nreqs, m.reqs, "MPI_Bcast (multicast: the repairs)");
        rc = rc == XB_OK ? wr : rc;
        rc = xb_coll_bytes_now_done(tmp, a->rbuf, a->rcount, a->rdt, !root, rc);
        free(m.reqs);
    }
    if (rc == XB_OK)
        rc = xb_coll_node_bcast(&s, comm, head, a->rbuf, a->rcount, a->rdt);
    if (rc == XB_OK)
        rc = xb_coll_sched_run(&s);
    xb_coll_sched_destroy(&s);
    return rc;
}
