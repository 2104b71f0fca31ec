/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * file_open.c - file handles, MPI_File_open, MPI_File_close, MPI_File_delete
 * and the errno -> MPI error class map (docs/design/io.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "io/io.h"
#include "coll/coll.h"
#include "comm/comm_int.h"
#include "core/errhandler.h"
#include "core/info.h"
#include "core/op.h"
#include "xb_impl.h"

xb_file_t *xb_file_from_handle(MPI_File h)
{
    if (xb_handle_is_predef(h))
        return NULL;                /* MPI_FILE_NULL or garbage */
    xb_file_t *f = (xb_file_t *)h;
    return f->magic == XB_MAGIC_FILE ? f : NULL;
}

MPI_File xb_file_to_handle(xb_file_t *fh)
{
    return fh != NULL ? fh->handle : MPI_FILE_NULL;
}

int xb_io_errno(int err, const char *what, const char *name)
{
    int cls;
    switch (err) {
    case ENOENT:        cls = MPI_ERR_NO_SUCH_FILE; break;
    case EEXIST:        cls = MPI_ERR_FILE_EXISTS; break;
    case EACCES:
    case EPERM:         cls = MPI_ERR_ACCESS; break;
    case EROFS:         cls = MPI_ERR_READ_ONLY; break;
    case ENOSPC:
    case EFBIG:         cls = MPI_ERR_NO_SPACE; break;
    case EDQUOT:        cls = MPI_ERR_QUOTA; break;
    case EISDIR:
    case ENOTDIR:
    case ENAMETOOLONG:
    case ELOOP:
    case EINVAL:        cls = MPI_ERR_BAD_FILE; break;
    case ETXTBSY:
    case EBUSY:         cls = MPI_ERR_FILE_IN_USE; break;
    default:            cls = MPI_ERR_IO; break;
    }
    return xb_err_sys(-cls, err, "%s '%s'", what, name);
}

/* The local checks of amode (MPI 4.1 section 14.2.1). */
static int check_amode(int amode)
{
    const int all = MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR |
        MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE |
        MPI_MODE_UNIQUE_OPEN | MPI_MODE_SEQUENTIAL | MPI_MODE_APPEND;
    int rw = amode & (MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR);

    if (amode & ~all)
        return xb_err_set(-MPI_ERR_AMODE, "invalid amode 0x%x (unknown bits 0x%x)",
                          (unsigned)amode, (unsigned)(amode & ~all));
    if (rw != MPI_MODE_RDONLY && rw != MPI_MODE_WRONLY && rw != MPI_MODE_RDWR)
        return xb_err_set(-MPI_ERR_AMODE, "invalid amode 0x%x (exactly one of "
                          "MPI_MODE_RDONLY, MPI_MODE_WRONLY, MPI_MODE_RDWR)",
                          (unsigned)amode);
    if (rw == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return xb_err_set(-MPI_ERR_AMODE, "invalid amode 0x%x (MPI_MODE_RDONLY "
                          "with MPI_MODE_CREATE or MPI_MODE_EXCL)", (unsigned)amode);
    if (rw == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
        return xb_err_set(-MPI_ERR_AMODE, "invalid amode 0x%x (MPI_MODE_RDWR "
                          "with MPI_MODE_SEQUENTIAL)", (unsigned)amode);
    return XB_OK;
}

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;          /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Agree over comm: every rank passed the same amode and name, and every
 * rank's local checks passed (rc). Returns the first failure every rank
 * reports: its own rc, or MPI_ERR_NOT_SAME, or an error elsewhere. */
static int agree_args(xb_comm_t *comm, int amode, const char *name, int rc)
{
    int64_t v[5], r[5];
    uint64_t h = name_hash(name) >> 1;
    v[0] = amode; v[1] = -(int64_t)amode; v[2] = (int64_t)h; v[3] = -(int64_t)h;
    v[4] = rc != XB_OK;
    int crc = xb_coll_allreduce(v, r, 5, xb_dt_from_handle(MPI_INT64_T),
                                xb_op_from_handle(MPI_MAX), comm);
    if (crc != XB_OK)
        return crc;
    if (rc != XB_OK)
        return rc;
    if (r[4] != 0)
        return xb_err_set(-MPI_ERR_FILE, "another rank of the communicator "
                          "failed the argument checks");
    if (r[0] != -r[1])
        return xb_err_set(-MPI_ERR_NOT_SAME, "the ranks passed different amodes "
                          "(this rank 0x%x)", (unsigned)amode);
    if (r[2] != -r[3])
        return xb_err_set(-MPI_ERR_NOT_SAME, "the ranks passed different file "
                          "names (this rank '%s')", name);
    return XB_OK;
}

static int open_flags(int amode, bool create, bool excl)
{
    int fl = O_CLOEXEC;
    if (amode & MPI_MODE_RDONLY)
        fl |= O_RDONLY;
    else if (amode & MPI_MODE_WRONLY)
        fl |= O_WRONLY;
    else
        fl |= O_RDWR;
    if (create)
        fl |= O_CREAT;
    if (excl)
        fl |= O_EXCL;
    return fl;
}

/* Rank 0 opens first (CREATE/EXCL decided once), then the others; all
 * learn whether everybody succeeded. *fd_p is -1 on failure. */
static int open_all(xb_comm_t *comm, const char *name, int amode, int *fd_p)
{
    bool create = amode & MPI_MODE_CREATE, excl = amode & MPI_MODE_EXCL;
    int fd = -1, rc = XB_OK, err0 = 0;
    if (comm->rank == 0) {
        fd = open(name, open_flags(amode, create, excl), 0666);
        err0 = fd < 0 ? errno : 0;
        if (fd < 0)
            rc = xb_io_errno(err0, "cannot open", name);
    }
    int crc = xb_coll_bcast(&err0, 1, xb_dt_from_handle(MPI_INT), 0, comm);
    if (crc == XB_OK && comm->rank != 0 && err0 == 0) {
        fd = open(name, open_flags(amode, create, false), 0666);
        if (fd < 0)
            rc = xb_io_errno(errno, "cannot open", name);
    } else if (crc == XB_OK && comm->rank != 0) {
        rc = xb_io_errno(err0, "rank 0 cannot open", name);
    }
    int bad = rc != XB_OK || crc != XB_OK, any = 0;
    if (crc == XB_OK)
        crc = xb_coll_allreduce(&bad, &any, 1, xb_dt_from_handle(MPI_INT),
                                xb_op_from_handle(MPI_MAX), comm);
    if (rc == XB_OK && crc == XB_OK && any)
        rc = xb_err_set(-MPI_ERR_FILE, "another rank could not open '%s'", name);
    if (rc == XB_OK)
        rc = crc;
    if (rc != XB_OK && fd >= 0) {
        close(fd);
        fd = -1;
    }
    *fd_p = fd;
    return rc;
}

static xb_file_t *file_new(const char *name, int amode, int fd)
{
    xb_file_t *f = calloc(1, sizeof(*f));
    char *n = strdup(name);
    if (f == NULL || n == NULL) {
        free(f);
        free(n);
        return NULL;
    }
    f->magic = XB_MAGIC_FILE;
    f->fd = fd;
    f->amode = amode;
    f->name = n;
    f->handle = (MPI_File)f;
    xb_io_view_default(f);
    return f;
}

static void file_free(xb_file_t *f)
{
    xb_io_view_release(f);
    xb_info_destroy(f->info);
    xb_errhandler_release(f->errh);
    free(f->name);
    f->magic = XB_MAGIC_FREED;
    free(f);
}

/* The private communicator over comm's group (collective). */
static int private_comm(xb_comm_t *comm, xb_comm_t **out_p)
{
    uint32_t ctx;
    int rc = xb_comm_ctx_agree(comm, true, &ctx);
    if (rc != XB_OK)
        return rc;
    xb_comm_t *c = xb_comm_new(comm->group, ctx, comm);
    if (c == NULL)
        return XB_ERR_NO_MEM;
    *out_p = c;
    return XB_OK;
}

/* The file's hints: a copy of info (NULL stays NULL). */
static int file_setup(xb_file_t *f, xb_comm_t *comm, xb_info_t *info)
{
    int rc = info != NULL ? xb_info_copy(info, &f->info) : XB_OK;
    f->errh = xb_io_default_errh();         /* MPI_FILE_NULL's, retained */
    xb_errhandler_retain(f->errh);
    if (rc == XB_OK)
        rc = private_comm(comm, &f->comm);
    if (rc == XB_OK)
        rc = xb_io_shared_open(f);
    if (rc == XB_OK && (f->amode & MPI_MODE_APPEND)) {
        struct stat sb;             /* both pointers start at the end */
        if (fstat(f->fd, &sb) != 0)
            return xb_io_errno(errno, "cannot stat", f->name);
        f->ipos = sb.st_size;
        f->sp_value = sb.st_size;
    }
    return rc;
}

int xb_impl_file_open(xb_comm_t *comm, const char *filename, int amode,
                      xb_info_t *info, MPI_File *fh)
{
    if (xb_comm_is_inter(comm))
        return xb_err_set(XB_ERR_COMM, "MPI_File_open needs an intracommunicator "
                          "(got an intercommunicator)");
    int rc = agree_args(comm, amode, filename, check_amode(amode));
    int fd = -1;
    if (rc == XB_OK)
        rc = open_all(comm, filename, amode, &fd);
    if (rc != XB_OK)
        return rc;
    xb_file_t *f = file_new(filename, amode, fd);
    if (f == NULL) {
        close(fd);
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a file handle");
    }
    rc = file_setup(f, comm, info);
    if (rc != XB_OK) {
        xb_io_shared_close(f);
        if (f->comm != NULL)
            xb_comm_release(f->comm);
        close(fd);
        file_free(f);
        return rc;
    }
    *fh = f->handle;
    return XB_OK;
}

int xb_impl_file_close(MPI_File *fh)
{
    xb_file_t *f = xb_file_from_handle(*fh);
    if (f == NULL)
        return xb_err_set(-MPI_ERR_FILE, "invalid file handle %p (MPI_FILE_NULL "
                          "or already closed)", (void *)*fh);
    if (f->split != XB_SPLIT_NONE)
        return xb_err_set(-MPI_ERR_OTHER, "a split collective is still active "
                          "on the file (call its _end first)");
    int rc = XB_OK;
    if (close(f->fd) != 0)
        rc = xb_io_errno(errno, "cannot close", f->name);
    /* every rank has finished with the file (and with the shared pointer
     * server) before rank 0 stops serving and deletes it */
    int brc = xb_coll_barrier(f->comm);
    xb_io_shared_close(f);
    if (brc == XB_OK && f->comm->rank == 0 && (f->amode & MPI_MODE_DELETE_ON_CLOSE) &&
        unlink(f->name) != 0 && rc == XB_OK)
        rc = xb_io_errno(errno, "cannot delete (MPI_MODE_DELETE_ON_CLOSE)", f->name);
    xb_comm_release(f->comm);
    file_free(f);
    *fh = MPI_FILE_NULL;
    return rc != XB_OK ? rc : brc;
}

int xb_impl_file_delete(const char *filename, xb_info_t *info)
{
    (void)info;
    if (unlink(filename) != 0)
        return xb_io_errno(errno, "cannot delete", filename);
    return XB_OK;
}
