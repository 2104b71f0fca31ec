/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * op.h - reduction operations (MPI_Op): the predefined ones (MPI_SUM ...
 * MPI_NO_OP, ABI constants 0x21..0x3d resolved through a table) and user
 * operations made by MPI_Op_create.
 *
 * Lifecycle: predefined ops are static objects, never freed. A user op is
 * created with refcount 1 (the user's handle); MPI_Op_free drops it; a
 * pending operation that uses an op holds a reference (xb_op_retain).
 *
 * Applying an op: xb_op_apply(op, in, inout, count, dt) computes
 *     inout[i] = in[i] op inout[i]      for i in [0, count)
 * (`in` is the LEFT operand, as in the standard's user-function contract, so
 * non-commutative reductions keep rank order when the caller passes the
 * lower ranks' data as `in`).
 *   - predefined op: dt must be a predefined basic type (the one
 *     xb_dt_basic() returns) and the buffers hold count elements of it in
 *     native layout (C struct layout for the pair types of MINLOC/MAXLOC).
 *     The kernels are generated per (op, type) in op.c.
 *   - user op: dt is the user's datatype, passed to the user function as is;
 *     counts beyond INT_MAX are cut into pieces for MPI_User_function.
 * Returns XB_OK, or XB_ERR_OP with detail ("MPI_SUM is not defined for
 * MPI_2INT") when the op does not apply to the type. xb_op_check() makes the
 * same check without touching data, so collectives can fail before they send.
 *
 * Threading: ops are immutable after creation; apply is re-entrant.
 */
#ifndef XB_OP_H
#define XB_OP_H

#include "util/xb_common.h"
#include "core/core.h"
#include "datatype/datatype.h"

/* Predefined op kinds, in the order of the ABI values. */
typedef enum xb_opk {
    XB_OPK_SUM, XB_OPK_MIN, XB_OPK_MAX, XB_OPK_PROD,
    XB_OPK_BAND, XB_OPK_BOR, XB_OPK_BXOR,
    XB_OPK_LAND, XB_OPK_LOR, XB_OPK_LXOR,
    XB_OPK_MINLOC, XB_OPK_MAXLOC, XB_OPK_REPLACE, XB_OPK_NO_OP,
    XB_OPK_NPREDEF,
    XB_OPK_USER = 100,
} xb_opk_t;

typedef struct xb_op {
    uint32_t              magic;     /* XB_MAGIC_OP; XB_MAGIC_FREED after free */
    int                   refcount;
    xb_opk_t              kind;
    bool                  commute;
    bool                  predefined;
    MPI_User_function    *fn;        /* user op (int count) ...               */
    MPI_User_function_c  *fn_c;      /* ... or large-count user op            */
    const char           *name;      /* "MPI_SUM", "user op"                  */
    /* The last predefined datatype a reduction checked this op against and
     * found defined (a cache of xb_coll_check_op, read and written
     * relaxed: predefined types live as long as the library). */
    const struct xb_datatype *checked_dt;
} xb_op_t;

xb_op_t *xb_op_from_handle(MPI_Op h);   /* NULL for MPI_OP_NULL/invalid/freed */
MPI_Op   xb_op_to_handle(xb_op_t *op);
void     xb_op_retain(xb_op_t *op);
void     xb_op_release(xb_op_t *op);

int  xb_op_check(const xb_op_t *op, const xb_datatype_t *basic);
int  xb_op_apply(const xb_op_t *op, const void *in, void *inout,
                 MPI_Count count, const xb_datatype_t *dt);

/* The kernels alone, keyed by the predefined op kind and the predefined
 * datatype handle (no datatype engine needed: unit tests call these). */
int  xb_op_apply_predef(xb_opk_t kind, MPI_Datatype basic, const void *in,
                        void *inout, size_t count);
bool xb_op_predef_defined(xb_opk_t kind, MPI_Datatype basic);
/* The kernel of a predefined op on a predefined basic type (inout = in op
 * inout over n elements), or NULL (the pair is not defined, or has no
 * kernel: MPI_REPLACE, MPI_NO_OP; use xb_op_apply). Resolved once, it
 * serves many applications of one call (a flow reduce combines p - 1
 * vectors: the lookup was most of an 8-byte one). */
typedef void (*xb_op_kernel_t)(const void *in, void *inout, size_t n);
xb_op_kernel_t xb_op_kernel(const xb_op_t *op, const xb_datatype_t *dt);
const char *xb_op_kind_name(xb_opk_t kind);

#endif
