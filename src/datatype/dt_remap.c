/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_remap.c - walks of a type over its predefined types: the signature
 * walk (external32 and the MPI-IO data representations convert run by run)
 * and the remap, which rebuilds a type with the same constructors and the
 * same arguments over other leaves.
 *
 * The remap is what MPI-IO needs for a view in a data representation other
 * than "native" (MPI 4.1 section 14.5): every predefined type is replaced
 * by its file representation (a run of bytes of its file extent), and
 * every constructor is applied again to the replaced children. So the
 * displacements counted in elements (contiguous, vector, indexed,
 * indexed_block, subarray, darray) scale with the new extents, and those
 * given in bytes (hvector, hindexed, hindexed_block, struct, resized) stay
 * as they are: exactly the standard's rule ("for etypes and filetypes that
 * are portable datatypes, MPI will scale any displacements"; byte
 * displacements "MPI will interpret as is; no scaling will be done").
 */
#include <stdlib.h>
#include <string.h>
#include "datatype/dt_types.h"
#include "xb_impl.h"

_Static_assert(sizeof(MPI_Aint) == sizeof(MPI_Count),
               "the envelope's addresses are read as counts");

/* ---- the signature walk ---------------------------------------------------- */
int xb_dt_sig_walk(const xb_datatype_t *t, MPI_Count reps, xb_dt_sig_fn fn, void *ctx)
{
    if (reps == 0 || t->size == 0)
        return XB_OK;
    if (t->basic != NULL)
        return fn(ctx, t->basic, reps * t->nbasic);
    if (t->equiv != NULL)
        return xb_dt_sig_walk(t->equiv, reps, fn, ctx);
    if (t->n_types == 1)      /* a sequence of copies of its one child */
        return xb_dt_sig_walk(t->types[0], reps * (t->size / t->types[0]->size), fn, ctx);
    for (MPI_Count r = 0; r < reps; r++)        /* struct: member by member */
        for (int i = 0; i < t->n_types; i++) {
            int rc = xb_dt_sig_walk(t->types[i], t->ints[1 + i], fn, ctx);
            if (rc != XB_OK)
                return rc;
        }
    return XB_OK;
}

/* ---- the remap --------------------------------------------------------------- */
typedef struct remap { xb_dt_leaf_fn fn; void *ctx; } remap_t;

static int remap(const remap_t *m, xb_datatype_t *t, xb_datatype_t **out);

/* A derived type made through an xb_impl_ constructor (subarray, darray):
 * the new handle's one reference becomes ours. */
static int from_handle(int rc, MPI_Datatype h, xb_datatype_t **out)
{
    if (rc == XB_OK)
        *out = xb_dt_from_handle(h);
    return rc;
}

static int remap_darray(const xb_datatype_t *t, xb_datatype_t *c, xb_datatype_t **out)
{
    const MPI_Count *v = t->ints;
    int nd = (int)v[2];
    int *a = malloc(3 * (size_t)(nd > 0 ? nd : 1) * sizeof(int));
    if (a == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory rebuilding a datatype");
    for (int i = 0; i < 3 * nd; i++)
        a[i] = (int)v[3 + nd + i];          /* distribs, dargs, psizes */
    MPI_Datatype h = MPI_DATATYPE_NULL;
    int rc = xb_impl_type_create_darray((int)v[0], (int)v[1], nd, v + 3, a, a + nd,
                                        a + 2 * nd, (int)v[3 + 4 * nd], c, &h, false);
    free(a);
    return from_handle(rc, h, out);
}

/* Every constructor whose one child is types[0]. */
static int remap_one(const xb_datatype_t *t, xb_datatype_t *c, xb_datatype_t **out)
{
    const MPI_Count *v = t->ints;
    const MPI_Count *av = (const MPI_Count *)t->aints;
    MPI_Datatype h = MPI_DATATYPE_NULL;
    switch (t->combiner) {
    case MPI_COMBINER_DUP:            return xb_dt_make_dup(c, out);
    case MPI_COMBINER_CONTIGUOUS:     return xb_dt_make_contiguous(v[0], c, out);
    case MPI_COMBINER_VECTOR:         return xb_dt_make_vector(v[0], v[1], v[2], false, c, out);
    case MPI_COMBINER_HVECTOR:        return xb_dt_make_vector(v[0], v[1], t->aints[0], true, c, out);
    case MPI_COMBINER_INDEXED:        return xb_dt_make_indexed(v[0], v + 1, 0, v + 1 + v[0], false, c, out);
    case MPI_COMBINER_HINDEXED:       return xb_dt_make_indexed(v[0], v + 1, 0, av, true, c, out);
    case MPI_COMBINER_INDEXED_BLOCK:  return xb_dt_make_indexed(v[0], NULL, v[1], v + 2, false, c, out);
    case MPI_COMBINER_HINDEXED_BLOCK: return xb_dt_make_indexed(v[0], NULL, v[1], av, true, c, out);
    case MPI_COMBINER_RESIZED:        return xb_dt_make_resized(c, t->aints[0], t->aints[1], out);
    case MPI_COMBINER_SUBARRAY: {
        int nd = (int)v[0];
        int rc = xb_impl_type_create_subarray(nd, v + 1, v + 1 + nd, v + 1 + 2 * nd,
                                              (int)v[1 + 3 * nd], c, &h, false);
        return from_handle(rc, h, out);
    }
    case MPI_COMBINER_DARRAY:         return remap_darray(t, c, out);
    default:
        return xb_err_set(XB_ERR_INTERN, "cannot rebuild a datatype of combiner %d",
                          t->combiner);
    }
}

static int remap_struct(const remap_t *m, xb_datatype_t *t, xb_datatype_t **out)
{
    int n = t->n_types, rc = XB_OK, done = 0;
    xb_datatype_t **c = malloc((size_t)(n > 0 ? n : 1) * sizeof(*c));
    if (c == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory rebuilding a datatype");
    for (; done < n && rc == XB_OK; done++)
        rc = remap(m, t->types[done], &c[done]);
    if (rc == XB_OK)
        rc = xb_dt_make_struct(t->ints[0], t->ints + 1, (const MPI_Count *)t->aints,
                               c, out);
    else
        done--;                      /* the failed child holds nothing */
    for (int i = 0; i < done; i++)
        xb_dt_release(c[i]);
    free(c);
    return rc;
}

static int remap(const remap_t *m, xb_datatype_t *t, xb_datatype_t **out)
{
    switch (t->combiner) {
    case MPI_COMBINER_NAMED:
    case MPI_COMBINER_F90_INTEGER:      /* predefined types too (MPI 4.1 19.1.9) */
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
        return m->fn(m->ctx, t, out);
    case MPI_COMBINER_STRUCT:
        return remap_struct(m, t, out);
    default:
        break;
    }
    xb_datatype_t *c = NULL;
    int rc = remap(m, t->types[0], &c);
    if (rc != XB_OK)
        return rc;
    rc = remap_one(t, c, out);
    xb_dt_release(c);            /* the new type holds its own reference */
    return rc;
}

int xb_dt_remap(xb_datatype_t *dt, xb_dt_leaf_fn fn, void *ctx, xb_datatype_t **out)
{
    remap_t m = { fn, ctx };
    xb_datatype_t *t = NULL;
    int rc = remap(&m, dt, &t);
    if (rc == XB_OK && !(t->flags & DT_F_COMMITTED) && (rc = xb_dt_commit(t)) != XB_OK)
        xb_dt_release(t);
    if (rc == XB_OK)
        *out = t;
    return rc;
}
