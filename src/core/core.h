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
} xb_group_t;

static inline xb_gpid_t xb_group_gpid(const xb_group_t *g, int r)
{
    return (xb_gpid_t)(g->world != NULL ? g->world[r] : r);
}

/* ---- errhandlers ------------------------------------------------------- */
typedef struct xb_errhandler xb_errhandler_t;  /* src/core/errhandler.c */

/* ---- communicators ----------------------------------------------------- */
/* Context ids: each communicator owns a pair, ctx (pt2pt) and ctx + 1
 * (collectives), so collective traffic never matches user receives. */
typedef struct xb_comm {
    uint32_t         magic;
    int              refcount;
    uint32_t         ctx;         /* even; ctx + 1 is the collective context */
    int              rank;        /* my rank in the (local) group            */
    int              size;        /* size of the (local) group               */
    xb_group_t      *group;       /* local group                             */
    xb_group_t      *remote;      /* intercommunicators (later); else NULL   */
    xb_errhandler_t *errh;
    MPI_Comm         handle;      /* what the user sees                      */
    uint32_t         coll_seq;    /* collectives issued (debug checks)       */
    char             name[MPI_MAX_OBJECT_NAME];
} xb_comm_t;

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

/* ---- error reporting (src/core/errhandler.c) ---------------------------- */
/* Called by the binding when an MPI function fails: formats the message
 * ("<fn>: <detail>"), makes an error code whose MPI_Error_string returns it,
 * and invokes the errhandler of the object (comm may be NULL: then the
 * errhandler of MPI_COMM_SELF applies, as the standard says for calls not
 * tied to an object). Returns the code to give back to the user. */
int xb_errh_raise_comm(xb_comm_t *comm, const char *fn, int rc);

#endif
