/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * file_query.c - file size (get/set/preallocate), sync, amode, group,
 * hints (get/set_info), atomicity; the error path of file calls and the
 * file errhandlers (create/set/get/call).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>
#include "io/io.h"
#include "coll/coll.h"
#include "core/errhandler.h"
#include "core/info.h"
#include "core/op.h"
#include "xb_impl.h"

/* The errhandler of MPI_FILE_NULL: the default of new files. NULL means
 * MPI_ERRORS_RETURN. Changed only by MPI_File_set_errhandler(MPI_FILE_NULL). */
static xb_errhandler_t *null_errh;

xb_errhandler_t *xb_io_default_errh(void)
{
    return null_errh;
}

int xb_io_raise(xb_file_t *fh, const char *fn, int rc)
{
    if (fh == NULL)
        return xb_errh_raise_file(null_errh, MPI_FILE_NULL, fn, rc);
    return xb_errh_raise_file(fh->errh, fh->handle, fn, rc);
}

int xb_io_raise_ref(const MPI_File *fh, const char *fn, int rc)
{
    return xb_io_raise(fh != NULL ? xb_file_from_handle(*fh) : NULL, fn, rc);
}

int xb_io_agree(xb_file_t *fh, int64_t value, const char *what, int rc)
{
    int64_t v[3] = { value, -value, rc != XB_OK }, r[3];
    int crc = xb_coll_allreduce(v, r, 3, xb_dt_from_handle(MPI_INT64_T),
                                xb_op_from_handle(MPI_MAX), fh->comm);
    if (crc != XB_OK || rc != XB_OK)
        return crc != XB_OK ? crc : rc;
    if (r[0] != -r[1])
        return xb_err_set(-MPI_ERR_NOT_SAME, "the ranks passed different %s "
                          "(this rank %lld)", what, (long long)value);
    if (r[2] != 0)
        return xb_err_set(-MPI_ERR_IO, "the %s failed on another rank", what);
    return XB_OK;
}

static int need_write(const xb_file_t *fh, const char *what)
{
    if (fh->amode & MPI_MODE_RDONLY)
        return xb_err_set(-MPI_ERR_ACCESS, "%s: the file '%s' is open "
                          "MPI_MODE_RDONLY", what, fh->name);
    return XB_OK;
}

int xb_impl_file_get_size(xb_file_t *fh, MPI_Offset *size)
{
    struct stat sb;
    if (fstat(fh->fd, &sb) != 0)
        return xb_io_errno(errno, "cannot stat", fh->name);
    *size = sb.st_size;
    return XB_OK;
}

/* The checks set_size and preallocate share, agreed by every rank (the same
 * size everywhere): a non-negative size, write access, not SEQUENTIAL. */
static int size_call_checks(xb_file_t *fh, MPI_Offset size, const char *what)
{
    int rc = size < 0 ? xb_err_set(XB_ERR_ARG, "invalid size %lld (negative)",
                                   (long long)size) : need_write(fh, what);
    if (rc == XB_OK && (fh->amode & MPI_MODE_SEQUENTIAL))
        rc = xb_err_set(-MPI_ERR_UNSUPPORTED_OPERATION, "the file was opened "
                        "with MPI_MODE_SEQUENTIAL");
    return xb_io_agree(fh, size, "size", rc);
}

int xb_impl_file_set_size(xb_file_t *fh, MPI_Offset size)
{
    int rc = size_call_checks(fh, size, "set_size");
    if (rc != XB_OK)
        return rc;
    if (fh->comm->rank == 0 && ftruncate(fh->fd, size) != 0)
        rc = xb_io_errno(errno, "cannot resize", fh->name);
    return xb_io_agree(fh, 0, "resize", rc);
}

int xb_impl_file_preallocate(xb_file_t *fh, MPI_Offset size)
{
    int rc = size_call_checks(fh, size, "preallocate");
    if (rc != XB_OK)
        return rc;
    if (fh->comm->rank == 0 && size > 0) {
        int e = posix_fallocate(fh->fd, 0, size);
        if (e == EOPNOTSUPP || e == EINVAL) {      /* grow without reserving */
            struct stat sb;
            e = fstat(fh->fd, &sb) != 0 ? errno
                : (sb.st_size < size && ftruncate(fh->fd, size) != 0) ? errno : 0;
        }
        if (e != 0)
            rc = xb_io_errno(e, "cannot preallocate", fh->name);
    }
    return xb_io_agree(fh, 0, "preallocation", rc);
}

int xb_impl_file_sync(xb_file_t *fh)
{
    int rc = XB_OK;
    if (!(fh->amode & MPI_MODE_RDONLY) && fsync(fh->fd) != 0)
        rc = xb_io_errno(errno, "cannot sync", fh->name);
    return xb_io_agree(fh, 0, "sync", rc);
}

int xb_impl_file_get_amode(xb_file_t *fh, int *amode)
{
    *amode = fh->amode;
    return XB_OK;
}

int xb_impl_file_get_group(xb_file_t *fh, MPI_Group *group)
{
    xb_group_retain(fh->comm->group);
    *group = xb_group_to_handle(fh->comm->group);
    return XB_OK;
}

int xb_impl_file_set_info(xb_file_t *fh, xb_info_t *info)
{
    if (info == NULL)
        return XB_OK;
    if (fh->info == NULL)
        return xb_info_copy(info, &fh->info);
    for (int i = 0; i < info->n; i++) {
        int rc = xb_info_put(fh->info, info->keys[i], info->vals[i]);
        if (rc != XB_OK)
            return rc;
    }
    return XB_OK;
}

int xb_impl_file_get_info(xb_file_t *fh, MPI_Info *info_used)
{
    xb_info_t *copy;
    int rc = xb_info_copy(fh->info, &copy);
    if (rc == XB_OK)
        *info_used = xb_info_to_handle(copy);
    return rc;
}

int xb_impl_file_set_atomicity(xb_file_t *fh, int flag)
{
    int rc = xb_io_agree(fh, flag != 0, "atomicity flags", XB_OK);
    if (rc == XB_OK)
        fh->atomic = flag != 0;
    return rc;
}

int xb_impl_file_get_atomicity(xb_file_t *fh, int *flag)
{
    *flag = fh->atomic;
    return XB_OK;
}

/* ---- errhandlers ----------------------------------------------------------- */
int xb_impl_file_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    xb_errhandler_t *e;
    int rc = xb_errhandler_create(XB_ERRH_OBJ_FILE, (void (*)(void))file_errhandler_fn, &e);
    if (rc == XB_OK)
        *errhandler = xb_errhandler_to_handle(e);
    return rc;
}

int xb_impl_file_set_errhandler(xb_file_t *file, xb_errhandler_t *errhandler)
{
    if (errhandler->obj != XB_ERRH_OBJ_ANY && errhandler->obj != XB_ERRH_OBJ_FILE)
        return xb_err_set(XB_ERR_ARG, "the error handler was not made for files "
                          "(use MPI_File_create_errhandler)");
    xb_errhandler_t **slot = file != NULL ? &file->errh : &null_errh;
    xb_errhandler_t *old = *slot;
    xb_errhandler_retain(errhandler);
    *slot = errhandler;
    xb_errhandler_release(old);
    return XB_OK;
}

int xb_impl_file_get_errhandler(xb_file_t *file, MPI_Errhandler *errhandler)
{
    xb_errhandler_t *e = file != NULL ? file->errh : null_errh;
    if (e == NULL)
        e = xb_errhandler_from_handle(MPI_ERRORS_RETURN);
    xb_errhandler_retain(e);          /* the user frees it with MPI_Errhandler_free */
    *errhandler = xb_errhandler_to_handle(e);
    return XB_OK;
}

int xb_impl_file_call_errhandler(xb_file_t *fh, int errorcode)
{
    char text[MPI_MAX_ERROR_STRING], msg[MPI_MAX_ERROR_STRING + 64];
    int len;

    if (xb_errcode_string(errorcode, text, &len) != XB_OK) {
        xb_err_clear();
        snprintf(text, sizeof(text), "error code %d", errorcode);
    }
    snprintf(msg, sizeof(msg), "MPI_File_call_errhandler: %s", text);
    xb_errh_invoke_file(fh != NULL ? fh->errh : null_errh,
                        fh != NULL ? fh->handle : MPI_FILE_NULL, errorcode, msg);
    return XB_OK;
}

/* MPI_Finalize: MPI_FILE_NULL's errhandler back to the default. */
void xb_io_fini(void)
{
    xb_errhandler_release(null_errh);
    null_errh = NULL;
    xb_io_shared_fini();
    xb_io_datarep_fini();
}
