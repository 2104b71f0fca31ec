/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * legacy.c - MPI_Type_extent, MPI_Type_lb and MPI_Type_ub: MPI-1 queries
 * that MPI-3.0 removed, still called by programs written for MPI-1. Each
 * returns one of what MPI_Type_get_extent returns (extent, lb, lb + extent),
 * with the checks and the error path of a generated binding, and errors
 * that name the removed function. The other removed functions with a
 * replacement of the same signature are generated (the [legacy] section of
 * spec/implemented.txt).
 */
#include "binding/bind_check.h"
#include "xb_impl.h"

enum { EXTENT, LB, UB };

static int query(const char *fn, const char *arg, MPI_Datatype datatype, MPI_Aint *out,
                 int what)
{
    int rc;
    MPI_Count lb = 0, extent = 0;
    if (XB_UNLIKELY(xb_init_state() != XB_STATE_INIT)) {
        rc = xb_check_init_fail();
        goto fail;
    }
    xb_datatype_t *dt = xb_dt_from_handle(datatype);
    if (XB_UNLIKELY(dt == NULL)) {
        rc = xb_check_handle_fail(XB_HK_DATATYPE, "datatype", (const void *)datatype);
        goto fail;
    }
    if (xb_param_check() && XB_UNLIKELY((rc = xb_check_ptr(arg, out)) != XB_OK))
        goto fail;
    rc = xb_impl_type_get_extent(dt, &lb, &extent);
    if (XB_LIKELY(rc >= 0)) {
        *out = (MPI_Aint)(what == EXTENT ? extent : what == LB ? lb : lb + extent);
        return MPI_SUCCESS;
    }
fail:;
    bool cs = xb_cs_enter();
    rc = xb_errh_raise_comm(NULL, fn, rc);
    xb_cs_exit(cs);
    return rc;
}

XB_EXPORT int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    return query("MPI_Type_extent", "extent", datatype, extent, EXTENT);
}

XB_EXPORT int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    return query("MPI_Type_lb", "displacement", datatype, displacement, LB);
}

XB_EXPORT int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    return query("MPI_Type_ub", "displacement", datatype, displacement, UB);
}

XB_EXPORT int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
    __attribute__((weak, alias("PMPI_Type_extent")));
XB_EXPORT int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
    __attribute__((weak, alias("PMPI_Type_lb")));
XB_EXPORT int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
    __attribute__((weak, alias("PMPI_Type_ub")));
