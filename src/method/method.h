/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * method.h - THE transport interface.
 *
 * A method moves bytes between processes and calls handlers; it never matches
 * messages, and knows nothing of communicators, tags or datatypes. It sees
 * global process ids (xb_gpid_t), protocol headers (opaque bytes owned by the
 * upper layer) and payloads (an iovec list or a pack callback).
 *
 * Lifecycle (driven by src/runtime/init.c, undone in reverse by finalize):
 *   1. init(m, rt)        local setup; may fail with a reason (method is then
 *                         "off" and crossbar-info prints why).
 *   2. addr_pack(m, ...)  the method's address blob; the runtime publishes the
 *                         blobs of all methods of a rank under one PMI key.
 *   3. runtime fence (PMI barrier), then ready(m): peers' blobs can be read
 *                         with xb_rt_peer_addr(); shm maps the node segment.
 *   4. the peer table picks a method for each peer with reachable(), in the
 *      ordered rule self > shm > tcp (XB_METHODS restricts/reorders).
 *   5. ep_open() lazily, on first send to a peer.
 *   6. send_am / get / progress during the job.
 *   7. fini(m) after the final barrier of MPI_Finalize.
 *
 * Threading: every op is called with the progress context's lock held (issue
 * 2: a single context). Methods take no locks of their own on the data path.
 *
 * Ownership: the header and payload of send_am belong to the caller again as
 * soon as send_am returns XB_OK (the method copied them). XB_INPROGRESS means
 * the method still uses the payload memory and calls done->cb later.
 * XB_ERR_AGAIN means nothing was sent: the caller keeps the operation on its
 * per-peer pending queue (preserving order) and retries after progress.
 *
 * Receive side: a method hands every arriving active message to the handler
 * registered for its am_id (xb_am_register). The payload pointer is valid only
 * during the handler call. Handlers may call send_am (e.g. to answer with a
 * CTS); a method must therefore tolerate re-entry from its own progress.
 */
#ifndef XB_METHOD_H
#define XB_METHOD_H

#include <sys/uio.h>
#include "util/xb_common.h"

struct xb_rt_info;

/* ---- active messages --------------------------------------------------- */

/* Ids are owned by upper layers; pt2pt uses 1..15, coll 16..31, rma 32..63. */
enum { XB_AM_MAX = 64, XB_AM_HDR_MAX = 64 };
/* Headers of at least this many bytes (and at most XB_AM_HDR_MAX) are copied
 * into the shm ring without a memcpy call: pt2pt's is (proto.h). */
enum { XB_AM_HDR_INLINE_MIN = 32 };

typedef void (*xb_am_handler_t)(xb_gpid_t src, const void *hdr, size_t hdr_len,
                                const void *payload, size_t len);
int  xb_am_register(uint8_t am_id, xb_am_handler_t handler);
/* Called by methods: dispatch one arrived message to its handler. */
void xb_am_dispatch(uint8_t am_id, xb_gpid_t src, const void *hdr, size_t hdr_len,
                    const void *payload, size_t len);
/* Batches. A method's poll takes at most xb_am_batch records of one
 * inbound queue per call: XB_AM_BATCH, so that one busy peer cannot starve
 * the others. A handler that completed what a caller blocks on (pt2pt: a
 * blocking receive, XB_REQ_F_WAITED) calls xb_am_yield(): the batch ends
 * after that record, the method restores xb_am_batch and returns, and the
 * records left wait in the method's own queue (the shm ring) for the next
 * poll, instead of going into the unexpected queue while nobody waits for
 * them (a copy in, a copy out and a malloc above 256 bytes each). The
 * batch limit is compared with the records taken so far anyway, so the
 * stop costs the loop nothing per record. Relaxed atomic accesses: under
 * MULTIPLE lane pollers may yield concurrently; a stale 0 only ends one
 * later batch early. */
enum { XB_AM_BATCH = 64 };
extern int xb_am_batch;
static inline void xb_am_yield(void) { __atomic_store_n(&xb_am_batch, 0, __ATOMIC_RELAXED); }
/* Optional, per id: where the payload of an arriving message may land. A
 * method that reads a large payload from a byte stream (tcp) asks once the
 * header is in, before it reads the payload: non-NULL is `len` contiguous
 * bytes of the owner's memory that it then reads the payload into, and
 * the handler gets that pointer as its payload (it must not copy it onto
 * itself); NULL: the method's own buffer. Called under the progress lock;
 * the memory must stay valid until the handler has run. */
typedef void *(*xb_am_place_t)(xb_gpid_t src, const void *hdr, size_t hdr_len, size_t len);
int   xb_am_register_place(uint8_t am_id, xb_am_place_t place);
void *xb_am_place(uint8_t am_id, xb_gpid_t src, const void *hdr, size_t hdr_len, size_t len);

/* ---- payload and completion ------------------------------------------ */

/* Pack callback: write up to `max` bytes of the message, starting at byte
 * `offset` of its packed form, into dst; return the number written. */
typedef size_t (*xb_pack_fn_t)(void *arg, size_t offset, void *dst, size_t max);

typedef struct xb_payload {
    const struct iovec *iov;      /* either iov/iovcnt ...                  */
    int                 iovcnt;
    xb_pack_fn_t        pack;     /* ... or pack/pack_arg (iov == NULL)     */
    void               *pack_arg;
    size_t              offset;   /* pack: first byte of the packed form    */
    size_t              len;      /* total payload bytes of this message    */
} xb_payload_t;

typedef struct xb_am_done {
    void (*cb)(struct xb_am_done *d, int status);
} xb_am_done_t;

/* ---- capabilities ------------------------------------------------------ */

enum {
    XB_METHOD_CAP_GET   = 1u << 0,  /* get(): single copy from peer memory */
    XB_METHOD_CAP_SLEEP = 1u << 1,  /* block(): can sleep until an event   */
    /* progress() costs a syscall (sockets): the registry polls it every Nth
     * call or when the cheap methods are idle (method.c, XB_TCP_POLL_*). */
    XB_METHOD_CAP_POLL_COSTLY = 1u << 2,
    /* send_am may answer XB_OK for a copy it queued: the bytes leave only
     * in a later progress() (tcp, when the socket is full or not yet up).
     * A request-free send (xb_pt2pt_send_eager_now), which counts as
     * complete at once, must not use such a method: the rank could then
     * sit in a PMI fence or compute with its peer's message in its queue. */
    XB_METHOD_CAP_QUEUES = 1u << 3,
};

typedef struct xb_method_caps {
    size_t   eager_max;   /* largest payload for the eager protocol (tunable) */
    size_t   frag_max;    /* largest payload of one send_am                    */
    size_t   get_min;     /* smallest message worth a get() (tunable)          */
    unsigned flags;       /* XB_METHOD_CAP_*                                   */
} xb_method_caps_t;

typedef struct xb_method xb_method_t;
typedef struct xb_ep xb_ep_t;     /* opaque, defined by each method */

typedef struct xb_method_ops {
    const char *name;   /* "self", "shm", "tcp" */
    /* Local setup. On failure return <0 and set *why (static string). */
    int  (*init)(xb_method_t *m, const struct xb_rt_info *rt, const char **why);
    void (*fini)(xb_method_t *m);
    int  (*addr_pack)(xb_method_t *m, void *buf, size_t *len_p); /* in: cap */
    int  (*ready)(xb_method_t *m);                   /* after the PMI fence */
    bool (*reachable)(xb_method_t *m, xb_gpid_t peer);
    int  (*ep_open)(xb_method_t *m, xb_gpid_t peer, xb_ep_t **ep_p);
    void (*ep_close)(xb_ep_t *ep);
    /* Never blocks. Returns XB_OK, XB_INPROGRESS (done->cb later) or
     * XB_ERR_AGAIN (queue it). hdr_len <= XB_AM_HDR_MAX,
     * pl->len <= caps.frag_max. pl may be NULL for a header-only message. */
    int  (*send_am)(xb_ep_t *ep, uint8_t am_id, const void *hdr, size_t hdr_len,
                    const xb_payload_t *pl, xb_am_done_t *done);
    /* Optional (NULL if absent). Copy `len` bytes at remote_addr in the peer
     * into the local iovec. XB_OK when done; negative error if the kernel
     * refused (the caller falls back to the pipelined protocol). */
    int  (*get)(xb_ep_t *ep, const struct iovec *local, int local_cnt,
                uint64_t remote_addr, size_t len);
    /* Optional (NULL if absent): get()'s mirror, the local iovec's `len`
     * bytes copied to remote_addr in the peer (one-sided MPI_Put on a
     * window of the user's memory). Same returns; available where get() is
     * (process_vm_writev asks the kernel for the same permission). */
    int  (*put)(xb_ep_t *ep, const struct iovec *local, int local_cnt,
                uint64_t remote_addr, size_t len);
    /* Poll for arrivals; returns the number of events handled (>= 0). */
    int  (*progress)(xb_method_t *m);
    /* Optional. Sleep until a message may have arrived for this process, or
     * timeout_ms passed. Returns at once if something is already pending.
     * Senders wake a sleeping peer (futex/eventfd), never the other way. */
    void (*block)(xb_method_t *m, int timeout_ms);
    /* Optional: make a block() of this process return now (another thread
     * of the process completed something; MPI_THREAD_MULTIPLE). Under
     * MULTIPLE, block() runs without the lock and must only sleep: it may
     * not move messages (the next progress(), under the lock, does). */
    void (*wake)(xb_method_t *m);
    /* Optional: the barrier of all local ranks of the job on this node
     * (shm: through its segment). arrive() counts this process in and
     * returns a ticket; released(ticket) is true once every local rank has
     * arrived. While a ticket is out, block() returns when it is released.
     * One barrier at a time per process. wait false: the caller counts
     * itself in and will not ask (it knows otherwise that the others
     * arrive before its next arrival: coll's xb_coll_node_pass), so no
     * ticket stays out. */
    uint32_t (*node_arrive)(xb_method_t *m, bool wait);
    bool     (*node_released)(xb_method_t *m, uint32_t ticket);
    /* Optional, with the node barrier: scratch memory every local rank maps,
     * for collectives of all local ranks: the slot of local rank `local`
     * (an index into xb_rt()->local_ranks) in area `area`, *size bytes;
     * NULL when there is none. Areas 0 and 1 are the parities of the node
     * collectives (src/coll/node_shm.c: a node barrier between any two
     * uses of one), area 2 holds the channels of the nonblocking ones
     * (src/coll/node_nb.c). Whoever writes a slot must be sure its readers
     * are done. */
    void    *(*node_slot)(xb_method_t *m, int area, int local, size_t *size);
    /* Optional, with node_slot: wake local rank `local` if it sleeps in
     * block(). For collectives that wait on flags in the slots
     * (src/coll/node_flow.c): the writer stores its flag, issues a seq_cst
     * fence, then calls this; the sleeper's block() re-checks the node
     * watch (xb_method_set_node_watch) after announcing its sleep. */
    void     (*node_wake)(xb_method_t *m, int local);
    /* Optional, with node_wake: a word that is not 0 while local rank
     * `local` may sleep in block() (what node_wake itself reads after the
     * writer's fence), valid from ready() to fini(); NULL: none, ask
     * node_wake every time. The layer reads it after the fence and skips
     * the node_wake call when it is 0 (a writer wakes up to 7 readers per
     * call of a small collective). */
    const uint32_t *(*node_sleep_word)(xb_method_t *m, int local);
    /* Optional, with node_wake: the writer's fence before it looks at the
     * sleepers (shm: a compiler barrier when sleepers issue membarrier,
     * the asymmetric scheme of shm_wait.c; else a seq_cst fence). */
    void     (*node_fence)(xb_method_t *m);
    /* Optional: true when a peer that is awake last ran on the CPU this
     * process runs on now, so a spinning wait would keep it from running
     * (shm: the CPUs the local ranks publish in the segment). Cheap enough
     * for every few dozen polls; may be wrong when a peer has migrated. */
    bool     (*crowded)(xb_method_t *m);
    /* Optional: a communicator hint (info key, value) about this peer, from
     * MPI_Comm_set_info or a communicator made with info. Unknown keys are
     * ignored (XB_OK); a value the method cannot use is XB_ERR_ARG. */
    int      (*peer_hint)(xb_method_t *m, xb_gpid_t peer, const char *key, const char *value);
    /* Optional: channels 1..xb_mt_nlanes for the lanes of several progress
     * contexts (docs/design/threads.md "Progress contexts"), separate from
     * the main channel that send_am/progress/block use. Under MULTIPLE,
     * channel c is used only by a holder of lane c's lock (or of all):
     * send_am_chan and progress_chan of different channels run at the
     * same time. chan_open makes ep ready for every channel (called under
     * all the locks, before any lane uses ep). block_chan sleeps like
     * block, waking for channel c's arrivals (and any wake()). */
    int      (*chan_open)(xb_ep_t *ep);
    int      (*send_am_chan)(xb_ep_t *ep, int chan, uint8_t am_id, const void *hdr,
                             size_t hdr_len, const xb_payload_t *pl);
    int      (*progress_chan)(xb_method_t *m, int chan);
    void     (*block_chan)(xb_method_t *m, int chan, int timeout_ms);
} xb_method_ops_t;

struct xb_method {
    const xb_method_ops_t *ops;
    xb_method_caps_t       caps;
    void                  *priv;     /* method state */
    bool                   enabled;  /* init succeeded and not excluded */
    const char            *why_off;  /* reason when !enabled */
};

/* ---- registry and peer table (src/method/method.c, peer.c) ------------- */

int  xb_method_init_all(const struct xb_rt_info *rt);  /* init + addr publish */
int  xb_method_ready_all(void);                        /* after the fence     */
void xb_method_fini_all(void);
int  xb_method_count(void);
xb_method_t *xb_method_get(int idx);
/* Poll every enabled method (cheap ones each call). Returns events handled. */
int  xb_method_progress_all(void);
/* The same, called by the main context's poll when lanes exist. */
int  xb_method_progress_main(void);
/* A costly method (tcp) sent or queued something: poll it at its short
 * period again (replies are expected), see method.c. */
void xb_method_costly_active(void);
/* The next poll looks at the costly methods too: after a sleep that could
 * not poll them (MPI_THREAD_MULTIPLE sleeps without the lock, in the cheap
 * method only), as the single-threaded mixed sleep does after each slice.
 * Without it a quiet tcp was polled once per XB_TCP_POLL_QUIET sleeps
 * (about 1.2 s at 1 ms a slice: processes of another job, reached by tcp
 * only, waited that long for each answer). */
void xb_method_costly_due(void);
/* Sleep until woken or timeout: in the one method in use that can sleep;
 * with several (shm and tcp), in the cheap one in short slices. */
void xb_method_block(int timeout_ms);
/* While > 0, the data of the receives under way is an operand that this
 * rank reads at once (a reduction's, src/coll/pair.c): a method then
 * copies it with this CPU only. shm asks no help of the sender
 * (shm_help.c), which would write half of it from the other CPU, whose
 * cache the op would then read: 2 ranks, MPI_Reduce of 256 KiB, 32.5 us
 * with help, 19.5 without (2026-11-24). A count, raised and lowered
 * around the receive by one thread (MULTIPLE: under the lock). */
extern int xb_method_operand;
/* While > 0, the receive under way is one side of an exchange: this rank
 * has a single-copy send of its own to the same sender in flight (pt2pt:
 * its FIN has not come), so the sender has a copy of its own to make (ours)
 * at about the same time and its CPU is not idle. shm then asks no help of
 * that sender (shm_help.c, "When to ask"). Raised and lowered around the
 * get by pt2pt, as xb_method_operand. */
extern int xb_method_exchange;
/* Sleep until the network has something (tcp, or the descriptor fd when
 * fd >= 0: the multicast socket) or timeout_ms passed, for a wait whose
 * event comes from another node (the head stage of a collective): the
 * shm-and-tcp sleep above notices tcp only between its futex slices, up to
 * a slice late. Shared-memory arrivals are not seen until the timeout. */
void xb_method_block_net(int fd, int timeout_ms);
/* A waiting rank's CPU is shared with a peer that has work (crowded above,
 * of any enabled method): the wait should yield the CPU between polls. */
bool xb_method_crowded(void);
/* Wake this process's thread that sleeps in xb_method_block (another thread
 * completed a request); can_wake: the sleeping method has a wake(). */
void xb_method_wake(void);
bool xb_method_can_wake(void);
/* The node barrier (node_arrive above) of the first enabled method that has
 * one; without one the caller uses a message-based barrier. */
bool     xb_method_has_node_barrier(void);
uint32_t xb_method_node_arrive(bool wait);
void    *xb_method_node_slot(int area, int local, size_t *size);
bool     xb_method_node_released(uint32_t ticket);
/* Wake local rank `local` if it sleeps (node_wake above; no-op without),
 * after xb_method_node_fence() (node_fence above; a seq_cst fence without). */
void     xb_method_node_wake(int local);
void     xb_method_node_fence(void);
/* The upper layer's check of what it waits on in node memory (coll: a flag
 * of a node collective), registered once at init: block() re-checks it
 * after announcing its sleep and does not sleep when it is true, so a
 * writer's node_wake() is never lost. NULL: none. */
void     xb_method_set_node_watch(bool (*ready)(void));
bool     xb_method_node_watch(void);

typedef struct xb_peer {
    xb_ep_t *ep;        /* NULL until first use (lazy open)                */
    uint8_t  method;    /* index into the registry, fixed at selection     */
    uint8_t  state;     /* XB_PEER_UNKNOWN / READY / FAILED                */
    uint16_t pad;
    uint32_t node;      /* dense node index from the launcher              */
} xb_peer_t;
_Static_assert(sizeof(xb_peer_t) <= 16, "one per process in the job: keep it small");
enum { XB_PEER_UNKNOWN = 0, XB_PEER_READY = 1, XB_PEER_FAILED = 2 };

/* Send an active message to a peer through its method (opens the endpoint on
 * first use). Same return contract as send_am. */
int  xb_method_send(xb_gpid_t peer, uint8_t am_id, const void *hdr, size_t hdr_len,
                    const xb_payload_t *pl, xb_am_done_t *done);
int  xb_method_send_lane(int chan, xb_gpid_t peer, uint8_t am_id, const void *hdr,
                         size_t hdr_len, const xb_payload_t *pl);
/* The same on channel chan (0: the main one, as xb_method_send; a lane:
 * xb_method_send_lane in chan.c, whose copy is always made at once). */
static inline int xb_method_send_chan(int chan, xb_gpid_t peer, uint8_t am_id,
                                      const void *hdr, size_t hdr_len,
                                      const xb_payload_t *pl, xb_am_done_t *done)
{
    if (XB_LIKELY(chan == 0))
        return xb_method_send(peer, am_id, hdr, hdr_len, pl, done);
    return xb_method_send_lane(chan, peer, am_id, hdr, hdr_len, pl);
}
/* Counters that MPI_T shows as performance variables (src/mpit): active
 * messages handed to each method (by registry index, xb_method_get) and
 * their payload bytes, counted in xb_method_send when the method took the
 * message (a back-pressured one is counted when it is sent again), and the
 * active messages that arrived through it (xb_am_dispatch_from, method_int.h).
 * Plain increments under the progress lock; never reset; outlive
 * MPI_Finalize. */
typedef struct xb_method_stats {
    uint64_t am_sent;
    uint64_t am_bytes;
    uint64_t am_recv;        /* arrived and handed to their handler */
    uint64_t am_recv_bytes;
} xb_method_stats_t;
extern xb_method_stats_t xb_method_stats[];
/* The method serving a peer (for caps and get). */
xb_method_t *xb_peer_method(xb_gpid_t peer);
int  xb_peer_ep(xb_gpid_t peer, xb_ep_t **ep_p);
/* Human-readable rule and choice, e.g. "rank 3: shm (same node 0)". */
int  xb_peer_describe(xb_gpid_t peer, char *buf, size_t len);
/* Hand a communicator hint about peer to the method serving it (XB_OK when
 * the method has no use for it). */
int  xb_method_peer_hint(xb_gpid_t peer, const char *key, const char *value);

/* ---- channels of the lanes (chan.c; docs/design/threads.md) ----------- */
/* Prepare peer for lane traffic: 1 when its method has channels (the
 * endpoint is then open), 0 when it has none (tcp), or an error. Called
 * under all the locks (communicator creation). */
int  xb_method_chan_ready(xb_gpid_t peer);
/* send_am on channel chan (0: xb_method_send). Same contract, except that
 * a lane's copy is always made at once (never XB_INPROGRESS). */
/* Poll / sleep on lane chan >= 1 only. */
int  xb_method_progress_chan(int chan);
void xb_method_block_chan(int chan, int timeout_ms);

/* ---- processes of other jobs (src/dpm, through peer.c) ----------------- */
/* The peer table starts with the processes of COMM_WORLD (gpid = world
 * rank). MPI_Comm_connect/accept/join and spawn add processes of other
 * jobs after them: gpid = world size + i, in the order this process learnt
 * of them, so the numbers differ from one process to the next and never
 * travel between processes; what travels is the xb_proc_id_t (the job's
 * key, the same in all its processes, and the rank in that job) with the
 * tcp address. Such peers are served by tcp only (their shm segment is
 * not mapped here). The hot path is unchanged: a gpid past the world is
 * an index into the same table. Entries stay until finalize.
 * Threading: under the progress lock, never from a method's progress (a
 * handler must not add peers: the table moves when it grows). */
typedef struct xb_proc_id {
    uint64_t job;       /* hash of the job secret (tcp), the job's name   */
    uint32_t rank;      /* rank in its own COMM_WORLD                     */
    uint32_t pad;
} xb_proc_id_t;

enum { XB_PEER_DESC_TCP_MAX = 256, XB_PEER_NODE_FOREIGN = 0xffffffffu };
typedef struct xb_peer_desc {    /* what another job needs to reach me */
    xb_proc_id_t id;
    uint32_t     tcp_len;
    uint32_t     pad;
    uint8_t      tcp[XB_PEER_DESC_TCP_MAX];   /* tcp address blob + secret */
} xb_peer_desc_t;

/* This process's description (fills *len_p = sizeof(xb_peer_desc_t));
 * an error naming the reason when tcp is off. */
int  xb_peer_self_desc(void *buf, size_t *len_p);
/* The gpid of the process a description names, added to the table when it
 * is new (a process of this job maps to its world rank). */
int  xb_peer_add_desc(const void *desc, size_t len, xb_gpid_t *gpid_p);
/* The universal id of a gpid (for orders both jobs agree on). */
int  xb_peer_id(xb_gpid_t g, xb_proc_id_t *id);
/* The gpid rank of a known process of another job, or -1 (tcp's accept). */
int  xb_peer_find_foreign(uint64_t job, uint32_t rank);
/* Upper layers with per-peer arrays (pt2pt) register at init a function
 * that makes them hold n peers; called before a new peer is used. */
typedef int (*xb_peer_grow_fn_t)(int n);
struct sockaddr_storage;
/* The addresses (port included) tcp listens on, for a port name that other
 * jobs can reach: the count, at most max; 0 when tcp is off. */
int  xb_method_contact_addrs(struct sockaddr_storage *out, int max);
void xb_peer_on_grow(xb_peer_grow_fn_t fn);


/* ---- crossbar-info (appended for issue 2) ------------------------------- */

/* Availability of registry method idx on this machine WITHOUT a job (call
 * after xb_tunables_init() only): XB_OK, or <0 with *why set to a static
 * reason ("excluded by XB_METHODS", "memfd_create: Function not
 * implemented"). */
int  xb_method_probe(int idx, const char **why);
/* One line per method: on/off and why, caps and effective tunables, e.g.
 *   "shm: on (eager_max=16384 ...); ring=65536 B, single-copy: off, ptrace_scope=2"
 * preceded by the peer rule. Inside a job it reports the live state; before
 * init it probes. Returns XB_OK (text truncated to len). */
int  xb_method_describe_all(char *buf, size_t len);

#endif
