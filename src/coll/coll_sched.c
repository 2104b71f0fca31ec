/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_sched.c - building and running schedules (see coll_sched.h).
 */
#include <stdlib.h>
#include <string.h>
#include "coll/coll_int.h"
#include "util/xb_mt.h"
#include "method/method.h"
#include "pt2pt/pt2pt.h"
#include "runtime/runtime.h"

/* One temporary buffer: a header, then the data (16-byte aligned). */
struct xb_coll_mem {
    xb_coll_mem_t *next;
    size_t         size;          /* bytes after the header */
};

/* Large temporary buffers are kept for the next collective instead of going
 * back to malloc: glibc hands blocks of 128 KiB and more out by mmap, so a
 * fresh 1 MiB buffer per call paid its page faults every time (an
 * allreduce of 1 MiB at 2 ranks spent its time in exc_page_fault and took
 * 2 ms where Open MPI took 0.14, 2026-11-24). A few blocks, at most
 * CACHE_BYTES in all; the smallest that fits is reused. */
enum { CACHE_MIN = 64 << 10, CACHE_SLOTS = 8 };
#define CACHE_BYTES ((size_t)64 << 20)
static xb_coll_mem_t *cache[CACHE_SLOTS];
static size_t cache_bytes;

static xb_coll_mem_t *cache_take(size_t bytes)
{
    int best = -1;
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (cache[i] != NULL && cache[i]->size >= bytes &&
            (best < 0 || cache[i]->size < cache[best]->size))
            best = i;
    if (best < 0)
        return NULL;
    xb_coll_mem_t *m = cache[best];
    cache[best] = NULL;
    cache_bytes -= m->size;
    return m;
}

static void cache_put(xb_coll_mem_t *m)
{
    if (m->size >= CACHE_MIN && cache_bytes + m->size <= CACHE_BYTES)
        for (int i = 0; i < CACHE_SLOTS; i++)
            if (cache[i] == NULL) {
                cache[i] = m;
                cache_bytes += m->size;
                return;
            }
    free(m);
}

void xb_coll_sched_cache_fini(void)
{
    for (int i = 0; i < CACHE_SLOTS; i++) {
        free(cache[i]);
        cache[i] = NULL;
    }
    cache_bytes = 0;
}

/* Tags: the collective kind in the low 5 bits, then one bit for the form
 * (blocking, or nonblocking/persistent), then the sequence number of that
 * form. Blocking and nonblocking collectives count separately, so a rank
 * may start a nonblocking collective before a blocking one while the
 * others start it after (mpi4py's MPI_Comm_iagree fallback does; MPICH and
 * Open MPI allow it too): each form still matches in its own order. */
enum { SEQ_BITS = 19 };
_Static_assert((32u << (SEQ_BITS + 1)) <= (unsigned)XB_COLL_LOCAL_TAG,
               "local phases of intercommunicator collectives: tags above");

int xb_coll_seq_tag(xb_comm_t *comm, int kind, bool nonblocking)
{
    uint32_t *counter = nonblocking ? &comm->coll_nbseq : &comm->coll_seq;
    uint32_t seq = (*counter)++ & ((1u << SEQ_BITS) - 1);
    return XB_COLL_TAG(kind) + (int)((seq * 2u + (nonblocking ? 1u : 0u)) * 32u);
}

void xb_coll_sched_init_tag(xb_coll_sched_t *s, xb_comm_t *comm, int kind, int tag)
{
    memset(s, 0, offsetof(xb_coll_sched_t, inline_steps));
    s->comm = comm;
    s->kind = kind;
    s->tag = tag;
    s->steps = s->inline_steps;
    s->cap = XB_COLL_SCHED_INLINE;
    s->reqs = s->inline_reqs;
    s->reqcap = XB_COLL_SCHED_INLINE;
}

void xb_coll_sched_init_form(xb_coll_sched_t *s, xb_comm_t *comm, int kind,
                             bool nonblocking)
{
    xb_coll_sched_init_tag(s, comm, kind, xb_coll_seq_tag(comm, kind, nonblocking));
}

void xb_coll_sched_init(xb_coll_sched_t *s, xb_comm_t *comm, int kind)
{
    xb_coll_sched_init_form(s, comm, kind, false);
}

static xb_coll_step_t *add(xb_coll_sched_t *s, int op)
{
    if (s->nsteps == s->cap) {
        int cap = s->cap * 2;
        xb_coll_step_t *n = malloc((size_t)cap * sizeof(*n));
        if (n == NULL) {
            xb_err_set(XB_ERR_NO_MEM, "out of memory for a collective schedule "
                       "of %d steps", cap);
            return NULL;
        }
        memcpy(n, s->steps, (size_t)s->nsteps * sizeof(*n));
        if (s->steps != s->inline_steps)
            free(s->steps);
        s->steps = n;
        s->cap = cap;
    }
    xb_coll_step_t *st = &s->steps[s->nsteps++];
    memset(st, 0, sizeof(*st));
    st->op = (uint8_t)op;
    st->local = s->local;
    return st;
}

static void keep(xb_datatype_t *dt)
{
    if (dt != NULL)
        xb_dt_retain(dt);
}

int xb_coll_sched_send(xb_coll_sched_t *s, const void *buf, MPI_Count count,
                       xb_datatype_t *dt, int peer)
{
    xb_coll_step_t *st = add(s, XB_CS_SEND);
    if (st == NULL)
        return XB_ERR_NO_MEM;
    st->src = buf, st->scount = count, st->sdt = dt, st->peer = peer;
    keep(dt);
    return XB_OK;
}

int xb_coll_sched_recv(xb_coll_sched_t *s, void *buf, MPI_Count count,
                       xb_datatype_t *dt, int peer)
{
    xb_coll_step_t *st = add(s, XB_CS_RECV);
    if (st == NULL)
        return XB_ERR_NO_MEM;
    st->dst = buf, st->dcount = count, st->ddt = dt, st->peer = peer;
    keep(dt);
    return XB_OK;
}

int xb_coll_sched_copy(xb_coll_sched_t *s, const void *src, MPI_Count scount,
                       xb_datatype_t *sdt, void *dst, MPI_Count dcount,
                       xb_datatype_t *ddt)
{
    if (src == dst && scount == dcount && sdt == ddt)
        return XB_OK;
    xb_coll_step_t *st = add(s, XB_CS_COPY);
    if (st == NULL)
        return XB_ERR_NO_MEM;
    st->src = src, st->scount = scount, st->sdt = sdt;
    st->dst = dst, st->dcount = dcount, st->ddt = ddt;
    keep(sdt);
    keep(ddt);
    return XB_OK;
}

int xb_coll_sched_reduce(xb_coll_sched_t *s, const void *in, void *inout,
                         MPI_Count n)
{
    xb_coll_step_t *st = add(s, XB_CS_REDUCE);
    if (st == NULL)
        return XB_ERR_NO_MEM;
    st->src = in, st->dst = inout, st->scount = n;
    return XB_OK;
}

int xb_coll_sched_fence(xb_coll_sched_t *s)
{
    if (s->nsteps > 0 && s->steps[s->nsteps - 1].op == XB_CS_FENCE)
        return XB_OK;
    return add(s, XB_CS_FENCE) != NULL ? XB_OK : XB_ERR_NO_MEM;
}

void xb_coll_sched_local(xb_coll_sched_t *s, bool local)
{
    s->local = local && s->comm->local_comm != NULL;
}

int xb_coll_sched_node_barrier(xb_coll_sched_t *s)
{
    return xb_coll_sched_node_barrier_check(s, -1, NULL, NULL);
}

int xb_coll_sched_node_barrier_check(xb_coll_sched_t *s, int par, const MPI_Count *counts,
                                     xb_datatype_t *dt)
{
    int rc = xb_coll_sched_fence(s);
    xb_coll_step_t *st = rc == XB_OK ? add(s, XB_CS_NODE_BARRIER) : NULL;
    if (st == NULL)
        return rc != XB_OK ? rc : XB_ERR_NO_MEM;
    st->scount = par + 1;          /* 0: no check */
    st->src = counts;
    st->sdt = dt;
    return XB_OK;
}

int xb_coll_sched_node(xb_coll_sched_t *s, xb_coll_nbop_t *o)
{
    xb_coll_step_t *st = add(s, XB_CS_NODE);
    if (st == NULL)
        return XB_ERR_NO_MEM;
    st->dst = o;
    st->sdt = o->a.sdt;
    st->ddt = o->a.rdt;
    keep(st->sdt);
    keep(st->ddt);
    return XB_OK;
}

void xb_coll_sched_expect(xb_coll_sched_t *s, int root, MPI_Count count,
                          xb_datatype_t *dt)
{
    keep(dt);
    if (s->xdt != NULL)
        xb_dt_release(s->xdt);
    s->xroot = root, s->xcount = count, s->xdt = dt;
}

void *xb_coll_sched_tmp(xb_coll_sched_t *s, MPI_Count count,
                        const xb_datatype_t *dt)
{
    size_t bytes = count <= 0 ? 1
                 : (size_t)(xb_dt_true_extent(dt) + (count - 1) * xb_dt_extent(dt));
    /* Small ones come from the schedule's own arena: two mallocs and frees
     * were a tenth of a 2-rank 8-byte MPI_Allreduce (2026-11-24). */
    size_t rounded = (bytes + 15) & ~(size_t)15;
    if (rounded <= sizeof(s->arena) - s->arena_used) {
        char *p = s->arena + s->arena_used;
        s->arena_used += rounded;
        return p - xb_dt_true_lb(dt);
    }
    xb_coll_mem_t *m = bytes >= CACHE_MIN ? cache_take(bytes) : NULL;
    if (m == NULL && (m = malloc(sizeof(*m) + bytes)) != NULL)
        m->size = bytes;
    if (m == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for a %zu-byte collective "
                   "buffer", bytes);
        return NULL;
    }
    m->next = s->mem;
    s->mem = m;
    return (char *)(m + 1) - xb_dt_true_lb(dt);
}

int xb_coll_sched_red(xb_coll_sched_t *s, MPI_Count count, xb_datatype_t *dt,
                      xb_op_t *op)
{
    int rc = xb_coll_red_init(&s->red, count, dt, op);
    if (rc != XB_OK)
        return rc;
    xb_op_retain(op);
    s->op = op;
    return XB_OK;
}

void *xb_coll_sched_wtmp(xb_coll_sched_t *s, MPI_Count n)
{
    return xb_coll_sched_tmp(s, n < 0 ? s->red.wcount : n, s->red.wdt);
}

void xb_coll_sched_release(xb_coll_sched_t *s)
{
    for (int i = 0; i < s->nreqs; i++)
        xb_request_release(s->reqs[i]);
    for (int i = 0; i < s->nsteps; i++) {
        xb_coll_step_t *st = &s->steps[i];
        bool node = st->op == XB_CS_NODE;
        if (node)
            xb_coll_nbn_drop(st->dst);         /* off the node watch's list */
        if ((st->op == XB_CS_SEND || st->op == XB_CS_COPY || node) && st->sdt != NULL)
            xb_dt_release(st->sdt);
        if ((st->op == XB_CS_RECV || st->op == XB_CS_COPY || node) && st->ddt != NULL)
            xb_dt_release(st->ddt);
    }
    s->nreqs = s->nsteps = 0;
    if (s->steps != s->inline_steps)
        free(s->steps);
    if (s->reqs != s->inline_reqs)
        free(s->reqs);
    s->steps = s->inline_steps, s->reqs = s->inline_reqs;
    s->cap = s->reqcap = XB_COLL_SCHED_INLINE;
    while (s->mem != NULL) {
        xb_coll_mem_t *m = s->mem;
        s->mem = m->next;
        cache_put(m);
    }
    if (s->op != NULL)
        xb_op_release(s->op);
    if (s->xdt != NULL)
        xb_dt_release(s->xdt);
    s->op = NULL, s->xdt = NULL;
}

/* Out of line: inlined into a caller whose schedule is on its stack, gcc
 * cannot see that `heap` is false there and warns of the free. */
XB_NOINLINE void xb_coll_sched_destroy(xb_coll_sched_t *s)
{
    xb_coll_sched_release(s);
    free(s->errtext);
    if (s->heap)
        free(s);
}

/* ---- running ---------------------------------------------------------------- */
static int push_req(xb_coll_sched_t *s, xb_request_t *r)
{
    if (s->nreqs == s->reqcap) {
        int cap = s->reqcap * 2;
        xb_request_t **n = malloc((size_t)cap * sizeof(*n));
        if (n == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "out of memory for %d collective "
                              "requests", cap);
        memcpy(n, s->reqs, (size_t)s->nreqs * sizeof(*n));
        if (s->reqs != s->inline_reqs)
            free(s->reqs);
        s->reqs = n;
        s->reqcap = cap;
    }
    s->reqs[s->nreqs++] = r;
    return XB_OK;
}

static int apply(xb_coll_sched_t *s, const xb_coll_step_t *st)
{
    xb_mutex_t *held = s->red.op->predefined ? NULL : xb_cb_begin();
    int rc = xb_op_apply(s->red.op, st->src, st->dst, st->scount, s->red.wdt);
    xb_cb_end(held);
    return rc;
}

int xb_coll_sched_user_op(xb_coll_sched_t *s)
{
    const xb_coll_step_t *st = &s->steps[s->pc];
    int rc = st->op == XB_CS_NODE ? xb_coll_nbn_read(st->dst) : apply(s, st);
    if (rc != XB_OK)
        return s->rc = rc;
    s->pc++;
    return XB_OK;
}

/* A send after a size mismatch (s->err): one byte more than the step
 * would send, so that its receiver, whatever its count, sees a message of
 * the wrong size and fails too (an empty message would pass as a count of
 * zero; a byte more is no multiple of any wider type) instead of taking
 * this rank's bytes for the root's. Every step is still sent: no peer
 * waits for a message that never comes. */
static int poison(xb_coll_sched_t *s, const xb_coll_step_t *st, xb_comm_t *comm, int tag)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    MPI_Count n = st->scount * xb_dt_size(st->sdt) + 1;
    char *buf = xb_coll_sched_tmp(s, n, byte);
    xb_request_t *r;
    if (buf == NULL)
        return XB_ERR_NO_MEM;
    memset(buf, 0, (size_t)n);
    int rc = xb_pt2pt_isend(buf, n, byte, st->peer, tag, comm, 1, &r);
    if (rc == XB_OK && (rc = push_req(s, r)) != XB_OK)
        xb_request_release(r);
    return rc;
}

static int do_step(xb_coll_sched_t *s, const xb_coll_step_t *st)
{
    xb_request_t *r = NULL;
    xb_comm_t *comm = st->local ? s->comm->local_comm : s->comm;
    int tag = st->local ? s->tag + XB_COLL_LOCAL_TAG : s->tag;
    int rc;
    if (XB_UNLIKELY(s->err != XB_OK)) {
        if (st->op == XB_CS_SEND)
            return poison(s, st, comm, tag);
        if (st->op == XB_CS_COPY || st->op == XB_CS_REDUCE)
            return XB_OK;         /* after a size mismatch: data is not kept */
    }
    switch (st->op) {
    case XB_CS_SEND:
        /* A blocking schedule sends a small contiguous message with no
         * request when it can (the request's life cycle was a fifth of a
         * 2-rank 8-byte MPI_Allreduce); XB_ERR_AGAIN: nothing was sent. */
        if (s->req == NULL) {
            rc = xb_pt2pt_send_eager_now(st->src, st->scount, st->sdt, st->peer,
                                         tag, comm, 1);
            if (rc != XB_ERR_AGAIN)
                return rc;
        }
        rc = xb_pt2pt_isend(st->src, st->scount, st->sdt, st->peer, tag,
                            comm, 1, &r);
        break;
    case XB_CS_RECV:
        rc = xb_pt2pt_irecv(st->dst, st->dcount, st->ddt, st->peer, tag,
                            comm, 1, &r);
        break;
    case XB_CS_COPY:
        rc = xb_dt_copy(st->src, st->scount, st->sdt, st->dst, st->dcount, st->ddt);
        if (XB_UNLIKELY(rc == XB_ERR_TRUNCATE)) {
            /* a local block longer than its place (the rank's own send and
             * receive counts differ): a mismatch like a received one, so
             * the schedule goes on and no peer is left waiting */
            xb_err_clear();
            s->err = XB_ERR_TRUNCATE;
            s->err_from = -1;
            s->err_got = (size_t)(st->scount * xb_dt_size(st->sdt));
            s->err_want = st->dcount * xb_dt_size(st->ddt);
            rc = XB_OK;
        }
        return rc;
    case XB_CS_REDUCE:
        /* A user function runs without the MULTIPLE lock (it may call MPI,
         * or wait for an interpreter lock whose holder calls MPI). A
         * blocking schedule belongs to this call alone: drop the lock here.
         * A nonblocking one is on the active list, which other threads
         * walk: its owner takes it off first (XB_COLL_USER_OP, coll_nb.c). */
        if (!s->red.op->predefined && s->req != NULL && xb_mt_on)
            return XB_COLL_USER_OP;
        return apply(s, st);
    default:
        return XB_OK;
    }
    if (rc != XB_OK)
        return rc;
    if (s->fn != NULL)
        r->fn = s->fn;
    rc = push_req(s, r);
    if (rc != XB_OK)
        xb_request_release(r);
    return rc;
}

/* A completed receive: a message longer than the buffer (truncated) or
 * shorter is a mismatch of the ranks' counts, recorded in s->err (the
 * schedule goes on, see coll_sched.h); other errors are returned. */
static int recv_rc(xb_coll_sched_t *s, const xb_request_t *q)
{
    MPI_Count want = q->count * xb_dt_size(q->dt);
    if (XB_LIKELY(q->status.error == MPI_SUCCESS && q->status.count == want))
        return XB_OK;
    if (q->status.error != MPI_SUCCESS && q->status.error != MPI_ERR_TRUNCATE &&
        q->status.error != MPI_ERR_TYPE)    /* short, ending inside an element */
        return xb_request_status_rc(q);
    if (s->xdt != NULL && s->comm->rank == s->xroot)
        return XB_OK;     /* the root's buffer is the reference (a ring passes it back) */
    if (s->err == XB_OK) {
        s->err = XB_ERR_TRUNCATE;
        s->err_from = q->status.source;
        s->err_got = q->status.error == MPI_ERR_TRUNCATE ? q->bytes : (size_t)q->status.count;
        s->err_want = want;
    }
    return XB_OK;
}

/* The error of s->err, with its sentence. */
static int mismatch_rc(const xb_coll_sched_t *s)
{
    return xb_coll_mismatch(s->kind, s->xdt != NULL ? s->xroot : -1, s->err_from, s->err_got,
                            s->err_want, s->xcount, s->xdt);
}

/* XB_OK when every issued request is done (they are freed), else INPROGRESS. */
static int reap(xb_coll_sched_t *s)
{
    for (int i = 0; i < s->nreqs; i++)
        if (!xb_request_is_done(s->reqs[i]))
            return XB_INPROGRESS;
    int rc = XB_OK;
    for (int i = 0; i < s->nreqs; i++) {
        int r = s->reqs[i]->kind == XB_REQ_RECV ? recv_rc(s, s->reqs[i])
                                                : xb_request_status_rc(s->reqs[i]);
        if (r != XB_OK && rc == XB_OK)
            rc = r;
        xb_request_free(s->reqs[i]);
    }
    s->nreqs = 0;
    return rc;
}

/* After a failed check: each rank that passed the barrier on messages
 * (xb_coll_node_pass) waits for one message from this rank and sends it
 * one. Receive that one and send it a byte more than it expects (poison's
 * rule), so that it fails too; the call ends with the mismatch once they
 * are done (the copies after the barrier are skipped). XB_OK when there was
 * such a rank, else the check's rc. */
static int meet_passed(xb_coll_sched_t *s, int par, int rc)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    MPI_Count sent, want, own_sent;
    bool any = false;
    for (int i = 0; i < s->comm->size; i++) {
        if (i == s->comm->rank || !xb_coll_node_head(s->comm, par, i, &sent, &want))
            continue;
        if (!any) {
            xb_err_clear();
            any = true;
            xb_coll_node_head(s->comm, par, s->comm->rank, &own_sent, &s->err_want);
            s->err = XB_ERR_TRUNCATE;
            s->err_from = i;
            s->err_got = (size_t)sent;
        }
        char *in = xb_coll_sched_tmp(s, sent, byte), *out = xb_coll_sched_tmp(s, want + 1, byte);
        xb_request_t *r;
        if ((sent > 0 && in == NULL) || out == NULL)
            return XB_ERR_NO_MEM;
        memset(out, 0, (size_t)want + 1);
        int e = xb_pt2pt_irecv(in, sent, byte, i, s->tag, s->comm, 1, &r);
        if (e == XB_OK && (e = push_req(s, r)) != XB_OK)
            xb_request_release(r);
        if (e == XB_OK)
            e = xb_pt2pt_isend(out, want + 1, byte, i, s->tag, s->comm, 1, &r);
        if (e == XB_OK && (e = push_req(s, r)) != XB_OK)
            xb_request_release(r);
        if (e != XB_OK)
            return e;
    }
    return any ? XB_OK : rc;
}

static int node_barrier(xb_coll_sched_t *s, const xb_coll_step_t *st)
{
    if (!s->arrived) {
        s->ticket = xb_method_node_arrive(true);
        s->arrived = true;
    }
    if (!xb_method_node_released(s->ticket))
        return XB_INPROGRESS;
    s->arrived = false;
    if (st->scount == 0)
        return XB_OK;
    int rc = xb_coll_node_check(s->comm, (int)st->scount - 1, s->kind, st->src, st->sdt);
    return XB_UNLIKELY(rc != XB_OK) ? meet_passed(s, (int)st->scount - 1, rc) : rc;
}

int xb_coll_sched_advance(xb_coll_sched_t *s)
{
    if (s->rc != XB_OK)
        return s->rc;
    while (s->pc < s->nsteps) {
        const xb_coll_step_t *st = &s->steps[s->pc];
        int rc = st->op == XB_CS_FENCE ? reap(s)
               : st->op == XB_CS_NODE_BARRIER ? node_barrier(s, st)
               : st->op == XB_CS_NODE ? xb_coll_nbn_step(st->dst)
               : do_step(s, st);
        if (rc == XB_INPROGRESS || rc == XB_COLL_USER_OP)
            return rc;
        if (rc != XB_OK)
            return s->rc = rc;
        s->pc++;
    }
    int rc = reap(s);
    if (XB_UNLIKELY(rc == XB_OK && s->err != XB_OK))
        rc = mismatch_rc(s);
    if (rc != XB_OK && rc != XB_INPROGRESS)
        s->rc = rc;
    return rc;
}

void xb_coll_sched_restart(xb_coll_sched_t *s)
{
    s->pc = 0;
    s->rc = XB_OK;
    s->err = XB_OK;
    free(s->errtext);
    s->errtext = NULL;
}

static bool released(void *arg)
{
    return xb_method_node_released(*(const uint32_t *)arg);
}

static xb_request_t *first_pending(const xb_coll_sched_t *s)
{
    for (int i = 0; i < s->nreqs; i++)
        if (!xb_request_is_done(s->reqs[i]))
            return s->reqs[i];
    return NULL;
}

/* The request's peer is on another node: what it waits for comes through
 * the sockets. */
static bool remote_peer(const xb_request_t *r)
{
    const xb_rt_info_t *rt = xb_rt();
    return rt->nnodes > 1 && r->comm != NULL && r->peer >= 0 &&
           xb_coll_node_of(r->comm, r->peer) != (int)rt->my_node;
}

static bool req_done(void *arg) { return xb_request_is_done(arg); }

int xb_coll_sched_run(xb_coll_sched_t *s)
{
    xb_coll_sched_restart(s);
    for (;;) {
        int rc = xb_coll_sched_advance(s);
        if (rc != XB_INPROGRESS)
            return rc;
        xb_request_t *r = first_pending(s);
        /* a message from another node (the heads' stage of a two-stage
         * collective) wakes a rank that sleeps on the sockets at once; the
         * shm-and-tcp sleep would notice it only between its futex slices
         * (3 hosts x 2 ranks, 1 Gbit/s, allreduce of 256 KiB: docs/
         * PERFORMANCE.md) */
        if (r != NULL && remote_peer(r))
            xb_progress_wait_net(xb_progress_default(), req_done, r,
                                 "a collective (a message from another node)", -1);
        else if (r != NULL)
            xb_progress_wait(xb_progress_default(), r);
        else if (s->arrived)
            xb_progress_wait_until(xb_progress_default(), released, &s->ticket,
                                   "MPI_Barrier (the node barrier)");
    }
}
