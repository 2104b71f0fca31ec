/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_f90.c - the functions that answer a predefined type:
 * MPI_Type_create_f90_integer/real/complex, MPI_Type_match_size and
 * MPI_Type_get_value_index (MPI 4.1: the predefined pair type of a
 * value and an index type for MINLOC/MAXLOC, or MPI_DATATYPE_NULL when
 * there is none).
 *
 * An f90 type is the sized Fortran type (MPI_INTEGERn, MPI_REALn,
 * MPI_COMPLEXn) that Fortran's SELECTED_INT_KIND(r) / SELECTED_REAL_KIND(p, r)
 * would choose with gfortran's kinds (integers of 1, 2, 4, 8, 16 bytes;
 * IEEE reals of 4, 8 and 16 bytes). The standard makes the returned types
 * predefined: they cannot be freed, and the same (p, r) gives the same
 * handle, so they are made once, kept in a small cache for the life of the
 * process, and answer MPI_Type_get_envelope with their F90 combiner and
 * (p, r) arguments.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include "datatype/dt_types.h"
#include "xb_impl.h"

#define F90_CACHE 64

typedef struct f90_entry { int combiner, p, r; xb_datatype_t *dt; } f90_entry_t;
static f90_entry_t f90_cache[F90_CACHE];
static int f90_n;
static pthread_mutex_t f90_lock = PTHREAD_MUTEX_INITIALIZER;

/* Decimal precision and exponent range of the IEEE formats. */
static const struct { int p, r; MPI_Datatype real, complex; } reals[] = {
    { 6, 37, MPI_REAL4, MPI_COMPLEX8 },
    { 15, 307, MPI_REAL8, MPI_COMPLEX16 },
    { 33, 4931, MPI_REAL16, MPI_COMPLEX32 },
};

/* Decimal range of the integer kinds: the largest r with 10^r < 2^(8n-1). */
static const struct { int r; MPI_Datatype type; } ints[] = {
    { 2, MPI_INTEGER1 }, { 4, MPI_INTEGER2 }, { 9, MPI_INTEGER4 },
    { 18, MPI_INTEGER8 }, { 38, MPI_INTEGER16 },
};

static int make_f90(int combiner, int p, int r, MPI_Datatype base,
                    const char *name, MPI_Datatype *newtype)
{
    int rc = XB_OK;
    pthread_mutex_lock(&f90_lock);
    for (int i = 0; i < f90_n; i++) {
        f90_entry_t *e = &f90_cache[i];
        if (e->combiner == combiner && e->p == p && e->r == r) {
            *newtype = xb_dt_to_handle(e->dt);
            goto out_unlock;
        }
    }
    if (f90_n == F90_CACHE) {
        rc = xb_err_set(XB_ERR_INTERN, "more than %d different f90 datatypes",
                        F90_CACHE);
        goto out_unlock;
    }
    MPI_Count args[2] = { p, r };
    int nargs = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    if (nargs == 1)
        args[0] = r;
    xb_datatype_t *dt = NULL;
    rc = xb_dt_make_wrapper(xb_dt_from_handle(base), combiner, nargs, args,
                            NULL, &dt);
    if (rc == XB_OK)
        rc = xb_dt_compile(dt);
    if (rc != XB_OK)
        goto out_unlock;
    dt->flags |= DT_F_PREDEF;
    snprintf(dt->name, sizeof(dt->name), "%s", name);
    f90_cache[f90_n++] = (f90_entry_t){ combiner, p, r, dt };
    *newtype = xb_dt_to_handle(dt);
out_unlock:
    pthread_mutex_unlock(&f90_lock);
    return rc;
}

int xb_impl_type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    for (size_t i = 0; i < XB_ARRAY_LEN(ints); i++) {
        if (r <= ints[i].r) {
            char name[64];
            snprintf(name, sizeof(name), "MPI_TYPE_CREATE_F90_INTEGER(%d)", r);
            return make_f90(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r,
                            ints[i].type, name, newtype);
        }
    }
    return xb_err_set(XB_ERR_ARG, "r = %d: no integer kind has a decimal "
                      "range that large (at most 38)", r);
}

static int f90_real(int combiner, int p, int r, MPI_Datatype *newtype)
{
    const char *what = combiner == MPI_COMBINER_F90_REAL ? "REAL" : "COMPLEX";
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return xb_err_set(XB_ERR_ARG, "p and r are both MPI_UNDEFINED");
    for (size_t i = 0; i < XB_ARRAY_LEN(reals); i++) {
        if ((p == MPI_UNDEFINED || p <= reals[i].p) &&
            (r == MPI_UNDEFINED || r <= reals[i].r)) {
            char name[64];
            snprintf(name, sizeof(name), "MPI_TYPE_CREATE_F90_%s(%d, %d)", what, p, r);
            return make_f90(combiner, p, r, combiner == MPI_COMBINER_F90_REAL
                            ? reals[i].real : reals[i].complex, name, newtype);
        }
    }
    return xb_err_set(XB_ERR_ARG, "p = %d, r = %d: no %s kind has that "
                      "precision and range (at most p = 33, r = 4931)", p, r, what);
}

int xb_impl_type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return f90_real(MPI_COMBINER_F90_REAL, p, r, newtype);
}

int xb_impl_type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return f90_real(MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

int xb_impl_type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const struct { int cls, size; MPI_Datatype type; } match[] = {
        { MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1 },
        { MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2 },
        { MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4 },
        { MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8 },
        { MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16 },
        { MPI_TYPECLASS_REAL, 2, MPI_REAL2 },
        { MPI_TYPECLASS_REAL, 4, MPI_REAL4 },
        { MPI_TYPECLASS_REAL, 8, MPI_REAL8 },
        { MPI_TYPECLASS_REAL, 16, MPI_REAL16 },
        { MPI_TYPECLASS_COMPLEX, 4, MPI_COMPLEX4 },
        { MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8 },
        { MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16 },
        { MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32 },
    };
    if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL &&
        typeclass != MPI_TYPECLASS_COMPLEX)
        return xb_err_set(XB_ERR_ARG, "typeclass %d is not MPI_TYPECLASS_INTEGER, "
                          "_REAL or _COMPLEX", typeclass);
    for (size_t i = 0; i < XB_ARRAY_LEN(match); i++) {
        if (match[i].cls == typeclass && match[i].size == size) {
            *datatype = match[i].type;
            return XB_OK;
        }
    }
    return xb_err_set(XB_ERR_ARG, "no %s type of size %d bytes",
                      typeclass == MPI_TYPECLASS_INTEGER ? "integer"
                      : typeclass == MPI_TYPECLASS_REAL ? "real" : "complex", size);
}

int xb_impl_type_get_value_index(xb_datatype_t *value_type, xb_datatype_t *index_type,
                                 MPI_Datatype *pair_type)
{
    static const struct { MPI_Datatype value, index, pair; } pairs[] = {
        { MPI_FLOAT, MPI_INT, MPI_FLOAT_INT },
        { MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT },
        { MPI_LONG, MPI_INT, MPI_LONG_INT },
        { MPI_INT, MPI_INT, MPI_2INT },
        { MPI_SHORT, MPI_INT, MPI_SHORT_INT },
        { MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT },
        { MPI_REAL, MPI_REAL, MPI_2REAL },
        { MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION },
        { MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER },
    };
    MPI_Datatype v = xb_dt_to_handle(value_type), i = xb_dt_to_handle(index_type);
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t k = 0; k < XB_ARRAY_LEN(pairs); k++)
        if (pairs[k].value == v && pairs[k].index == i)
            *pair_type = pairs[k].pair;
    return XB_OK;
}
