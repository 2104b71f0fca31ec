/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * datatype.h - the narrow interface of the datatype engine.
 *
 * Everyone outside src/datatype (pt2pt, coll, later rma) moves typed data ONLY
 * through these functions. A message of `count` elements of `dt` at `buf` has
 * a packed form of count * size bytes; every function addresses that packed
 * form by byte offset, so a rendezvous fragment or a shared-memory cell packs
 * or unpacks just its part of the message, in any order.
 *
 * Lifecycle of a derived type: create (refcount 1, not committed) -> commit
 * (compiles to the compact form used by pack/unpack) -> used by operations
 * (each pending operation holds a reference: xb_dt_retain/xb_dt_release) ->
 * MPI_Type_free drops the user's reference; memory goes when the last
 * reference goes. Predefined types are static objects and never freed.
 *
 * Threading: types are immutable after commit; pack/unpack are re-entrant.
 *
 * Returns: XB_OK or a negative XB_ERR_* with detail recorded (xb_err_set).
 */
#ifndef XB_DATATYPE_H
#define XB_DATATYPE_H

#include <sys/uio.h>
#include "util/xb_common.h"

typedef struct xb_datatype xb_datatype_t;   /* layout private to src/datatype */

/* ---- handles ------------------------------------------------------------ */
/* Resolve a user handle (predefined constant or pointer). Returns NULL for
 * MPI_DATATYPE_NULL, a freed type or garbage that fails the magic check. */
xb_datatype_t *xb_dt_from_handle(MPI_Datatype h);
MPI_Datatype   xb_dt_to_handle(xb_datatype_t *dt);

/* ---- queries (cheap, inline-able accessors are in dt_inl.h) --------------- */
MPI_Count xb_dt_size(const xb_datatype_t *dt);          /* bytes of data     */
MPI_Aint  xb_dt_extent(const xb_datatype_t *dt);
MPI_Aint  xb_dt_lb(const xb_datatype_t *dt);
MPI_Aint  xb_dt_true_lb(const xb_datatype_t *dt);
MPI_Aint  xb_dt_true_extent(const xb_datatype_t *dt);
bool      xb_dt_is_committed(const xb_datatype_t *dt);
bool      xb_dt_is_predefined(const xb_datatype_t *dt);
const char *xb_dt_name(const xb_datatype_t *dt);        /* "MPI_INT", "" ... */
/* True when count elements of dt occupy one contiguous range of memory,
 * starting at buf + xb_dt_true_lb(dt): send/recv then need no pack at all. */
bool      xb_dt_is_contig(const xb_datatype_t *dt, MPI_Count count);

/* For reductions: the predefined type every basic element of dt has, and how
 * many of them one dt holds; NULL if dt mixes types. */
const xb_datatype_t *xb_dt_basic(const xb_datatype_t *dt, MPI_Count *per_elem);
/* Number of basic elements in the first `bytes` bytes of packed data
 * (MPI_Get_elements); MPI_UNDEFINED when bytes is not a whole number of them. */
MPI_Count xb_dt_elements(const xb_datatype_t *dt, MPI_Count bytes);
/* The inverse (MPI_Status_set_elements): packed bytes of the first `count`
 * basic elements of a run of dt. XB_ERR_COUNT (negative, too large) or
 * XB_ERR_TYPE (a type of size 0 and count > 0), detail recorded. */
int xb_dt_elements_bytes(const xb_datatype_t *dt, MPI_Count count, MPI_Count *bytes);

void xb_dt_retain(xb_datatype_t *dt);
void xb_dt_release(xb_datatype_t *dt);

/* ---- moving data ---------------------------------------------------------- */
/* Pack bytes [offset, offset+max) of the packed form into dst. *done_p gets
 * the number written (less than max only at the end of the message). */
int xb_dt_pack(const void *buf, MPI_Count count, const xb_datatype_t *dt,
               size_t offset, void *dst, size_t max, size_t *done_p);
/* Unpack len bytes of packed data from src, landing at packed offset `offset`. */
int xb_dt_unpack(void *buf, MPI_Count count, const xb_datatype_t *dt,
                 size_t offset, const void *src, size_t len);
/* Describe the memory of packed bytes [offset, ...) as an iovec (for
 * process_vm_readv/writev). Fills at most max_iov entries; *bytes_p gets the
 * bytes covered (less than the rest of the message when max_iov ran out). */
int xb_dt_to_iov(const void *buf, MPI_Count count, const xb_datatype_t *dt,
                 size_t offset, struct iovec *iov, int max_iov, int *n_p,
                 size_t *bytes_p);
/* Copy between two typed buffers with matching type signatures (sendrecv to
 * self, collectives' local copies). Copies min(both sizes) bytes; a source
 * larger than the destination fails with XB_ERR_TRUNCATE after the copy
 * (nothing is lost silently). */
int xb_dt_copy(const void *sbuf, MPI_Count scount, const xb_datatype_t *sdt,
               void *rbuf, MPI_Count rcount, const xb_datatype_t *rdt);

/* ---- setup ------------------------------------------------------------- */
int  xb_dt_init(void);   /* predefined table; called from MPI_Init */
void xb_dt_fini(void);

/* ---- appended by the datatype part (issue 2) ------------------------------- */
/* Hot paths may include "datatype/dt_inl.h": inline twins of the queries
 * above (xb_dti_size, xb_dti_extent, xb_dti_true_lb, xb_dti_is_contig,
 * xb_dti_is_committed), same meaning. */

/* Internal constructors for layers that need a temporary type (e.g. a
 * collective describing a strided block): a new uncommitted type with
 * refcount 1; xb_dt_commit() compiles it, xb_dt_release() drops it. A vector's
 * stride is in extents of `old`, an hvector's (hvector = true) in bytes. */
int xb_dt_make_contiguous(MPI_Count count, xb_datatype_t *old, xb_datatype_t **out);
int xb_dt_make_vector(MPI_Count count, MPI_Count blen, MPI_Aint stride,
                      bool hvector, xb_datatype_t *old, xb_datatype_t **out);
int xb_dt_make_resized(xb_datatype_t *old, MPI_Aint lb, MPI_Aint extent,
                       xb_datatype_t **out);
int xb_dt_commit(xb_datatype_t *dt);

/* ---- walks over the predefined types (dt_remap.c) ------------------------ */
/* The type signature of reps x t as runs (basic, n) in type-map order: a
 * homogeneous type is one run, a struct is walked member by member. A
 * pair type (MPI_DOUBLE_INT ...) is one basic type. Stops at the first
 * callback that does not return XB_OK and returns its code. */
typedef int (*xb_dt_sig_fn)(void *ctx, const xb_datatype_t *basic, MPI_Count n);
int xb_dt_sig_walk(const xb_datatype_t *t, MPI_Count reps, xb_dt_sig_fn fn, void *ctx);
/* A committed copy of dt built by the same constructors with the same
 * arguments over other leaves: fn gives, for each predefined type of dt's
 * construction (f90 types included), the type that replaces it (a new
 * reference, or a predefined type). Displacements counted in elements
 * scale with the new leaves' extents, byte displacements stay. *out holds
 * one reference (xb_dt_release). MPI-IO's file views in a data
 * representation other than "native". */
typedef int (*xb_dt_leaf_fn)(void *ctx, xb_datatype_t *basic, xb_datatype_t **out);
int xb_dt_remap(xb_datatype_t *dt, xb_dt_leaf_fn fn, void *ctx, xb_datatype_t **out);

#endif
