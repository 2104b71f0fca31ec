/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * file_view.c - file views: MPI_File_set_view/get_view,
 * MPI_File_get_type_extent, and the map from view offsets to file bytes.
 *
 * A view is disp + the filetype tiled without end: tile t starts at
 * disp + t * extent(filetype), and its data bytes are where the filetype's
 * type map puts them. The datatype engine's to_iov over one filetype at
 * address 0 gives those places as offsets (it computes addresses in
 * intptr_t, so base 0 is fine), from any packed offset inside the tile.
 */
#include <string.h>
#include "io/io.h"
#include "xb_impl.h"

void xb_io_view_default(xb_file_t *fh)
{
    xb_io_view_release(fh);
    fh->disp = 0;
    fh->etype = xb_dt_from_handle(MPI_BYTE);
    fh->ftype = xb_dt_from_handle(MPI_BYTE);
    fh->esize = fh->fsize = fh->fext = 1;
    fh->fcontig = true;
}

void xb_io_view_release(xb_file_t *fh)
{
    if (fh->etype != NULL)
        xb_dt_release(fh->etype);
    if (fh->ftype != NULL)
        xb_dt_release(fh->ftype);
    fh->etype = fh->ftype = NULL;
}

MPI_Offset xb_io_etypes(const xb_file_t *fh, MPI_Count bytes)
{
    return bytes / fh->esize;
}

MPI_Offset xb_io_byte_offset(const xb_file_t *fh, MPI_Offset off)
{
    MPI_Offset d = off * fh->esize, t = d / fh->fsize, r = d % fh->fsize;
    struct iovec iov;
    int n;
    size_t bytes;
    if (fh->fcontig)
        return fh->disp + t * fh->fext + xb_dt_true_lb(fh->ftype) + r;
    if (xb_dt_to_iov(NULL, 1, fh->ftype, (size_t)r, &iov, 1, &n, &bytes) != XB_OK || n < 1)
        return fh->disp + t * fh->fext;
    return fh->disp + t * fh->fext + (MPI_Offset)(intptr_t)iov.iov_base;
}

/* The filetype's data must lie at nonnegative, nondecreasing offsets of
 * its tile (MPI 4.1 section 14.3), and the etype must divide it. */
static int check_types(xb_datatype_t *etype, xb_datatype_t *ftype)
{
    if (!xb_dt_is_committed(etype) || !xb_dt_is_committed(ftype))
        return xb_err_set(XB_ERR_TYPE, "the %s is not committed",
                          !xb_dt_is_committed(etype) ? "etype" : "filetype");
    MPI_Count es = xb_dt_size(etype), fs = xb_dt_size(ftype);
    if (es <= 0 || fs <= 0 || fs % es != 0)
        return xb_err_set(XB_ERR_TYPE, "invalid view: etype of %lld bytes, "
                          "filetype of %lld bytes (both must hold data, and the "
                          "filetype a whole number of etypes)", (long long)es, (long long)fs);
    struct iovec iov[64];
    size_t off = 0, bytes;
    intptr_t end = 0;
    while (off < (size_t)fs) {
        int n;
        int rc = xb_dt_to_iov(NULL, 1, ftype, off, iov, 64, &n, &bytes);
        if (rc != XB_OK)
            return rc;
        for (int i = 0; i < n; i++) {
            intptr_t b = (intptr_t)iov[i].iov_base;
            if (b < end)
                return xb_err_set(XB_ERR_TYPE, "invalid filetype: data at offset "
                                  "%lld comes before offset %lld (displacements "
                                  "must be nonnegative and nondecreasing)",
                                  (long long)b, (long long)end);
            end = b + (intptr_t)iov[i].iov_len;
        }
        off += bytes;
    }
    return XB_OK;
}

static int check_datarep(const char *datarep)
{
    if (strcmp(datarep, "native") == 0)
        return XB_OK;
    return xb_err_set(-MPI_ERR_UNSUPPORTED_DATAREP, "data representation '%s' "
                      "is not supported (only \"native\")", datarep);
}

static int view_args(xb_file_t *fh, MPI_Offset *disp, xb_datatype_t *etype,
                     xb_datatype_t *filetype, const char *datarep)
{
    int rc = check_datarep(datarep);
    if (rc == XB_OK)
        rc = check_types(etype, filetype);
    if (rc != XB_OK)
        return rc;
    if (*disp == MPI_DISPLACEMENT_CURRENT) {
        if (!(fh->amode & MPI_MODE_SEQUENTIAL))
            return xb_err_set(XB_ERR_ARG, "invalid disp MPI_DISPLACEMENT_CURRENT "
                              "(only for files opened MPI_MODE_SEQUENTIAL)");
        int64_t cur;
        rc = xb_io_shared_fetch_add(fh, 0, &cur);
        if (rc == XB_OK)
            *disp = xb_io_byte_offset(fh, cur);
        return rc;
    }
    if (*disp < 0)
        return xb_err_set(XB_ERR_ARG, "invalid disp %lld (negative)", (long long)*disp);
    return XB_OK;
}

int xb_impl_file_set_view(xb_file_t *fh, MPI_Offset disp, xb_datatype_t *etype,
                          xb_datatype_t *filetype, const char *datarep,
                          xb_info_t *info)
{
    if (fh->split != XB_SPLIT_NONE)
        return xb_err_set(XB_ERR_OTHER, "a split collective is active on the file");
    int rc = view_args(fh, &disp, etype, filetype, datarep);
    rc = xb_io_agree(fh, xb_dt_size(etype), "etype sizes", rc);
    if (rc != XB_OK)
        return rc;
    xb_dt_retain(etype);
    xb_dt_retain(filetype);
    xb_io_view_release(fh);
    fh->disp = disp;
    fh->etype = etype;
    fh->ftype = filetype;
    fh->esize = xb_dt_size(etype);
    fh->fsize = xb_dt_size(filetype);
    fh->fext = xb_dt_extent(filetype);
    fh->fcontig = xb_dt_is_contig(filetype, 1) && fh->fext == fh->fsize;
    fh->ipos = 0;
    if (fh->comm->rank == 0)
        fh->sp_value = 0;
    if (info != NULL && (rc = xb_impl_file_set_info(fh, info)) != XB_OK)
        return rc;
    /* nobody uses the shared pointer before rank 0 has reset it */
    return xb_io_agree(fh, 0, "view", XB_OK);
}

int xb_impl_file_get_view(xb_file_t *fh, MPI_Offset *disp, MPI_Datatype *etype,
                          MPI_Datatype *filetype, char *datarep)
{
    MPI_Datatype e = xb_dt_to_handle(fh->etype), f = xb_dt_to_handle(fh->ftype);
    int rc = XB_OK;
    /* derived types come back as new types the caller frees */
    if (!xb_dt_is_predefined(fh->etype))
        rc = xb_impl_type_dup(fh->etype, &e);
    if (rc == XB_OK && !xb_dt_is_predefined(fh->ftype)) {
        rc = xb_impl_type_dup(fh->ftype, &f);
        if (rc != XB_OK && !xb_dt_is_predefined(fh->etype))
            xb_impl_type_free(&e);
    }
    if (rc != XB_OK)
        return rc;
    *disp = fh->disp;
    *etype = e;
    *filetype = f;
    strcpy(datarep, "native");
    return XB_OK;
}

int xb_impl_file_get_type_extent(xb_file_t *fh, xb_datatype_t *datatype, MPI_Count *extent)
{
    (void)fh;                          /* "native": the extent in memory */
    *extent = xb_dt_extent(datatype);
    return XB_OK;
}
