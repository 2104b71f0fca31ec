/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_elements.c - the inverse of MPI_Get_elements' signature walk
 * (dt_query.c): how many packed bytes the first k basic elements of a run
 * of instances of a type occupy. MPI_Status_set_elements stores that byte
 * count in the status, so MPI_Get_elements on the same type gives k back
 * and MPI_Get_count gives k / nelems when it is a whole number of
 * instances (MPI_UNDEFINED otherwise).
 */
#include "datatype/dt_inl.h"

/* Bytes of the first k basic elements of one instance (0 <= k < nelems). */
static MPI_Count part_bytes(const xb_datatype_t *t, MPI_Count k);

static MPI_Count run_bytes(const xb_datatype_t *t, MPI_Count k)
{
    if (t->nelems == 0)
        return 0;
    return (k / t->nelems) * t->size + part_bytes(t, k % t->nelems);
}

static MPI_Count part_bytes(const xb_datatype_t *t, MPI_Count k)
{
    if (k == 0)
        return 0;
    if (t->flags & DT_F_PREDEF) {
        MPI_Count a, b;
        xb_dt_pair_parts(t, &a, &b);     /* k == 1 of a pair: its first part */
        return a;
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
        return run_bytes(t->types[0], k);
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
    case MPI_COMBINER_F90_INTEGER:
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
        return part_bytes(t->equiv, k);
    default:
        break;
    }
    /* indexed, hindexed, struct: ints = count, blocklengths[count], ... */
    MPI_Count acc = 0;
    for (MPI_Count i = 0; i < I[0]; i++) {
        const xb_datatype_t *c = t->types[t->n_types == 1 ? 0 : i];
        MPI_Count n = I[1 + i] * c->nelems;
        if (k >= n) {
            acc += I[1 + i] * c->size;
            k -= n;
            continue;
        }
        return acc + run_bytes(c, k);
    }
    return acc;
}

int xb_dt_elements_bytes(const xb_datatype_t *dt, MPI_Count count, MPI_Count *bytes)
{
    if (count < 0)
        return xb_err_set(XB_ERR_COUNT, "count %lld is negative", (long long)count);
    if (count == 0) {
        *bytes = 0;
        return XB_OK;
    }
    if (dt->nelems == 0 || dt->size == 0)
        return xb_err_set(XB_ERR_TYPE, "datatype %s has no basic elements (size 0): the only "
                          "element count it can describe is 0, not %lld",
                          dt->name[0] ? dt->name : "(derived)", (long long)count);
    /* a status holds any byte count up to INT64_MAX (request.h); the part
     * of a last partial instance is below one size */
    if (count / dt->nelems > (MPI_Count)(INT64_MAX - (dt->size - 1)) / dt->size)
        return xb_err_set(XB_ERR_COUNT, "count %lld of datatype %s is more bytes than a "
                          "status can hold", (long long)count,
                          dt->name[0] ? dt->name : "(derived)");
    *bytes = run_bytes(dt, count);
    return XB_OK;
}
