/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * file_data.c - data access with explicit offsets and with the individual
 * file pointer: blocking, collective (_all), nonblocking (i...), and the
 * pointer calls (seek, get_position, get_byte_offset).
 *
 * Collective calls do each rank's access independently: the standard
 * allows it, and on one POSIX file system the kernel's page cache already
 * merges the ranks' pieces. Nonblocking calls do the I/O when they start
 * and return a request that is already complete (allowed by the standard:
 * a nonblocking call may complete before it returns).
 */
#include <errno.h>
#include <sys/stat.h>
#include "io/io.h"
#include "xb_impl.h"

int xb_io_done_request(const xb_status_t *st, int rc, MPI_Request *request)
{
    if (rc != XB_OK)
        return rc;
    xb_request_t *r = xb_request_alloc(XB_REQ_COLL);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    r->status = *st;
    r->fn = "MPI_File_i...";
    xb_request_complete(r);
    *request = xb_request_to_handle(r);
    return XB_OK;
}

/* Explicit offset: offset in etypes of the view. */
static int at(xb_file_t *fh, MPI_Offset offset, void *buf, MPI_Count count,
              xb_datatype_t *dt, bool write, xb_status_t *st)
{
    int rc = xb_io_not_sequential(fh);
    if (rc == XB_OK)
        rc = xb_io_access(fh, offset, buf, count, dt, write, st);
    return rc;
}

/* Individual file pointer: access at it, then move it past the data moved. */
static int indiv(xb_file_t *fh, void *buf, MPI_Count count, xb_datatype_t *dt,
                 bool write, xb_status_t *st)
{
    int rc = xb_io_not_sequential(fh);
    if (rc == XB_OK)
        rc = xb_io_access(fh, fh->ipos, buf, count, dt, write, st);
    MPI_Offset n = 0;        /* the data moved counts, even after an error */
    if (st->count > 0 && xb_io_etypes(fh, dt, st->count, &n) == XB_OK)
        fh->ipos += n;
    return rc;
}

static int status_rc(int rc, const xb_status_t *st, MPI_Status *status)
{
    if (rc == XB_OK)
        xb_io_status_out(st, status);
    return rc;
}

#define AT_FN(name, bufq, write)                                                      \
    int xb_impl_file_##name(xb_file_t *fh, MPI_Offset offset, bufq void *buf,        \
                            MPI_Count count, xb_datatype_t *datatype, MPI_Status *status) \
    {                                                                                 \
        xb_status_t st;                                                               \
        int rc = at(fh, offset, (void *)buf, count, datatype, write, &st);            \
        return status_rc(rc, &st, status);                                            \
    }
#define INDIV_FN(name, bufq, write)                                                   \
    int xb_impl_file_##name(xb_file_t *fh, bufq void *buf, MPI_Count count,           \
                            xb_datatype_t *datatype, MPI_Status *status)              \
    {                                                                                 \
        xb_status_t st;                                                               \
        int rc = indiv(fh, (void *)buf, count, datatype, write, &st);                 \
        return status_rc(rc, &st, status);                                            \
    }
#define IAT_FN(name, bufq, write)                                                     \
    int xb_impl_file_##name(xb_file_t *fh, MPI_Offset offset, bufq void *buf,        \
                            MPI_Count count, xb_datatype_t *datatype, MPI_Request *request) \
    {                                                                                 \
        xb_status_t st;                                                               \
        int rc = at(fh, offset, (void *)buf, count, datatype, write, &st);            \
        return xb_io_done_request(&st, rc, request);                                  \
    }
#define IINDIV_FN(name, bufq, write)                                                  \
    int xb_impl_file_##name(xb_file_t *fh, bufq void *buf, MPI_Count count,           \
                            xb_datatype_t *datatype, MPI_Request *request)            \
    {                                                                                 \
        xb_status_t st;                                                               \
        int rc = indiv(fh, (void *)buf, count, datatype, write, &st);                 \
        return xb_io_done_request(&st, rc, request);                                  \
    }

AT_FN(read_at, , false)
AT_FN(read_at_all, , false)
AT_FN(write_at, const, true)
AT_FN(write_at_all, const, true)
INDIV_FN(read, , false)
INDIV_FN(read_all, , false)
INDIV_FN(write, const, true)
INDIV_FN(write_all, const, true)
IAT_FN(iread_at, , false)
IAT_FN(iread_at_all, , false)
IAT_FN(iwrite_at, const, true)
IAT_FN(iwrite_at_all, const, true)
IINDIV_FN(iread, , false)
IINDIV_FN(iread_all, , false)
IINDIV_FN(iwrite, const, true)
IINDIV_FN(iwrite_all, const, true)

/* ---- pointers ---------------------------------------------------------------- */
/* The view offset (etypes) of the end of the file: the etypes of the view
 * that lie before it, a partial one counted whole. */
int xb_io_end_etypes(xb_file_t *fh, MPI_Offset *end_p)
{
    struct stat sb;
    int vrc = xb_io_view_ready(fh);
    if (vrc != XB_OK)
        return vrc;
    if (fstat(fh->fd, &sb) != 0)
        return xb_io_errno(errno, "cannot stat", fh->name);
    MPI_Offset b = sb.st_size - fh->disp, data = 0;
    if (b > 0) {
        data = (b / fh->fext) * fh->fsize;
        MPI_Offset rem = b % fh->fext;
        size_t off = 0, bytes;
        while (rem > 0 && off < (size_t)fh->fsize) {
            struct iovec iov[64];
            int n;
            int rc = xb_dt_to_iov(NULL, 1, fh->fmap, off, iov, 64, &n, &bytes);
            if (rc != XB_OK)
                return rc;
            for (int i = 0; i < n; i++) {
                MPI_Offset s = (MPI_Offset)(intptr_t)iov[i].iov_base;
                MPI_Offset l = (MPI_Offset)iov[i].iov_len;
                if (s < rem)
                    data += rem - s < l ? rem - s : l;
            }
            off += bytes;
        }
    }
    *end_p = (data + fh->esize - 1) / fh->esize;
    return XB_OK;
}

/* The new position for (offset, whence) from cur; MPI_ERR_ARG if negative. */
int xb_io_seek_pos(xb_file_t *fh, MPI_Offset cur, MPI_Offset offset, int whence,
                   MPI_Offset *pos_p)
{
    MPI_Offset base;
    int rc = XB_OK;
    if (whence == MPI_SEEK_SET)
        base = 0;
    else if (whence == MPI_SEEK_CUR)
        base = cur;
    else if (whence == MPI_SEEK_END)
        rc = xb_io_end_etypes(fh, &base);
    else
        return xb_err_set(XB_ERR_ARG, "invalid whence %d (MPI_SEEK_SET, "
                          "MPI_SEEK_CUR or MPI_SEEK_END)", whence);
    if (rc != XB_OK)
        return rc;
    if (base + offset < 0)
        return xb_err_set(XB_ERR_ARG, "invalid offset %lld: the position would be "
                          "%lld, before the start of the view", (long long)offset,
                          (long long)(base + offset));
    *pos_p = base + offset;
    return XB_OK;
}

int xb_impl_file_seek(xb_file_t *fh, MPI_Offset offset, int whence)
{
    int rc = xb_io_not_sequential(fh);
    if (rc == XB_OK)
        rc = xb_io_seek_pos(fh, fh->ipos, offset, whence, &fh->ipos);
    return rc;
}

int xb_impl_file_get_position(xb_file_t *fh, MPI_Offset *offset)
{
    int rc = xb_io_not_sequential(fh);
    if (rc == XB_OK)
        *offset = fh->ipos;
    return rc;
}

int xb_impl_file_get_byte_offset(xb_file_t *fh, MPI_Offset offset, MPI_Offset *disp)
{
    if (offset < 0)
        return xb_err_set(XB_ERR_ARG, "invalid offset %lld (negative)", (long long)offset);
    int rc = xb_io_view_ready(fh);
    if (rc == XB_OK)
        *disp = xb_io_byte_offset(fh, offset);
    return rc;
}
