/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rma_int.h - what the files of src/rma share: the window object, the wire
 * header of the one-sided active messages, the send queue, the origin-side
 * operation record, and the per-mode synchronisation state.
 *
 * Wire. Every one-sided message is one active message (id XB_RMA_AM) to the
 * target process through the peer's method, with an xb_rma_hdr_t header and
 * a payload of `nseg` target segments ({address, length}, relative to the
 * target window's base, absolute for a dynamic window) followed by data.
 * A message is self-contained: the target applies it in its handler (under
 * the progress lock, so accumulates are atomic per element with respect to
 * every other accumulate on that process) and answers with an ACK (put,
 * accumulate) or a REPLY carrying data (get, get_accumulate,
 * fetch_and_op, compare_and_swap). The origin counts the answers it still
 * expects per target; completion (flush, unlock, fence, complete, a request)
 * is that count reaching zero. See docs/design/rma.md.
 *
 * Threading: everything runs under the progress lock (the bindings' big
 * lock); waits go through xb_progress_wait_until, which drops it.
 */
#ifndef XB_RMA_INT_H
#define XB_RMA_INT_H

#include "rma/rma.h"
#include "core/attr.h"
#include "core/errhandler.h"
#include "core/op.h"
#include "method/method.h"
#include "progress/progress.h"

/* Error codes of this layer (negative MPI classes, as XB_ERR_*). */
enum {
    XB_RMA_ERR_WIN    = -MPI_ERR_WIN,
    XB_RMA_ERR_SYNC   = -MPI_ERR_RMA_SYNC,
    XB_RMA_ERR_RANGE  = -MPI_ERR_RMA_RANGE,
    XB_RMA_ERR_FLAVOR = -MPI_ERR_RMA_FLAVOR,
    XB_RMA_ERR_ATTACH = -MPI_ERR_RMA_ATTACH,
    XB_RMA_ERR_ASSERT = -MPI_ERR_ASSERT,
    XB_RMA_ERR_DISP   = -MPI_ERR_DISP,
    XB_RMA_ERR_SIZE   = -MPI_ERR_SIZE,
    XB_RMA_ERR_LOCKTYPE = -MPI_ERR_LOCKTYPE,
    XB_RMA_ERR_SHARED = -MPI_ERR_RMA_SHARED,
};

/* The active-message id (method.h gives rma 32..63). */
enum { XB_RMA_AM = 32 };
/* Window creation exchanges its table on the communicator's collective
 * context with this tag: low five bits 31, which no collective uses (coll
 * tags have kind + 1 <= 22 there, comm's helper tags 23 and 30). */
enum { XB_RMA_TAG = 0x7a5f };

typedef enum xb_rma_kind {
    XB_RMA_PUT = 1, XB_RMA_ACC, XB_RMA_GET, XB_RMA_GACC, XB_RMA_CAS,
    XB_RMA_ACK, XB_RMA_REPLY,
    XB_RMA_LOCK, XB_RMA_GRANT, XB_RMA_UNLOCK, XB_RMA_WAKE,
    XB_RMA_BARRIER, XB_RMA_POST, XB_RMA_COMPLETE,
} xb_rma_kind_t;

typedef struct xb_rma_hdr {
    uint32_t win_id;     /* the receiver's window id                     */
    uint8_t  kind;       /* xb_rma_kind_t                                */
    uint8_t  opk;        /* accumulate: xb_opk_t                         */
    uint16_t nseg;       /* segments at the start of the payload         */
    int32_t  src_rank;   /* sender's rank in the window's group          */
    int32_t  status;     /* answers: MPI error class of the target side  */
    uint64_t cookie;     /* origin's operation record (answers bring it) */
    uint64_t off;        /* packed offset of this fragment / an argument */
    uint64_t basic;      /* accumulate: the element's MPI_Datatype       */
} xb_rma_hdr_t;
_Static_assert(sizeof(xb_rma_hdr_t) <= XB_AM_HDR_MAX, "one AM header");

typedef struct xb_rma_seg {
    uint64_t addr;
    uint64_t len;
} xb_rma_seg_t;

/* What a peer told at window creation. */
typedef struct xb_rma_peer {
    uint64_t  base;       /* its base address (shared windows: mapping)  */
    MPI_Aint  size;
    int       disp_unit;
    uint32_t  win_id;     /* its id of this window                      */
} xb_rma_peer_t;

/* A waiting lock request at the target. */
typedef struct xb_rma_waiter {
    int rank;
    int type;             /* MPI_LOCK_SHARED / MPI_LOCK_EXCLUSIVE       */
} xb_rma_waiter_t;

/* An attached region of a dynamic window. */
typedef struct xb_rma_region {
    uintptr_t base;
    MPI_Aint  size;
} xb_rma_region_t;

enum { XB_LK_NONE = 0, XB_LK_WAIT = 1, XB_LK_HELD = 2 };
/* How a held lock was taken: by messages to the target's lock manager,
 * not at all (MPI_MODE_NOCHECK), or in the mapping's word (lock.c). */
enum { XB_LKH_MSG = 0, XB_LKH_NOCHECK, XB_LKH_WORD_SHARED, XB_LKH_WORD_EXCL };

/* A message that came before this process finished creating the window. */
typedef struct xb_rma_early {
    struct xb_rma_early *next;
    xb_rma_hdr_t         hdr;
    size_t               len;
    char                 data[];
} xb_rma_early_t;

struct xb_win {
    uint32_t         magic;      /* XB_RMA_MAGIC; XB_MAGIC_FREED after free */
    bool             ready;      /* creation done: peers known, memory set */
    xb_rma_early_t  *early, *early_tail; /* kept until ready, in order     */
    uint32_t         id;         /* slot | generation << 16                */
    MPI_Win          handle;
    xb_comm_t       *comm;       /* retained; its group is the window's    */
    int              rank, size;
    void            *base;
    MPI_Aint         wsize;
    int              disp_unit;
    int              flavor;     /* MPI_WIN_FLAVOR_*                       */
    int              model;      /* MPI_WIN_UNIFIED                        */
    bool             own_base;   /* MPI_Win_allocate: free(base)           */
    xb_rma_peer_t   *peers;      /* [size]                                 */
    xb_gpid_t       *gpid;       /* [size]                                 */
    /* origin side */
    int             *pending;    /* [size] answers still expected          */
    int              npending;
    int              err;        /* first target-side error (MPI class)    */
    int              err_rank;   /* ... and the target that reported it    */
    /* fence */
    bool             fence_open;
    /* passive target, origin side */
    uint8_t         *lk_state;   /* [size] XB_LK_*                         */
    uint8_t         *lk_how;     /* [size] XB_LKH_*: how it was taken      */
    int              nlocked;    /* targets in XB_LK_HELD/WAIT              */
    bool             lock_all;
    int              grant_wait; /* GRANT answers expected                   */
    /* passive target, target side */
    int              lk_excl;    /* rank holding it exclusively, or -1     */
    int              lk_shared;  /* shared holders                         */
    xb_rma_waiter_t *lk_queue;
    int              lk_nq, lk_capq;
    /* generalized active target */
    xb_group_t      *start_grp;  /* access epoch (MPI_Win_start)           */
    int             *start_rank; /* [start_grp->size] window ranks         */
    bool             start_nocheck;
    xb_group_t      *post_grp;   /* exposure epoch (MPI_Win_post)          */
    int             *post_seen;  /* [size] POSTs received, not yet used    */
    int              completes;  /* COMPLETEs received                     */
    /* barrier (fence, free) */
    int              bar_cnt[2][32];
    unsigned         bar_seq;
    /* dynamic windows */
    xb_rma_region_t *regions;
    int              nregions, capregions;
    /* shared windows */
    void            *shm_map;    /* the whole node mapping (munmap)        */
    size_t           shm_len;
    size_t          *shm_off;    /* [size] offset of each rank's part      */
    void            *lk_lines;   /* the parts' lock lines: shm_map's first
                                    bytes, or (an MPI_Win_create window of
                                    one node) a mapping of their own       */
    size_t           lk_len;     /* that own mapping's length, else 0      */
    /* objects */
    xb_errhandler_t *errh;
    struct xb_info  *info;
    xb_attr_t       *attrs;
    char             name[MPI_MAX_OBJECT_NAME];
    /* attribute values (MPI_WIN_SIZE ... point at these) */
    MPI_Aint         attr_size;
    int              attr_disp_unit, attr_flavor, attr_model;
};

enum { XB_RMA_MAGIC = 0x58425739u };

/* ---- window table and AM dispatch (win_table.c) ------------------------- */
int       xb_rma_table_add(xb_win_t *w);
void      xb_rma_table_remove(xb_win_t *w);
xb_win_t *xb_rma_table_get(uint32_t id);
/* The window rank of a world process (-1 when not a member). */
int       xb_rma_rank_of(const xb_win_t *w, xb_gpid_t g);

/* ---- sending (rma_send.c) ------------------------------------------------ */
/* Send a header and payload (copied) to window rank `to`, in order behind
 * whatever is queued. XB_OK or an error (detail recorded). */
int  xb_rma_send(xb_win_t *w, int to, xb_rma_hdr_t *h, const void *pl, size_t len);
/* A message whose payload the caller fills: xb_rma_msg_new, write into
 * xb_rma_msg_data, then xb_rma_msg_send (which owns it from then on). */
typedef struct xb_rma_msg xb_rma_msg_t;
xb_rma_msg_t *xb_rma_msg_new(size_t len);
void         *xb_rma_msg_data(xb_rma_msg_t *m);
xb_rma_hdr_t *xb_rma_msg_hdr(xb_rma_msg_t *m);
int  xb_rma_msg_send(xb_gpid_t peer, xb_rma_msg_t *m);
int  xb_rma_send_init(void);
void xb_rma_send_fini(void);
/* Wait until *count <= 0 (a counter answers decrement). */
int  xb_rma_wait_zero(const int *count, const char *what);
/* The window's barrier (fence, free): dissemination over RMA messages. */
int  xb_rma_barrier(xb_win_t *w);
void xb_rma_barrier_arrived(xb_win_t *w, const xb_rma_hdr_t *h);

/* ---- target side (rma_target.c) --------------------------------------- */
void xb_rma_am_handler(xb_gpid_t src, const void *hdr, size_t hdr_len,
                       const void *payload, size_t len);
/* The window is created here: handle the messages that came before. */
void xb_rma_set_ready(xb_win_t *w);
void xb_rma_drop_early(xb_win_t *w);
/* Address of [addr, addr+len) of the window at this process, or NULL
 * (dynamic window: not inside an attached region). */
void *xb_rma_target_ptr(xb_win_t *w, uint64_t addr, uint64_t len);

/* ---- origin side (rma_ops.c, rma_issue.c) -------------------------------- */
/* One operation as the origin describes it. */
typedef struct xb_rma_xfer {
    int            kind;     /* XB_RMA_PUT ... XB_RMA_CAS                 */
    xb_opk_t       opk;
    MPI_Datatype   basic;    /* accumulates: the element type             */
    size_t         es;       /* its size (1 otherwise)                    */
    const void    *src;      /* data sent: put, accumulates               */
    MPI_Count      scount;
    xb_datatype_t *sdt;      /* NULL: send zeros (MPI_NO_OP)              */
    void          *dst;      /* data answered: get, get_accumulate        */
    MPI_Count      dcount;
    xb_datatype_t *ddt;
    const void    *cmp;      /* compare_and_swap: compare element         */
    int            target;
    MPI_Aint       disp;
    MPI_Count      tcount;
    xb_datatype_t *tdt;
} xb_rma_xfer_t;
/* Send x as messages; with req_p, a request completed by the last answer
 * (MPI_Rput ...). */
int  xb_rma_issue(xb_win_t *w, const xb_rma_xfer_t *x, xb_request_t **req_p);
/* A request that is complete already (MPI_PROC_NULL, nothing to move). */
int  xb_rma_done_request(xb_request_t **req_p);
/* Can an RMA call reach `target` now? XB_OK or XB_RMA_ERR_SYNC. */
int  xb_rma_check_epoch(xb_win_t *w, int target, const char *what);
void xb_rma_answer(xb_win_t *w, const xb_rma_hdr_t *h, const void *pl, size_t len);
/* Wait until nothing is pending to target (-1: to anyone); returns the
 * window's recorded target-side error if any. */
int  xb_rma_flush(xb_win_t *w, int target);

/* ---- synchronisation (fence.c, pscw.c, lock.c) ---------------------------- */
void xb_rma_lock_arrived(xb_win_t *w, const xb_rma_hdr_t *h);
void xb_rma_pscw_arrived(xb_win_t *w, const xb_rma_hdr_t *h);
/* Send a header-only control message. */
int  xb_rma_ctl(xb_win_t *w, int to, int kind, uint64_t arg);

/* ---- objects (win_create.c) --------------------------------------------- */
/* A window over comm with this process's memory, in the table, its peers
 * known (collective). Nothing is left on failure. Not ready yet: the
 * caller calls xb_rma_set_ready once the window's memory is in place
 * (messages that arrive before are kept). */
int  xb_rma_win_new(xb_comm_t *comm, void *base, MPI_Aint size, MPI_Aint disp_unit,
                    int flavor, struct xb_info *info, xb_win_t **w_p);
int  xb_rma_check_comm(xb_comm_t *comm);
int  xb_rma_check_size(MPI_Aint size, MPI_Aint disp_unit);
void xb_rma_win_destroy(xb_win_t *w);
/* Shared windows (win_shared.c): undo the node mapping, if any. */
void xb_rma_shared_unmap(xb_win_t *w);
/* A mapped window's accumulate lock of part r, a word of the mapping (its
 * first XB_RMA_LOCK_STRIDE * size bytes, before the parts): every
 * accumulate, get_accumulate and compare_and_swap on the part holds it,
 * whether its origin applies it (rma_issue.c) or the target does
 * (rma_target.c), so they stay atomic with respect to one another. Held
 * for a few copies and a kernel only; a waiter yields after a short spin. */
enum { XB_RMA_LOCK_STRIDE = 64 };
void xb_rma_part_lock(const xb_win_t *w, int r);
void xb_rma_part_unlock(const xb_win_t *w, int r);
/* The same line of part r also holds the MPI_Win_lock state of a window of
 * at most 64 processes with lock lines (lock.c): a word (XB_RMA_EPOCH_EXCL,
 * or the number of shared holders) and the mask of the window ranks that
 * wait for it (bit = rank). A mapped window has the lines in its mapping;
 * an MPI_Win_create window whose processes all run on this node gets a
 * mapping of lock lines only (xb_rma_lock_lines: collective, on every
 * member or on none). */
enum { XB_RMA_EPOCH_MAX = 64 };
#define XB_RMA_EPOCH_EXCL (1u << 31)
uint32_t *xb_rma_epoch_word(const xb_win_t *w, int r);
uint64_t *xb_rma_epoch_waiters(const xb_win_t *w, int r);
void xb_rma_lock_lines(xb_win_t *w);
/* MPI_Win_allocate on one node: every part in one shared mapping (base,
 * shm_map and shm_off set) and true on every member, or false on every
 * member with nothing mapped (the caller allocates privately). Collective
 * over the window's communicator; the window is not ready yet. */
bool xb_rma_allocate_on_node(xb_win_t *w);
bool xb_rma_valid_assert(int a, int allowed);

#endif
