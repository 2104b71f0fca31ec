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
    fh->fmap = xb_dt_from_handle(MPI_BYTE);
    fh->rep = xb_io_datarep_native();
    fh->esize = fh->fsize = fh->fext = 1;
    fh->fcontig = true;
}

void xb_io_view_release(xb_file_t *fh)
{
    if (fh->etype != NULL)
        xb_dt_release(fh->etype);
    if (fh->ftype != NULL)
        xb_dt_release(fh->ftype);
    if (fh->fmap != NULL)
        xb_dt_release(fh->fmap);
    fh->etype = fh->ftype = fh->fmap = NULL;
}

int xb_io_etypes(xb_file_t *fh, xb_datatype_t *dt, MPI_Count bytes, MPI_Offset *n_p)
{
    MPI_Count sz = xb_dt_size(dt), fb = bytes;
    int rc = xb_io_view_ready(fh);
    if (rc != XB_OK)
        return rc;
    /* a converting access moves whole elements of dt only */
    if (xb_io_rep_kind(fh->rep) != XB_REP_NATIVE && sz > 0)
        rc = xb_io_rep_file_size(fh->rep, dt, bytes / sz, &fb, NULL);
    if (rc == XB_OK)
        *n_p = fb / fh->esize;
    return rc;
}

MPI_Offset xb_io_byte_offset(const xb_file_t *fh, MPI_Offset off)
{
    MPI_Offset d = off * fh->esize, t = d / fh->fsize, r = d % fh->fsize;
    struct iovec iov;
    int n;
    size_t bytes;
    if (fh->fcontig)
        return fh->disp + t * fh->fext + xb_dt_true_lb(fh->fmap) + r;
    if (xb_dt_to_iov(NULL, 1, fh->fmap, (size_t)r, &iov, 1, &n, &bytes) != XB_OK || n < 1)
        return fh->disp + t * fh->fext;
    return fh->disp + t * fh->fext + (MPI_Offset)(intptr_t)iov.iov_base;
}

static int check_committed(xb_datatype_t *etype, xb_datatype_t *ftype)
{
    if (!xb_dt_is_committed(etype) || !xb_dt_is_committed(ftype))
        return xb_err_set(XB_ERR_TYPE, "the %s is not committed",
                          !xb_dt_is_committed(etype) ? "etype" : "filetype");
    return XB_OK;
}

/* On the file layouts (the types themselves when "native"): the
 * filetype's data must lie at nonnegative, nondecreasing offsets of its
 * tile (MPI 4.1 section 14.3), and the etype must divide it. */
static int check_layout(MPI_Count es, xb_datatype_t *fmap, const char *rep)
{
    MPI_Count fs = xb_dt_size(fmap);
    if (es <= 0 || fs <= 0 || fs % es != 0)
        return xb_err_set(XB_ERR_TYPE, "invalid view: etype of %lld bytes, "
                          "filetype of %lld bytes in data representation \"%s\" "
                          "(both must hold data, and the filetype a whole number "
                          "of etypes)", (long long)es, (long long)fs, rep);
    struct iovec iov[64];
    size_t off = 0, bytes;
    intptr_t end = 0;
    while (off < (size_t)fs) {
        int n;
        int rc = xb_dt_to_iov(NULL, 1, fmap, off, iov, 64, &n, &bytes);
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

/* The view's layout in the file: the filetype rebuilt over the file
 * extents of the representation (*fmap_p, one reference), and the file
 * size of the etype. */
static int view_layout(const xb_datarep_t *rep, xb_datatype_t *etype,
                       xb_datatype_t *ftype, xb_datatype_t **fmap_p, MPI_Count *es_p)
{
    xb_datatype_t *fmap = NULL;
    int rc = xb_io_rep_file_size(rep, etype, 1, es_p, NULL);
    if (rc == XB_OK)
        rc = xb_io_rep_layout(rep, ftype, &fmap);
    if (rc == XB_OK && (rc = check_layout(*es_p, fmap, xb_io_rep_name(rep))) != XB_OK)
        xb_dt_release(fmap);
    if (rc == XB_OK)
        *fmap_p = fmap;
    return rc;
}

static void view_set_layout(xb_file_t *fh, xb_datatype_t *fmap, MPI_Count es)
{
    fh->fmap = fmap;
    fh->esize = es;
    fh->fsize = xb_dt_size(fmap);
    fh->fext = xb_dt_extent(fmap);
    fh->fcontig = xb_dt_is_contig(fmap, 1) && fh->fext == fh->fsize;
}

/* set_view makes the layout, except for a user's representation: the
 * standard calls its extent function only from the data access routines
 * and MPI_File_get_type_extent, so the layout waits for the first of them
 * (or for a call that needs file offsets: get_byte_offset, seek to the
 * end of the file). */
int xb_io_view_ready(xb_file_t *fh)
{
    if (fh->fmap != NULL)
        return XB_OK;
    xb_datatype_t *fmap;
    MPI_Count es;
    int rc = view_layout(fh->rep, fh->etype, fh->ftype, &fmap, &es);
    if (rc == XB_OK)
        view_set_layout(fh, fmap, es);
    return rc;
}

static int find_datarep(const char *datarep, const xb_datarep_t **rep_p)
{
    *rep_p = xb_io_datarep_find(datarep);
    if (*rep_p == NULL)
        return xb_err_set(-MPI_ERR_UNSUPPORTED_DATAREP, "invalid datarep \"%.*s\": "
                          "no such data representation (\"native\", \"internal\", "
                          "\"external32\" or one given to MPI_Register_datarep)",
                          MPI_MAX_DATAREP_STRING, datarep);
    return XB_OK;
}

static int view_args(xb_file_t *fh, MPI_Offset *disp, xb_datatype_t *etype,
                     xb_datatype_t *filetype, const char *datarep,
                     const xb_datarep_t **rep_p)
{
    int rc = find_datarep(datarep, rep_p);
    if (rc == XB_OK)
        rc = check_committed(etype, filetype);
    if (rc != XB_OK)
        return rc;
    if (*disp == MPI_DISPLACEMENT_CURRENT) {
        if (!(fh->amode & MPI_MODE_SEQUENTIAL))
            return xb_err_set(XB_ERR_ARG, "invalid disp MPI_DISPLACEMENT_CURRENT "
                              "(only for files opened MPI_MODE_SEQUENTIAL)");
        int64_t cur;
        rc = xb_io_shared_fetch_add(fh, 0, &cur);
        if (rc == XB_OK)
            rc = xb_io_view_ready(fh);
        if (rc == XB_OK)
            *disp = xb_io_byte_offset(fh, cur);
        return rc;
    }
    if (*disp < 0)
        return xb_err_set(XB_ERR_ARG, "invalid disp %lld (negative)", (long long)*disp);
    return XB_OK;
}

/* A hash of the representation's name, for the agreement of the ranks. */
static int64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (int64_t)(h >> 2);
}

int xb_impl_file_set_view(xb_file_t *fh, MPI_Offset disp, xb_datatype_t *etype,
                          xb_datatype_t *filetype, const char *datarep,
                          xb_info_t *info)
{
    if (fh->split != XB_SPLIT_NONE)
        return xb_err_set(XB_ERR_OTHER, "a split collective is active on the file");
    const xb_datarep_t *rep = NULL;
    xb_datatype_t *fmap = NULL;
    MPI_Count es = 0;
    int rc = view_args(fh, &disp, etype, filetype, datarep, &rep);
    if (rc == XB_OK && xb_io_rep_kind(rep) != XB_REP_USER)
        rc = view_layout(rep, etype, filetype, &fmap, &es);
    /* every rank fails together; the same representation and etype size */
    rc = xb_io_agree(fh, rc == XB_OK ? name_hash(datarep) : 0, "data representations", rc);
    rc = xb_io_agree(fh, xb_dt_size(etype), "etype sizes", rc);
    if (rc != XB_OK) {
        if (fmap != NULL)
            xb_dt_release(fmap);
        return rc;
    }
    xb_dt_retain(etype);
    xb_dt_retain(filetype);
    xb_io_view_release(fh);
    fh->disp = disp;
    fh->etype = etype;
    fh->ftype = filetype;
    fh->rep = rep;
    if (fmap != NULL)
        view_set_layout(fh, fmap, es);
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
    strcpy(datarep, xb_io_rep_name(fh->rep));
    return XB_OK;
}

int xb_impl_file_get_type_extent(xb_file_t *fh, xb_datatype_t *datatype, MPI_Count *extent)
{
    if (xb_io_rep_kind(fh->rep) == XB_REP_NATIVE) {
        *extent = xb_dt_extent(datatype);
        return XB_OK;
    }
    if (xb_dt_is_predefined(datatype)) {
        MPI_Aint e;
        int rc = xb_io_rep_extent(fh->rep, datatype, &e);
        if (rc == XB_OK)
            *extent = e;
        return rc;
    }
    /* a derived type: its type map over the file extents */
    xb_datatype_t *map;
    int rc = xb_io_rep_layout(fh->rep, datatype, &map);
    if (rc != XB_OK)
        return rc;
    *extent = xb_dt_extent(map);
    xb_dt_release(map);
    return XB_OK;
}
