/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bind_check.h - the argument checks the generated bindings call.
 *
 * Every generated PMPI_X (build/gen/binding_*.c, see spec/binding.md) runs,
 * in order: the init-state check, the resolution of each handle argument,
 * then - when the tunable XB_PARAM_CHECK is on (the default) - the value
 * checks below, then the implementation.
 *
 * Shape of a check: a static inline test of the common case that returns
 * XB_OK without touching memory beyond its arguments, and an out-of-line
 * cold function that formats the message (xb_err_set, without the MPI
 * function name: the binding's errhandler call prefixes it) and returns the
 * XB_ERR_* code. So the hot functions (Isend, Irecv, Send, Recv, Wait, Test)
 * pay a few compares and no call unless an argument is wrong.
 *
 * Threading: the checks only read their arguments and immutable object
 * fields (communicator size, datatype commit flag); re-entrant.
 *
 * Returns: XB_OK, or a negative XB_ERR_* with the detail recorded.
 */
#ifndef XB_BIND_CHECK_H
#define XB_BIND_CHECK_H

#include <stdlib.h>
#include "util/xb_common.h"
#include "core/core.h"
#include "datatype/datatype.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"
#include "util/xb_mt.h"
#include "binding/bind_lane.h"

/* Largest tag (the value of the MPI_TAG_UB attribute): 2^30 - 1. The
 * standard asks for at least 32767; 30 bits leave the matching engine two
 * spare bits in a 32-bit tag word. */
#define XB_TAG_UB ((1 << 30) - 1)

/* Which sentinels a rank or tag argument accepts (spec flags procnull,
 * anysource, anytag, root). */
enum {
    XB_ALLOW_PROC_NULL  = 1u << 0,
    XB_ALLOW_ANY_SOURCE = 1u << 1,
    XB_ALLOW_ANY_TAG    = 1u << 2,
    XB_ALLOW_ROOT       = 1u << 3,
};

/* Handle kinds, for the messages of a failed resolution. */
typedef enum xb_hk {
    XB_HK_COMM, XB_HK_DATATYPE, XB_HK_GROUP, XB_HK_OP, XB_HK_ERRHANDLER,
    XB_HK_REQUEST, XB_HK_INFO, XB_HK_MESSAGE, XB_HK_SESSION, XB_HK_WIN, XB_HK_FILE,
    XB_HK_COUNT
} xb_hk_t;

XB_TUNABLE_DECL(PARAM_CHECK);
static inline bool xb_param_check(void) { return xb_tn_PARAM_CHECK.v.b; }

/* ---- cold paths (bind_check.c): format, record, return the code -------- */
int xb_check_init_fail(void) XB_NOINLINE;
int xb_check_handle_fail(xb_hk_t kind, const char *arg, const void *h) XB_NOINLINE;
int xb_check_nonneg_fail(const char *arg, MPI_Count v, int code) XB_NOINLINE;
int xb_check_rank_fail(const char *arg, int v, const xb_comm_t *comm, unsigned allow) XB_NOINLINE;
int xb_check_root_fail(const char *arg, int v, const xb_comm_t *comm) XB_NOINLINE;
int xb_check_tag_fail(const char *arg, int v, unsigned allow) XB_NOINLINE;
int xb_check_buf_fail(const char *arg, MPI_Count count, const xb_datatype_t *dt) XB_NOINLINE;
int xb_check_committed_fail(const char *arg, MPI_Datatype h) XB_NOINLINE;
int xb_check_ptr_fail(const char *arg) XB_NOINLINE;
int xb_check_array_fail(const char *arg, MPI_Count n) XB_NOINLINE;

/* ---- inline tests -------------------------------------------------------- */
/* A count, size or length that must not be negative (code: XB_ERR_COUNT
 * for element counts, XB_ERR_ARG for the others). */
static inline int xb_check_nonneg(const char *arg, MPI_Count v, int code)
{
    return XB_LIKELY(v >= 0) ? XB_OK : xb_check_nonneg_fail(arg, v, code);
}

/* Number of ranks a rank argument addresses: the remote group of an
 * intercommunicator, else the communicator's group. */
static inline int xb_check_peer_size(const xb_comm_t *comm)
{
    return comm->remote != NULL ? comm->remote->size : comm->size;
}

/* Rooted collectives: whether this process is the root (an
 * intercommunicator's root side passes MPI_ROOT), and whether it gives the
 * data of the sending side (on an intercommunicator neither MPI_ROOT nor
 * MPI_PROC_NULL, on an intracommunicator always). */
static inline bool xb_bind_at_root(const xb_comm_t *comm, int root)
{
    return comm->remote != NULL ? root == MPI_ROOT : comm->rank == root;
}

static inline bool xb_bind_sends(const xb_comm_t *comm, int root)
{
    return comm->remote == NULL || (root != MPI_ROOT && root != MPI_PROC_NULL);
}

/* Neighbourhood collectives: the lengths of the per-neighbour arrays (0
 * without a topology: the implementation then reports MPI_ERR_TOPOLOGY). */
int xb_bind_in_degree(const xb_comm_t *comm);
int xb_bind_out_degree(const xb_comm_t *comm);

static inline int xb_check_rank(const char *arg, int v, const xb_comm_t *comm,
                                unsigned allow)
{
    if (XB_LIKELY(v >= 0 && v < xb_check_peer_size(comm)))
        return XB_OK;
    return xb_check_rank_fail(arg, v, comm, allow);
}

/* Root of a collective: a rank of the (local) group; on an
 * intercommunicator also MPI_ROOT and MPI_PROC_NULL. */
static inline int xb_check_root(const char *arg, int v, const xb_comm_t *comm)
{
    if (XB_LIKELY(comm->remote == NULL && v >= 0 && v < comm->size))
        return XB_OK;
    return xb_check_root_fail(arg, v, comm);
}

static inline int xb_check_tag(const char *arg, int v, unsigned allow)
{
    if (XB_LIKELY(v >= 0 && v <= XB_TAG_UB))
        return XB_OK;
    return xb_check_tag_fail(arg, v, allow);
}

/* A NULL buffer with a nonzero count. With dt NULL the count is in bytes.
 * MPI_BOTTOM is NULL, so a derived datatype (absolute addresses) may go with
 * a NULL buffer: only a predefined type or a byte count is refused. */
static inline int xb_check_buf(const char *arg, const void *buf, MPI_Count count,
                               const xb_datatype_t *dt)
{
    if (XB_LIKELY(buf != NULL || count <= 0))
        return XB_OK;
    return xb_check_buf_fail(arg, count, dt);
}

/* A datatype used to move data must be committed (predefined ones are). */
static inline int xb_check_committed(const char *arg, MPI_Datatype h,
                                     const xb_datatype_t *dt)
{
    if (XB_LIKELY(xb_handle_is_predef(h) || dt == NULL || xb_dt_is_committed(dt)))
        return XB_OK;
    return xb_check_committed_fail(arg, h);
}

/* A pointer argument the standard does not let be NULL. */
static inline int xb_check_ptr(const char *arg, const void *p)
{
    return XB_LIKELY(p != NULL) ? XB_OK : xb_check_ptr_fail(arg);
}

/* An array of n elements: NULL only when n is 0. */
static inline int xb_check_array(const char *arg, const void *p, MPI_Count n)
{
    return XB_LIKELY(p != NULL || n <= 0) ? XB_OK : xb_check_array_fail(arg, n);
}

/* ---- conversions for the int flavour of large-count functions ----------- */
/* Copy n ints (or MPI_Aints) into an MPI_Count array (*out; NULL when
 * n <= 0): the caller's `stack` of XB_BIND_STACK elements when n fits (a
 * v collective on a node's ranks: no malloc and free per call), else a
 * new one. Release with xb_bind_free(*out, stack). XB_ERR_NO_MEM on
 * allocation failure. */
enum { XB_BIND_STACK = 32 };
int  xb_bind_widen_int_heap(const char *arg, const int *src, MPI_Count n, MPI_Count **out);
/* Inline for a node's worth of ranks (the call was 35 instructions per
 * array of a 2-rank MPI_Scatterv, a twentieth of the root's call). */
static inline int xb_bind_widen_int(const char *arg, const int *src, MPI_Count n,
                                    MPI_Count *stack, MPI_Count **out)
{
    if (XB_UNLIKELY(src == NULL || n <= 0 || n > XB_BIND_STACK)) {
        if (src != NULL && n > XB_BIND_STACK)
            return xb_bind_widen_int_heap(arg, src, n, out);
        *out = NULL;            /* NULL stays NULL: the implementation checks it */
        return XB_OK;
    }
    for (MPI_Count i = 0; i < n; i++)
        stack[i] = src[i];
    *out = stack;
    return XB_OK;
}
int  xb_bind_widen_aint(const char *arg, const MPI_Aint *src, MPI_Count n, MPI_Count *stack,
                        MPI_Count **out);
static inline void xb_bind_free(MPI_Count *p, const MPI_Count *stack)
{
    if (p != stack)
        free(p);
}

/* An MPI_Count result given back through an int: MPI_UNDEFINED when it does
 * not fit (the standard's rule for MPI_Get_count and friends). */
static inline int xb_bind_narrow_int(MPI_Count v)
{
    return (v >= INT32_MIN && v <= INT32_MAX) ? (int)v : MPI_UNDEFINED;
}

/* Text of a handle kind ("communicator") and of its null ("MPI_COMM_NULL"). */
const char *xb_hk_name(xb_hk_t kind);
const char *xb_hk_null_name(xb_hk_t kind);

#endif
