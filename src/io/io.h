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
 * (xb_cb_begin/end), and so do the user's data representation callbacks
 * (datarep.c). pread/pwrite run with the lock held.
 *
 * Ownership. The file holds: its fd, a copy of the name, its private
 * communicator, a reference on the view's etype, filetype and the
 * filetype's file layout, a copy of the hints, and a reference on its
 * errhandler. It points at its data representation, which lives until
 * MPI_Finalize (registered ones) or forever (predefined ones).
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
    const struct xb_datarep *rep; /* the view's data representation         */
    xb_datatype_t   *fmap;        /* retained: the filetype's layout in the
                                     file (the filetype itself when "native";
                                     else rebuilt over file extents)         */
    MPI_Offset       esize;       /* file bytes of etype                      */
    MPI_Offset       fsize;       /* file bytes of filetype (esize multiple)  */
    MPI_Offset       fext;        /* extent of fmap                           */
    bool             fcontig;     /* fmap is one contiguous run of fsize      */
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
 * registered data representations freed, the
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
/* Number of whole etypes that `bytes` of memory data of type dt fill in
 * the file (advances the pointers; with a converting representation it
 * asks the representation for the file size of those elements). */
int xb_io_etypes(xb_file_t *fh, xb_datatype_t *dt, MPI_Count bytes,
                 MPI_Offset *n_p);
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
/* Makes the view's file layout if it is not made yet (a user's data
 * representation defers it to the first call that needs it, since its
 * extent function may run only from data access calls and
 * MPI_File_get_type_extent). Call before using esize/fsize/fext/fmap. */
int  xb_io_view_ready(xb_file_t *fh);

/* ---- data representations (datarep.c) ---------------------------------- */
/* "native" and "internal" are XB_REP_NATIVE (no conversion, memory
 * extents); "external32" converts through MPI_Pack_external; the user's
 * (MPI_Register_datarep) call back. Registrations live until
 * xb_io_datarep_fini (MPI_Finalize); files point at them. Every function
 * that may run a user callback drops the big lock around it. */
typedef enum { XB_REP_NATIVE, XB_REP_EXTERNAL32, XB_REP_USER } xb_rep_kind_t;
typedef struct xb_datarep xb_datarep_t;
const xb_datarep_t *xb_io_datarep_find(const char *name);      /* NULL: none */
const xb_datarep_t *xb_io_datarep_native(void);
const char   *xb_io_rep_name(const xb_datarep_t *r);
xb_rep_kind_t xb_io_rep_kind(const xb_datarep_t *r);
void          xb_io_datarep_fini(void);
/* The file extent of a predefined type (MPI_ERR_CONVERSION when the
 * user's extent function fails or gives a negative extent). */
int  xb_io_rep_extent(const xb_datarep_t *r, xb_datatype_t *basic, MPI_Aint *ext);
/* File bytes of count x dt, and (items != NULL) predefined items per dt. */
int  xb_io_rep_file_size(const xb_datarep_t *r, xb_datatype_t *dt, MPI_Count count,
                         MPI_Count *bytes, MPI_Count *items);
/* The layout of dt in the file (one reference; dt itself when native). */
int  xb_io_rep_layout(const xb_datarep_t *r, xb_datatype_t *dt, xb_datatype_t **out);
/* Whether the representation converts data in this direction (false for
 * native, and for a user's MPI_CONVERSION_FN_NULL). */
bool xb_io_rep_converts(const xb_datarep_t *r, bool write);
/* Elements [first, first + n) of a run of dt at buf <-> fbytes contiguous
 * file bytes at fbuf (items: predefined items per dt, the unit of the
 * user's count and position). */
int  xb_io_rep_convert(const xb_datarep_t *r, bool write, void *buf, xb_datatype_t *dt,
                       MPI_Count first, MPI_Count n, MPI_Count items, void *fbuf,
                       size_t fbytes);

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
