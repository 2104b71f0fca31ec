/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_types.h - private layout of the datatype engine (src/datatype only,
 * plus dt_inl.h which exposes a few inline accessors for hot paths).
 *
 * A type has two faces:
 *   - its description: size, bounds, markers, signature summary, and the
 *     constructor's envelope (combiner + arguments + retained child types),
 *     all set at creation, so queries work on uncommitted types and commit
 *     can always recompile from the envelope;
 *   - its compiled form (`root`, built by commit, dt_compile.c): a small tree
 *     of nodes describing the memory of ONE instance, relative to the
 *     element's origin. Node kinds:
 *       DT_VRUN   count runs of len bytes at disp + k*stride (count 1 = one
 *                 contiguous run: the contiguous and vector fast paths);
 *       DT_BLOCKS n runs (disp + off[i], len[i]) with packed prefix sums
 *                 (small or irregular types, flattened and merged);
 *       DT_VEC    count copies of a child node at disp + k*stride;
 *       DT_SEQ    n child nodes, one after the other in packed order;
 *       DT_IDX    n blocks of one shared child: block i is blen[i] copies
 *                 of it at disp + off[i] + j*cext (indexed types of a
 *                 non-contiguous child, without a copy of it per block).
 *     Every node knows its packed size, so pack/unpack can start at any
 *     packed offset by arithmetic (VRUN, VEC) or binary search (BLOCKS, SEQ).
 *
 * Lifetime: predefined types are static (dt_predef.c). Derived types are
 * malloc'ed, refcounted (the user's handle + every pending operation + every
 * type built on it), and freed when the count drops to zero.
 */
#ifndef XB_DT_TYPES_H
#define XB_DT_TYPES_H

#include "datatype/datatype.h"
#include "core/core.h"

enum dt_kind { DT_VRUN = 1, DT_BLOCKS, DT_VEC, DT_SEQ, DT_IDX };

typedef struct dt_node dt_node_t;
struct dt_node {
    uint8_t   kind;      /* enum dt_kind                                   */
    MPI_Aint  disp;      /* added to the base address of everything below  */
    MPI_Count size;      /* packed bytes of one instance                   */
    MPI_Count nruns;     /* contiguous runs of one instance (saturating)   */
    union {
        struct { MPI_Count count; MPI_Aint len; MPI_Aint stride; } vr;
        struct { MPI_Count n; MPI_Aint *off; MPI_Aint *len; MPI_Count *pfx; } bl;
        struct { MPI_Count count; MPI_Aint stride; dt_node_t *child; } vec;
        struct { MPI_Count n; dt_node_t **child; MPI_Count *pfx; } seq;
        struct { MPI_Count n; MPI_Aint *off; MPI_Count *blen; MPI_Count *pfx;
                 MPI_Aint cext; dt_node_t *child; } ix;
    } u;
};

/* Per-type flags. */
enum {
    DT_F_COMMITTED  = 1u << 0,
    DT_F_PREDEF     = 1u << 1,
    DT_F_CONTIG     = 1u << 2,  /* one instance is one run of `size` bytes  */
    DT_F_HAS_LB     = 1u << 3,  /* explicit lb marker (create_resized)      */
    DT_F_HAS_UB     = 1u << 4,  /* explicit ub marker                       */
    DT_F_EMPTY      = 1u << 5,  /* no entries and no markers in the map     */
    DT_F_USER_FREED = 1u << 6,  /* every user handle freed; alive only for
                                   the types and operations that use it     */
    DT_F_LARGE_CTOR = 1u << 8,  /* made by a _c constructor: get_contents_c
                                   answers the large-count layout, the int
                                   forms refuse it (MPI_ERR_TYPE)           */
};

struct xb_datatype {
    uint32_t   magic;        /* XB_MAGIC_DTYPE; XB_MAGIC_FREED once freed  */
    int        refcount;     /* atomic; unused for predefined types        */
    int        uref;         /* user handles (create, get_contents); at 0
                                the handle is invalid (DT_F_USER_FREED)     */
    uint32_t   flags;
    int        align;        /* largest alignment of its basic types       */
    MPI_Count  size;         /* bytes of data                              */
    MPI_Aint   lb, ub, extent;
    MPI_Aint   true_lb, true_ub;
    /* signature summary */
    const struct xb_datatype *basic; /* the one predefined type of every
                                        element, or NULL when mixed         */
    MPI_Count  nbasic;       /* elements of `basic` per instance            */
    MPI_Count  nelems;       /* basic elements in MPI_Get_elements' sense   */
    /* envelope (MPI_Type_get_envelope/contents, and commit recompiles it) */
    int        combiner;     /* MPI_COMBINER_*                              */
    int        n_ints, n_aints, n_types;
    MPI_Count *ints;         /* the standard's integer arguments, in order  */
    MPI_Aint  *aints;        /* address arguments                           */
    struct xb_datatype **types; /* child types (each holds a reference)     */
    /* subarray, darray, f90: the equivalent type built from the other
     * constructors (holds a reference); commit and signature walks use it */
    struct xb_datatype *equiv;
    /* compiled form (NULL until commit for derived types) */
    dt_node_t *root;
    MPI_Datatype handle;     /* predefined: the ABI constant; else self     */
    char       name[MPI_MAX_OBJECT_NAME];
};

/* ---- dt_predef.c ---------------------------------------------------------- */
/* Pair types' component sizes (first, second) for MPI_Get_elements; 0, 0 for
 * every other predefined type. */
void xb_dt_pair_parts(const xb_datatype_t *dt, MPI_Count *a, MPI_Count *b);

/* ---- dt_create.c: internal constructors (counts already validated) --------- */
/* (contiguous, vector, resized: declared in datatype.h.)
 * Each returns a new uncommitted type (refcount 1) holding references to
 * its children. Displacements of indexed types are in extents of `old`,
 * of hindexed/struct types in bytes; blens == NULL in make_indexed means
 * every block has `blen` elements (the _block variants). */
int xb_dt_make_indexed(MPI_Count count, const MPI_Count *blens, MPI_Count blen,
                       const MPI_Count *displs, bool bytes, xb_datatype_t *old,
                       xb_datatype_t **out);
int xb_dt_make_struct(MPI_Count count, const MPI_Count *blens,
                      const MPI_Count *displs, xb_datatype_t *const *types,
                      xb_datatype_t **out);
int xb_dt_make_dup(xb_datatype_t *old, xb_datatype_t **out);
/* A type described by `equiv` (consumed: the new type takes its reference)
 * but reporting `combiner` with integer arguments ints[n_ints] and child
 * `old` (NULL for none) in its envelope: subarray, darray, f90 types. */
int xb_dt_make_wrapper(xb_datatype_t *equiv, int combiner, int n_ints,
                       const MPI_Count *ints, xb_datatype_t *old,
                       xb_datatype_t **out);
int  xb_dt_set_envelope(xb_datatype_t *dt, int n_ints, const MPI_Count *ints,
                        int n_aints, const MPI_Aint *aints, int n_types,
                        xb_datatype_t *const *types);
void xb_dt_destroy(xb_datatype_t *dt);

/* ---- dt_compile.c ----------------------------------------------------------- */
int        xb_dt_compile(xb_datatype_t *dt);      /* builds dt->root, flags  */
extern int xb_dt_flatten_max;   /* test hook: flatten types of at most this many runs */
void       xb_dt_node_free(dt_node_t *n);
dt_node_t *xb_dt_node_clone(const dt_node_t *n);

#endif
