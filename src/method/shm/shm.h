/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm.h - state shared by the files of the shm method (internal).
 *
 * Segment layout (at the method's offset of the node segment; all-zero is
 * the valid initial state, so no rank initialises it):
 *
 *   ctl[nlocal]                 one xb_shm_ctl_t per local rank (4 lines)
 *   node                        xb_shm_node_t: the node barrier (1 line)
 *   (page aligned)
 *   coll[3][nlocal]             XB_SHM_COLL_SLOT bytes per local rank and
 *                               area: areas 0 and 1 (parities) hold data of
 *                               the node collectives (src/coll/node_shm.c;
 *                               the last 64 KiB of each parity-0 slot are
 *                               that rank's flow cells, src/coll/
 *                               node_flow.c), area 2 the channels of the
 *                               nonblocking ones (src/coll/node_nb.c)
 *   (page aligned)
 *   rings[nsets][nlocal * (nlocal-1)]
 *                               ring (s -> r) of set c at index
 *                               c * nlocal * (nlocal-1) + s * (nlocal-1) +
 *                               (r < s ? r : r - 1), each a header line
 *                               plus ring_size bytes; set 0 is the main
 *                               channel, set k lane k of several progress
 *                               contexts (nsets = 1 without lanes,
 *                               shm_chan.c)
 *
 * Every rank of the node computes the same layout from nlocal, the ring
 * size and nsets; both travel in the address blob so a rank whose
 * XB_SHM_RING_SIZE or XB_PROGRESS_CONTEXTS differs is caught at ready().
 */
#ifndef XB_SHM_H
#define XB_SHM_H

#include <sys/types.h>
#include "method/method_int.h"
#include "method/shm/shm_inl.h"
#include "util/xb_lanes.h"

/* Per local rank, in the segment. */
typedef struct xb_shm_ctl {
    /* line 0: waiting. sleeping is written by the owner, wake by senders.
     * sleeping: 0 awake, XB_SHM_SLEEP_CTL on `wake`, XB_SHM_SLEEP_BELL in a
     * node barrier on the node's `bell` (shm_node.c). */
    XB_ALIGNED(XB_CACHELINE) uint32_t sleeping;
    uint32_t wake;           /* futex word: senders add 1, then FUTEX_WAKE */
    int32_t  cpu;            /* + 1: the CPU the owner last waited on (0: ?) */
    uint8_t  pad0[XB_CACHELINE - 12];
    /* line 1: records ever published to this rank (counter mode only). */
    XB_ALIGNED(XB_CACHELINE) uint64_t arrived;
    uint8_t  pad1[XB_CACHELINE - 8];
    /* line 2: the copy this rank is getting, which its sender may help
     * with (shm_help.c). claim = generation << 32 | next chunk. */
    XB_ALIGNED(XB_CACHELINE) uint64_t help_claim;
    uint32_t help_done;      /* chunks copied, by either side               */
    uint32_t help_err;       /* a helper's copy failed: redo it all         */
    uint8_t  pad2[XB_CACHELINE - 16];
    /* line 3: written by the owner only, read by ranks that consider asking
     * it for help (shm_help.c): 1 while it handles arrived records (its own
     * single copies, a helper's chunks), 0 otherwise. A line of its own:
     * line 0 is read by every sender of every message. */
    XB_ALIGNED(XB_CACHELINE) uint32_t working;
    uint8_t  pad3[XB_CACHELINE - 4];
} xb_shm_ctl_t;
_Static_assert(sizeof(xb_shm_ctl_t) == 4 * XB_CACHELINE, "four lines per rank");

enum { XB_SHM_SLEEP_CTL = 1, XB_SHM_SLEEP_BELL = 2 };

/* Node-wide state, one line after the ctl blocks (shm_node.c). */
typedef struct xb_shm_node {
    XB_ALIGNED(XB_CACHELINE) uint32_t arrived;   /* ranks in the current barrier */
    uint32_t gen;            /* barriers completed (the release word)           */
    uint32_t bell;           /* futex word of the ranks asleep in a barrier     */
    uint8_t  pad[XB_CACHELINE - 12];
} xb_shm_node_t;
_Static_assert(sizeof(xb_shm_node_t) == XB_CACHELINE, "one line");

/* The address blob of a rank (hex in the KVS). */
typedef struct xb_shm_addr {
    uint32_t version;
    int32_t  pid;
    int32_t  memfd;          /* node-local rank 0 without a launcher segment */
    uint32_t ring_size;
    uint64_t cma_probe;      /* address of a magic word, for the CMA check   */
    uint32_t nsets;          /* ring sets: 1 + lanes                         */
    uint32_t pad;
} xb_shm_addr_t;

struct xb_ep {
    xb_shm_tx_t   tx;        /* first: the hot fields                        */
    xb_shm_ctl_t *peer_ctl;
    struct xb_shm *st;
    int           peer_local;
    pid_t         pid;
    uint64_t      full_head;     /* head when the ring was last found full */
    xb_shm_tx_t  *ltx;           /* [nsets]: lanes' producers (chan_open)   */
};

typedef struct xb_shm_in {
    xb_shm_rx_t   rx;
    xb_gpid_t     src;
    xb_shm_ctl_t *src_ctl;         /* to wake a producer waiting for space */
} xb_shm_in_t;

typedef struct xb_shm {
    xb_method_t  *m;
    int           nlocal, me;      /* local size, my local index            */
    const int    *local_ranks;     /* [nlocal] world rank of each local one */
    size_t        ring_size;
    int           nsets;           /* ring sets: 1 + lanes                  */
    /* lanes (shm_chan.c): inbound rings and re-entry guard per lane */
    xb_shm_in_t  *lin[XB_LANES_MAX + 1];
    int           lbusy[XB_LANES_MAX + 1];
    /* segment */
    uint8_t      *base;            /* method area                           */
    void         *map;             /* whole mapping (munmap)                */
    size_t        map_len;
    int           own_fd;          /* memfd we created, or -1               */
    size_t        seg_need;        /* bytes of the method area              */
    uint64_t      seg_off;         /* method_off in the fd                  */
    xb_shm_ctl_t *my_ctl;
    /* receive side */
    xb_shm_in_t  *in;              /* [nlocal - 1]                          */
    int           nin;
    bool          counter_mode;    /* poll via ctl->arrived (many peers)    */
    uint64_t      seen;            /* arrived value already handled         */
    int           in_progress;     /* re-entry guard of progress()          */
    unsigned      empty_polls;     /* polls in a row that found nothing     */
    /* node barrier: the generation this rank waits to see pass, if any */
    xb_shm_node_t *node;
    uint8_t      *lone_slots;      /* alone on the node: private slots      */
    bool          bar_waiting;
    uint32_t      bar_gen;
    /* send side: the last endpoint found full (xb_shm_send_full) */
    struct xb_ep *full_ep;
    /* single copy */
    int           ncpu;            /* CPUs for the help choice (0: not yet)  */
    bool          cma;             /* get() allowed                          */
    const char   *cma_why;         /* why not                                */
    const char   *fence_why;       /* why the senders fence (NULL: they don't) */
    int           ptrace_scope;    /* -1: no Yama                            */
} xb_shm_t;

/* Bytes of one rank's slot of the collective area (per parity): a rank's
 * contribution to a node allreduce/allgather/alltoall fits one slot, a
 * node bcast moves up to nlocal slots per step, the large node algorithms
 * move a slot per rank per round (src/coll/allreduce_shm_rsag.c,
 * alltoall_shm_rounds.c), one node barrier each. 1 MiB x 2 x 8 ranks =
 * 16 MiB of the segment; memfd pages are touched only when a collective
 * uses them. The size is the same on every node (the two-stage collectives
 * decide by it on every rank alike): a rank alone on its node, which has
 * no segment, gets the same slots in private memory (xb_shm_node_slot). Measured 2026-11-24 (2 cores, loaded):
 * 32 KiB slots: bcast of 1 MiB on 4 ranks 321 us (Open MPI 176 us);
 * 2-rank allreduce of 1 MiB 154 us with 256 KiB slots, 73 us with 1 MiB
 * (Open MPI 143 us); alltoall of 256 KiB blocks on 4 ranks 241 us with
 * 256 KiB, 111 us with 1 MiB (Open MPI 185 us). */
#define XB_SHM_COLL_SLOT ((size_t)1024 << 10)
/* Areas of slots: 0 and 1, the parities of the node collectives; 2, the
 * nonblocking node collectives' channels (src/coll/node_nb.c). */
enum { XB_SHM_COLL_AREAS = 3 };

/* shm_seg.c */
size_t xb_shm_seg_layout(int nlocal, size_t ring_size, int nsets, size_t *rings_off_p);
int    xb_shm_seg_attach_jobseg(xb_shm_t *st, int fd);
int    xb_shm_seg_create(xb_shm_t *st);
int    xb_shm_seg_open_peer(xb_shm_t *st, int pid, int fd);
void   xb_shm_seg_detach(xb_shm_t *st);
xb_shm_ctl_t  *xb_shm_seg_ctl(xb_shm_t *st, int local);
xb_shm_ring_t *xb_shm_seg_ring(xb_shm_t *st, int src_local, int dst_local);
xb_shm_ring_t *xb_shm_seg_ring_chan(xb_shm_t *st, int chan, int src_local, int dst_local);
void          *xb_shm_seg_coll_slot(xb_shm_t *st, int area, int local);
/* Ring size for nlocal ranks from XB_SHM_RING_SIZE (power of two, shrunk
 * when the rings of a big node would pass the memory budget). */
size_t xb_shm_ring_size_for(int nlocal, int nsets);

/* shm_wait.c */
/* True when this process is registered for membarrier(GLOBAL_EXPEDITED):
 * then the sender's side of the sleep/wake handshake needs no fence (the
 * sleeper issues the membarrier instead; see shm_wait.c). */
extern bool xb_shm_asym_fence;
void xb_shm_fence_setup(xb_shm_t *st);                /* init: probe, register */
void xb_shm_wake(xb_shm_t *st, xb_shm_ctl_t *ctl);  /* out of line: a syscall */
/* Producer found the ring full: raise tx_waiting and retry once. */
int  xb_shm_send_full(xb_ep_t *ep, uint8_t am_id, const void *hdr, size_t hdr_len,
                      const xb_payload_t *pl);
/* Consumer released space in a ring: wake its producer if it waits. */
static inline void xb_shm_space_released(xb_shm_t *st, xb_shm_in_t *in)
{
    /* seq_cst fence: orders our head store (release in xb_shm_ring_release)
     * before the load of tx_waiting; pairs with the producer's fence between
     * raising tx_waiting and re-reading head (F4 in shm_wait.c). */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (XB_UNLIKELY(__atomic_load_n(in->rx.tx_waiting, __ATOMIC_RELAXED) != 0) &&
        __atomic_exchange_n(in->rx.tx_waiting, 0, __ATOMIC_RELAXED) != 0)
        xb_shm_wake(st, in->src_ctl);
}
void xb_shm_block(xb_shm_t *st, int timeout_ms);
/* block() when several threads may sleep in it (lanes under MULTIPLE):
 * the main context's poller (chan 0) or lane chan's. */
void xb_shm_block_shared(xb_shm_t *st, int chan, int timeout_ms);
/* After a publish: wake the receiver if it sleeps (see shm_wait.c). */
static inline void xb_shm_notify(xb_shm_t *st, xb_shm_ctl_t *ctl)
{
    if (st->counter_mode)
        __atomic_fetch_add(&ctl->arrived, 1, __ATOMIC_RELAXED);
    /* F2: orders our publication (the header word store, and the arrived
     * increment) before the load of `sleeping` below; pairs with F1 in
     * xb_shm_block (Dekker: one side always sees the other). With the
     * asymmetric scheme the sleeper's membarrier does the hardware part and
     * this is only a compiler barrier: no fence on the eager path. */
    if (XB_LIKELY(xb_shm_asym_fence))
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (XB_UNLIKELY(__atomic_load_n(&ctl->sleeping, __ATOMIC_RELAXED) != 0))
        xb_shm_wake(st, ctl);
}

/* shm_wait.c: a local rank that is awake last waited on our CPU */
bool xb_shm_crowded(xb_shm_t *st);

/* shm_node.c */
uint32_t xb_shm_node_arrive(xb_method_t *m, bool wait);
bool     xb_shm_node_released(xb_method_t *m, uint32_t ticket);
void     xb_shm_node_ring_bell(xb_shm_node_t *n);     /* wake barrier sleepers */
void    *xb_shm_node_slot(xb_method_t *m, int area, int local, size_t *size);
void     xb_shm_node_wake(xb_method_t *m, int local);
const uint32_t *xb_shm_node_sleep_word(xb_method_t *m, int local);
void     xb_shm_node_fence(xb_method_t *m);
/* The barrier this rank waits in was released (block's re-check). */
static inline bool xb_shm_node_pending(const xb_shm_t *st)
{
    /* atomic: block() reads them without the lock (MPI_THREAD_MULTIPLE) */
    return __atomic_load_n(&st->bar_waiting, __ATOMIC_RELAXED) &&
           __atomic_load_n(&st->node->gen, __ATOMIC_ACQUIRE) !=
               __atomic_load_n(&st->bar_gen, __ATOMIC_RELAXED);
}

/* shm_cma.c */
extern uint64_t xb_shm_cma_magic;
int  xb_shm_cma_setup(xb_shm_t *st);                 /* init: Yama, tunable  */
int  xb_shm_cma_check_peer(xb_shm_t *st, int pid, uint64_t addr);   /* ready */
int  xb_shm_cma_probe(const char **why);             /* fork-based, no job   */
int  xb_shm_cma_get(pid_t pid, const struct iovec *local, int local_cnt,
                    uint64_t remote_addr, size_t len);
int  xb_shm_cma_put(pid_t pid, const struct iovec *local, int local_cnt,
                    uint64_t remote_addr, size_t len);   /* process_vm_writev */
int  xb_shm_read_ptrace_scope(void);                 /* -1: no Yama          */

/* shm_help.c: single copy split between receiver and sender */
int  xb_shm_help_get(xb_ep_t *ep, const struct iovec *local, int local_cnt,
                     uint64_t remote_addr, size_t len);
void xb_shm_help_handle(xb_shm_t *st, xb_shm_in_t *in, const void *rec, size_t len);
/* The per-copy choice: ask local rank `peer` (the sender) to help local rank
 * `me` with a copy? ctl: the node's ctl blocks [nlocal]; ncpu: the CPUs the
 * node's ranks run on. True when the peer handles no records of its own
 * and, if the node has more ranks than CPUs, fewer ranks than CPUs (me
 * included) are handling records. */
bool xb_shm_help_wanted(const xb_shm_ctl_t *ctl, int nlocal, int me, int peer, int ncpu);

/* shm_method.c */
int  xb_shm_poll(xb_shm_t *st);
bool xb_shm_pending(xb_shm_t *st);
/* Under MULTIPLE: records wait in rx (read without the consumer's lock). */
bool xb_shm_ring_pending_mt(const xb_shm_rx_t *rx);

/* shm_chan.c: the lanes' channels (method.h send_am_chan ...) */
int  xb_shm_chan_setup(xb_shm_t *st);
void xb_shm_chan_fini(xb_shm_t *st);
int  xb_shm_chan_open(xb_ep_t *ep);
int  xb_shm_send_am_chan(xb_ep_t *ep, int chan, uint8_t am_id, const void *hdr,
                         size_t hdr_len, const xb_payload_t *pl);
int  xb_shm_progress_chan(xb_method_t *m, int chan);
void xb_shm_block_chan(xb_method_t *m, int chan, int timeout_ms);
/* Records wait on lane chan (0: on any lane) - block()'s re-check. */
bool xb_shm_chan_pending(xb_shm_t *st, int chan);

#endif
