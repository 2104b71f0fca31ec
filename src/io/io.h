/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * io.h - MPI-IO on POSIX files (MPI 4.1 chapter 14). Design:
 * docs/design/io.md; file map: src/io/README.md.
 *
 * Lifecycle. MPI_File_open (collective) checks the access mode, agrees on
 * it and on the file name over the communicator, opens the file on every
 * rank (rank 0 first, so CREATE/EXCL are decided once), and makes a private
 * communicator over the same group (its own context id: the shared file
 * pointer's messages and the collective calls of the file never meet the
 * user's traffic). MPI_File_close (collective) undoes all of it, and rank 0
 * removes the file if it was opened with MPI_MODE_DELETE_ON_CLOSE. A file
 * object is freed only by close; nothing else holds it (nonblocking file
 * operations are done when their request is returned).
 *
 * Threading: every function runs inside the binding's critical section
 * (docs/design/threads.md). Blocking waits (the collectives, the shared
 * pointer's messages) go through the progress wait, which drops the lock;
 * the only other sleep, the byte-range lock of atomic mode, drops it too
 * (xb_cb_begin/end). pread/pwrite run with the lock held.
 *
 * Ownership. The file holds: its fd, a copy of the name, its private
 * communicator, a reference on the view's etype and filetype, a copy of
 * the hints, and a reference on its errhandler.
 *
 * Returns: XB_OK or a negative XB_ERR_* / -MPI_ERR_<class> with the detail
 * recorded (xb_err_set). The binding raises failures on the file's
 * errhandler (xb_io_raise): MPI_FILE_NULL's for open and delete, whose
 * default is MPI_ERRORS_RETURN.
 */
#ifndef XB_IO_H
#define XB_IO_H

#include "util/xb_common.h"
#include "core/core.h"
#include "core/request.h"
#include "datatype/datatype.h"

#define XB_MAGIC_FILE 0x58424639u

/* The split collective in progress on a file (one at a time). */
typedef enum {
    XB_SPLIT_NONE = 0, XB_SPLIT_READ_ALL, XB_SPLIT_WRITE_ALL,
    XB_SPLIT_READ_AT_ALL, XB_SPLIT_WRITE_AT_ALL, XB_SPLIT_READ_ORDERED,
    XB_SPLIT_WRITE_ORDERED,
} xb_split_t;

typedef struct xb_file {
    uint32_t         magic;       /* XB_MAGIC_FILE; XB_MAGIC_FREED when closed */
    int              fd;
    int              amode;
    char            *name;        /* as given to MPI_File_open                */
    xb_comm_t       *comm;        /* private: same group, own context         */
    xb_errhandler_t *errh;        /* retained; NULL = MPI_ERRORS_RETURN        */
    struct xb_info  *info;        /* hints given (a copy) or NULL              */
    bool             atomic;      /* MPI_File_set_atomicity                   */
    /* the view (file_view.c) */
    MPI_Offset       disp;        /* bytes                                    */
    xb_datatype_t   *etype;       /* retained                                 */
    xb_datatype_t   *ftype;       /* retained                                 */
    MPI_Offset       esize;       /* size of etype                            */
    MPI_Offset       fsize;       /* size of filetype (a multiple of esize)   */
    MPI_Offset       fext;        /* extent of filetype                       */
    bool             fcontig;     /* filetype is one contiguous run of fsize  */
    MPI_Offset       ipos;        /* individual file pointer, in etypes       */
    /* split collectives (file_split.c) */
    xb_split_t       split;
    const void      *split_buf;   /* the buffer given to _begin               */
    xb_status_t      split_st;    /* the status _end reports                  */
    /* the shared file pointer (file_shared.c) */
    xb_request_t    *sp_req;      /* rank 0: the posted server receive        */
    int64_t          sp_msg[3];   /* rank 0: the request being received:
                                     {op, value, reply tag}                  */
    struct xb_file  *sp_next;     /* rank 0: list of served files            */
    int64_t          sp_value;    /* rank 0: the pointer, in etypes           */
    MPI_File         handle;
} xb_file_t;

xb_file_t *xb_file_from_handle(MPI_File h);
MPI_File   xb_file_to_handle(xb_file_t *fh);

/* The error path of the bindings (errhandler of fh; of MPI_FILE_NULL when
 * fh is NULL, or *fh does not name an open file). */
int xb_io_raise(xb_file_t *fh, const char *fn, int rc);
int xb_io_raise_ref(const MPI_File *fh, const char *fn, int rc);

/* An MPI error class for errno (ENOENT -> MPI_ERR_NO_SUCH_FILE ...),
 * negated, with the detail "<what> <name>: <strerror>" recorded. */
int xb_io_errno(int err, const char *what, const char *name);

/* Collective over fh->comm: every rank passed the same value (else
 * MPI_ERR_NOT_SAME) and no rank failed its local step (rc is this rank's).
 * Every rank returns an error when one rank failed (file_query.c). */
int xb_io_agree(xb_file_t *fh, int64_t value, const char *what, int rc);
/* The errhandler new files get: MPI_FILE_NULL's (NULL: MPI_ERRORS_RETURN). */
xb_errhandler_t *xb_io_default_errh(void);
/* MPI_Finalize: MPI_FILE_NULL's errhandler back to the default, the
 * shared pointer's progress hook forgotten (file_query.c). */
void xb_io_fini(void);

/* ---- access (file_rw.c) ------------------------------------------------- */
/* Read or write count x dt at buf, at view offset `off` (etypes from the
 * start of the view). *st gets the bytes moved (a read may stop short at the
 * end of the file; that is no error). Checks the access mode; takes the
 * byte-range lock in atomic mode. */
int xb_io_access(xb_file_t *fh, MPI_Offset off, void *buf, MPI_Count count,
                 xb_datatype_t *dt, bool write, xb_status_t *st);
/* XB_ERR_COUNT for a negative count (the standard's count kind for file
 * access is not one the generator checks). */
int xb_io_check_count(MPI_Count count);
/* The absolute byte offset of view offset `off` (MPI_File_get_byte_offset). */
MPI_Offset xb_io_byte_offset(const xb_file_t *fh, MPI_Offset off);
/* Number of whole etypes in `bytes` of data (advances the pointers). */
MPI_Offset xb_io_etypes(const xb_file_t *fh, MPI_Count bytes);
/* Fills an MPI_Status from st (ignores MPI_STATUS_IGNORE). */
void xb_io_status_out(const xb_status_t *st, MPI_Status *status);
/* XB_ERR_UNSUPPORTED_OPERATION when the file is MPI_MODE_SEQUENTIAL (the
 * explicit-offset and individual-pointer calls). */
int xb_io_not_sequential(const xb_file_t *fh);
/* A request already complete with status st (the nonblocking calls). */
int xb_io_done_request(const xb_status_t *st, int rc, MPI_Request *request);

/* ---- view (file_view.c) ------------------------------------------------- */
/* The default view: displacement 0, etype and filetype MPI_BYTE, "native". */
void xb_io_view_default(xb_file_t *fh);
void xb_io_view_release(xb_file_t *fh);

/* ---- shared file pointer (file_shared.c) -------------------------------- */
/* Open/close the server of the shared pointer (rank 0 of fh->comm); both
 * collective over fh->comm. */
int  xb_io_shared_open(xb_file_t *fh);
void xb_io_shared_close(xb_file_t *fh);
/* Fetch the shared pointer and add `add` etypes to it, atomically. */
int  xb_io_shared_fetch_add(xb_file_t *fh, int64_t add, int64_t *old_p);
/* MPI_Finalize: the progress hook is registered again by the next init. */
void xb_io_shared_fini(void);
/* The ordered and shared-pointer accesses the split collectives reuse
 * (file_ordered.c): the status of the whole access goes to *st. */
int  xb_io_ordered(xb_file_t *fh, void *buf, MPI_Count count, xb_datatype_t *dt,
                   bool write, xb_status_t *st);

/* ---- pointers (file_data.c) --------------------------------------------- */
/* The view offset (etypes) of the end of the file (a partial etype counts). */
int  xb_io_end_etypes(xb_file_t *fh, MPI_Offset *end_p);
/* The position (offset, whence) from cur; MPI_ERR_ARG if before the view. */
int  xb_io_seek_pos(xb_file_t *fh, MPI_Offset cur, MPI_Offset offset, int whence,
                    MPI_Offset *pos_p);

#endif
