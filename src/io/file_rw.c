/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * file_rw.c - the one data path of every read and write: memory (any
 * datatype, through pack/unpack by packed offset) <-> a bounce buffer <->
 * the file bytes the view selects (pread/pwrite per contiguous piece).
 * A contiguous memory type on a contiguous view skips the bounce buffer.
 * Atomic mode holds an fcntl byte-range lock (shared for reads, exclusive
 * for writes) from the first byte of the access to the end of the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "io/io.h"
#include "core/errhandler.h"
#include "util/xb_mt.h"

/* Bounce buffer per step: large enough that a syscall per piece is cheap
 * against the copy, small enough not to double the memory of big calls. */
#define IO_CHUNK (4u << 20)

/* pread/pwrite the whole of len at off, retrying partial transfers; a read
 * stops at the end of the file (*done_p < len, no error). */
static int pio(xb_file_t *fh, bool write, void *mem, size_t len, MPI_Offset off,
               size_t *done_p)
{
    size_t done = 0;
    while (done < len) {
        ssize_t k = write ? pwrite(fh->fd, (char *)mem + done, len - done, off + (off_t)done)
                          : pread(fh->fd, (char *)mem + done, len - done, off + (off_t)done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            *done_p = done;
            return xb_io_errno(errno, write ? "cannot write" : "cannot read", fh->name);
        }
        if (k == 0)
            break;                            /* end of file (reads only) */
        done += (size_t)k;
    }
    *done_p = done;
    return XB_OK;
}

/* Move len bytes between mem and the view's data bytes [d, d + len). */
static int view_io(xb_file_t *fh, bool write, MPI_Offset d, char *mem, size_t len,
                   size_t *moved_p)
{
    MPI_Offset t = d / fh->fsize, r = d % fh->fsize;
    size_t moved = 0;
    int rc = XB_OK;
    while (moved < len && rc == XB_OK) {
        struct iovec iov[64];
        int n;
        size_t bytes;
        rc = xb_dt_to_iov(NULL, 1, fh->fmap, (size_t)r, iov, 64, &n, &bytes);
        for (int i = 0; i < n && rc == XB_OK && moved < len; i++) {
            size_t l = iov[i].iov_len < len - moved ? iov[i].iov_len : len - moved, got;
            MPI_Offset at = fh->disp + t * fh->fext + (MPI_Offset)(intptr_t)iov[i].iov_base;
            rc = pio(fh, write, mem + moved, l, at, &got);
            moved += got;
            if (got < l) {
                *moved_p = moved;
                return rc;                    /* end of file */
            }
        }
        r += (MPI_Offset)bytes;
        if (r >= fh->fsize) {
            r = 0;
            t++;
        }
    }
    *moved_p = moved;
    return rc;
}

static int access_check(const xb_file_t *fh, bool write)
{
    if (write && (fh->amode & MPI_MODE_RDONLY))
        return xb_err_set(-MPI_ERR_ACCESS, "cannot write: the file '%s' is open "
                          "MPI_MODE_RDONLY", fh->name);
    if (!write && (fh->amode & MPI_MODE_WRONLY))
        return xb_err_set(-MPI_ERR_ACCESS, "cannot read: the file '%s' is open "
                          "MPI_MODE_WRONLY", fh->name);
    return XB_OK;
}

/* Atomic mode: lock [from, end of file) (F_UNLCK to release). The wait
 * for another process's lock happens with the library lock dropped. */
static int range_lock(xb_file_t *fh, short type, MPI_Offset from)
{
    struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = from, .l_len = 0 };
    xb_mutex_t *held = type != F_UNLCK ? xb_cb_begin() : NULL;
    int r;
    do
        r = fcntl(fh->fd, F_SETLKW, &fl);
    while (r != 0 && errno == EINTR);
    int e = errno;
    if (type != F_UNLCK)
        xb_cb_end(held);
    if (r != 0)
        return xb_io_errno(e, "cannot lock (atomic mode)", fh->name);
    return XB_OK;
}

/* Through the bounce buffer, chunk by chunk. */
static int bounce_io(xb_file_t *fh, MPI_Offset d, void *buf, MPI_Count count,
                     xb_datatype_t *dt, bool write, size_t n, size_t *moved_p)
{
    size_t cap = n < IO_CHUNK ? n : IO_CHUNK, moved = 0;
    char *tmp = malloc(cap);
    int rc = XB_OK;
    if (tmp == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a %zu-byte I/O buffer", cap);
    while (moved < n && rc == XB_OK) {
        size_t len = n - moved < cap ? n - moved : cap, got = 0;
        if (write)
            rc = xb_dt_pack(buf, count, dt, moved, tmp, len, &got);
        if (rc == XB_OK)
            rc = view_io(fh, write, d + (MPI_Offset)moved, tmp, len, &got);
        if (!write && got > 0) {
            int urc = xb_dt_unpack(buf, count, dt, moved, tmp, got);
            rc = rc != XB_OK ? rc : urc;
        }
        moved += got;
        if (got < len)
            break;
    }
    free(tmp);
    *moved_p = moved;
    return rc;
}

/* A converting representation: whole elements of dt at a time, converted
 * between memory and a buffer of file bytes (at most IO_CHUNK, at least
 * one element), which moves through the view. A read that meets the end
 * of the file converts the whole elements it got. *moved_p: memory bytes. */
static int conv_io(xb_file_t *fh, MPI_Offset d, void *buf, MPI_Count count,
                   xb_datatype_t *dt, bool write, size_t *moved_p)
{
    MPI_Count per, items, size = xb_dt_size(dt);
    int rc = xb_io_rep_file_size(fh->rep, dt, 1, &per, &items);
    if (rc != XB_OK)
        return rc;
    if (per <= 0)
        return xb_err_set(-MPI_ERR_CONVERSION, "%s takes no bytes in data "
                          "representation \"%s\"", xb_dt_name(dt), xb_io_rep_name(fh->rep));
    MPI_Count chunk = per < (MPI_Count)IO_CHUNK ? (MPI_Count)IO_CHUNK / per : 1;
    chunk = chunk < count ? chunk : count;
    char *tmp = malloc((size_t)(chunk * per));
    if (tmp == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a %lld-byte conversion buffer",
                          (long long)(chunk * per));
    MPI_Count first = 0;
    while (first < count && rc == XB_OK) {
        MPI_Count k = count - first < chunk ? count - first : chunk;
        size_t len = (size_t)(k * per), got = 0;
        if (write)
            rc = xb_io_rep_convert(fh->rep, true, buf, dt, first, k, items, tmp, len);
        if (rc == XB_OK)
            rc = view_io(fh, write, d + first * per, tmp, len, &got);
        if (!write) {
            k = (MPI_Count)got / per;                /* whole elements read */
            if (k > 0) {
                int crc = xb_io_rep_convert(fh->rep, false, buf, dt, first, k, items,
                                            tmp, (size_t)(k * per));
                rc = rc != XB_OK ? rc : crc;
            }
        }
        if (rc == XB_OK)
            first += k;
        if (got < len)
            break;
    }
    free(tmp);
    *moved_p = (size_t)(first * size);
    return rc;
}

int xb_io_check_count(MPI_Count count)
{
    if (count < 0)
        return xb_err_set(XB_ERR_COUNT, "invalid count %lld (negative)", (long long)count);
    return XB_OK;
}

int xb_io_access(xb_file_t *fh, MPI_Offset off, void *buf, MPI_Count count,
                 xb_datatype_t *dt, bool write, xb_status_t *st)
{
    xb_status_set_empty(st);
    int rc = xb_io_check_count(count);
    if (rc == XB_OK)
        rc = access_check(fh, write);
    if (rc != XB_OK)
        return rc;
    if (off < 0)
        return xb_err_set(XB_ERR_ARG, "invalid offset %lld (negative)", (long long)off);
    if ((rc = xb_io_view_ready(fh)) != XB_OK)
        return rc;
    size_t n = (size_t)count * (size_t)xb_dt_size(dt), moved = 0;
    if (n == 0)
        return XB_OK;
    MPI_Offset d = off * fh->esize;
    if (fh->atomic && (rc = range_lock(fh, write ? F_WRLCK : F_RDLCK,
                                       xb_io_byte_offset(fh, off))) != XB_OK)
        return rc;
    if (xb_io_rep_kind(fh->rep) != XB_REP_NATIVE) {
        rc = conv_io(fh, d, buf, count, dt, write, &moved);
    } else if (fh->fcontig && xb_dt_is_contig(dt, count)) {
        char *mem = (char *)((intptr_t)buf + xb_dt_true_lb(dt));   /* MPI_BOTTOM too */
        rc = pio(fh, write, mem, n, xb_io_byte_offset(fh, off), &moved);
    } else {
        rc = bounce_io(fh, d, buf, count, dt, write, n, &moved);
    }
    if (fh->atomic) {
        int urc = range_lock(fh, F_UNLCK, xb_io_byte_offset(fh, off));
        rc = rc != XB_OK ? rc : urc;
    }
    st->count = (MPI_Count)moved;
    return rc;
}

void xb_io_status_out(const xb_status_t *st, MPI_Status *status)
{
    xb_status_to_mpi(st, status, false);
}

int xb_io_not_sequential(const xb_file_t *fh)
{
    if (fh->amode & MPI_MODE_SEQUENTIAL)
        return xb_err_set(-MPI_ERR_UNSUPPORTED_OPERATION, "the file '%s' was "
                          "opened MPI_MODE_SEQUENTIAL (only shared file pointer "
                          "calls are allowed)", fh->name);
    return XB_OK;
}
