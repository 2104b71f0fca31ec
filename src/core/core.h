/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * core.h - passive MPI objects and their handles (no communication here).
 *
 * Handles follow the MPI 5.0 standard ABI: a handle is a pointer to an
 * incomplete struct. Predefined handles are the standard's small integer
 * constants (MPI_COMM_WORLD == 0x101, MPI_INT == 0x209, ...): every handle
 * value below XB_HANDLE_PREDEF_LIMIT is resolved through a table, every
 * other value is a pointer to our object, whose first word is a magic number
 * naming its kind (checked on every resolution, and cleared on free so a
 * freed handle is reported as such instead of being used).
 *
 * Every kind K offers the same pair (the binding generator relies on the
 * names):
 *     xb_K_t *xb_K_from_handle(MPI_K h);   NULL if null/invalid/freed
 *     MPI_K   xb_K_to_handle(xb_K_t *obj);
 * for K in comm, group, datatype (src/datatype), op, errhandler, request
 * (src/core/request.h), info, message.
 *
 * Reference counts only where MPI semantics need them (comm, group,
 * datatype, op, errhandler): an object lives while the user holds its handle
 * or a pending operation uses it.
 */
#ifndef XB_CORE_H
#define XB_CORE_H

#include <stdatomic.h>
#include "util/xb_common.h"

#define XB_HANDLE_PREDEF_LIMIT 0x1000u
static inline bool xb_handle_is_predef(const void *h)
{
    return (uintptr_t)h < XB_HANDLE_PREDEF_LIMIT;
}

enum xb_magic {
    XB_MAGIC_COMM = 0x58424331u, XB_MAGIC_GROUP = 0x58424732u,
    XB_MAGIC_DTYPE = 0x58424433u, XB_MAGIC_OP = 0x58424f34u,
    XB_MAGIC_ERRH = 0x58424535u, XB_MAGIC_REQ = 0x58425236u,
    XB_MAGIC_INFO = 0x58424937u, XB_MAGIC_MSG = 0x58424d38u,
    XB_MAGIC_FREED = 0xdeadbeefu,
};

/* ---- groups ------------------------------------------------------------ */
typedef struct xb_group {
    uint32_t magic;
    int      refcount;
    int      size;
    int      rank;        /* my rank in the group, or MPI_UNDEFINED      */
    int     *world;       /* [size] world rank of each member; NULL means
                             identity (member i is world rank i)          */
    struct xb_bbuf *session_bbuf; /* MPI_Group_from_session_pset: the
                             session's buffer slot (retained), else NULL  */
} xb_group_t;

static inline xb_gpid_t xb_group_gpid(const xb_group_t *g, int r)
{
    return (xb_gpid_t)(g->world != NULL ? g->world[r] : r);
}

/* ---- errhandlers ------------------------------------------------------- */
typedef struct xb_errhandler xb_errhandler_t;  /* src/core/errhandler.c */

/* ---- buffer slots for buffered sends (MPI 4.1 attached buffers) ---------
 * One slot per owner: the process (MPI_Buffer_attach), a communicator
 * (MPI_Comm_attach_buffer), a session (MPI_Session_attach_buffer). A slot
 * is reference counted: its owner holds one reference, every communicator
 * (and session group) that uses a session's slot one, and every buffered
 * message in flight one, so a message that completes after its owner went
 * still finds its slot. The engine that places messages in the buffer is
 * src/pt2pt/bsend.c; the slot is passive data. */
typedef struct xb_bbuf {
    int                refs;
    void              *base;      /* NULL: nothing attached;
                                     MPI_BUFFER_AUTOMATIC: malloc per message */
    size_t             size;
    struct xb_bblk    *blocks;    /* messages in flight, sorted by offset   */
    atomic_uint        empty;     /* 1 when no message is in flight         */
    struct xb_request *flushes;   /* MPI_*iflush_buffer requests waiting    */
} xb_bbuf_t;

/* A new slot with one reference and nothing attached; NULL on no memory
 * (detail recorded). */
xb_bbuf_t *xb_bbuf_new(void);
static inline xb_bbuf_t *xb_bbuf_retain(xb_bbuf_t *b)
{
    if (b != NULL)
        b->refs++;
    return b;
}
void xb_bbuf_release(xb_bbuf_t *b);   /* NULL: no-op; frees at zero */

/* ---- communicators ----------------------------------------------------- */
/* Context ids: each communicator owns a pair, ctx (pt2pt) and ctx + 1
 * (collectives), so collective traffic never matches user receives. */
typedef struct xb_comm {
    uint32_t         magic;
    int              refcount;    /* the user's handle, and every request,
                                     message or pending idup using it      */
    bool             user_freed;  /* MPI_Comm_free done; requests keep the
                                     object (and its context id) alive     */
    uint8_t          chan;        /* channel of its point-to-point traffic:
                                     0 main, k lane k (comm/comm_chan.c)   */
    uint32_t         ctx;         /* even; ctx + 1 is the collective context */
    int              rank;        /* my rank in the (local) group            */
    int              size;        /* size of the (local) group               */
    xb_group_t      *group;       /* local group                             */
    xb_group_t      *remote;      /* intercommunicators (later); else NULL   */
    xb_errhandler_t *errh;
    MPI_Comm         handle;      /* what the user sees                      */
    uint32_t         coll_seq;    /* blocking collectives issued (coll tags) */
    uint32_t         coll_nbseq;  /* nonblocking and persistent ones         */
    int8_t           one_node;    /* coll: every member of the group is a
                                     process of this job on this node: 0 not
                                     known yet, 1 yes, 2 yes and they are the
                                     whole node (with its barrier), -1 no (the
                                     group never changes; coll/node_shm.c)  */
    struct {                      /* coll/node_nb.c: the numbers of its
                                     calls through its node channel, per set
                                     (0 nonblocking, 1 blocking with threads) */
        uint64_t base;            /* of its first call, agreed by members    */
        uint64_t next;            /* calls made, from the first              */
        uint8_t  state;           /* 0 not asked, 1 agreement in flight, 2 known */
    } nbn[2];
    char             name[MPI_MAX_OBJECT_NAME];
    /* issue 4 (src/comm, docs/design/comm.md) */
    struct xb_comm  *local_comm;  /* intercommunicators: an intracommunicator
                                     over the local group with its own
                                     context (local phases of intercomm
                                     collectives); else NULL               */
    struct xb_info  *info;        /* hints set by the user (a copy) or NULL */
    struct xb_attr  *attrs;       /* cached attributes (core/attr.h)        */
    struct xb_topo  *topo;        /* Cartesian/graph topology or NULL       */
    struct xb_bbuf  *bbuf;        /* MPI_Comm_attach_buffer's slot or NULL  */
    struct xb_bbuf  *session_bbuf; /* the buffer slot of the session the
                                     communicator derives from, or NULL     */
    struct xb_part_chans *part_chans; /* partitioned channel ordinals
                                     (pt2pt/partitioned.c): one malloc'd
                                     block, freed with the communicator, so
                                     a new communicator that reuses the
                                     context id starts from zero          */
    struct xb_comm  *grave_next;  /* xb_comm_destroy's list (core/comm.c) */
} xb_comm_t;

static inline bool xb_comm_is_inter(const xb_comm_t *c)
{
    return c->remote != NULL;
}

static inline xb_gpid_t xb_comm_gpid(const xb_comm_t *c, int rank)
{
    return xb_group_gpid(c->remote != NULL ? c->remote : c->group, rank);
}

xb_comm_t       *xb_comm_from_handle(MPI_Comm h);
MPI_Comm         xb_comm_to_handle(xb_comm_t *c);
xb_group_t      *xb_group_from_handle(MPI_Group h);
MPI_Group        xb_group_to_handle(xb_group_t *g);
xb_errhandler_t *xb_errhandler_from_handle(MPI_Errhandler h);
MPI_Errhandler   xb_errhandler_to_handle(xb_errhandler_t *e);

xb_comm_t *xb_comm_world(void);
xb_comm_t *xb_comm_self(void);
/* The hidden bootstrap communicator (issue 4): the world group on its own
 * context XB_CTX_BOOT, used by src/comm for agreements over a group that
 * has no parent communicator (Comm_create_group, Comm_create_from_group).
 * Never visible to the user. */
xb_comm_t *xb_comm_boot(void);

/* ---- error reporting (src/core/errhandler.c) ---------------------------- */
/* Called by the binding when an MPI function fails: formats the message
 * ("<fn>: <detail>"), makes an error code whose MPI_Error_string returns it,
 * and invokes the errhandler of the object (comm may be NULL: then the
 * errhandler of MPI_COMM_SELF applies, as the standard says for calls not
 * tied to an object). Returns the code to give back to the user. */
int xb_errh_raise_comm(xb_comm_t *comm, const char *fn, int rc);
/* The completion calls (MPI_Wait & co.) take no communicator, but a failed
 * request's error goes to the errhandler of the request's communicator
 * (MPI standard; so do Open MPI and MPICH). The call notes that
 * communicator with the error it records (comm may be NULL: nothing), and
 * the binding's raise with a NULL comm uses it, while the error detail is
 * still the one noted with (a later set or clear drops the note). One per
 * thread; holds a reference until raised or replaced. note_keep: the note
 * stays with the detail just set in its place (MPI_ERR_IN_STATUS). */
void xb_errh_note_comm(xb_comm_t *comm);
void xb_errh_note_keep(void);
/* The error just recorded is a user callback's own error code of a user
 * class (an attribute copy or delete callback): the call returns that
 * code, not one of ours, while the detail is still the one recorded with
 * it (MPICH's errors/comm/userdup; the user keeps control of the code). */
void xb_errh_pass_code(int code);
int  xb_errh_passed_code(void);     /* the code passed with the current detail, or 0 */
/* The same for calls on a session (issue 4, src/core/session.c): the
 * session's errhandler applies (NULL session: MPI_COMM_SELF's). */
typedef struct xb_session xb_session_t;
xb_session_t *xb_session_from_handle(MPI_Session h);
int xb_errh_raise_session(xb_session_t *session, const char *fn, int rc);

/* ---- appended by the comm/coll part (src/core/comm.c, group.c) ---------- */
/* Reference counts: the user's handle is one reference; internal users
 * (a communicator holds its group; a request, a matched message or a
 * pending idup holds its communicator) take their own. Release at zero
 * frees the object (a communicator returns its context id to the pool), so
 * a context id is not reused while an operation on a freed communicator
 * is pending (MPI_Comm_free lets pending operations complete). */
/* The last reference went. Under one lane's lock only (threads.md
 * "Progress contexts") the communicator waits for xb_comm_bury, which a
 * holder of all the locks calls (the main context's poll with lanes, a
 * context-id agreement, MPI_Finalize): its destruction changes
 * main-context state. */
void xb_comm_destroy(xb_comm_t *c);
void xb_comm_bury(void);
void xb_comm_bury_slow(void);
static inline void xb_comm_retain(xb_comm_t *c)
{
    c->refcount++;
}
/* Inline: every request free drops one (the hot path pays no call). */
static inline void xb_comm_release(xb_comm_t *c)
{
    if (--c->refcount == 0)
        xb_comm_destroy(c);
}
void xb_group_retain(xb_group_t *g);
void xb_group_release(xb_group_t *g);
/* A group of n members with the given world ranks (copied; NULL = identity
 * 0..n-1); my rank in it is computed. NULL (detail recorded) on no memory. */
xb_group_t *xb_group_new(int n, const int *world);
xb_group_t *xb_group_empty(void);   /* the static MPI_GROUP_EMPTY object */
/* This process's world rank, used to compute group->rank (set by
 * xb_comm_init_predefined; unit tests may set it directly). */
void xb_group_set_my_world_rank(int rank);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL. */
int  xb_group_compare(const xb_group_t *a, const xb_group_t *b);
void xb_group_pool_fini(void);
/* MPI_Init step 6 / MPI_Finalize: COMM_WORLD, COMM_SELF and their groups. */
int  xb_comm_init_predefined(void);
void xb_comm_fini_predefined(void);
/* First step of MPI_Finalize: delete callbacks of COMM_SELF's and
 * COMM_WORLD's attributes (issue 4). */
void xb_comm_finalize_attrs(void);
/* MPI_Finalize: drop the table of MPI_Alloc_mem blocks (mem.c). */
void xb_mem_fini(void);

/* Context-id pool (passive, per process): ids are pairs (ctx, ctx + 1) with
 * ctx even; slot s is ctx 2*s. Slots 0 and 1 are COMM_WORLD and COMM_SELF.
 * The comm layer agrees on a slot by a BAND allreduce of the masks. */
enum { XB_CTX_SLOTS = 16384, XB_CTX_MASK_WORDS = XB_CTX_SLOTS / 64,
       XB_CTX_BOOT = 4 /* slot 2: the bootstrap communicator */ };
const uint64_t *xb_ctx_mask(void);     /* bit set = slot free here */
void xb_ctx_take(uint32_t ctx);
void xb_ctx_put(uint32_t ctx);
/* The same for every slot set in m[XB_CTX_MASK_WORDS] (a reservation). */
void xb_ctx_take_mask(const uint64_t *m);
void xb_ctx_put_mask(const uint64_t *m);
/* A new intracommunicator over `group` (retained) with context `ctx` (taken
 * from the pool); refcount 1, errhandler inherited from `parent` (or
 * MPI_ERRORS_ARE_FATAL). NULL (detail recorded) on no memory. */
xb_comm_t *xb_comm_new(xb_group_t *group, uint32_t ctx, const xb_comm_t *parent);

#endif
