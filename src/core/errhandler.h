/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * errhandler.h - error handlers (errhandler.c) and error codes (errcode.c).
 *
 * Error codes. An MPI error class is the ABI value (include/mpi.h). A code
 * that a failed call returns carries its own message, so MPI_Error_string
 * on THAT code tells what went wrong:
 *
 *   value                       meaning
 *   0 .. MPI_ERR_LASTCODE       predefined classes (0..61 are defined; the
 *                               rest of the range is invalid)
 *   0x4000 .. 0x7fff            user-defined classes and codes
 *                               (MPI_Add_error_class/code), in order of
 *                               creation: MPI_LASTUSEDCODE is the last one
 *   (seq << 15) | class         a detailed code: class in the low 15 bits,
 *                               seq (1..0x7fff) names a slot of a ring of the
 *                               most recent messages. When the slot has been
 *                               reused the string of the class is returned.
 *
 * Lifecycle: both modules are usable before MPI_Init and after
 * MPI_Finalize (the standard allows MPI_Error_string/class at any time).
 * Threading: code creation and lookup take a mutex (cold path only).
 *
 * Error handlers. xb_errhandler_t is refcounted: the user's handle holds one
 * reference, every communicator using it holds one (retain when setting,
 * release when replacing or freeing the communicator). The predefined ones
 * (MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRORS_ABORT) are static and
 * never freed. A user function is called without any library lock held.
 */
#ifndef XB_ERRHANDLER_H
#define XB_ERRHANDLER_H

#include "core/core.h"

/* ---- error codes (errcode.c) ------------------------------------------- */
enum {
    XB_ERRCODE_USER_BASE = 0x4000,   /* first user-defined class/code        */
    XB_ERRCODE_USER_END  = 0x8000,   /* one past the last one                */
    XB_ERRCODE_CLASS_BITS = 15,      /* detailed code: class in these bits   */
    XB_ERRCODE_PREDEF_LAST = MPI_ERR_ABI,         /* last predefined class    */
};

/* The MPI class of an internal return code (XB_ERR_X -> MPI_ERR_X; anything
 * unexpected -> MPI_ERR_INTERN). */
int  xb_errcode_class_of_rc(int rc);
/* A new code of class errclass whose error string is msg (truncated to
 * MPI_MAX_ERROR_STRING - 1). Never fails: without a free slot the class
 * itself is returned. */
int  xb_errcode_make(int errclass, const char *msg);
/* XB_ERR_ARG (detail recorded) when code is no valid code or class. */
int  xb_errcode_class(int code, int *class_p);
/* string: MPI_MAX_ERROR_STRING bytes. */
int  xb_errcode_string(int code, char *string, int *len_p);
int  xb_errcode_add_class(int *class_p);
int  xb_errcode_add_code(int errclass, int *code_p);
int  xb_errcode_add_string(int code, const char *string);
/* MPI 4.1: remove a user class (no live codes, no string left), a user code
 * (no string left), or the string of either. XB_ERR_ARG otherwise. */
int  xb_errcode_remove_class(int errclass);
int  xb_errcode_remove_code(int errcode);
int  xb_errcode_remove_string(int errcode);
/* Value of the MPI_LASTUSEDCODE attribute (>= MPI_ERR_LASTCODE). */
int  xb_errcode_lastused(void);

/* ---- error handlers (errhandler.c) ------------------------------------- */
typedef enum { XB_ERRH_FATAL, XB_ERRH_RETURN, XB_ERRH_ABORT, XB_ERRH_USER } xb_errh_kind_t;
typedef enum { XB_ERRH_OBJ_ANY, XB_ERRH_OBJ_COMM, XB_ERRH_OBJ_WIN,
               XB_ERRH_OBJ_FILE, XB_ERRH_OBJ_SESSION } xb_errh_obj_t;

struct xb_errhandler {
    uint32_t        magic;      /* XB_MAGIC_ERRH; XB_MAGIC_FREED when freed  */
    int             refcount;   /* atomic; unused for predefined handlers    */
    xb_errh_kind_t  kind;
    xb_errh_obj_t   obj;        /* what it may be attached to (ANY: predef)  */
    void          (*fn)(void);  /* user function (cast to its object's type) */
    MPI_Errhandler  handle;
};

/* New user errhandler for communicators, refcount 1 (the user's handle). */
int  xb_errhandler_create(xb_errh_obj_t obj, void (*fn)(void), xb_errhandler_t **errh_p);
void xb_errhandler_retain(xb_errhandler_t *e);
void xb_errhandler_release(xb_errhandler_t *e);   /* frees at zero */
/* MPI_ERRORS_ARE_FATAL's object: the default of COMM_WORLD and COMM_SELF. */
xb_errhandler_t *xb_errhandler_fatal(void);

/* Run comm's errhandler for `code` (MPI_Comm_call_errhandler, and the tail of
 * xb_errh_raise_comm). msg is what a fatal handler prints. Returns when the
 * handler returns (never for FATAL/ABORT): the code as a user handler left
 * it (its second argument; a failed call returns that, as MPICH and Open
 * MPI do), or `code`. The same for the other invoke functions. */
int  xb_errh_invoke_comm(xb_comm_t *comm, int code, const char *msg);

/* The same for objects whose handle is a pointer and whose user handler
 * has the shape fn(MPI_X *handle, int *code, ...) (windows): run e
 * (NULL: MPI_ERRORS_ARE_FATAL) for `code` on `handle`. */
int  xb_errh_invoke_obj(xb_errhandler_t *e, void *handle, int code, const char *msg);
/* The error path of a call on such an object (the binding's tail, as
 * xb_errh_raise_comm); e NULL: MPI_COMM_SELF's handler applies. */
int  xb_errh_raise_obj(xb_errhandler_t *e, void *handle, const char *fn, int rc);
/* Files (MPI-IO, src/io): run errhandler e (a predefined one or one made by
 * MPI_File_create_errhandler) for file handle fh (MPI_FILE_NULL for open
 * and delete). raise_file is the error path of a failed file call: it makes
 * the code with its message, as xb_errh_raise_comm does, and returns it. */
int  xb_errh_invoke_file(xb_errhandler_t *e, MPI_File fh, int code, const char *msg);
int  xb_errh_raise_file(xb_errhandler_t *e, MPI_File fh, const char *fn, int rc);

#endif
