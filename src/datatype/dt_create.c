/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_create.c - type constructors: validate the arguments, compute size,
 * bounds (with the standard's lb/ub markers and struct alignment padding),
 * the signature summary, and record the envelope. Compilation to the
 * compact form happens at commit (dt_compile.c).
 *
 * Every constructor is a list of block groups: nblk blocks at disp +
 * k*bstride, each of blen elements of a child type spaced by its extent.
 * Bounds of such a group are affine in (k, j), so its extremes are at the
 * four corners: a vector of 2^40 blocks costs as much as one of 2.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "datatype/dt_types.h"

typedef struct dt_acc {
    MPI_Count size, nelems, nbasic;
    const xb_datatype_t *basic;
    bool      mixed;
    int       align;
    /* each bound with its own "have a value" flag */
    bool      has_tlb, has_tub, has_dlb, has_dub, has_lb, has_ub;
    MPI_Aint  tlb, tub, dlb, dub, mlb, mub;
} dt_acc_t;

static int too_large(void)
{
    return xb_err_set(XB_ERR_ARG, "the new datatype would be larger than "
                      "2^63 bytes (a count, block length, stride or "
                      "displacement is too large)");
}

static void upd_min(bool *have, MPI_Aint *m, MPI_Aint v)
{
    if (!*have || v < *m)
        *m = v;
    *have = true;
}

static void upd_max(bool *have, MPI_Aint *m, MPI_Aint v)
{
    if (!*have || v > *m)
        *m = v;
    *have = true;
}

/* Accounts one corner instance of t at x. Markers of t count as markers;
 * entries of t without markers count through t's own lb/ub. */
static void acc_corner(dt_acc_t *a, MPI_Aint x, const xb_datatype_t *t)
{
    if (t->size > 0) {
        upd_min(&a->has_tlb, &a->tlb, x + t->true_lb);
        upd_max(&a->has_tub, &a->tub, x + t->true_ub);
    }
    if (t->flags & DT_F_HAS_LB)
        upd_min(&a->has_lb, &a->mlb, x + t->lb);
    else if (t->size > 0)
        upd_min(&a->has_dlb, &a->dlb, x + t->lb);
    if (t->flags & DT_F_HAS_UB)
        upd_max(&a->has_ub, &a->mub, x + t->ub);
    else if (t->size > 0)
        upd_max(&a->has_dub, &a->dub, x + t->ub);
}

/* nblk blocks at disp + k*bstride, each of blen elements of t. */
static int acc_add(dt_acc_t *a, MPI_Aint disp, MPI_Count nblk, MPI_Aint bstride,
                   MPI_Count blen, const xb_datatype_t *t)
{
    if (nblk == 0 || blen == 0 || (t->flags & DT_F_EMPTY))
        return XB_OK;
    MPI_Aint ks, js, n, sz, x;
    if (__builtin_mul_overflow((MPI_Aint)(nblk - 1), bstride, &ks) ||
        __builtin_mul_overflow((MPI_Aint)(blen - 1), t->extent, &js) ||
        __builtin_mul_overflow(nblk, blen, &n) ||
        __builtin_mul_overflow(n, t->size, &sz) ||
        __builtin_add_overflow(a->size, sz, &a->size) ||
        __builtin_add_overflow(ks, js, &x) ||
        __builtin_add_overflow(disp, x, &x))
        return too_large();
    MPI_Aint xs[4] = { disp, disp + ks, disp + js, disp + ks + js };
    for (int i = 0; i < 4; i++)
        acc_corner(a, xs[i], t);
    a->nelems += n * t->nelems;
    if (t->size > 0) {
        a->nbasic += n * t->nbasic;
        if (t->basic == NULL || (a->basic != NULL && a->basic != t->basic))
            a->mixed = true;
        a->basic = t->basic;
    }
    if (t->align > a->align)
        a->align = t->align;
    return XB_OK;
}

static int acc_finish(const dt_acc_t *a, int combiner, xb_datatype_t **out)
{
    xb_datatype_t *dt = calloc(1, sizeof(*dt));
    if (dt == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory creating a datatype");
    dt->magic = XB_MAGIC_DTYPE;
    dt->refcount = 1;
    dt->uref = 1;
    dt->combiner = combiner;
    dt->handle = (MPI_Datatype)dt;
    dt->size = a->size;
    dt->nelems = a->nelems;
    dt->nbasic = a->mixed ? 0 : a->nbasic;
    dt->basic = a->mixed ? NULL : a->basic;
    dt->align = a->align > 0 ? a->align : 1;
    dt->true_lb = a->has_tlb ? a->tlb : 0;
    dt->true_ub = a->has_tub ? a->tub : 0;
    dt->lb = a->has_lb ? a->mlb : (a->has_dlb ? a->dlb : 0);
    dt->ub = a->has_ub ? a->mub : (a->has_dub ? a->dub : 0);
    if (a->has_lb)
        dt->flags |= DT_F_HAS_LB;
    if (a->has_ub)
        dt->flags |= DT_F_HAS_UB;
    if (a->size == 0 && !a->has_lb && !a->has_ub)
        dt->flags |= DT_F_EMPTY;
    if (combiner == MPI_COMBINER_STRUCT && !a->has_ub && dt->ub > dt->lb) {
        /* The standard's epsilon: round the extent up to the alignment. */
        MPI_Aint ext = dt->ub - dt->lb, al = dt->align;
        dt->ub += (al - ext % al) % al;
    }
    dt->extent = dt->ub - dt->lb;
    *out = dt;
    return XB_OK;
}

static int check_blens(MPI_Count count, const MPI_Count *blens)
{
    if (count > 0 && blens == NULL)
        return xb_err_set(XB_ERR_ARG, "NULL array_of_blocklengths with a "
                          "count of %lld", (long long)count);
    for (MPI_Count i = 0; i < count; i++)
        if (blens[i] < 0)
            return xb_err_set(XB_ERR_ARG, "negative block length %lld in "
                              "array_of_blocklengths[%lld]",
                              (long long)blens[i], (long long)i);
    return XB_OK;
}

static int check_displs(MPI_Count count, const void *displs)
{
    if (count > 0 && displs == NULL)
        return xb_err_set(XB_ERR_ARG, "NULL array_of_displacements with a "
                          "count of %lld", (long long)count);
    return XB_OK;
}

static int check_count(const char *what, MPI_Count v)
{
    if (v < 0)
        return xb_err_set(XB_ERR_COUNT, "negative %s %lld", what, (long long)v);
    if (v > INT64_MAX / 2)
        return too_large();
    return XB_OK;
}

int xb_dt_set_envelope(xb_datatype_t *dt, int n_ints, const MPI_Count *ints,
                       int n_aints, const MPI_Aint *aints, int n_types,
                       xb_datatype_t *const *types)
{
    dt->ints = n_ints ? malloc((size_t)n_ints * sizeof(MPI_Count)) : NULL;
    dt->aints = n_aints ? malloc((size_t)n_aints * sizeof(MPI_Aint)) : NULL;
    dt->types = n_types ? malloc((size_t)n_types * sizeof(*types)) : NULL;
    if ((n_ints && !dt->ints) || (n_aints && !dt->aints) ||
        (n_types && !dt->types)) {
        free(dt->ints);
        free(dt->aints);
        free(dt->types);
        dt->ints = NULL;
        dt->aints = NULL;
        dt->types = NULL;
        return xb_err_set(XB_ERR_NO_MEM, "out of memory creating a datatype");
    }
    if (n_ints)
        memcpy(dt->ints, ints, (size_t)n_ints * sizeof(MPI_Count));
    if (n_aints)
        memcpy(dt->aints, aints, (size_t)n_aints * sizeof(MPI_Aint));
    for (int i = 0; i < n_types; i++) {
        dt->types[i] = types[i];
        xb_dt_retain(types[i]);
    }
    dt->n_ints = n_ints;
    dt->n_aints = n_aints;
    dt->n_types = n_types;
    return XB_OK;
}

/* Destroyed type objects wait here (magic XB_MAGIC_FREED) before their
 * memory goes, so that a handle used shortly after its MPI_Type_free is
 * reported as a freed datatype instead of reading freed memory. */
#define DT_QUARANTINE 256
static xb_datatype_t *quarantine[DT_QUARANTINE];
static unsigned quarantine_next;
static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;

static void quarantine_put(xb_datatype_t *dt)
{
    pthread_mutex_lock(&quarantine_lock);
    xb_datatype_t *old = quarantine[quarantine_next];
    quarantine[quarantine_next] = dt;
    quarantine_next = (quarantine_next + 1) % DT_QUARANTINE;
    pthread_mutex_unlock(&quarantine_lock);
    free(old);
}

void xb_dt_destroy(xb_datatype_t *dt)
{
    for (int i = 0; i < dt->n_types; i++)
        xb_dt_release(dt->types[i]);
    if (dt->equiv != NULL)
        xb_dt_release(dt->equiv);
    if (dt->root != NULL)
        xb_dt_node_free(dt->root);
    free(dt->ints);
    free(dt->aints);
    free(dt->types);
    dt->ints = NULL;
    dt->aints = NULL;
    dt->types = NULL;
    dt->root = NULL;
    dt->n_ints = dt->n_aints = dt->n_types = 0;
    __atomic_store_n(&dt->magic, XB_MAGIC_FREED, __ATOMIC_RELEASE);
    quarantine_put(dt);
}

/* Finishes a constructor: creates the object and records the envelope. The
 * integer arguments are passed as up to three scalars followed by an array. */
static int finish(const dt_acc_t *a, int combiner, int nsc, const MPI_Count *sc,
                  MPI_Count narr, const MPI_Count *arr, int n_aints,
                  const MPI_Aint *aints, int n_types, xb_datatype_t *const *types,
                  xb_datatype_t **out)
{
    xb_datatype_t *dt = NULL;
    int rc = acc_finish(a, combiner, &dt);
    if (rc != XB_OK)
        return rc;
    MPI_Count nint = nsc + narr;
    if (nint > INT32_MAX || narr > INT32_MAX / 2) {
        xb_dt_destroy(dt);
        return too_large();
    }
    MPI_Count *ints = malloc((size_t)(nint > 0 ? nint : 1) * sizeof(MPI_Count));
    if (ints == NULL) {
        xb_dt_destroy(dt);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory creating a datatype");
    }
    for (int i = 0; i < nsc; i++)
        ints[i] = sc[i];
    if (narr > 0)
        memcpy(ints + nsc, arr, (size_t)narr * sizeof(MPI_Count));
    rc = xb_dt_set_envelope(dt, (int)nint, ints, n_aints, aints, n_types, types);
    free(ints);
    if (rc != XB_OK) {
        xb_dt_destroy(dt);
        return rc;
    }
    *out = dt;
    return XB_OK;
}

int xb_dt_make_contiguous(MPI_Count count, xb_datatype_t *old, xb_datatype_t **out)
{
    dt_acc_t a = {0};
    int rc = check_count("count", count);
    if (rc == XB_OK)
        rc = acc_add(&a, 0, 1, 0, count, old);
    if (rc != XB_OK)
        return rc;
    return finish(&a, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 0, NULL,
                  1, &old, out);
}

int xb_dt_make_vector(MPI_Count count, MPI_Count blen, MPI_Aint stride,
                      bool hvector, xb_datatype_t *old, xb_datatype_t **out)
{
    dt_acc_t a = {0};
    MPI_Aint bstride = stride;
    int rc = check_count("count", count);
    if (rc == XB_OK)
        rc = check_count("blocklength", blen);
    if (rc != XB_OK)
        return rc;
    if (!hvector && __builtin_mul_overflow(stride, old->extent, &bstride))
        return too_large();
    rc = acc_add(&a, 0, count, bstride, blen, old);
    if (rc != XB_OK)
        return rc;
    MPI_Count sc[3] = { count, blen, stride };
    if (hvector)
        return finish(&a, MPI_COMBINER_HVECTOR, 2, sc, 0, NULL, 1, &stride,
                      1, &old, out);
    return finish(&a, MPI_COMBINER_VECTOR, 3, sc, 0, NULL, 0, NULL, 1, &old, out);
}

/* indexed (displacements in extents) and hindexed (bytes); blens == NULL
 * means every block has `blen` elements (the _block variants). */
int xb_dt_make_indexed(MPI_Count count, const MPI_Count *blens, MPI_Count blen,
                       const MPI_Count *displs, bool bytes, xb_datatype_t *old,
                       xb_datatype_t **out)
{
    dt_acc_t a = {0};
    int rc = check_count("count", count);
    if (rc == XB_OK)
        rc = blens != NULL ? check_blens(count, blens) : check_count("blocklength", blen);
    if (rc == XB_OK)
        rc = check_displs(count, displs);
    if (rc != XB_OK)
        return rc;
    for (MPI_Count i = 0; i < count && rc == XB_OK; i++) {
        MPI_Aint d = (MPI_Aint)displs[i];
        if (!bytes && __builtin_mul_overflow(d, old->extent, &d))
            return too_large();
        rc = acc_add(&a, d, 1, 0, blens != NULL ? blens[i] : blen, old);
    }
    if (rc != XB_OK)
        return rc;
    MPI_Count sc[2] = { count, blen };
    int comb;
    if (blens != NULL) {
        comb = bytes ? MPI_COMBINER_HINDEXED : MPI_COMBINER_INDEXED;
        if (bytes)
            return finish(&a, comb, 1, sc, count, blens, (int)count,
                          (const MPI_Aint *)displs, 1, &old, out);
        /* indexed: ints = count, blens[], displs[] */
        MPI_Count *both = malloc((size_t)(2 * count + 1) * sizeof(MPI_Count));
        if (both == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "out of memory creating a datatype");
        memcpy(both, blens, (size_t)count * sizeof(MPI_Count));
        memcpy(both + count, displs, (size_t)count * sizeof(MPI_Count));
        rc = finish(&a, comb, 1, sc, 2 * count, both, 0, NULL, 1, &old, out);
        free(both);
        return rc;
    }
    comb = bytes ? MPI_COMBINER_HINDEXED_BLOCK : MPI_COMBINER_INDEXED_BLOCK;
    if (bytes)
        return finish(&a, comb, 2, sc, 0, NULL, (int)count,
                      (const MPI_Aint *)displs, 1, &old, out);
    return finish(&a, comb, 2, sc, count, displs, 0, NULL, 1, &old, out);
}

int xb_dt_make_struct(MPI_Count count, const MPI_Count *blens,
                      const MPI_Count *displs, xb_datatype_t *const *types,
                      xb_datatype_t **out)
{
    dt_acc_t a = {0};
    int rc = check_count("count", count);
    if (rc == XB_OK)
        rc = check_blens(count, blens);
    if (rc == XB_OK)
        rc = check_displs(count, displs);
    if (rc != XB_OK)
        return rc;
    if (count > INT32_MAX)
        return too_large();
    for (MPI_Count i = 0; i < count && rc == XB_OK; i++)
        rc = acc_add(&a, (MPI_Aint)displs[i], 1, 0, blens[i], types[i]);
    if (rc != XB_OK)
        return rc;
    return finish(&a, MPI_COMBINER_STRUCT, 1, &count, count, blens, (int)count,
                  (const MPI_Aint *)displs, (int)count, types, out);
}

/* resized (lb, extent given) and dup (everything copied). */
static int make_copy(xb_datatype_t *old, int combiner, xb_datatype_t **out)
{
    xb_datatype_t *dt = calloc(1, sizeof(*dt));
    if (dt == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory creating a datatype");
    dt->magic = XB_MAGIC_DTYPE;
    dt->refcount = 1;
    dt->uref = 1;
    dt->combiner = combiner;
    dt->handle = (MPI_Datatype)dt;
    dt->flags = old->flags & (DT_F_HAS_LB | DT_F_HAS_UB | DT_F_EMPTY);
    dt->align = old->align;
    dt->size = old->size;
    dt->lb = old->lb;
    dt->ub = old->ub;
    dt->extent = old->extent;
    dt->true_lb = old->true_lb;
    dt->true_ub = old->true_ub;
    dt->basic = old->basic;
    dt->nbasic = old->nbasic;
    dt->nelems = old->nelems;
    *out = dt;
    return XB_OK;
}

int xb_dt_make_resized(xb_datatype_t *old, MPI_Aint lb, MPI_Aint extent,
                       xb_datatype_t **out)
{
    MPI_Aint ub;
    if (__builtin_add_overflow(lb, extent, &ub))
        return too_large();
    xb_datatype_t *dt = NULL;
    int rc = make_copy(old, MPI_COMBINER_RESIZED, &dt);
    if (rc != XB_OK)
        return rc;
    dt->lb = lb;
    dt->ub = ub;
    dt->extent = extent;
    dt->flags = (dt->flags & ~DT_F_EMPTY) | DT_F_HAS_LB | DT_F_HAS_UB;
    MPI_Aint av[2] = { lb, extent };
    rc = xb_dt_set_envelope(dt, 0, NULL, 2, av, 1, &old);
    if (rc != XB_OK) {
        xb_dt_destroy(dt);
        return rc;
    }
    *out = dt;
    return XB_OK;
}

int xb_dt_make_dup(xb_datatype_t *old, xb_datatype_t **out)
{
    xb_datatype_t *dt = NULL;
    int rc = make_copy(old, MPI_COMBINER_DUP, &dt);
    if (rc == XB_OK)
        rc = xb_dt_set_envelope(dt, 0, NULL, 0, NULL, 1, &old);
    if (rc != XB_OK) {
        if (dt != NULL)
            xb_dt_destroy(dt);
        return rc;
    }
    /* A duplicate of a committed type is committed (MPI_Type_dup). */
    if (old->flags & DT_F_COMMITTED) {
        rc = xb_dt_compile(dt);
        if (rc != XB_OK) {
            xb_dt_destroy(dt);
            return rc;
        }
    }
    *out = dt;
    return XB_OK;
}

int xb_dt_make_wrapper(xb_datatype_t *equiv, int combiner, int n_ints,
                       const MPI_Count *ints, xb_datatype_t *old,
                       xb_datatype_t **out)
{
    xb_datatype_t *dt = NULL;
    int rc = make_copy(equiv, combiner, &dt);
    if (rc == XB_OK)
        rc = xb_dt_set_envelope(dt, n_ints, ints, 0, NULL, old != NULL, &old);
    if (rc != XB_OK) {
        if (dt != NULL)
            xb_dt_destroy(dt);
        xb_dt_release(equiv);
        return rc;
    }
    dt->equiv = equiv;
    *out = dt;
    return XB_OK;
}
