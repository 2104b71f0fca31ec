/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_impl.c - the MPI datatype functions (xb_impl_*, called by the generated
 * binding with IN handles resolved and counts widened to MPI_Count).
 * Checks the generator cannot do live here: negative block lengths, handles
 * inside arrays, predefined types that cannot be freed, buffer space.
 */
#include <stdlib.h>
#include <string.h>
#include "datatype/dt_types.h"
#include "core/request.h"
#include "core/attr.h"
#include "xb_impl.h"

/* Takes the address of the result so that it is read after the constructor
 * ran (argument evaluation order is unspecified). large: made by the _c form
 * (MPI_Type_get_contents_c then answers the large-count layout). */
static int give(int rc, xb_datatype_t **dt_p, bool large, MPI_Datatype *newtype)
{
    if (rc != XB_OK)
        return rc;
    if (large)
        (*dt_p)->flags |= DT_F_LARGE_CTOR;
    *newtype = xb_dt_to_handle(*dt_p);
    return rc;
}

static int need_blens(MPI_Count count, const MPI_Count *blens)
{
    if (count > 0 && blens == NULL)
        return xb_err_set(XB_ERR_ARG, "NULL array_of_blocklengths with a "
                          "count of %lld", (long long)count);
    return XB_OK;
}

int xb_impl_type_contiguous(MPI_Count count, xb_datatype_t *oldtype,
                            MPI_Datatype *newtype, bool large)
{
    xb_datatype_t *dt = NULL;
    int rc = xb_dt_make_contiguous(count, oldtype, &dt);
    return give(rc, &dt, large, newtype);
}

int xb_impl_type_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                        xb_datatype_t *oldtype, MPI_Datatype *newtype, bool large)
{
    xb_datatype_t *dt = NULL;
    int rc = xb_dt_make_vector(count, blocklength, (MPI_Aint)stride, false,
                                  oldtype, &dt);
    return give(rc, &dt, large, newtype);
}

int xb_impl_type_create_hvector(MPI_Count count, MPI_Count blocklength,
                                MPI_Count stride, xb_datatype_t *oldtype,
                                MPI_Datatype *newtype, bool large)
{
    xb_datatype_t *dt = NULL;
    int rc = xb_dt_make_vector(count, blocklength, (MPI_Aint)stride, true,
                                  oldtype, &dt);
    return give(rc, &dt, large, newtype);
}

int xb_impl_type_indexed(MPI_Count count, const MPI_Count *array_of_blocklengths,
                         const MPI_Count *array_of_displacements,
                         xb_datatype_t *oldtype, MPI_Datatype *newtype, bool large)
{
    xb_datatype_t *dt = NULL;
    int rc = need_blens(count, array_of_blocklengths);
    if (rc != XB_OK)
        return rc;
    return give(xb_dt_make_indexed(count, array_of_blocklengths, 0,
                                   array_of_displacements, false, oldtype, &dt),
                &dt, large, newtype);
}

int xb_impl_type_create_hindexed(MPI_Count count,
                                 const MPI_Count *array_of_blocklengths,
                                 const MPI_Count *array_of_displacements,
                                 xb_datatype_t *oldtype, MPI_Datatype *newtype, bool large)
{
    xb_datatype_t *dt = NULL;
    int rc = need_blens(count, array_of_blocklengths);
    if (rc != XB_OK)
        return rc;
    return give(xb_dt_make_indexed(count, array_of_blocklengths, 0,
                                   array_of_displacements, true, oldtype, &dt),
                &dt, large, newtype);
}

int xb_impl_type_create_indexed_block(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count *array_of_displacements,
                                      xb_datatype_t *oldtype, MPI_Datatype *newtype, bool large)
{
    xb_datatype_t *dt = NULL;
    return give(xb_dt_make_indexed(count, NULL, blocklength,
                                   array_of_displacements, false, oldtype, &dt),
                &dt, large, newtype);
}

int xb_impl_type_create_struct(MPI_Count count, const MPI_Count *array_of_blocklengths,
                               const MPI_Count *array_of_displacements,
                               const MPI_Datatype array_of_types[],
                               MPI_Datatype *newtype, bool large)
{
    if (count > 0 && array_of_types == NULL)
        return xb_err_set(XB_ERR_ARG, "NULL array_of_types with a count of %lld",
                          (long long)count);
    if (count > INT32_MAX)
        return xb_err_set(XB_ERR_COUNT, "count %lld is too large for a struct "
                          "datatype", (long long)count);
    xb_datatype_t **types = malloc((size_t)(count > 0 ? count : 1) * sizeof(*types));
    if (types == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory creating a datatype");
    int rc = XB_OK;
    for (MPI_Count i = 0; i < count && rc == XB_OK; i++) {
        types[i] = xb_dt_from_handle(array_of_types[i]);
        if (types[i] == NULL)
            rc = xb_err_set(XB_ERR_TYPE, "array_of_types[%lld] is %s",
                            (long long)i, array_of_types[i] == MPI_DATATYPE_NULL
                            ? "MPI_DATATYPE_NULL" : "not a valid datatype "
                            "(freed or never created)");
    }
    xb_datatype_t *dt = NULL;
    if (rc == XB_OK)
        rc = xb_dt_make_struct(count, array_of_blocklengths,
                               array_of_displacements, types, &dt);
    free(types);
    return give(rc, &dt, large, newtype);
}

int xb_impl_type_create_resized(xb_datatype_t *oldtype, MPI_Count lb,
                                MPI_Count extent, MPI_Datatype *newtype, bool large)
{
    xb_datatype_t *dt = NULL;
    return give(xb_dt_make_resized(oldtype, (MPI_Aint)lb, (MPI_Aint)extent, &dt),
                &dt, large, newtype);
}

int xb_impl_type_dup(xb_datatype_t *oldtype, MPI_Datatype *newtype)
{
    xb_datatype_t *dt = NULL;
    int rc = xb_dt_make_dup(oldtype, &dt);
    if (rc == XB_OK && oldtype->name[0] != '\0' && !(oldtype->flags & DT_F_PREDEF))
        memcpy(dt->name, oldtype->name, sizeof(dt->name));
    if (rc == XB_OK && (rc = xb_attr_type_dup_hook(oldtype, dt)) != XB_OK) {
        MPI_Datatype h = xb_dt_to_handle(dt);    /* attribute copy failed */
        xb_impl_type_free(&h);
        return rc;
    }
    return give(rc, &dt, false, newtype);
}

static int resolve_inout(MPI_Datatype *datatype, xb_datatype_t **dt_p)
{
    if (datatype == NULL)
        return xb_err_set(XB_ERR_ARG, "NULL pointer for argument datatype");
    xb_datatype_t *dt = xb_dt_from_handle(*datatype);
    if (dt == NULL)
        return xb_err_set(XB_ERR_TYPE, "%s for argument datatype",
                          *datatype == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL"
                          : "invalid datatype (freed or never created)");
    *dt_p = dt;
    return XB_OK;
}

int xb_impl_type_commit(MPI_Datatype *datatype)
{
    xb_datatype_t *dt = NULL;
    int rc = resolve_inout(datatype, &dt);
    if (rc != XB_OK)
        return rc;
    return xb_dt_compile(dt);
}

int xb_impl_type_free(MPI_Datatype *datatype)
{
    xb_datatype_t *dt = NULL;
    int rc = resolve_inout(datatype, &dt);
    if (rc != XB_OK)
        return rc;
    if (dt->flags & DT_F_PREDEF)
        return xb_err_set(XB_ERR_TYPE, "cannot free a predefined datatype %s",
                          dt->name);
    /* attribute delete callbacks, when the last user handle goes (a child
     * returned by MPI_Type_get_contents is another handle to the object) */
    if (__atomic_load_n(&dt->uref, __ATOMIC_ACQUIRE) == 1)
        rc = xb_attr_type_free_hook(dt);
    *datatype = MPI_DATATYPE_NULL;
    if (__atomic_sub_fetch(&dt->uref, 1, __ATOMIC_ACQ_REL) == 0)
        __atomic_or_fetch(&dt->flags, DT_F_USER_FREED, __ATOMIC_RELEASE);
    xb_dt_release(dt);
    return rc;
}

int xb_impl_type_size(xb_datatype_t *datatype, MPI_Count *size)
{
    *size = datatype->size;
    return XB_OK;
}

int xb_impl_type_get_extent(xb_datatype_t *datatype, MPI_Count *lb, MPI_Count *extent)
{
    *lb = datatype->lb;
    *extent = datatype->extent;
    return XB_OK;
}

int xb_impl_type_get_true_extent(xb_datatype_t *datatype, MPI_Count *true_lb,
                                 MPI_Count *true_extent)
{
    *true_lb = datatype->true_lb;
    *true_extent = datatype->true_ub - datatype->true_lb;
    return XB_OK;
}

/* MPI 4.1: MPI_DATATYPE_NULL (arriving as NULL) is named "MPI_DATATYPE_NULL". */
int xb_impl_type_get_name(xb_datatype_t *datatype, char *type_name, int *resultlen)
{
    const char *name = datatype != NULL ? datatype->name : "MPI_DATATYPE_NULL";
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(type_name, name, n);
    type_name[n] = '\0';
    *resultlen = (int)n;
    return XB_OK;
}

int xb_impl_type_set_name(xb_datatype_t *datatype, const char *type_name)
{
    size_t n = strnlen(type_name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(datatype->name, type_name, n);
    datatype->name[n] = '\0';
    return XB_OK;
}

int xb_impl_get_address(const void *location, MPI_Aint *address)
{
    *address = (MPI_Aint)(intptr_t)location;
    return XB_OK;
}

static int packed_size(MPI_Count count, const xb_datatype_t *dt, MPI_Count *n)
{
    if (__builtin_mul_overflow(count, dt->size, n))
        return xb_err_set(XB_ERR_COUNT, "%lld elements of %lld bytes overflow "
                          "MPI_Count", (long long)count, (long long)dt->size);
    return XB_OK;
}

/* The packed size of count elements, checked against a buffer of `size`
 * bytes from *position (pack: the output buffer; unpack: the input). */
static int packed_window(MPI_Count count, const xb_datatype_t *dt, MPI_Count size,
                         MPI_Count position, bool pack, MPI_Count *need)
{
    int rc = packed_size(count, dt, need);
    if (rc != XB_OK)
        return rc;
    const char *buf = pack ? "output" : "input";
    if (position < 0 || position > size)
        return xb_err_set(XB_ERR_ARG, "position %lld is outside the %s buffer of %lld "
                          "bytes", (long long)position, buf, (long long)size);
    if (size - position < *need)
        return xb_err_set(XB_ERR_TRUNCATE, "%s %lld bytes at position %lld %s the %s "
                          "buffer of %lld bytes", pack ? "packing" : "unpacking",
                          (long long)*need, (long long)position,
                          pack ? "overflows" : "reads past", buf, (long long)size);
    return XB_OK;
}

int xb_impl_pack(const void *inbuf, MPI_Count incount, xb_datatype_t *datatype,
                 void *outbuf, MPI_Count outsize, MPI_Count *position,
                 xb_comm_t *comm)
{
    (void)comm;
    MPI_Count need;
    int rc = packed_window(incount, datatype, outsize, *position, true, &need);
    if (rc != XB_OK)
        return rc;
    if (need == 0)
        return XB_OK;
    size_t done;
    rc = xb_dt_pack(inbuf, incount, datatype, 0,
                    (char *)outbuf + *position, (size_t)need, &done);
    if (rc == XB_OK)
        *position += (MPI_Count)done;
    return rc;
}

int xb_impl_unpack(const void *inbuf, MPI_Count insize, MPI_Count *position,
                   void *outbuf, MPI_Count outcount, xb_datatype_t *datatype,
                   xb_comm_t *comm)
{
    (void)comm;
    MPI_Count need;
    int rc = packed_window(outcount, datatype, insize, *position, false, &need);
    if (rc != XB_OK)
        return rc;
    if (need == 0)
        return XB_OK;
    rc = xb_dt_unpack(outbuf, outcount, datatype, 0,
                      (const char *)inbuf + *position, (size_t)need);
    if (rc == XB_OK)
        *position += need;
    return rc;
}

int xb_impl_pack_size(MPI_Count incount, xb_datatype_t *datatype, xb_comm_t *comm,
                      MPI_Count *size)
{
    (void)comm;
    return packed_size(incount, datatype, size);
}

/* ---- the MPI-3 _x queries, hindexed_block, Get_elements_x -------------------- */
int xb_impl_type_create_hindexed_block(MPI_Count count, MPI_Count blocklength,
                                       const MPI_Count *array_of_displacements,
                                       xb_datatype_t *oldtype, MPI_Datatype *newtype, bool large)
{
    xb_datatype_t *dt = NULL;
    return give(xb_dt_make_indexed(count, NULL, blocklength,
                                   array_of_displacements, true, oldtype, &dt),
                &dt, large, newtype);
}

int xb_impl_type_size_x(xb_datatype_t *datatype, MPI_Count *size)
{
    return xb_impl_type_size(datatype, size);
}

int xb_impl_type_get_extent_x(xb_datatype_t *datatype, MPI_Count *lb, MPI_Count *extent)
{
    return xb_impl_type_get_extent(datatype, lb, extent);
}

int xb_impl_type_get_true_extent_x(xb_datatype_t *datatype, MPI_Count *true_lb,
                                   MPI_Count *true_extent)
{
    return xb_impl_type_get_true_extent(datatype, true_lb, true_extent);
}

int xb_impl_get_elements_x(const MPI_Status *status, xb_datatype_t *datatype,
                           MPI_Count *count)
{
    *count = xb_dt_elements(datatype, xb_mpi_status_get_count(status));
    return XB_OK;
}
