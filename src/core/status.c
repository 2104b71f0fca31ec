/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * status.c - the MPI_Status accessors of MPI 2.0 and 4.1
 * (MPI_Status_set_elements[_x], _set_cancelled, _set/_get_source, _tag,
 * _error): the binding's xb_impl_* for them. The layout of MPI_Status is
 * described in request.h: the setters write the same words that the
 * library's statuses carry, so MPI_Get_count, MPI_Get_elements and
 * MPI_Test_cancelled read them back.
 *
 * The status belongs to the user, so any int is accepted for source, tag
 * and error (the standard sets no range: a generalized request's query
 * function may store what it likes). MPI_STATUS_IGNORE is refused by the
 * binding (MPI_ERR_ARG) for every one of them.
 */
#include "core/request.h"
#include "xb_impl.h"

int xb_impl_status_set_elements(MPI_Status *status, xb_datatype_t *datatype, MPI_Count count)
{
    MPI_Count bytes;
    int rc = xb_dt_elements_bytes(datatype, count, &bytes);
    if (rc != XB_OK)
        return rc;
    xb_mpi_status_set_count(status, bytes);
    return XB_OK;
}

int xb_impl_status_set_elements_x(MPI_Status *status, xb_datatype_t *datatype, MPI_Count count)
{
    return xb_impl_status_set_elements(status, datatype, count);
}

int xb_impl_status_set_cancelled(MPI_Status *status, int flag)
{
    xb_mpi_status_set_cancelled(status, flag != 0);
    return XB_OK;
}

int xb_impl_status_set_source(MPI_Status *status, int source)
{
    status->MPI_SOURCE = source;
    return XB_OK;
}

int xb_impl_status_set_tag(MPI_Status *status, int tag)
{
    status->MPI_TAG = tag;
    return XB_OK;
}

int xb_impl_status_set_error(MPI_Status *status, int err)
{
    status->MPI_ERROR = err;
    return XB_OK;
}

int xb_impl_status_get_source(const MPI_Status *status, int *source)
{
    *source = status->MPI_SOURCE;
    return XB_OK;
}

int xb_impl_status_get_tag(const MPI_Status *status, int *tag)
{
    *tag = status->MPI_TAG;
    return XB_OK;
}

int xb_impl_status_get_error(const MPI_Status *status, int *err)
{
    *err = status->MPI_ERROR;
    return XB_OK;
}
