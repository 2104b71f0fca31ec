/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_contents.c - MPI_Type_get_envelope and MPI_Type_get_contents (and their
 * _c forms), read from the envelope every constructor records.
 *
 * The envelope is stored in the int layout of the standard's table (integers
 * as MPI_Count, addresses, types). The large-count layout moves every count
 * and displacement into array_of_large_counts, leaving in the integers only
 * what stays `int` in the _c constructors (ndims, order, and darray's size,
 * rank, distributions, arguments and process grid).
 *
 * The layout follows the constructor that made the type (the binding tells
 * the constructors which form called them: `largeform` in
 * spec/implemented.txt): a type made by an int constructor answers the int
 * layout in both forms (num_large_counts = 0 in the _c form); a type made by
 * a _c constructor (DT_F_LARGE_CTOR) answers the large layout in the _c
 * form, and the int forms refuse it with MPI_ERR_TYPE whenever that layout
 * has large counts (every _c constructor has at least one), whether or not
 * the values would fit an int. MPI 4.1, section 5.1.13 ("Decoding a
 * Datatype"), checked against its text:
 *   "If the MPI_TYPE_GET_ENVELOPE variant without num_large_counts is
 *    invoked with a datatype that requires an output value of
 *    num_large_counts > 0, then an error of class MPI_ERR_TYPE is raised."
 *   "If the MPI_TYPE_GET_CONTENTS variant without max_large_counts is
 *    invoked with a datatype that requires > 0 values in
 *    array_of_large_counts, then an error of class MPI_ERR_TYPE is raised."
 *   "the descriptions below [the per-combiner tables of ni, na, nd] refer to
 *    MPI datatypes created by procedures without large count arguments"
 *    (so an int-made type has no large counts, in either form).
 *
 * Child types are returned as new user references (each to be freed with
 * MPI_Type_free), predefined ones as their constant.
 */
#include <stdlib.h>
#include <string.h>
#include "datatype/dt_types.h"
#include "xb_impl.h"

typedef struct layout {
    MPI_Count ni, na, nl;      /* integers, addresses, large counts */
    MPI_Count *i;              /* ni + nl values: integers first, then large */
    bool      large;
} layout_t;

/* Indices (into dt->ints) that stay int in the large layout. */
static bool stays_int(const xb_datatype_t *dt, MPI_Count k)
{
    MPI_Count nd;
    switch (dt->combiner) {
    case MPI_COMBINER_SUBARRAY:
        nd = dt->ints[0];
        return k == 0 || k == 1 + 3 * nd;
    case MPI_COMBINER_DARRAY:
        nd = dt->ints[2];
        return k < 3 || k >= 3 + nd;
    case MPI_COMBINER_F90_INTEGER:
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
        return true;
    default:
        return false;
    }
}

static int layout_get(const xb_datatype_t *dt, bool want_large, layout_t *l)
{
    memset(l, 0, sizeof(*l));
    l->large = want_large && (dt->flags & DT_F_LARGE_CTOR);
    if (!l->large) {
        l->ni = dt->n_ints;
        l->na = dt->n_aints;
        l->i = dt->ints;
        return XB_OK;
    }
    l->i = malloc((size_t)(dt->n_ints + dt->n_aints + 1) * sizeof(MPI_Count));
    if (l->i == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory reading a datatype");
    for (MPI_Count k = 0; k < dt->n_ints; k++)
        if (stays_int(dt, k))
            l->i[l->ni++] = dt->ints[k];
    MPI_Count *L = l->i + l->ni;
    for (MPI_Count k = 0; k < dt->n_ints; k++)
        if (!stays_int(dt, k))
            L[l->nl++] = dt->ints[k];
    for (MPI_Count k = 0; k < dt->n_aints; k++)
        L[l->nl++] = dt->aints[k];
    return XB_OK;
}

static void layout_free(const xb_datatype_t *dt, layout_t *l)
{
    if (l->i != dt->ints)
        free(l->i);
}

/* The int forms of a type whose decoding needs large counts (MPI 4.1
 * section 5.1.13: MPI_ERR_TYPE). */
static int int_form_check(const xb_datatype_t *dt, bool large_form)
{
    if (large_form || !(dt->flags & DT_F_LARGE_CTOR))
        return XB_OK;
    layout_t l;
    int rc = layout_get(dt, true, &l);
    if (rc != XB_OK)
        return rc;
    MPI_Count nl = l.nl;
    layout_free(dt, &l);
    if (nl > 0)
        return xb_err_set(XB_ERR_TYPE, "the datatype was created by a large-count "
                          "(_c) constructor: decoding it needs %lld large counts, "
                          "which only MPI_Type_get_envelope_c and "
                          "MPI_Type_get_contents_c return", (long long)nl);
    return XB_OK;
}

int xb_impl_type_get_envelope(xb_datatype_t *datatype, MPI_Count *num_integers,
                              MPI_Count *num_addresses, MPI_Count *num_large_counts,
                              MPI_Count *num_datatypes, int *combiner)
{
    bool large_form = num_large_counts != NULL;
    if (datatype->combiner == MPI_COMBINER_NAMED) {
        *num_integers = *num_addresses = *num_datatypes = 0;
        if (large_form)
            *num_large_counts = 0;
        *combiner = MPI_COMBINER_NAMED;
        return XB_OK;
    }
    int rc = int_form_check(datatype, large_form);
    layout_t l;
    if (rc == XB_OK)
        rc = layout_get(datatype, large_form, &l);
    if (rc != XB_OK)
        return rc;
    *num_integers = l.ni;
    *num_addresses = l.na;
    if (large_form)
        *num_large_counts = l.nl;
    *num_datatypes = datatype->n_types;
    *combiner = datatype->combiner;
    layout_free(datatype, &l);
    return XB_OK;
}

static int too_small(const char *what, MPI_Count max, MPI_Count need)
{
    return xb_err_set(XB_ERR_ARG, "%s is %lld but the datatype has %lld of them "
                      "(see MPI_Type_get_envelope)", what, (long long)max,
                      (long long)need);
}

/* A child type handed to the user: one more user reference. */
static MPI_Datatype give_child(xb_datatype_t *c)
{
    if (!(c->flags & DT_F_PREDEF)) {
        xb_dt_retain(c);
        if (__atomic_fetch_add(&c->uref, 1, __ATOMIC_ACQ_REL) == 0)
            __atomic_and_fetch(&c->flags, ~(uint32_t)DT_F_USER_FREED,
                               __ATOMIC_RELEASE);
    }
    return xb_dt_to_handle(c);
}

int xb_impl_type_get_contents(xb_datatype_t *datatype, MPI_Count max_integers,
                              MPI_Count max_addresses, MPI_Count max_large_counts,
                              MPI_Count max_datatypes, int array_of_integers[],
                              MPI_Aint array_of_addresses[],
                              MPI_Count array_of_large_counts[],
                              MPI_Datatype array_of_datatypes[])
{
    bool large_form = array_of_large_counts != NULL || max_large_counts > 0;
    if (datatype->combiner == MPI_COMBINER_NAMED)
        return xb_err_set(XB_ERR_TYPE, "%s is a named predefined datatype: it "
                          "has no contents (its combiner is MPI_COMBINER_NAMED)",
                          datatype->name);
    int rc = int_form_check(datatype, large_form);
    layout_t l;
    if (rc == XB_OK)
        rc = layout_get(datatype, large_form, &l);
    if (rc != XB_OK)
        return rc;
    if (max_integers < l.ni)
        rc = too_small("max_integers", max_integers, l.ni);
    else if (max_addresses < l.na)
        rc = too_small("max_addresses", max_addresses, l.na);
    else if (max_large_counts < l.nl)
        rc = too_small("max_large_counts", max_large_counts, l.nl);
    else if (max_datatypes < datatype->n_types)
        rc = too_small("max_datatypes", max_datatypes, datatype->n_types);
    if (rc == XB_OK) {
        for (MPI_Count k = 0; k < l.ni; k++)
            array_of_integers[k] = (int)l.i[k];
        for (MPI_Count k = 0; k < l.nl; k++)
            array_of_large_counts[k] = l.i[l.ni + k];
        for (MPI_Count k = 0; k < l.na; k++)
            array_of_addresses[k] = datatype->aints[k];
        for (int k = 0; k < datatype->n_types; k++)
            array_of_datatypes[k] = give_child(datatype->types[k]);
    }
    layout_free(datatype, &l);
    return rc;
}
