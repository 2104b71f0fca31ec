/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * node_chain.c - chains through the node's shared memory: each local rank
 * owns a small ring of chunks that the next rank of the chain reads (the
 * "chain" scan and exscan, scan_chain.c). Any message size, no barrier.
 *
 * Why. A scan of a large vector on one node went through recursive
 * doubling (log2 p rounds, each a full message) or, when it fit a slot,
 * one node barrier and a reduction over i + 1 slots at rank i (O(p^2)
 * work). A chain moves each byte once per rank: rank i reads rank i-1's
 * running prefix chunk by chunk as it is produced, combines it with its
 * own operand and publishes its own prefix in its ring; all ranks work at
 * once on different chunks (a pipeline), and back-to-back calls pipeline
 * too: rank 0 runs ahead by the ring.
 *
 * Layout. The tail of each local rank's slot in area 1 (XB_COLL_FLOW_BYTES:
 * node_shm.c's slots end before it in both areas; the area-0 tail holds
 * the flow cells, node_flow.c) is that rank's ring: a header of SLOTS
 * pairs of lines, then SLOTS chunks of CHUNK bytes.
 *
 *   line 2s      seq[s]: the tag of the last chunk written to slot s,
 *                then whether that chunk's writer failed (its head:
 *                XB_COLL_CHAIN_FAILED, else its vector's bytes; written by
 *                the owner, the seq with release after it)
 *   line 2s + 1  ack[s]: the tag of the last chunk read from slot s
 *                (written by its reader, release)
 *
 * Numbering. Every owner numbers the chunks it writes itself (chain_pos,
 * private): chunk k of a call that starts at g goes to slot (g + k) mod
 * SLOTS with tag g + k + 1, so back-to-back calls rotate through the
 * slots (rank 0 runs ahead by the ring). A chain call is a flow call
 * (xb_coll_flow_begin .. end, the same number on every local rank
 * whatever its count), and each writer's flow cell of the call says where
 * its chunks start (g), its vector's bytes (or FAILED) and its number of
 * chunks, with the header word CHAIN; its reader learns them there
 * (xb_coll_chain_start). The owner may write slot s when ack[s] == seq[s]
 * (whoever read it last has finished: the reader may differ from call to
 * call, the communicators order ranks differently); the reader of a chunk
 * waits for its tag and stores it in ack when done.
 *
 * Counts that differ (an erroneous program). A reader whose count differs
 * from its predecessor's takes every chunk the predecessor's cell
 * announces without using them, so the writer never waits for room that
 * nobody frees, fails with MPI_ERR_TRUNCATE, and announces FAILED and no
 * chunks in its own cell. A predecessor that took the flow cells (its
 * count fit one) says its bytes in its cell's header word instead, and a
 * flow reader whose predecessor took the chain takes its chunks and fails
 * the same way (xb_coll_chain_await_cell).
 *
 * Deadlock. The last rank of a chain only reads; every other rank waits
 * for its successor (room) or its predecessor (data) in the same call or
 * for a reader of an earlier call, whose data is all published: the
 * lowest call in progress always moves.
 *
 * Sleeping. Waits go through xb_coll_flow_wait (the progress wait with the
 * node watch: no lost wake-up); after a seq or ack store the writer fences
 * and wakes the one rank that may wait for it (xb_method_node_wake: one
 * load when it does not sleep).
 */
#include <string.h>
#include "coll/coll_int.h"
#include "method/method.h"

enum { SLOTS = XB_COLL_CHAIN_SLOTS, HEAD = 2 * SLOTS * XB_CACHELINE,
       CHUNK = XB_COLL_CHAIN_CHUNK };
_Static_assert(HEAD + SLOTS * CHUNK <= XB_COLL_FLOW_BYTES, "the ring fits the slot's tail");
_Static_assert(CHUNK % XB_CACHELINE == 0, "chunks start on a line");

static char    *rings[XB_COLL_FLOW_MAXP];    /* by local index, looked up once */
static uint64_t chain_pos;                   /* chunks this rank has written */

void xb_coll_chain_init(void)
{
    memset(rings, 0, sizeof rings);
    chain_pos = 0;
}

static char *ring(int local)
{
    char *r = rings[local];
    if (XB_UNLIKELY(r == NULL)) {
        size_t size;
        char *slot = xb_method_node_slot(1, local, &size);
        r = rings[local] = slot + size - XB_COLL_FLOW_BYTES;
    }
    return r;
}

/* Where chunk k of a call that starts at g lies, and its tag. */
typedef struct { char *r; uint64_t s, tag; } at_t;

static at_t at(char *r, uint64_t g, uint64_t k)
{
    return (at_t){ r, (g + k) % SLOTS, g + k + 1 };
}

static uint64_t *seq_of(const at_t *w) { return (uint64_t *)(void *)(w->r + 2 * w->s * XB_CACHELINE); }
static uint64_t *ack_of(const at_t *w) { return seq_of(w) + XB_CACHELINE / 8; }
static void *chunk_of(const at_t *w) { return w->r + HEAD + w->s * CHUNK; }

/* A chain writer's flow cell: where its chunks start, its bytes, its
 * number of chunks; its header word CHAIN (no byte count of a flow cell). */
enum { CHAIN = 1u << 31 };
typedef struct { uint64_t g, bytes, nchunks; } head_t;

int xb_coll_chain_begin(xb_coll_chain_t *c, const xb_comm_t *comm)
{
    int rc = xb_coll_flow_begin(&c->f, comm);
    if (rc != XB_OK)
        return rc;
    c->mine = c->f.me < c->f.p - 1 ? ring(c->f.loc[c->f.me]) : NULL;
    c->prev = c->f.me > 0 ? ring(c->f.loc[c->f.me - 1]) : NULL;
    return XB_OK;
}

void xb_coll_chain_end(xb_coll_chain_t *c)
{
    xb_coll_flow_end(&c->f);
}

static bool has_room(void *arg)
{
    const at_t *w = arg;
    return __atomic_load_n(ack_of(w), __ATOMIC_ACQUIRE) ==
           __atomic_load_n(seq_of(w), __ATOMIC_RELAXED);
}

static bool has_data(void *arg)
{
    const at_t *w = arg;
    return __atomic_load_n(seq_of(w), __ATOMIC_ACQUIRE) == w->tag;
}

void *xb_coll_chain_reserve(xb_coll_chain_t *c, uint64_t k)
{
    at_t w = at(c->mine, c->g, k);
    if (!has_room(&w))
        xb_coll_flow_wait(has_room, &w, "a node scan (room in this rank's ring)");
    return chunk_of(&w);
}

void xb_coll_chain_publish(xb_coll_chain_t *c, uint64_t k, uint64_t bytes)
{
    at_t w = at(c->mine, c->g, k);
    uint64_t *seq = seq_of(&w);
    seq[1] = bytes;
    __atomic_store_n(seq, w.tag, __ATOMIC_RELEASE);
    xb_method_node_fence();
    xb_method_node_wake(c->f.loc[c->f.me + 1]);
}

static const void *await_at(const at_t *w)
{
    if (!has_data((void *)w))
        xb_coll_flow_wait(has_data, (void *)w, "a node scan (the previous rank's prefix)");
    return chunk_of(w);
}

const void *xb_coll_chain_await(xb_coll_chain_t *c, uint64_t k, uint64_t *bytes)
{
    at_t w = at(c->prev, c->pg, k);
    const void *chunk = await_at(&w);
    *bytes = seq_of(&w)[1];
    return chunk;
}

static void release_at(const xb_coll_flow_t *f, const at_t *w)
{
    __atomic_store_n(ack_of(w), w->tag, __ATOMIC_RELEASE);
    xb_method_node_fence();
    xb_method_node_wake(f->loc[f->me - 1]);
}

void xb_coll_chain_release(xb_coll_chain_t *c, uint64_t k)
{
    at_t w = at(c->prev, c->pg, k);
    release_at(&c->f, &w);
}

/* Rank me - 1's cell of f's call (after its await): a chain writer's head
 * (true), or a flow writer's (false). */
static bool pred_head(const xb_coll_flow_t *f, head_t *h)
{
    if (xb_coll_flow_word(f, f->me - 1) != CHAIN)
        return false;
    *h = *(const head_t *)xb_coll_flow_cell(f, f->me - 1);
    return true;
}

/* Take the chunks rank me - 1's head announces without using them; the
 * error for its bytes where this rank has `want`. */
static int drain(const xb_coll_flow_t *f, const head_t *h, size_t want, xb_coll_kind_t kind)
{
    char *r = ring(f->loc[f->me - 1]);
    for (uint64_t k = 0; k < h->nchunks; k++) {
        at_t w = at(r, h->g, k);
        (void)await_at(&w);
        release_at(f, &w);
    }
    if (h->bytes == XB_COLL_CHAIN_FAILED)
        return xb_coll_flow_check_word(XB_COLL_FLOW_FAILED, f->me - 1, want, kind);
    return xb_coll_mismatch((int)kind, -1, f->me - 1, (size_t)h->bytes, (MPI_Count)want, 0,
                            NULL);
}

int xb_coll_chain_start(xb_coll_chain_t *c, uint64_t bytes, uint64_t nchunks,
                        xb_coll_kind_t kind)
{
    int rc = XB_OK;
    if (c->f.me > 0) {
        head_t h;
        xb_coll_flow_await(&c->f, c->f.me - 1);
        if (!pred_head(&c->f, &h)) {              /* a flow cell: the counts differ */
            rc = xb_coll_flow_check(&c->f, c->f.me - 1, (size_t)bytes, kind);
            if (rc == XB_OK)
                rc = xb_err_set(XB_ERR_TRUNCATE, "rank %d took the flow cells for this %s "
                                "where this rank took the chain: the ranks' types do not match",
                                c->f.me - 1, xb_coll_kind_name(kind));
        } else if (h.bytes != bytes) {
            rc = drain(&c->f, &h, (size_t)bytes, kind);
        }
        c->pg = h.g;
    }
    if (c->f.me < c->f.p - 1) {
        head_t *mine = xb_coll_flow_cell(&c->f, c->f.me);
        xb_coll_flow_reserve(&c->f);
        c->g = chain_pos;
        *mine = (head_t){ chain_pos, rc == XB_OK ? bytes : XB_COLL_CHAIN_FAILED,
                          rc == XB_OK ? nchunks : 0 };
        if (rc == XB_OK)
            chain_pos += nchunks;
        xb_coll_flow_publish_word(&c->f, c->f.me + 1, c->f.me + 2, CHAIN);
    }
    return rc;
}

int xb_coll_chain_await_cell(xb_coll_flow_t *f, size_t want, xb_coll_kind_t kind)
{
    head_t h;
    xb_coll_flow_await_data(f, f->me - 1, want);
    return pred_head(f, &h) ? drain(f, &h, want, kind)
                            : xb_coll_flow_check(f, f->me - 1, want, kind);
}

/* The chain algorithms' condition (NEED_CHAIN in coll_select.c): blocking,
 * not under MULTIPLE, a communicator the flow cells serve (node-complete,
 * at most XB_COLL_FLOW_MAXP ranks, node slots), and a reduction whose
 * chunks the ring can hold: the user's vector is its working vector in
 * memory (contiguous, the working type is the user's: any op), or its
 * packed form is (a derived type of one predefined basic type without
 * holes, a predefined op). An element must fit a quarter of a chunk. */
bool xb_coll_chain_fits(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    if ((kind != XB_COLL_SCAN && kind != XB_COLL_EXSCAN) || a->form != XB_COLL_BLOCKING ||
        xb_coll_threads || !xb_coll_flow_comm_ok(a->comm))
        return false;
    xb_coll_red_t red;
    if (xb_coll_flow_red(&red, a->rcount, a->rdt, a->op) != XB_OK) {
        xb_err_clear();
        return false;
    }
    if (!xb_coll_chain_direct(&red) && !xb_coll_chain_packed(&red))
        return false;
    MPI_Aint ext = xb_dt_extent(red.wdt);
    return ext > 0 && ext <= (MPI_Aint)CHUNK / 4;
}

bool xb_coll_chain_direct(const xb_coll_red_t *red)
{
    return red->dt == red->wdt && xb_dt_is_contig(red->dt, red->count);
}

bool xb_coll_chain_packed(const xb_coll_red_t *red)
{
    return xb_dt_is_predefined(red->wdt) && xb_dt_size(red->wdt) == xb_dt_extent(red->wdt);
}
