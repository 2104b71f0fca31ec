/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * node_shm.c - what the node collectives (barrier_shm.c and the *_shm.c
 * algorithms) share: which communicators may use the node's shared memory,
 * where a rank's slot is, and the parity that makes slots safe to reuse.
 *
 * A node collective runs on a communicator made of exactly the ranks of one
 * node (COMM_WORLD of a one-host job and its duplicates), in the blocking
 * form only. Its data goes through the method's node slots (shm: the
 * collective area of the segment): each rank writes its part once, one node
 * barrier, then every rank reads what it needs straight from the others'
 * slots - one copy in, one copy out, whatever the number of ranks, and one
 * round of scheduling where point-to-point algorithms need log2(p) rounds
 * (what an oversubscribed node pays for).
 *
 * Reuse. The slots come in two areas (parities). Every node collective
 * takes the next parity for each write-barrier-read phase, and every phase
 * has a barrier, so between two uses of one area there is a barrier that
 * every rank reached after it had finished reading the first use: the
 * writer of the second use has passed it. All ranks take parities in the
 * same order because blocking collectives on node-complete communicators
 * are totally ordered (each one waits for every rank of the node), the
 * same reason barrier_shm may share one barrier line.
 *
 * Heads. A slot's first 16 bytes are its head: the writer's signature of
 * the call (xb_coll_node_sign), which every reader checks after the
 * barrier (xb_coll_node_check), so counts that differ fail on every rank
 * instead of reading the wrong bytes; the data follows the head.
 *
 * Not under MPI_THREAD_MULTIPLE (two threads could run node collectives on
 * two communicators at once): the selection falls back to messages then,
 * on every rank of the job when one process runs with threads
 * (xb_coll_threads), so that all pick the same algorithm.
 */
#include <stdlib.h>
#include <string.h>
#include "coll/coll_int.h"
#include "method/method.h"
#include "runtime/runtime.h"

static unsigned parity;

bool xb_coll_one_node(const xb_comm_t *comm)
{
    if (comm->remote != NULL)
        return false;
    if (comm->one_node == 0) {      /* the walk once per communicator */
        const xb_rt_info_t *rt = xb_rt();
        int8_t v = 1;
        for (int r = 0; r < comm->size && v == 1; r++) {
            xb_gpid_t g = xb_group_gpid(comm->group, r);
            if (xb_gpid_job(g) != 0 || xb_gpid_rank(g) >= (uint32_t)rt->size ||
                rt->node_of[xb_gpid_rank(g)] != rt->my_node)
                v = -1;
        }
        if (v == 1 && comm->size == rt->local_size && xb_method_has_node_barrier())
            v = 2;                                      /* the whole node */
        ((xb_comm_t *)comm)->one_node = v;
    }
    return comm->one_node > 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The node-local index of comm rank r (comm is node-complete). */
static int local_of(const xb_comm_t *comm, int r)
{
    const xb_rt_info_t *rt = xb_rt();
    int w = (int)xb_gpid_rank(xb_comm_gpid(comm, r));
    if (r < rt->local_size && rt->local_ranks[r] == w)   /* COMM_WORLD, its dups */
        return r;
    const int *p = bsearch(&w, rt->local_ranks, (size_t)rt->local_size, sizeof(int), cmp_int);
    return p != NULL ? (int)(p - rt->local_ranks) : -1;
}

int xb_coll_node_parity(void)
{
    xb_coll_stream_phase();     /* node_stream.c: this rank's ring is read */
    return (int)(parity++ & 1u);
}

/* The area of the last phase this rank took (after a failed check: the one
 * whose barrier it passed; xb_coll_node_check sets the parity back). */
int xb_coll_node_last_parity(void)
{
    return (int)((parity - 1u) & 1u);
}

/* The head of each slot, its first 16 bytes: what its writer's current
 * call moves, which every reader checks after the call's node barrier
 * (xb_coll_node_sign, xb_coll_node_check). The data follows it in the
 * same line (16 bytes in: aligned for any basic type), so the check reads
 * no line that the reader would not read anyway (in a line of its own, a
 * 4-rank 4 KiB allgather took about 5% longer). The slots' size drops by
 * a whole line, so that it stays a multiple of a line (the stream's rings,
 * node_stream.c, use it from each slot's start). */
enum { SLOT_HEAD = 16, SLOT_LOSS = 64 };
typedef struct { uint64_t sent, want; } slot_head_t;
/* In `want`: the writer took messages for this call (xb_coll_node_pass). */
#define PASSED (UINT64_C(1) << 63)

/* Slot bases by area and local index, looked up once a job (the method's
 * lookup was a call chain per slot per call). */
static char *bases[2][XB_COLL_FLOW_MAXP];

char *xb_coll_node_base(int par, int local)
{
    char *b = local >= 0 && local < XB_COLL_FLOW_MAXP ? bases[par][local] : NULL;
    if (XB_UNLIKELY(b == NULL)) {
        size_t size;
        b = xb_method_node_slot(par, local, &size);
        if (local >= 0 && local < XB_COLL_FLOW_MAXP)
            bases[par][local] = b;
    }
    return b;
}

char *xb_coll_node_local_slot(int par, int local)
{
    return xb_coll_node_base(par, local) + SLOT_HEAD;
}

void *xb_coll_node_slot(const xb_comm_t *comm, int par, int r)
{
    char *const *t = xb_coll_node_slots(comm, par);
    return t != NULL ? t[r] : xb_coll_node_local_slot(par, local_of(comm, r));
}

void *xb_coll_node_area(int par)
{
    return xb_coll_node_base(par, 0) + SLOT_HEAD;
}

static slot_head_t *head_of(const xb_comm_t *comm, int par, int r)
{
    return (slot_head_t *)(void *)((char *)xb_coll_node_slot(comm, par, r) - SLOT_HEAD);
}

void xb_coll_node_sign(const xb_comm_t *comm, int par, MPI_Count sent, MPI_Count want)
{
    slot_head_t *h = head_of(comm, par, comm->rank);
    h->sent = (uint64_t)sent;
    h->want = (uint64_t)want;
}

void xb_coll_node_pass(const xb_comm_t *comm, MPI_Count sent, MPI_Count want)
{
    xb_coll_node_sign(comm, xb_coll_node_parity(), sent, (MPI_Count)((uint64_t)want | PASSED));
    xb_method_node_arrive(false);
}

bool xb_coll_node_head(const xb_comm_t *comm, int par, int r, MPI_Count *sent, MPI_Count *want)
{
    const slot_head_t *h = head_of(comm, par, r);
    *sent = (MPI_Count)h->sent;
    *want = (MPI_Count)(h->want & ~PASSED);
    return (h->want & PASSED) != 0;
}

int xb_coll_node_check(const xb_comm_t *comm, int par, int kind, const MPI_Count *counts,
                       xb_datatype_t *dt)
{
    int p = comm->size, me = comm->rank;
    char *const *t = xb_coll_node_slots(comm, par);
#define HEAD(i) ((const slot_head_t *)(const void *)((t != NULL ? t[i] : \
                 (const char *)xb_coll_node_slot(comm, par, (i))) - SLOT_HEAD))
    uint64_t want = HEAD(me)->want;
    for (int i = 0; i < p; i++) {
        const slot_head_t *h = HEAD(i);
        uint64_t w = counts != NULL ? (uint64_t)(counts[i] * xb_dt_size(dt)) : want;
        if (XB_LIKELY(h->sent == w && (counts != NULL || h->want == want)))
            continue;
        /* the call stops after this barrier on every rank: the next
         * phase takes the other area, though a call of several rounds
         * took its rounds' parities when it was built */
        parity = (unsigned)par + 1;
        const char *what = xb_coll_kind_name((xb_coll_kind_t)kind);
        if (h->sent == w && (h->want & PASSED))
            return xb_err_set(XB_ERR_TRUNCATE, "rank %d took messages for the %s where this "
                              "rank took the node's slots: the ranks' counts or types do not "
                              "match", i, what);
        if (h->sent != w)
            return xb_err_set(XB_ERR_TRUNCATE, "rank %d's part of the %s holds %llu bytes "
                              "where this rank expects %llu: the ranks' counts or types do "
                              "not match", i, what, (unsigned long long)h->sent,
                              (unsigned long long)w);
        return xb_err_set(XB_ERR_TRUNCATE, "rank %d expects parts of %llu bytes in the %s "
                          "where this rank expects %llu: the ranks' counts or types do not "
                          "match", i, (unsigned long long)h->want, what,
                          (unsigned long long)want);
    }
#undef HEAD
    return XB_OK;
}

static size_t slot_bytes = SIZE_MAX;    /* SIZE_MAX: not looked up yet */

/* The slot less its tail: in area 0 the rank's flow region (node_flow.c), in
 * area 1 its chain ring (node_chain.c). */
size_t xb_coll_node_slot_size(void)
{
    size_t b = __atomic_load_n(&slot_bytes, __ATOMIC_RELAXED);
    if (XB_UNLIKELY(b == SIZE_MAX)) {
        /* once a job (MPI_Init to MPI_Finalize): every stream and slot
         * algorithm asks on every call, and the lookup through the method
         * was a tenth of a 4-rank 8-byte MPI_Gatherv (callgrind, 2026-12-06) */
        size_t size = 0;
        bool ok = xb_method_node_slot(0, 0, &size) != NULL &&
                  size > 2 * XB_COLL_FLOW_BYTES + SLOT_LOSS;
        b = ok ? size - XB_COLL_FLOW_BYTES - SLOT_LOSS : 0;
        __atomic_store_n(&slot_bytes, b, __ATOMIC_RELAXED);   /* the same on every thread */
    }
    return b;
}

void xb_coll_node_slot_forget(void)
{
    __atomic_store_n(&slot_bytes, SIZE_MAX, __ATOMIC_RELAXED);
    memset(bases, 0, sizeof bases);
}

/* Bytes of a reduction's working vector of count elements of dt, or -1
 * when the working representation is not a predefined type (a slot or a
 * cell must hold exactly the working elements the reduction reads, as
 * they lie in memory: extent). */
MPI_Count xb_coll_red_need(MPI_Count count, xb_datatype_t *dt, xb_op_t *op)
{
    xb_coll_red_t red;
    if (xb_coll_flow_red(&red, count, dt, op) != XB_OK) {
        xb_err_clear();
        return -1;
    }
    return xb_dt_is_predefined(red.wdt) ? (MPI_Count)xb_coll_flow_wbytes(&red) : -1;
}

/* Bytes one rank's slot must hold for this call on a node of p ranks
 * (kind-specific), or -1 when the node path does not apply to it at all. */
static MPI_Count slot_need(xb_coll_kind_t kind, const xb_coll_args_t *a, int p)
{
    switch (kind) {
    case XB_COLL_ALLREDUCE:
    case XB_COLL_REDUCE:
    case XB_COLL_SCAN:
    case XB_COLL_EXSCAN:
        return xb_coll_red_need(a->rcount, a->rdt, a->op);
    case XB_COLL_REDUCE_SCATTER_BLOCK:
        return xb_coll_red_need(a->rcount * p, a->rdt, a->op);
    case XB_COLL_REDUCE_SCATTER: {
        MPI_Count total = 0;
        for (int i = 0; i < p; i++)
            total += a->rcounts[i];
        return xb_coll_red_need(total, a->rdt, a->op);
    }
    case XB_COLL_BCAST:
        return 0;                /* any size, in chunks of a slot */
    case XB_COLL_BARRIER:
        return 0;                /* the node barrier's line, no slot */
    case XB_COLL_GATHER:
    case XB_COLL_SCATTER:
    case XB_COLL_ALLGATHER:
        return xb_coll_block_bytes(kind, a);
    case XB_COLL_ALLGATHERV:
        return xb_coll_max_count(a->rcounts, p) * xb_dt_size(a->rdt);
    case XB_COLL_ALLTOALL:
        return (MPI_Count)p * (a->sbuf == MPI_IN_PLACE ? a->rcount * xb_dt_size(a->rdt)
                                                       : a->scount * xb_dt_size(a->sdt));
    case XB_COLL_ALLTOALLV: case XB_COLL_ALLTOALLW:
        return 0;                /* block by block: the slot or a message (alltoall_shm_v.c) */
    default:
        return -1;
    }
}

bool xb_coll_node_slots_elsewhere(const xb_coll_args_t *a)
{
    return a->form == XB_COLL_BLOCKING && !xb_coll_threads && a->comm->size >= 3 &&
           xb_coll_node_complete(a->comm) && xb_coll_node_slot_size() != 0;
}

int xb_coll_node_agree(xb_coll_sched_t *s, const xb_coll_args_t *a, MPI_Count sent,
                       MPI_Count want, const MPI_Count *counts)
{
    int par = xb_coll_node_parity();
    xb_coll_node_sign(a->comm, par, sent, want);
    return xb_coll_sched_node_barrier_check(s, par, counts, a->rdt);
}

bool xb_coll_node_fits(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    if (a->form != XB_COLL_BLOCKING || xb_coll_threads || !xb_coll_node_complete(a->comm))
        return false;                             /* before the work on the need */
    return xb_coll_node_slot_need_fits(kind, a, a->comm->size);
}

/* The large node algorithms (allreduce_shm_rsag.c, alltoall_shm_rounds.c
 * ...) move any size in rounds of a slot: blocking, node-complete; for
 * reductions a working type that is predefined (the slots hold working
 * elements); the data movers move bytes, packing a buffer that is not
 * contiguous. */
bool xb_coll_node_rounds_fit(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    if (a->form != XB_COLL_BLOCKING || xb_coll_threads || xb_coll_node_slot_size() == 0 ||
        !xb_coll_node_complete(a->comm))
        return false;
    if (kind == XB_COLL_ALLREDUCE || kind == XB_COLL_REDUCE) {
        xb_coll_red_t red;
        if (xb_coll_red_init(&red, a->rcount, a->rdt, a->op) != XB_OK) {
            xb_err_clear();
            return false;
        }
        if (!xb_dt_is_predefined(red.wdt) ||
            (size_t)xb_dt_extent(red.wdt) * 4 > xb_coll_node_slot_size())
            return false;
    }
    /* never by the layout of the buffers: the ranks may describe one type
     * signature with different layouts, and all must choose alike (an
     * alltoall packs a buffer that is not contiguous) */
    return true;
}

bool xb_coll_node_slot_need_fits(xb_coll_kind_t kind, const xb_coll_args_t *a, int p)
{
    MPI_Count need = slot_need(kind, a, p);
    return need >= 0 && (size_t)need <= xb_coll_node_slot_size();
}

/* Steps of a node reduction over the comm ranks of this node (ranks[n],
 * ascending; NULL: all of a node-complete comm): copy this rank's vector
 * (src: the user's buffer, count and type of s->red) into its slot of the
 * next area, one node barrier, then, when `combine`, reduce those slots
 * right to left (x0 op (x1 op (... op x_last))): rank order, so
 * non-commutative ops are right and every rank that combines gets
 * bit-identical results. The result goes to rbuf (user layout), or, when
 * acc_p is not NULL, stays in a working buffer returned there (*acc_p
 * itself when it is not NULL on entry: a buffer of an earlier segment,
 * reused). s->red is
 * set up (xb_coll_sched_red) and its working type is predefined. */
int xb_coll_node_reduce(xb_coll_sched_t *s, const xb_comm_t *comm, const int *ranks, int n,
                        const void *src, bool combine, void *rbuf, void **acc_p)
{
    int par = xb_coll_node_parity();
    MPI_Count w = s->red.wcount;
    if (ranks == NULL)
        n = comm->size;
#define RANK(i) (ranks != NULL ? ranks[i] : (i))
    int rc = xb_coll_sched_copy(s, src, s->red.count, s->red.dt,
                                xb_coll_node_slot(comm, par, comm->rank), w, s->red.wdt);
    if (rc == XB_OK && xb_coll_node_complete(comm)) {   /* every rank wrote its slot */
        MPI_Count bytes = w * xb_dt_extent(s->red.wdt);
        xb_coll_node_sign(comm, par, bytes, bytes);
        rc = xb_coll_sched_node_barrier_check(s, par, NULL, NULL);
    } else if (rc == XB_OK) {
        rc = xb_coll_sched_node_barrier(s);
    }
    if (rc != XB_OK || !combine)
        return rc;
    void *acc = acc_p != NULL && *acc_p != NULL ? *acc_p : xb_coll_sched_wtmp(s, -1);
    if (acc == NULL)
        return XB_ERR_NO_MEM;
    rc = xb_coll_sched_copy(s, xb_coll_node_slot(comm, par, RANK(n - 1)), w, s->red.wdt,
                            acc, w, s->red.wdt);
    for (int i = n - 2; i >= 0 && rc == XB_OK; i--)
        rc = xb_coll_sched_reduce(s, xb_coll_node_slot(comm, par, RANK(i)), acc, w);
#undef RANK
    if (rc != XB_OK)
        return rc;
    if (acc_p != NULL) {
        *acc_p = acc;
        return XB_OK;
    }
    return xb_coll_red_store(s, acc, rbuf);
}

/* Largest chunk of a node broadcast: the readers of chunk k copy while the
 * head writes chunk k+1. Bcast of 4 MiB on 8 ranks (2 cores): 2.4 ms in
 * 2 MiB chunks, 3.7 ms in one 4 MiB chunk; on 4 ranks 0.46 ms in 1 MiB
 * chunks, 0.49 ms in one (2026-11-24, loaded machine). */
#define BCAST_CHUNK ((MPI_Count)1 << 20)

/* Steps of a node broadcast from comm rank `head` (on this node) to every
 * local rank: the head copies a chunk into the first slot of the next
 * area (a slot: the slots' tails are the flow cells, node_flow.c), one
 * node barrier, the others copy it out; chunks alternate areas, so the
 * head writes chunk k+1 while the others read chunk k. A buffer goes in
 * chunks of a slot (at most BCAST_CHUNK); one that is not contiguous is
 * packed into a temporary first (unpacked after), unless it fits one
 * chunk: then it is packed straight into the slot. */
int xb_coll_node_bcast(xb_coll_sched_t *s, const xb_comm_t *comm, int head, void *ubuf,
                       MPI_Count count, xb_datatype_t *dt)
{
    bool me = comm->rank == head;
    /* one slot of the area: the slots' tails are the flow regions */
    size_t area = xb_coll_node_slot_size();
    MPI_Count bytes = count * xb_dt_size(dt);
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int rc = XB_OK;
    MPI_Count chunk = area < BCAST_CHUNK ? (MPI_Count)area : BCAST_CHUNK;
    /* The number of chunks (and node barriers) depends on the bytes alone:
     * the ranks may lay the same signature out differently. */
    bool contig = xb_dt_is_contig(dt, count);
    if (bytes == 0)
        return XB_OK;
    if (!contig && bytes <= chunk) {  /* one step, packed in place */
        void *buf = xb_coll_node_area(xb_coll_node_parity());
        if (me)
            rc = xb_coll_sched_copy(s, ubuf, count, dt, buf, bytes, byte);
        if (rc == XB_OK)
            rc = xb_coll_sched_node_barrier(s);
        if (rc == XB_OK && !me)
            rc = xb_coll_sched_copy(s, buf, bytes, byte, ubuf, count, dt);
        return rc;
    }
    char *data = xb_coll_bytes(s, ubuf, count, dt, me);   /* packed, then in chunks */
    if (data == NULL)
        return XB_ERR_NO_MEM;
    for (MPI_Count off = 0; off < bytes && rc == XB_OK; off += chunk) {
        MPI_Count len = bytes - off < chunk ? bytes - off : chunk;
        void *buf = xb_coll_node_area(xb_coll_node_parity());
        if (me)
            rc = xb_coll_sched_copy(s, data + off, len, byte, buf, len, byte);
        if (rc == XB_OK)
            rc = xb_coll_sched_node_barrier(s);
        if (rc == XB_OK && !me)
            rc = xb_coll_sched_copy(s, buf, len, byte, data + off, len, byte);
    }
    if (rc == XB_OK && !me)
        rc = xb_coll_bytes_store(s, data, ubuf, count, dt);
    return rc;
}
