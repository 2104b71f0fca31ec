/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_int.h - what the algorithm files of src/coll share: the argument
 * block every algorithm takes, the tags, point-to-point helpers on the
 * collective context, temporary buffers, and reduction working buffers.
 */
#ifndef XB_COLL_INT_H
#define XB_COLL_INT_H

#include "coll/coll.h"

#include "coll/coll_sched.h"

typedef enum xb_coll_kind {
    XB_COLL_BARRIER, XB_COLL_BCAST, XB_COLL_REDUCE, XB_COLL_ALLREDUCE,
    XB_COLL_GATHER, XB_COLL_SCATTER, XB_COLL_ALLGATHER, XB_COLL_ALLTOALL,
    XB_COLL_GATHERV, XB_COLL_SCATTERV, XB_COLL_ALLGATHERV, XB_COLL_ALLTOALLV,
    XB_COLL_ALLTOALLW, XB_COLL_REDUCE_SCATTER, XB_COLL_REDUCE_SCATTER_BLOCK,
    XB_COLL_SCAN, XB_COLL_EXSCAN,
    XB_COLL_NEIGHBOR_ALLGATHER, XB_COLL_NEIGHBOR_ALLGATHERV,
    XB_COLL_NEIGHBOR_ALLTOALL, XB_COLL_NEIGHBOR_ALLTOALLV,
    XB_COLL_NEIGHBOR_ALLTOALLW,
    XB_COLL_NKINDS
} xb_coll_kind_t;

/* Tags on the collective context: kind + 32 * sequence (coll_sched.c). */
enum { XB_COLL_TAG_BASE = 1 };
#define XB_COLL_TAG(kind) (XB_COLL_TAG_BASE + (int)(kind))
_Static_assert(XB_COLL_NKINDS + XB_COLL_TAG_BASE <= 32, "tag layout: kind < 32");

/* Arguments of any collective; unused fields are zero. For one-buffer
 * collectives (bcast) the buffer is rbuf/rcount/rdt; reductions use
 * sbuf, rbuf, rcount, rdt, op. The v/w forms give per-rank arrays (counts,
 * displacements in elements of sdt/rdt, or in bytes for w with per-rank
 * types), read only while the schedule is built. Neighbourhood
 * collectives add the neighbour lists (nbr_in sources, nbr_out
 * destinations, in the standard's order; cart set for a Cartesian
 * topology) and, for Neighbor_alltoallw, byte displacements; these arrays
 * are owned by the block (xb_coll_args_free). */
typedef struct xb_coll_args {
    const void    *sbuf;
    MPI_Count      scount;
    xb_datatype_t *sdt;
    void          *rbuf;
    MPI_Count      rcount;
    xb_datatype_t *rdt;
    xb_op_t       *op;
    int            root;
    xb_comm_t     *comm;
    const MPI_Count *scounts, *sdispls, *rcounts, *rdispls;
    xb_datatype_t *const *stypes, *const *rtypes;
    int            form;      /* XB_COLL_BLOCKING ... (set by xb_coll_run) */
    int            indeg, outdeg;
    int           *nbr_in, *nbr_out;   /* one allocation: nbr_in owns it */
    bool           cart;
    MPI_Count     *wdispls;   /* owned copy of the alltoallw displacements */
    /* Restarted from inside progress, so not in program order on every
     * member (the rounds of MPI_Comm_idup, comm_idup.c): never through a
     * node channel, whose calls are numbered in start order (node_nb.c). */
    bool           unordered;
} xb_coll_args_t;

/* An algorithm builds the steps of one collective into s. */
typedef int (*xb_coll_fn_t)(xb_coll_sched_t *s, const xb_coll_args_t *a);
/* A direct algorithm runs one blocking collective itself, with the tag of
 * xb_coll_seq_tag (pair.c: two ranks, no schedule). */
typedef int (*xb_coll_direct_fn_t)(const xb_coll_args_t *a, int tag);

/* Forms of a collective call. */
enum { XB_COLL_BLOCKING, XB_COLL_NONBLOCKING, XB_COLL_PERSISTENT };

/* Select, build and run (blocking) or post (request in *req) one
 * collective; fn names the MPI call for waiting text (coll_select.c). */
int xb_coll_run(xb_coll_kind_t kind, const xb_coll_args_t *a, int form,
                const char *fn, MPI_Request *req);
/* Build and run a blocking schedule of kind for a (the blocking form of
 * xb_coll_run, tag -1: the next of the communicator's), or a direct
 * algorithm's way back to its schedule form on the tag it was given: one
 * sequence number a call whichever way each rank goes, so the ranks'
 * numbering stays in step. */
int xb_coll_run_sched(xb_coll_kind_t kind, xb_coll_fn_t build, const xb_coll_args_t *a,
                      int tag);
int xb_coll_nb_init(void);      /* coll_nb.c: the progress hook */

/* Send and receive buffers of one call that share memory (coll_alias.c):
 * XB_ERR_BUFFER, detail recorded; MPI_IN_PLACE and intercommunicators pass.
 * The _local form checks MPI_Reduce_local's two buffers. */
int xb_coll_check_alias(xb_coll_kind_t kind, const xb_coll_args_t *a);
int xb_coll_check_alias_local(const void *inbuf, const void *inoutbuf,
                              MPI_Count count, xb_datatype_t *dt);

/* selection (coll_select.c) */
xb_coll_fn_t xb_coll_select(xb_coll_kind_t kind, const xb_coll_args_t *a);
/* Bytes of one block as every rank sees it (the whole vector for bcast and
 * the reductions; 0 for the v/w forms): equal on all ranks. */
MPI_Count    xb_coll_block_bytes(xb_coll_kind_t kind, const xb_coll_args_t *a);
const char  *xb_coll_kind_name(xb_coll_kind_t kind);

/* node collectives through shared memory (node_shm.c) */
/* Every member is a process of this job on this node (an intracommunicator
 * whose messages all go through shared memory or self). */
bool   xb_coll_one_node(const xb_comm_t *comm);
/* ... and the members are the whole node, which has a node barrier: known
 * after the communicator's first walk (comm->one_node 2). */
static inline bool xb_coll_node_complete(const xb_comm_t *comm)
{
    return comm->one_node == 2 || (comm->one_node == 0 && xb_coll_one_node(comm) &&
                                   comm->one_node == 2);
}
/* The call can take the node path: blocking, node-complete, fits a slot. */
bool   xb_coll_node_fits(xb_coll_kind_t kind, const xb_coll_args_t *a);
/* A message algorithm's call that the slot algorithms take at other
 * counts (blocking, node-complete, 3+ ranks): a rank whose count differs
 * may be in the slots' node barrier, where messages never meet it. Such a
 * call first takes that barrier with its signature (xb_coll_node_agree:
 * a parity, the sign, the checked barrier as a schedule step; counts as
 * for xb_coll_node_check), so that counts that differ fail every rank
 * alike there. */
bool   xb_coll_node_slots_elsewhere(const xb_coll_args_t *a);
int    xb_coll_node_agree(xb_coll_sched_t *s, const xb_coll_args_t *a, MPI_Count sent,
                          MPI_Count want, const MPI_Count *counts);
int    xb_coll_node_parity(void);               /* next area: 0 or 1        */
int    xb_coll_node_last_parity(void);          /* the last phase's area     */
void  *xb_coll_node_slot(const xb_comm_t *comm, int par, int rank);
char  *xb_coll_node_local_slot(int par, int local);  /* by node-local index     */
/* The start of local rank `local`'s slot of area par, before its head
 * (the stream's rings, node_stream.c, use the slots from there); looked
 * up once a job. */
char  *xb_coll_node_base(int par, int local);
/* Every rank's slot of area par by comm rank, cached with the
 * communicator's local indices (node_flow.c), or NULL where that cache
 * does not take comm (then xb_coll_node_slot). */
char *const *xb_coll_node_slots(const xb_comm_t *comm, int par);
void  *xb_coll_node_area(int par);              /* local rank 0's slot data */
size_t xb_coll_node_slot_size(void);            /* 0: no node slots          */
/* Counts that differ. Before a call's node barrier each rank signs its
 * slot of that area with the bytes of its part (sent) and of each part it
 * expects (want); after the barrier xb_coll_node_check compares every
 * rank's signature with this rank's want (or, with counts, rank i's sent
 * with counts[i] of dt). Every rank sees the same signatures, so where the
 * rule is "all equal" (counts NULL) every rank fails alike, after the same
 * barrier: a call of several barriers may stop there. XB_ERR_TRUNCATE with
 * its sentence, or XB_OK. */
void   xb_coll_node_sign(const xb_comm_t *comm, int par, MPI_Count sent, MPI_Count want);
int    xb_coll_node_check(const xb_comm_t *comm, int par, int kind, const MPI_Count *counts,
                          xb_datatype_t *dt);
/* A message algorithm's call that the slots take at other counts, where a
 * barrier would cost too much (alltoall's linear and pairwise: about 10%
 * at 32 KiB, 4 ranks): the rank takes the next parity, signs its head as
 * passed on messages (its block's bytes sent and wanted) and counts itself
 * in the node barrier without waiting. It may: every rank it exchanges a
 * message with in this call arrived before it sent, and it exchanges one
 * with every rank. A rank in the slots that sees such a head after its
 * barrier (xb_coll_node_head true) receives that rank's message and sends
 * it one a byte too long (coll_sched.c), so both fail and nobody waits. */
void   xb_coll_node_pass(const xb_comm_t *comm, MPI_Count sent, MPI_Count want);
/* Allgather(v)'s message algorithms (linear, ring) on a whole node, where
 * the slots take the blocks that fit one: xb_coll_node_agree with the
 * signature allgather_shm.c signs; XB_OK elsewhere. */
int    xb_coll_allgather_agree(xb_coll_sched_t *s, const xb_coll_args_t *a, bool v);
/* The same for reduce_scatter(_block)'s (pairwise, halving; s->red set up),
 * with reduce_scatter_shm.c's signature. */
int    xb_coll_reduce_scatter_agree(xb_coll_sched_t *s, const xb_coll_args_t *a);
/* Rank r's head of area par: its bytes sent and wanted; true when it passed. */
bool   xb_coll_node_head(const xb_comm_t *comm, int par, int r, MPI_Count *sent,
                         MPI_Count *want);
void   xb_coll_node_slot_forget(void);          /* at init and finalize      */
/* Node phases, over the comm ranks of this node (ranks[n] ascending, or
 * NULL for a node-complete comm); see node_shm.c. */
int    xb_coll_node_reduce(xb_coll_sched_t *s, const xb_comm_t *comm, const int *ranks,
                           int n, const void *src, bool combine, void *rbuf, void **acc_p);
int    xb_coll_node_bcast(xb_coll_sched_t *s, const xb_comm_t *comm, int head, void *ubuf,
                          MPI_Count count, xb_datatype_t *dt);

/* The call can take a node path that moves any size in rounds of a slot
 * (blocking, node-complete; reductions: a predefined working type). */
bool   xb_coll_node_rounds_fit(xb_coll_kind_t kind, const xb_coll_args_t *a);
bool   xb_coll_node_slot_need_fits(xb_coll_kind_t kind, const xb_coll_args_t *a, int p);
/* Bytes of a reduction's working vector (count x dt under op) as it lies
 * in memory, or -1 when its working type is not predefined: what a node
 * slot, flow cell or channel window must hold (node_shm.c). */
MPI_Count xb_coll_red_need(MPI_Count count, xb_datatype_t *dt, xb_op_t *op);

/* Small node collectives without a barrier: numbered cells in each local
 * rank's flow region (node_flow.c). A call: begin, then per cell written
 * reserve + fill + publish, per cell read await + copy, then end. */
enum { XB_COLL_FLOW_BYTES = 64 << 10,      /* per local rank, tail of its slot */
       XB_COLL_FLOW_CELL = 512,            /* data bytes of one cell           */
       XB_COLL_FLOW_SEQ_LINE = 48,         /* of them in the seq's cache line  */
       XB_COLL_FLOW_MAXP = 64 };
typedef struct xb_coll_flow {
    uint64_t   n;                          /* this call's number               */
    int        p, me;
    size_t     off;                        /* of this call's cell in a region  */
    const int *loc;                        /* local index of each comm rank    */
} xb_coll_flow_t;
void  xb_coll_flow_init(void);
void  xb_coll_flow_fini(void);
/* count x dt at ubuf to a cell as packed bytes (to_cell) or back. */
int   xb_coll_flow_copy(void *ubuf, MPI_Count count, xb_datatype_t *dt, void *cell,
                        bool to_cell);
bool  xb_coll_flow_fits(xb_coll_kind_t kind, const xb_coll_args_t *a);
bool  xb_coll_flow_need_fits(const xb_coll_args_t *a, MPI_Count need);
int   xb_coll_flow_begin(xb_coll_flow_t *f, const xb_comm_t *comm);
void *xb_coll_flow_cell(const xb_coll_flow_t *f, int rank);
void  xb_coll_flow_reserve(xb_coll_flow_t *f);
/* reserve for a writer that usually runs ahead of its reader (node_flow.c) */
void  xb_coll_flow_reserve_ahead(xb_coll_flow_t *f);
void  xb_coll_flow_publish(xb_coll_flow_t *f, int lo, int hi);
/* publish with a header word for the readers (xb_coll_flow_word) */
void  xb_coll_flow_publish_word(xb_coll_flow_t *f, int lo, int hi, uint32_t word);
uint32_t xb_coll_flow_word(const xb_coll_flow_t *f, int rank);
/* Wait until comm rank `rank` has published its cell of f's call (true)
 * or ended that call without (false); f's call may have ended here. */
bool  xb_coll_flow_await_or_end(xb_coll_flow_t *f, int rank);
/* Header words above any byte count of a cell: the writer's data comes as
 * a message instead (the two-rank algorithms, pair_cell.c), or as pieces
 * of XB_COLL_PIECE bytes, its byte count (int64_t) at the start of its
 * cell (a two-rank reduce of a large vector, pair_cell.c), or
 * through the node slots' rounds (a two-rank allreduce from 64 KiB, which
 * a peer in the cells also meets in pair's messages:
 * xb_coll_pair_rounds_agree), or the writer failed before it had data to
 * give (a reduction's writer; a scan's chain passes the failure on). */
enum { XB_COLL_FLOW_AS_PIECES = 1u << 31, XB_COLL_FLOW_AS_ROUNDS = 1u << 30,
       XB_COLL_FLOW_AS_MESSAGE = 1u << 29, XB_COLL_FLOW_FAILED = 1u << 28 };
/* After the await: does rank's header word say its cell holds the `want`
 * bytes this rank expects? XB_OK; XB_ERR_AGAIN for AS_MESSAGE, AS_PIECES
 * and AS_ROUNDS (no error set: the caller goes to pair's messages, and
 * xb_coll_flow_pieces says which); else XB_ERR_TRUNCATE with its sentence
 * (the ranks' counts differ, or the writer failed). */
int   xb_coll_flow_check_word(uint32_t w, int rank, size_t want, xb_coll_kind_t kind);
int   xb_coll_flow_check_slow(const xb_coll_flow_t *f, int rank, size_t want,
                              xb_coll_kind_t kind);
static inline int xb_coll_flow_check(const xb_coll_flow_t *f, int rank, size_t want,
                                     xb_coll_kind_t kind)
{
    uint32_t w = xb_coll_flow_word(f, rank);
    return XB_LIKELY(w == want && w < XB_COLL_FLOW_FAILED) ? XB_OK
         : xb_coll_flow_check_slow(f, rank, want, kind);
}
/* After a check that returned XB_ERR_AGAIN on this thread: the byte count
 * the writer announced with AS_PIECES, or -1 (AS_MESSAGE, AS_ROUNDS). */
int64_t xb_coll_flow_pieces(void);
void  xb_coll_flow_await(xb_coll_flow_t *f, int rank);
/* await, fetching the lines that `bytes` of cell data take beyond the seq's */
void  xb_coll_flow_await_data(xb_coll_flow_t *f, int rank, size_t bytes);
/* Has comm rank `rank` published its cell of f's call? (no wait) */
bool  xb_coll_flow_published(const xb_coll_flow_t *f, int rank);
void  xb_coll_flow_end(xb_coll_flow_t *f);
/* end for a writer of one line whose reader spins on the next (node_flow.c) */
void  xb_coll_flow_end_ahead(xb_coll_flow_t *f, size_t bytes);
/* A writer claims its next cell after its publish; its reader asks for
 * that cell at the end of its call (node_flow.c). Both only for `bytes` of
 * data past the seq's line: within it the pair lost. */
void  xb_coll_flow_claim_cell(const xb_coll_flow_t *f, size_t bytes);
void  xb_coll_flow_fetch_cell(const xb_coll_flow_t *f, int rank, size_t bytes);
static inline void xb_coll_flow_claim_next(const xb_coll_flow_t *f, size_t bytes)
{
    if (bytes > XB_COLL_FLOW_SEQ_LINE)
        xb_coll_flow_claim_cell(f, bytes);
}
static inline void xb_coll_flow_read_ahead(const xb_coll_flow_t *f, int rank, size_t bytes)
{
    if (bytes > XB_COLL_FLOW_SEQ_LINE)
        xb_coll_flow_fetch_cell(f, rank, bytes);
}
int   xb_coll_flow_red(xb_coll_red_t *r, MPI_Count count, xb_datatype_t *dt, xb_op_t *op);
size_t xb_coll_flow_wbytes(const xb_coll_red_t *red);
/* red's user vector at ubuf to its working layout at w (to_work) or back. */
int   xb_coll_flow_wcopy(const xb_coll_red_t *red, void *ubuf, void *w, bool to_work);
/* Waits and progress beyond one cell (node_flow.c, for node_stream.c). */
uint64_t xb_coll_flow_done(int local);
bool  xb_coll_flow_comm_ok(const xb_comm_t *comm);
const int *xb_coll_flow_locs(const xb_comm_t *comm);   /* after comm_ok: cached */
/* The local index of each rank of comm when every member is a process of
 * this node (node-complete or a part of the node), at most
 * XB_COLL_FLOW_MAXP ranks with local indices below it; else NULL. Valid
 * until a communicator over another group is looked at. */
const int *xb_coll_node_locs(const xb_comm_t *comm);
/* Wait until local rank `local` has finished call value - 1. */
void  xb_coll_flow_wait_local(int local, uint64_t value);
/* Flow calls this process has made: the number its next one takes. */
uint64_t xb_coll_flow_calls(void);
/* The progress word of a cell (a call publishing its data in parts):
 * store value and wake comm rank reader (-1: all); wait for value or more. */
void  xb_coll_flow_progress(xb_coll_flow_t *f, uint64_t value, int reader);
void  xb_coll_flow_await_progress(xb_coll_flow_t *f, int rank, uint64_t value);
/* Node collectives beyond a cell without a barrier: each local rank's slots
 * as a ring of the data it writes (node_stream.c). A stream call is a flow
 * call (xb_coll_flow_begin .. end); xb_coll_node_parity calls phase (it
 * waits until every reader of this rank's ring has finished). alloc
 * returns a logical position (len <= xb_coll_stream_max(); reader: the one
 * comm rank that reads it, -1: all), or XB_COLL_STREAM_FULL where the ring
 * has no room before this very call's readers finish (only a writer of
 * several blocks in one call meets that: it sends the block as a message);
 * ptr is the address of rank's position. */
#define XB_COLL_STREAM_FULL UINT64_MAX
void     xb_coll_stream_init(void);
size_t   xb_coll_stream_max(void);
void     xb_coll_stream_phase(void);
uint64_t xb_coll_stream_alloc(xb_coll_flow_t *f, size_t len, int reader);
/* Take back the last allocation (at pos): its call stops unpublished. */
void     xb_coll_stream_unalloc(uint64_t pos);
void    *xb_coll_stream_ptr(const xb_coll_flow_t *f, int rank, uint64_t pos);
bool     xb_coll_stream_fits(xb_coll_kind_t kind, const xb_coll_args_t *a);
/* The progress value of block k (1-based, k < 128) of f's call, for the
 * calls that publish their blocks one by one (xb_coll_flow_progress). */
static inline uint64_t xb_coll_stream_prog(const xb_coll_flow_t *f, int k)
{
    return ((f->n + 1) << 7) + (uint64_t)k;
}
/* Wait until ready(arg), with the node watch (a writer's node_wake is not
 * lost): the progress wait, spinning then sleeping. */
void  xb_coll_flow_wait(bool (*ready)(void *), void *arg, const char *what);
/* Chains through the node's shared memory (node_chain.c): each local rank's
 * ring of SLOTS chunks in the tail of its area-1 slot, read by the next
 * comm rank. A call is a flow call: begin .. end on every rank. start
 * (every rank, before chunk 0) waits for the predecessor's flow cell, and
 * announces this rank's chunks in its own (not the last rank): XB_OK when
 * the predecessor's bytes are this rank's; else MPI_ERR_TRUNCATE (the
 * counts differ, or the predecessor failed), every chunk of the
 * predecessor taken, and this rank announces FAILED and no chunks. A rank
 * that writes chunk k reserves it (waits for room), fills it, publishes
 * it with its head (its vector's bytes, or XB_COLL_CHAIN_FAILED after an
 * error); the next rank awaits it (and its head), reads it, releases it.
 * A flow scan's rank (scan_flow.c) waits for its predecessor's cell with
 * await_cell, which takes a chain's chunks and fails where the
 * predecessor took the chain, and checks the cell otherwise. */
enum { XB_COLL_CHAIN_SLOTS = 4,
       XB_COLL_CHAIN_CHUNK = ((XB_COLL_FLOW_BYTES - 2 * XB_COLL_CHAIN_SLOTS * XB_CACHELINE) /
                              XB_COLL_CHAIN_SLOTS) & ~(XB_CACHELINE - 1) };
#define XB_COLL_CHAIN_FAILED UINT64_MAX
typedef struct xb_coll_chain {
    xb_coll_flow_t f;                      /* the flow call                    */
    char          *mine, *prev;            /* own ring (not the last rank), the */
                                           /* predecessor's (not rank 0)       */
    uint64_t       g, pg;                  /* where the call's chunks start in  */
                                           /* them                             */
} xb_coll_chain_t;
void  xb_coll_chain_init(void);
bool  xb_coll_chain_fits(xb_coll_kind_t kind, const xb_coll_args_t *a);
/* red's user vector is its working vector in memory (chunks by memcpy), or
 * its packed bytes are (chunks by xb_dt_pack/unpack). */
bool  xb_coll_chain_direct(const xb_coll_red_t *red);
bool  xb_coll_chain_packed(const xb_coll_red_t *red);
int   xb_coll_chain_begin(xb_coll_chain_t *c, const xb_comm_t *comm);
void  xb_coll_chain_end(xb_coll_chain_t *c);
int   xb_coll_chain_start(xb_coll_chain_t *c, uint64_t bytes, uint64_t nchunks,
                          xb_coll_kind_t kind);
int   xb_coll_chain_await_cell(xb_coll_flow_t *f, size_t want, xb_coll_kind_t kind);
void *xb_coll_chain_reserve(xb_coll_chain_t *c, uint64_t k);
void  xb_coll_chain_publish(xb_coll_chain_t *c, uint64_t k, uint64_t bytes);
const void *xb_coll_chain_await(xb_coll_chain_t *c, uint64_t k, uint64_t *bytes);
void  xb_coll_chain_release(xb_coll_chain_t *c, uint64_t k);
/* The node barrier, waited for at once (direct node collectives). */
void  xb_coll_node_barrier_now(const char *what);
/* acc = in op acc over red's working vector (a user op without the lock). */
int   xb_coll_flow_apply(const xb_coll_red_t *red, const void *in, void *acc);
/* The same with the op's kernel resolved once per call (xb_op_kernel; NULL:
 * through xb_coll_flow_apply). */
static inline int xb_coll_flow_apply_k(const xb_coll_red_t *red, xb_op_kernel_t k,
                                       const void *in, void *acc)
{
    if (k != NULL) {
        k(in, acc, (size_t)red->wcount);
        return XB_OK;
    }
    return xb_coll_flow_apply(red, in, acc);
}
/* Nonblocking node collectives (node_nb.c, shm_nb.c): each communicator of
 * processes of this node (the whole node or a part of it) whose context
 * slot is below XB_COLL_NBN_CHANS has a channel
 * of XB_COLL_NBN_WINDOWS windows per local rank in area 2 of the node
 * slots; call n of a channel writes window n mod WINDOWS. An algorithm
 * builds one step (xb_coll_nbn_op): the step waits for room, runs `write`
 * into this rank's window (XB_OK and the bytes written), publishes it,
 * waits until the windows of the ranks it reads (`reads`) are published,
 * runs `read`, and finishes the call. */
enum { XB_COLL_NBN_CHANS = 14, XB_COLL_NBN_WINDOWS = 4,
       XB_COLL_NBN_DATA = 16 << 10 };      /* data bytes of one window */
enum { XB_NBN_ALL,        /* every rank reads every window                 */
       XB_NBN_AT_ROOT,    /* the root reads every window                   */
       XB_NBN_ROOT,       /* every other rank reads the root's             */
       XB_NBN_PREFIX,     /* rank i reads those of ranks 0..i (scan)       */
       XB_NBN_BEFORE };   /* rank i reads those of ranks 0..i-1 (exscan)   */
typedef struct xb_coll_nbop xb_coll_nbop_t;
typedef int (*xb_coll_nbn_write_fn)(xb_coll_nbop_t *o, void *win, size_t *bytes);
typedef int (*xb_coll_nbn_read_fn)(xb_coll_nbop_t *o);
struct xb_coll_nbop {
    xb_coll_nbop_t *next, *prev;     /* calls waiting (the node watch)        */
    bool            on_list;
    int             state, rc;
    int             kind, reads, p, me, root, chan;
    uint64_t        n;               /* the call's number on its channel       */
    uint64_t        rel;             /* ... counted from the communicator's first */
    int             set;             /* 0 nonblocking, 1 blocking with threads */
    uint64_t       *props;           /* the agreement on the first number:     */
    struct xb_request **xreq;        /* each member's proposal, the messages   */
    int             nxreq;           /* (only the communicator's first call)   */
    const int      *loc;             /* local index of each comm rank          */
    xb_coll_nbn_write_fn write;      /* NULL: this rank writes nothing         */
    xb_coll_nbn_read_fn  read;
    xb_coll_args_t  a;               /* the call's arguments (no arrays)       */
    xb_coll_red_t   red;             /* reductions: what each rank writes      */
    xb_coll_red_t   bred;            /* reduce_scatter(_block): this rank's    */
    size_t          off;             /* segment, and its byte offset           */
    void           *acc;             /* a working buffer, or NULL              */
    bool            user;            /* read runs a user function (an op)      */
};
void  xb_coll_nbn_init(void);
/* comm's channel, or -1 (a member on another node, no channel). */
int   xb_coll_nbn_chan(const xb_comm_t *comm);
/* Add the step of a call (retains a->sdt and a->rdt for the schedule);
 * *op (may be NULL) gets the call. */
int   xb_coll_nbn_op(xb_coll_sched_t *s, const xb_coll_args_t *a, int kind, int reads,
                     xb_coll_nbn_write_fn write, xb_coll_nbn_read_fn read, xb_coll_nbop_t **op);
bool  xb_coll_nbn_fits(xb_coll_kind_t kind, const xb_coll_args_t *a);   /* shm_nb.c */
/* XB_OK, XB_INPROGRESS or error; a step entered after it finished is the
 * next start of a persistent request: a new call. */
int   xb_coll_nbn_step(xb_coll_nbop_t *o);
/* Under MPI_THREAD_MULTIPLE a call whose read runs a user op stops before
 * the read with XB_COLL_USER_OP (its schedule is on the active list, which
 * other threads walk while the op runs unlocked); the owner takes the
 * schedule off the list and runs this, with the lock (the op drops it):
 * the read and the finish; XB_OK or error. */
int   xb_coll_nbn_read(xb_coll_nbop_t *o);
void  xb_coll_nbn_drop(xb_coll_nbop_t *o);      /* the schedule goes: off the watch */
bool  xb_coll_nbn_watch(void);                  /* some waiting call can move */
/* The data of comm rank `rank`'s window of this call (after it is
 * published), and the check that it wrote `want` bytes. */
const void *xb_coll_nbn_data(const xb_coll_nbop_t *o, int rank);
int   xb_coll_nbn_check(const xb_coll_nbop_t *o, int rank, size_t want);
/* The largest of counts[0..n-1] (0 for n = 0). */
MPI_Count xb_coll_max_count(const MPI_Count *counts, int n);
/* Some process of the job runs with threads (xb_coll_agree,
 * coll_agree.c): no node or two-stage algorithm anywhere. */
extern bool xb_coll_threads;
/* The agreement has run: until then no call takes a node channel. */
extern bool xb_coll_agreed;
/* The job broadcasts across nodes by multicast (coll_agree.c), in windows
 * of at most xb_coll_mcast_window bytes (bcast_mcast.c). */
extern bool   xb_coll_mcast;
extern size_t xb_coll_mcast_window;

/* hierarchical (two-stage) collectives (hier.c) */
typedef struct xb_coll_nodeset {
    int  n, *ranks;          /* comm ranks on this node, ascending          */
    int  nheads, *heads;     /* one head per node the comm spans            */
    int  mynode;             /* index of this node in heads[]               */
    int  head;               /* heads[mynode]                               */
    int  rootnode;           /* index in heads[] of the root's node (or 0)  */
} xb_coll_nodeset_t;
/* Blocking, several nodes, node barrier and slots, commutative op, fits. */
bool xb_coll_hier_fits(xb_coll_kind_t kind, const xb_coll_args_t *a);
/* Reductions of any length in the two-stage algorithms: the node stage
 * holds one segment in a slot. red_fits: the working type is predefined
 * and one element's working copy fits a slot (alike on every rank: it
 * depends on the type signature). red_segment: user elements per segment
 * (s->red set up; the whole count when it fits). red_part: s->red for
 * the next n elements of whole (the builders read s->red's counts when
 * they add steps; the steps keep them). */
bool      xb_coll_hier_red_fits(const xb_coll_args_t *a);
MPI_Count xb_coll_hier_red_segment(const xb_coll_sched_t *s);
void      xb_coll_hier_red_part(xb_coll_sched_t *s, const xb_coll_red_t *whole, MPI_Count n);
/* The node of the job that comm rank r is on; -1 for a process of
 * another job. */
int  xb_coll_node_of(const xb_comm_t *comm, int r);
/* The nodes of the job the communicator's members are on (0 beyond 4096
 * nodes: not counted). O(p). */
int  xb_coll_comm_nodes(const xb_comm_t *comm);
/* XB_ERR_AGAIN: the comm is not node-whole (then use a flat algorithm). */
int  xb_coll_hier_plan(xb_coll_sched_t *s, const xb_comm_t *comm, int root,
                       xb_coll_nodeset_t *ns);
void xb_coll_hier_fini(void);
/* The comm's ranks in node order (the order of ns->heads, ranks ascending
 * within a node): order[start[j] .. start[j + 1]) are node j's. */
int  xb_coll_hier_order(xb_coll_sched_t *s, const xb_comm_t *comm,
                        const xb_coll_nodeset_t *ns, int **order_p, int **start_p);
/* Bytes per node index of B-byte blocks per rank (schedule memory). */
MPI_Count *xb_coll_hier_lens(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns,
                             const int *start, MPI_Count B);
/* For a tree gather/scatter of B-byte blocks per rank at a head: the
 * comm's ranks in node order (xb_coll_hier_order), the bytes per node and
 * a buffer of this head's span (at the root's head, every node's, its own
 * node's part unused); NULL: no memory. */
char *xb_coll_hier_tree_buf(xb_coll_sched_t *s, const xb_comm_t *comm,
                            const xb_coll_nodeset_t *ns, MPI_Count B, int **order,
                            int **start, MPI_Count **len);
/* At the root: copy steps between the other nodes' blocks in buf (tree
 * order, from len[top]) and their places in ubuf (count x dt per rank):
 * pack (ubuf -> buf) or unpack. */
int xb_coll_hier_tree_blocks(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, const int *order,
                             const int *start, const MPI_Count *len, MPI_Count B, char *buf,
                             void *ubuf, MPI_Count count, xb_datatype_t *dt, bool pack);
/* The heads' binomial trees (hier.c), rooted at head index top; called
 * at heads only, each adds this head's steps. tree_reduce and tree_gather
 * end with a fence; tree_bcast and tree_scatter end with their sends to
 * the children posted, so the caller's local steps overlap them, and the
 * caller fences (buf must stay unchanged until then).
 * tree_reduce: the children's partial results (working representation of
 * s->red; commutative ops) reduced into acc, then acc to the parent.
 * tree_bcast: buf from the parent, then to the children.
 * tree_gather / tree_scatter move byte blocks, len[j] bytes for node index
 * j, kept in tree order from this head on: buf holds this head's node at
 * offset 0 and its subtree's nodes after it (xb_coll_hier_tree_span bytes;
 * at top, every node). gather: the caller's steps fill the node's own
 * part first; scatter: top's caller fills every part first, and a head
 * finds its own part at offset 0 after the call. */
MPI_Count xb_coll_hier_tree_span(const xb_coll_nodeset_t *ns, int top, const MPI_Count *len);
/* The ring over the heads (head index order) for large vectors of three
 * heads or more (from XB_COLL_HIER_RING_MIN bytes): ring reduce-scatters
 * acc (s->red's working elements, commutative op), after which head j
 * holds the finished chunk (j + 1) % L, then, with allgather, passes the
 * finished chunks round so every head holds the whole result in acc.
 * part[0] is the reduce-scatter's receive buffer (allocated when NULL).
 * Every chunk is combined at one head and copied to the others: all get
 * bit-identical results. chunk: where chunk c of L starts, in working
 * elements, and its length. */
enum { XB_COLL_HIER_RING_MIN = 128 * 1024 };
int       xb_coll_hier_ring(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, void *acc,
                            void **part, bool allgather);
MPI_Count xb_coll_hier_chunk(const xb_coll_sched_t *s, int L, int c, MPI_Count *len);
/* tree_reduce receives the children's parts into part[] (32 entries, NULL
 * on the first call: it allocates them; a later segment's call reuses
 * them). */
int  xb_coll_hier_tree_reduce(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, int top,
                              void *acc, void **part);
int  xb_coll_hier_tree_bcast(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, int top,
                             void *buf, MPI_Count count, xb_datatype_t *dt);
int  xb_coll_hier_tree_gather(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, int top,
                              const MPI_Count *len, char *buf);
int  xb_coll_hier_tree_scatter(xb_coll_sched_t *s, const xb_coll_nodeset_t *ns, int top,
                               const MPI_Count *len, char *buf);

/* algorithms, one per file */
#define XB_COLL_ALGO_DECL(name) \
    int xb_coll_##name(xb_coll_sched_t *s, const xb_coll_args_t *a)
XB_COLL_ALGO_DECL(barrier_dissemination);
XB_COLL_ALGO_DECL(barrier_shm);
XB_COLL_ALGO_DECL(bcast_shm);
XB_COLL_ALGO_DECL(reduce_shm);
XB_COLL_ALGO_DECL(allreduce_shm);
XB_COLL_ALGO_DECL(allreduce_shm_rsag);
XB_COLL_ALGO_DECL(allgatherv_shm);
XB_COLL_ALGO_DECL(allgatherv_shm_nb);
XB_COLL_ALGO_DECL(barrier_shm_nb);
XB_COLL_ALGO_DECL(bcast_shm_nb);
XB_COLL_ALGO_DECL(reduce_shm_nb);
XB_COLL_ALGO_DECL(allreduce_shm_nb);
XB_COLL_ALGO_DECL(gather_shm_nb);
XB_COLL_ALGO_DECL(scatter_shm_nb);
XB_COLL_ALGO_DECL(allgather_shm_nb);
XB_COLL_ALGO_DECL(alltoall_shm_nb);
XB_COLL_ALGO_DECL(reduce_scatter_block_shm_nb);
XB_COLL_ALGO_DECL(reduce_scatter_shm_nb);
XB_COLL_ALGO_DECL(scan_shm_nb);
XB_COLL_ALGO_DECL(exscan_shm_nb);
XB_COLL_ALGO_DECL(allgather_shm);
XB_COLL_ALGO_DECL(alltoall_shm);
XB_COLL_ALGO_DECL(alltoall_shm_rounds);
XB_COLL_ALGO_DECL(barrier_hier);
XB_COLL_ALGO_DECL(bcast_hier);
XB_COLL_ALGO_DECL(reduce_hier);
XB_COLL_ALGO_DECL(allreduce_hier);
XB_COLL_ALGO_DECL(gather_hier);
XB_COLL_ALGO_DECL(scatter_hier);
XB_COLL_ALGO_DECL(allgather_hier);
XB_COLL_ALGO_DECL(bcast_binomial);
XB_COLL_ALGO_DECL(bcast_linear);
XB_COLL_ALGO_DECL(bcast_scatter_allgather);
XB_COLL_ALGO_DECL(reduce_binomial);
XB_COLL_ALGO_DECL(reduce_rabenseifner);
XB_COLL_ALGO_DECL(reduce_ordered);
XB_COLL_ALGO_DECL(allreduce_recdbl);
XB_COLL_ALGO_DECL(allreduce_reduce_bcast);
XB_COLL_ALGO_DECL(allreduce_ring);
XB_COLL_ALGO_DECL(allreduce_exchange);
XB_COLL_ALGO_DECL(allreduce_rabenseifner);
XB_COLL_ALGO_DECL(gather_linear);
XB_COLL_ALGO_DECL(gather_binomial);
XB_COLL_ALGO_DECL(scatter_linear);
XB_COLL_ALGO_DECL(scatter_binomial);
XB_COLL_ALGO_DECL(allgather_ring);
XB_COLL_ALGO_DECL(allgather_linear);
XB_COLL_ALGO_DECL(allgather_recdbl);
XB_COLL_ALGO_DECL(allgather_bruck);
XB_COLL_ALGO_DECL(alltoall_pairwise);
XB_COLL_ALGO_DECL(alltoall_linear);
XB_COLL_ALGO_DECL(alltoall_bruck);
XB_COLL_ALGO_DECL(gatherv_linear);
XB_COLL_ALGO_DECL(scatterv_linear);
XB_COLL_ALGO_DECL(allgatherv_ring);
XB_COLL_ALGO_DECL(allgatherv_linear);
XB_COLL_ALGO_DECL(alltoallv_pairwise);
XB_COLL_ALGO_DECL(alltoallw_pairwise);
XB_COLL_ALGO_DECL(alltoallv_linear);
XB_COLL_ALGO_DECL(alltoallw_linear);
XB_COLL_ALGO_DECL(reduce_scatter_pairwise);
XB_COLL_ALGO_DECL(reduce_scatter_halving);
XB_COLL_ALGO_DECL(reduce_scatter_block_pairwise);
XB_COLL_ALGO_DECL(reduce_scatter_block_halving);
XB_COLL_ALGO_DECL(reduce_scatter_shm);
XB_COLL_ALGO_DECL(reduce_scatter_block_shm);
XB_COLL_ALGO_DECL(scan_recdbl);
XB_COLL_ALGO_DECL(scan_linear);
XB_COLL_ALGO_DECL(scan_shm);
XB_COLL_ALGO_DECL(exscan_shm);
#define XB_COLL_DIRECT_DECL(name) \
    int xb_coll_##name(const xb_coll_args_t *a, int tag)
XB_COLL_DIRECT_DECL(bcast_pair);
XB_COLL_DIRECT_DECL(bcast_binomial_direct);
XB_COLL_DIRECT_DECL(reduce_pair);
XB_COLL_DIRECT_DECL(allreduce_pair);
/* Two ranks in shm_rsag's rounds: do both take them (XB_OK), or did the
 * peer's count take it to the cells or pair's message (XB_ERR_AGAIN: run
 * pair's, where the counts that differ meet and fail)? pair_cell.c */
int xb_coll_pair_rounds_agree(const xb_coll_args_t *a);
XB_COLL_DIRECT_DECL(scan_pair);
XB_COLL_DIRECT_DECL(exscan_pair);
/* A two-rank reduce of a large vector, its operand in pieces of
 * XB_COLL_PIECE bytes that the root applies as they come (pair.c; the
 * writer announces them in a flow call first, pair_cell.c). pieces_fit:
 * the writer's choice, by its own count and type; pieces_send: the
 * writer's side; pieces_recv: the root's, after the announcement of
 * `theirs` bytes: x0 op x1 into rbuf, or, where its own bytes differ (an
 * erroneous program), every piece taken and MPI_ERR_TRUNCATE. */
enum { XB_COLL_PIECE = 256 << 10, XB_COLL_PIECES_OVER = 512 << 10 };
bool xb_coll_pieces_fit(const xb_coll_args_t *a, MPI_Count need);
int  xb_coll_pieces_send(const xb_coll_args_t *a, int tag, int peer);
int  xb_coll_pieces_recv(const xb_coll_args_t *a, int tag, xb_coll_kind_t kind,
                         int64_t theirs);
XB_COLL_DIRECT_DECL(gather_pair);
XB_COLL_DIRECT_DECL(scatter_pair);
XB_COLL_DIRECT_DECL(gatherv_pair);
XB_COLL_DIRECT_DECL(scatterv_pair);
XB_COLL_DIRECT_DECL(allgather_pair);
XB_COLL_DIRECT_DECL(allgatherv_pair);
XB_COLL_DIRECT_DECL(alltoall_pair);
XB_COLL_DIRECT_DECL(alltoallv_pair);
XB_COLL_DIRECT_DECL(alltoallw_pair);
XB_COLL_DIRECT_DECL(allreduce_shm_direct);
XB_COLL_DIRECT_DECL(bcast_flow);
XB_COLL_DIRECT_DECL(reduce_flow);
XB_COLL_DIRECT_DECL(bcast_stream);
XB_COLL_DIRECT_DECL(bcast_direct);
XB_COLL_DIRECT_DECL(bcast_mcast);
XB_COLL_DIRECT_DECL(reduce_stream);
XB_COLL_DIRECT_DECL(gather_stream);
XB_COLL_DIRECT_DECL(scatter_stream);
XB_COLL_DIRECT_DECL(gatherv_stream);
XB_COLL_DIRECT_DECL(scatterv_stream);
XB_COLL_DIRECT_DECL(alltoallv_shm);
XB_COLL_DIRECT_DECL(alltoallw_shm);
XB_COLL_DIRECT_DECL(scan_flow);
XB_COLL_DIRECT_DECL(exscan_flow);
XB_COLL_DIRECT_DECL(scan_chain);
XB_COLL_DIRECT_DECL(exscan_chain);
XB_COLL_DIRECT_DECL(reduce_scatter_pair);
XB_COLL_DIRECT_DECL(scan_linear_direct);
XB_COLL_DIRECT_DECL(reduce_binomial_direct);
XB_COLL_DIRECT_DECL(gather_binomial_direct);
XB_COLL_DIRECT_DECL(scatter_linear_direct);
XB_COLL_DIRECT_DECL(scatterv_linear_direct);
XB_COLL_DIRECT_DECL(exscan_linear_direct);
XB_COLL_DIRECT_DECL(reduce_scatter_block_pair);
XB_COLL_DIRECT_DECL(bcast_cell);
XB_COLL_DIRECT_DECL(reduce_cell);
XB_COLL_DIRECT_DECL(allreduce_cell);
XB_COLL_DIRECT_DECL(scan_cell);
XB_COLL_DIRECT_DECL(exscan_cell);
XB_COLL_DIRECT_DECL(scatter_cell);
XB_COLL_DIRECT_DECL(scatterv_cell);
XB_COLL_DIRECT_DECL(allgather_cell);
XB_COLL_DIRECT_DECL(allgatherv_cell);
XB_COLL_DIRECT_DECL(alltoall_cell);
XB_COLL_DIRECT_DECL(alltoallv_cell);
XB_COLL_DIRECT_DECL(alltoallw_cell);
XB_COLL_DIRECT_DECL(reduce_scatter_cell);
XB_COLL_DIRECT_DECL(reduce_scatter_block_cell);
XB_COLL_ALGO_DECL(exscan_recdbl);
XB_COLL_ALGO_DECL(exscan_linear);
XB_COLL_ALGO_DECL(neighbor_allgather_linear);
XB_COLL_ALGO_DECL(neighbor_allgatherv_linear);
XB_COLL_ALGO_DECL(neighbor_alltoall_linear);
XB_COLL_ALGO_DECL(neighbor_alltoallv_linear);
XB_COLL_ALGO_DECL(neighbor_alltoallw_linear);

/* Intercommunicator collectives (coll_inter.c): the builder for kind, or
 * NULL where the standard defines none (scan, exscan, neighbourhood). */
xb_coll_fn_t xb_coll_inter_builder(xb_coll_kind_t kind);

/* Address of block i of a buffer of blocks of `count` elements of dt. */
static inline void *xb_coll_block(const void *buf, MPI_Count i, MPI_Count count,
                                  const xb_datatype_t *dt)
{
    return (char *)buf + i * count * xb_dt_extent(dt);
}

/* ---- counts that differ between ranks (coll_check.c) --------------------
 * A receiver whose buffer is not what the root (or peer) sent: an erroneous
 * program, reported rather than truncated (docs/design/coll.md, Checks).
 * xb_coll_bcast_mismatch records the sentence of a broadcast that brought
 * `sent` bytes from the root where this rank's buffer holds count x dt and
 * returns XB_ERR_TRUNCATE. xb_coll_recv_exact is a blocking receive of a
 * collective that fails the same way (root >= 0: a bcast from root, else a
 * message of collective `kind`) when the message is longer or shorter than
 * the buffer; *len (may be NULL) gets the sender's bytes. xb_coll_mismatch
 * is the sentence of them all: a message of `got` bytes from rank `from`
 * where `want` were expected, in collective `kind` (-1: unnamed); for a
 * bcast (root >= 0) this rank's buffer is count x dt (dt NULL: unknown);
 * from < 0: this rank's own block, `got` bytes for a place of `want`. */
int   xb_coll_bcast_mismatch(int root, size_t sent, MPI_Count count, xb_datatype_t *dt);
int   xb_coll_mismatch(int kind, int root, int from, size_t got, MPI_Count want,
                       MPI_Count count, xb_datatype_t *dt);
int   xb_coll_recv_exact(void *buf, MPI_Count count, xb_datatype_t *dt, int peer, int tag,
                         xb_comm_t *comm, int root, int kind, size_t *len);
/* The direct (blocking, schedule-free) message algorithms' sends, on the
 * collective context: eagerly at once when the message can go so, else a
 * request waited for. xb_coll_send_mismatch passes a mismatch on as the
 * schedules do: bytes + 1 zero bytes where `bytes` were due, so that the
 * receiver fails too instead of taking them for data. */
int   xb_coll_send_blocking(const void *buf, MPI_Count count, xb_datatype_t *dt, int peer,
                            int tag, xb_comm_t *comm);
int   xb_coll_send_mismatch(size_t bytes, int peer, int tag, xb_comm_t *comm);
/* The reductions that such an algorithm takes in buffers on its stack: a
 * predefined working type of 1 .. XB_COLL_DIRECT_MAX bytes. Returns the
 * working bytes (red set up), or 0 when the schedule form must run (any
 * error cleared; what all ranks know alike). coll_util.c */
enum { XB_COLL_DIRECT_MAX = 2048 };
size_t xb_coll_direct_red(xb_coll_red_t *red, const xb_coll_args_t *a);

/* ---- reduction working buffers (coll_util.c) ----------------------------
 * A predefined op works on a derived type as on its basic elements: the
 * working representation is then (wcount, wdt) = (count * n, basic type) in
 * native layout, converted with xb_dt_copy. A user op works on the user's
 * type itself. */
int   xb_coll_red_init(xb_coll_red_t *r, MPI_Count count, xb_datatype_t *dt,
                       xb_op_t *op);
/* A new working buffer, filled from the user buffer by a copy step. */
void *xb_coll_red_load(xb_coll_sched_t *s, const void *ubuf);
/* A copy step from a working buffer to the user buffer; none when w is
 * the user buffer itself in the user's type (xb_coll_red_acc). */
int   xb_coll_red_store(xb_coll_sched_t *s, const void *w, void *ubuf);
/* count x dt at buf as one run of bytes, for the algorithms that move
 * bytes: the buffer itself when it is contiguous, else a temporary of the
 * schedule, packed by a copy step when `load`; NULL: no memory. The ranks
 * may lay out one signature differently, so an algorithm never chooses by
 * the layout: it works on these bytes. xb_coll_bytes_store unpacks them
 * into buf (nothing to do for a contiguous buffer). */
char *xb_coll_bytes(xb_coll_sched_t *s, const void *buf, MPI_Count count, xb_datatype_t *dt,
                    bool load);
int   xb_coll_bytes_store(xb_coll_sched_t *s, const char *bytes, void *buf, MPI_Count count,
                          xb_datatype_t *dt);
/* The same for the direct algorithms, at once: the buffer itself, or a
 * malloc'd copy in *tmp (packed now when `load`; NULL and *rc set when
 * there is no memory; a failed pack sets *rc). bytes_now_done unpacks
 * *tmp into buf when `store` and rc is XB_OK, frees it, returns rc. */
char *xb_coll_bytes_now(void *buf, MPI_Count count, xb_datatype_t *dt, bool load,
                        char **tmp, int *rc);
int   xb_coll_bytes_now_done(char *tmp, void *buf, MPI_Count count, xb_datatype_t *dt,
                             bool store, int rc);
/* Where a reduction whose result lands in a->rbuf may accumulate: the
 * receive buffer itself when the working type is the user's (the send
 * buffer copied in by a step, unless in place), else a working copy
 * loaded from the operand. NULL: no memory. The caller may send from it,
 * reduce into it and swap it with temporaries, then xb_coll_red_store. */
void *xb_coll_red_acc(xb_coll_sched_t *s, const xb_coll_args_t *a);
/* The vectors of a reduction that forms its result in the receive buffer
 * (after xb_coll_sched_red on a's count, type and op): *src the operand
 * (the send buffer, or the receive buffer in place) and *acc where the
 * result forms: the user's receive buffer when the working type is the
 * user's, else a working copy loaded from the operand (then *src is the
 * copy too, and the caller stores *acc back with xb_coll_red_store). With
 * nothing to reduce (every rank has count 0: s->red.wcount == 0) both are
 * NULL and the caller has nothing to do. */
int   xb_coll_red_bufs(xb_coll_sched_t *s, const xb_coll_args_t *a, const char **src,
                       char **acc);
/* reduce_scatter_block as reduce_scatter: p counts of `count` each, in
 * the schedule's temporary memory (NULL when out of memory). */
MPI_Count *xb_coll_equal_counts(xb_coll_sched_t *s, int p, MPI_Count count);

/* Where chunk c of n elements cut into `parts` near-equal chunks starts
 * (the first n % parts chunks hold one element more); chunk c is
 * [off(c), off(c + 1)). Every rank computes the same cut. */
static inline MPI_Count xb_coll_chunk_off(MPI_Count n, int parts, int c)
{
    MPI_Count q = n / parts, r = n % parts;
    return c * q + (c < r ? c : r);
}

/* ---- the reduce-scatter round of direct exchange (coll_util.c) ----------
 * Every rank sends piece i of its working vector src (off[i], len[i]
 * working elements) to rank i and receives its own piece from every other
 * rank, all posted at once; after a fence the p pieces are combined in
 * rank order, x_0 op (x_1 op (... op x_{p-1})), into out (len[rank]
 * elements; any op, the same bits wherever it is computed). own_moves: out
 * overlaps src's own piece, which is copied aside first. every: a message
 * goes both ways between every pair, empty pieces included, so counts that
 * differ between ranks (all of them 0 on one rank) meet as a block of the
 * wrong size instead of a receive that nothing answers; without it a piece
 * of 0 elements is not sent (reduce_scatter's counts of 0, the same on
 * every rank). Used by reduce_scatter(_block)=pairwise and
 * allreduce=exchange. */
int xb_coll_exchange_reduce(xb_coll_sched_t *s, const xb_coll_args_t *a, const char *src,
                            const MPI_Count *off, const MPI_Count *len, char *out,
                            bool own_moves, bool every);

/* ---- the fold of non-power-of-two sizes (coll_util.c) -------------------
 * With pof2 the largest power of two <= p and rem = p - pof2, ranks below
 * 2*rem pair up: even rank 2i sends its working buffer to 2i+1, which keeps
 * x_2i op x_2i+1 (rank order kept) and takes the new rank i; even ranks
 * leave (nr = -1); ranks from 2*rem on take the new rank r - rem. New
 * ranks cover consecutive ranges of old ranks in order; real_rank maps a
 * new rank back. xb_coll_unfold hands the result back to the even ranks. */
typedef struct xb_coll_fold { int pof2, rem, nr; } xb_coll_fold_t;
int xb_coll_fold(xb_coll_sched_t *s, void *acc, void *tmp, int rank, int p,
                 xb_coll_fold_t *f);
int xb_coll_unfold(xb_coll_sched_t *s, void *acc, int rank,
                   const xb_coll_fold_t *f);
static inline int xb_coll_fold_real_rank(int nr, int rem)
{
    return nr < rem ? nr * 2 + 1 : nr + rem;
}

/* The reduce-scatter by recursive halving of Rabenseifner's algorithms
 * (allreduce_rabenseifner.c), over the new ranks of a fold: acc (the
 * whole working vector, s->red) cut into pof2 chunks; at the end new rank
 * nr holds chunk nr reduced over every rank (commutative ops). tmp: a
 * working buffer of the whole vector. */
int xb_coll_halving_reduce(xb_coll_sched_t *s, char *acc, char *tmp, int nr, int pof2,
                           int rem);

#endif
