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
 *   line 2s      seq[s]: number + 1 of the last chunk written to slot s
 *                (written by the owner, release)
 *   line 2s + 1  ack[s]: number + 1 of the last chunk read from slot s
 *                (written by its reader, release)
 *
 * Numbering. Chains run only on node-complete communicators in the
 * blocking form without MPI_THREAD_MULTIPLE, so every local rank makes the
 * same chain calls in the same order (node_shm.c's argument), with the
 * same number of chunks (count and datatype are equal on all ranks). Every
 * rank therefore counts the chunks of all chain calls alike (chain_pos):
 * chunk k of a call is chunk g = pos + k, written by its owner to slot
 * g mod SLOTS. The owner may write slot s when ack[s] == seq[s] (whoever
 * read it last has finished: the reader may differ from call to call, the
 * communicators order ranks differently); the reader of chunk g waits for
 * seq == g + 1 and stores ack = g + 1 when done.
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

static uint64_t chain_pos;                      /* chunks of all chain calls so far */
static char    *rings[XB_COLL_FLOW_MAXP];       /* by local index, looked up once */

void xb_coll_chain_init(void)
{
    chain_pos = 0;
    memset(rings, 0, sizeof rings);
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

static uint64_t *seq_of(char *r, uint64_t g)
{
    return (uint64_t *)(void *)(r + 2 * (g % SLOTS) * XB_CACHELINE);
}

static uint64_t *ack_of(char *r, uint64_t g)
{
    return (uint64_t *)(void *)(r + (2 * (g % SLOTS) + 1) * XB_CACHELINE);
}

static void *chunk_of(char *r, uint64_t g)
{
    return r + HEAD + (g % SLOTS) * CHUNK;
}

int xb_coll_chain_begin(xb_coll_chain_t *c, const xb_comm_t *comm, uint64_t nchunks)
{
    int rc = xb_coll_flow_begin(&c->f, comm);
    if (rc != XB_OK)
        return rc;
    c->g = chain_pos;
    chain_pos += nchunks;
    c->mine = c->f.me < c->f.p - 1 ? ring(c->f.loc[c->f.me]) : NULL;
    c->prev = c->f.me > 0 ? ring(c->f.loc[c->f.me - 1]) : NULL;
    return XB_OK;
}

typedef struct { char *r; uint64_t g; } at_t;

static bool has_room(void *arg)
{
    const at_t *w = arg;
    return __atomic_load_n(ack_of(w->r, w->g), __ATOMIC_ACQUIRE) ==
           __atomic_load_n(seq_of(w->r, w->g), __ATOMIC_RELAXED);
}

static bool has_data(void *arg)
{
    const at_t *w = arg;
    return __atomic_load_n(seq_of(w->r, w->g), __ATOMIC_ACQUIRE) == w->g + 1;
}

void *xb_coll_chain_reserve(xb_coll_chain_t *c, uint64_t k)
{
    at_t w = { c->mine, c->g + k };
    if (!has_room(&w))
        xb_coll_flow_wait(has_room, &w, "a node scan (room in this rank's ring)");
    return chunk_of(c->mine, c->g + k);
}

void xb_coll_chain_publish(xb_coll_chain_t *c, uint64_t k)
{
    __atomic_store_n(seq_of(c->mine, c->g + k), c->g + k + 1, __ATOMIC_RELEASE);
    xb_method_node_fence();
    xb_method_node_wake(c->f.loc[c->f.me + 1]);
}

const void *xb_coll_chain_await(xb_coll_chain_t *c, uint64_t k)
{
    at_t w = { c->prev, c->g + k };
    if (!has_data(&w))
        xb_coll_flow_wait(has_data, &w, "a node scan (the previous rank's prefix)");
    return chunk_of(c->prev, c->g + k);
}

void xb_coll_chain_release(xb_coll_chain_t *c, uint64_t k)
{
    __atomic_store_n(ack_of(c->prev, c->g + k), c->g + k + 1, __ATOMIC_RELEASE);
    xb_method_node_fence();
    xb_method_node_wake(c->f.loc[c->f.me - 1]);
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
