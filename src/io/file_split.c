/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * file_split.c - split collectives: MPI_File_{read,write}{_all,_at_all,
 * _ordered}_begin/_end. The access is done by _begin (as the collective
 * call would do it); _end hands out its status. One split collective may
 * be active per file handle (MPI 4.1 section 14.4.5): a second _begin, an
 * _end of another kind, or an _end without _begin is MPI_ERR_OTHER and
 * leaves the active one as it was.
 */
#include "io/io.h"
#include "xb_impl.h"

static const char *split_name(xb_split_t k)
{
    static const char *const names[] = {
        "none", "MPI_File_read_all_begin", "MPI_File_write_all_begin",
        "MPI_File_read_at_all_begin", "MPI_File_write_at_all_begin",
        "MPI_File_read_ordered_begin", "MPI_File_write_ordered_begin",
    };
    return names[k];
}

static int begin(xb_file_t *fh, xb_split_t kind, MPI_Offset offset, const void *buf,
                 MPI_Count count, xb_datatype_t *dt)
{
    if (fh->split != XB_SPLIT_NONE)
        return xb_err_set(XB_ERR_OTHER, "a split collective (%s) is already active "
                          "on this file handle; call its _end first",
                          split_name(fh->split));
    bool write = kind == XB_SPLIT_WRITE_ALL || kind == XB_SPLIT_WRITE_AT_ALL ||
                 kind == XB_SPLIT_WRITE_ORDERED;
    xb_status_t st;
    int rc;
    if (kind == XB_SPLIT_READ_ORDERED || kind == XB_SPLIT_WRITE_ORDERED) {
        rc = xb_io_ordered(fh, (void *)buf, count, dt, write, &st);
    } else {
        rc = xb_io_not_sequential(fh);
        bool at = kind == XB_SPLIT_READ_AT_ALL || kind == XB_SPLIT_WRITE_AT_ALL;
        MPI_Offset pos = at ? offset : fh->ipos;
        if (rc == XB_OK)
            rc = xb_io_access(fh, pos, (void *)buf, count, dt, write, &st);
        MPI_Offset n = 0;
        if (rc == XB_OK && !at && (rc = xb_io_etypes(fh, dt, st.count, &n)) == XB_OK)
            fh->ipos += n;
    }
    if (rc != XB_OK)
        return rc;
    fh->split = kind;
    fh->split_buf = buf;
    fh->split_st = st;
    return XB_OK;
}

static int end(xb_file_t *fh, xb_split_t kind, const void *buf, MPI_Status *status)
{
    if (fh->split != kind)
        return xb_err_set(XB_ERR_OTHER, "no matching %s is active on this file "
                          "handle (active: %s)", split_name(kind),
                          fh->split == XB_SPLIT_NONE ? "none" : split_name(fh->split));
    if (buf != fh->split_buf)
        return xb_err_set(XB_ERR_BUFFER, "invalid buf %p: the _begin call was given "
                          "%p", buf, fh->split_buf);
    fh->split = XB_SPLIT_NONE;
    fh->split_buf = NULL;
    xb_io_status_out(&fh->split_st, status);
    return XB_OK;
}

int xb_impl_file_read_all_begin(xb_file_t *fh, void *buf, MPI_Count count,
                                xb_datatype_t *datatype)
{
    return begin(fh, XB_SPLIT_READ_ALL, 0, buf, count, datatype);
}

int xb_impl_file_read_all_end(xb_file_t *fh, void *buf, MPI_Status *status)
{
    return end(fh, XB_SPLIT_READ_ALL, buf, status);
}

int xb_impl_file_write_all_begin(xb_file_t *fh, const void *buf, MPI_Count count,
                                 xb_datatype_t *datatype)
{
    return begin(fh, XB_SPLIT_WRITE_ALL, 0, buf, count, datatype);
}

int xb_impl_file_write_all_end(xb_file_t *fh, const void *buf, MPI_Status *status)
{
    return end(fh, XB_SPLIT_WRITE_ALL, buf, status);
}

int xb_impl_file_read_at_all_begin(xb_file_t *fh, MPI_Offset offset, void *buf,
                                   MPI_Count count, xb_datatype_t *datatype)
{
    return begin(fh, XB_SPLIT_READ_AT_ALL, offset, buf, count, datatype);
}

int xb_impl_file_read_at_all_end(xb_file_t *fh, void *buf, MPI_Status *status)
{
    return end(fh, XB_SPLIT_READ_AT_ALL, buf, status);
}

int xb_impl_file_write_at_all_begin(xb_file_t *fh, MPI_Offset offset, const void *buf,
                                    MPI_Count count, xb_datatype_t *datatype)
{
    return begin(fh, XB_SPLIT_WRITE_AT_ALL, offset, buf, count, datatype);
}

int xb_impl_file_write_at_all_end(xb_file_t *fh, const void *buf, MPI_Status *status)
{
    return end(fh, XB_SPLIT_WRITE_AT_ALL, buf, status);
}

int xb_impl_file_read_ordered_begin(xb_file_t *fh, void *buf, MPI_Count count,
                                    xb_datatype_t *datatype)
{
    return begin(fh, XB_SPLIT_READ_ORDERED, 0, buf, count, datatype);
}

int xb_impl_file_read_ordered_end(xb_file_t *fh, void *buf, MPI_Status *status)
{
    return end(fh, XB_SPLIT_READ_ORDERED, buf, status);
}

int xb_impl_file_write_ordered_begin(xb_file_t *fh, const void *buf, MPI_Count count,
                                     xb_datatype_t *datatype)
{
    return begin(fh, XB_SPLIT_WRITE_ORDERED, 0, buf, count, datatype);
}

int xb_impl_file_write_ordered_end(xb_file_t *fh, const void *buf, MPI_Status *status)
{
    return end(fh, XB_SPLIT_WRITE_ORDERED, buf, status);
}
