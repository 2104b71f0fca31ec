/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_query.c - the out-of-line queries of datatype.h, reference counting,
 * and the signature walks (MPI_Get_elements, the basic type of reductions).
 */
#include "datatype/dt_inl.h"

MPI_Count xb_dt_size(const xb_datatype_t *dt) { return dt->size; }
MPI_Aint  xb_dt_extent(const xb_datatype_t *dt) { return dt->extent; }
MPI_Aint  xb_dt_lb(const xb_datatype_t *dt) { return dt->lb; }
MPI_Aint  xb_dt_true_lb(const xb_datatype_t *dt) { return dt->true_lb; }
MPI_Aint  xb_dt_true_extent(const xb_datatype_t *dt)
{
    return dt->true_ub - dt->true_lb;
}
bool xb_dt_is_committed(const xb_datatype_t *dt)
{
    return (__atomic_load_n(&dt->flags, __ATOMIC_ACQUIRE) & DT_F_COMMITTED) != 0;
}
bool xb_dt_is_predefined(const xb_datatype_t *dt)
{
    return (dt->flags & DT_F_PREDEF) != 0;
}
const char *xb_dt_name(const xb_datatype_t *dt) { return dt->name; }
bool xb_dt_is_contig(const xb_datatype_t *dt, MPI_Count count)
{
    return xb_dti_is_contig(dt, count);
}

void xb_dt_retain(xb_datatype_t *dt)
{
    if (!(dt->flags & DT_F_PREDEF))
        __atomic_add_fetch(&dt->refcount, 1, __ATOMIC_RELAXED);
}

void xb_dt_release(xb_datatype_t *dt)
{
    if (dt->flags & DT_F_PREDEF)
        return;
    if (__atomic_sub_fetch(&dt->refcount, 1, __ATOMIC_ACQ_REL) == 0)
        xb_dt_destroy(dt);
}

const xb_datatype_t *xb_dt_basic(const xb_datatype_t *dt, MPI_Count *per_elem)
{
    if (dt->basic == NULL)
        return NULL;
    *per_elem = dt->nbasic;
    return dt->basic;
}

/* Basic elements wholly inside the first r bytes (0 <= r < size) of one
 * instance of t; -1 when byte r falls inside an element. */
static MPI_Count partial(const xb_datatype_t *t, MPI_Count r);

static MPI_Count in_run(const xb_datatype_t *t, MPI_Count r)
{
    MPI_Count p = partial(t, r % t->size);
    return p < 0 ? -1 : (r / t->size) * t->nelems + p;
}

static MPI_Count partial(const xb_datatype_t *t, MPI_Count r)
{
    if (r == 0)
        return 0;
    if (t->flags & DT_F_PREDEF) {
        MPI_Count a, b;
        xb_dt_pair_parts(t, &a, &b);
        return a > 0 && r == a ? 1 : -1;
    }
    const MPI_Count *I = t->ints;
    switch (t->combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
    case MPI_COMBINER_CONTIGUOUS:
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
        return in_run(t->types[0], r);   /* a sequence of one child type */
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
    case MPI_COMBINER_F90_INTEGER:
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
        return partial(t->equiv, r);     /* described by its equivalent */
    default:
        break;
    }
    /* indexed, hindexed, struct: ints = count, blocklengths[count], ... */
    MPI_Count acc = 0;
    for (MPI_Count i = 0; i < I[0]; i++) {
        const xb_datatype_t *c = t->types[t->n_types == 1 ? 0 : i];
        MPI_Count bsz = I[1 + i] * c->size;
        if (r >= bsz) {
            acc += I[1 + i] * c->nelems;
            r -= bsz;
            continue;
        }
        MPI_Count p = in_run(c, r);
        return p < 0 ? -1 : acc + p;
    }
    return r == 0 ? acc : -1;
}

MPI_Count xb_dt_elements(const xb_datatype_t *dt, MPI_Count bytes)
{
    if (dt->size == 0)
        return bytes == 0 ? 0 : MPI_UNDEFINED;
    MPI_Count p = in_run(dt, bytes);
    return p < 0 ? MPI_UNDEFINED : p;
}
