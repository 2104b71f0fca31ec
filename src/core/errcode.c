/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * errcode.c - error classes, detailed error codes and their strings.
 * The encoding is described in errhandler.h.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/errhandler.h"

enum {
    RING_SLOTS = 64,                    /* recent detailed messages kept     */
    SEQ_MAX    = 0x7fff,                /* seq field: 15 bits, never 0       */
    CLASS_MASK = (1 << XB_ERRCODE_CLASS_BITS) - 1,
};

static const char *const class_text[XB_ERRCODE_PREDEF_LAST + 1] = {
    [MPI_SUCCESS]          = "MPI_SUCCESS: no error",
    [MPI_ERR_BUFFER]       = "MPI_ERR_BUFFER: invalid buffer pointer",
    [MPI_ERR_COUNT]        = "MPI_ERR_COUNT: invalid count argument",
    [MPI_ERR_TYPE]         = "MPI_ERR_TYPE: invalid datatype",
    [MPI_ERR_TAG]          = "MPI_ERR_TAG: invalid tag argument",
    [MPI_ERR_COMM]         = "MPI_ERR_COMM: invalid communicator",
    [MPI_ERR_RANK]         = "MPI_ERR_RANK: invalid rank",
    [MPI_ERR_REQUEST]      = "MPI_ERR_REQUEST: invalid request",
    [MPI_ERR_ROOT]         = "MPI_ERR_ROOT: invalid root",
    [MPI_ERR_GROUP]        = "MPI_ERR_GROUP: invalid group",
    [MPI_ERR_OP]           = "MPI_ERR_OP: invalid reduction operation",
    [MPI_ERR_TOPOLOGY]     = "MPI_ERR_TOPOLOGY: invalid topology",
    [MPI_ERR_DIMS]         = "MPI_ERR_DIMS: invalid dimension argument",
    [MPI_ERR_ARG]          = "MPI_ERR_ARG: invalid argument",
    [MPI_ERR_UNKNOWN]      = "MPI_ERR_UNKNOWN: unknown error",
    [MPI_ERR_TRUNCATE]     = "MPI_ERR_TRUNCATE: message truncated on receive",
    [MPI_ERR_OTHER]        = "MPI_ERR_OTHER: other error",
    [MPI_ERR_INTERN]       = "MPI_ERR_INTERN: internal error in the MPI library",
    [MPI_ERR_PENDING]      = "MPI_ERR_PENDING: operation pending (not failed, not complete)",
    [MPI_ERR_IN_STATUS]    = "MPI_ERR_IN_STATUS: the error code is in the status",
    [MPI_ERR_ACCESS]       = "MPI_ERR_ACCESS: permission denied",
    [MPI_ERR_AMODE]        = "MPI_ERR_AMODE: invalid file access mode",
    [MPI_ERR_ASSERT]       = "MPI_ERR_ASSERT: invalid assert argument",
    [MPI_ERR_BAD_FILE]     = "MPI_ERR_BAD_FILE: invalid file name",
    [MPI_ERR_BASE]         = "MPI_ERR_BASE: invalid base address",
    [MPI_ERR_CONVERSION]   = "MPI_ERR_CONVERSION: data conversion failed",
    [MPI_ERR_DISP]         = "MPI_ERR_DISP: invalid displacement",
    [MPI_ERR_DUP_DATAREP]  = "MPI_ERR_DUP_DATAREP: data representation already defined",
    [MPI_ERR_FILE_EXISTS]  = "MPI_ERR_FILE_EXISTS: file exists",
    [MPI_ERR_FILE_IN_USE]  = "MPI_ERR_FILE_IN_USE: file in use",
    [MPI_ERR_FILE]         = "MPI_ERR_FILE: invalid file handle",
    [MPI_ERR_INFO_KEY]     = "MPI_ERR_INFO_KEY: info key too long",
    [MPI_ERR_INFO_NOKEY]   = "MPI_ERR_INFO_NOKEY: no such info key",
    [MPI_ERR_INFO_VALUE]   = "MPI_ERR_INFO_VALUE: info value too long",
    [MPI_ERR_INFO]         = "MPI_ERR_INFO: invalid info object",
    [MPI_ERR_IO]           = "MPI_ERR_IO: input/output error",
    [MPI_ERR_KEYVAL]       = "MPI_ERR_KEYVAL: invalid attribute key",
    [MPI_ERR_LOCKTYPE]     = "MPI_ERR_LOCKTYPE: invalid lock type",
    [MPI_ERR_NAME]         = "MPI_ERR_NAME: name not found",
    [MPI_ERR_NO_MEM]       = "MPI_ERR_NO_MEM: out of memory",
    [MPI_ERR_NOT_SAME]     = "MPI_ERR_NOT_SAME: arguments differ between processes",
    [MPI_ERR_NO_SPACE]     = "MPI_ERR_NO_SPACE: no space left",
    [MPI_ERR_NO_SUCH_FILE] = "MPI_ERR_NO_SUCH_FILE: no such file",
    [MPI_ERR_PORT]         = "MPI_ERR_PORT: invalid port name",
    [MPI_ERR_QUOTA]        = "MPI_ERR_QUOTA: quota exceeded",
    [MPI_ERR_READ_ONLY]    = "MPI_ERR_READ_ONLY: read-only file or file system",
    [MPI_ERR_RMA_ATTACH]   = "MPI_ERR_RMA_ATTACH: memory cannot be attached",
    [MPI_ERR_RMA_CONFLICT] = "MPI_ERR_RMA_CONFLICT: conflicting accesses to a window",
    [MPI_ERR_RMA_RANGE]    = "MPI_ERR_RMA_RANGE: target memory outside the window",
    [MPI_ERR_RMA_SHARED]   = "MPI_ERR_RMA_SHARED: memory cannot be shared",
    [MPI_ERR_RMA_SYNC]     = "MPI_ERR_RMA_SYNC: wrong synchronisation of RMA calls",
    [MPI_ERR_SERVICE]      = "MPI_ERR_SERVICE: invalid service name",
    [MPI_ERR_SIZE]         = "MPI_ERR_SIZE: invalid size argument",
    [MPI_ERR_SPAWN]        = "MPI_ERR_SPAWN: error spawning processes",
    [MPI_ERR_UNSUPPORTED_DATAREP]   = "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "MPI_ERR_UNSUPPORTED_OPERATION: unsupported operation",
    [MPI_ERR_WIN]          = "MPI_ERR_WIN: invalid window",
    [MPI_ERR_RMA_FLAVOR]   = "MPI_ERR_RMA_FLAVOR: wrong window flavor",
    [MPI_ERR_PROC_ABORTED] = "MPI_ERR_PROC_ABORTED: a peer process aborted",
    [MPI_ERR_VALUE_TOO_LARGE] = "MPI_ERR_VALUE_TOO_LARGE: value too large for the output argument",
    [MPI_ERR_SESSION]      = "MPI_ERR_SESSION: invalid session",
    [MPI_ERR_ERRHANDLER]   = "MPI_ERR_ERRHANDLER: invalid error handler",
    [MPI_ERR_ABI]          = "MPI_ERR_ABI: the ABI information cannot be changed (set already)",
};

typedef struct ring_slot {
    int  seq;                         /* 0: empty                           */
    char msg[MPI_MAX_ERROR_STRING];
} ring_slot_t;

typedef struct user_entry {
    bool  is_class;
    bool  removed;                    /* MPI_Remove_error_class/code (4.1) */
    int   errclass;                   /* for a code: its class              */
    char *string;                     /* NULL: "" (the standard's default)  */
} user_entry_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ring_slot_t     ring[RING_SLOTS];
static int             last_seq;
static user_entry_t   *user;          /* [nuser] */
static int             nuser, user_cap;

int xb_errcode_class_of_rc(int rc)
{
    if (rc >= 0)
        return MPI_SUCCESS;
    if (rc >= -XB_ERRCODE_PREDEF_LAST)
        return -rc;
    return MPI_ERR_INTERN;
}

int xb_errcode_make(int errclass, const char *msg)
{
    int code;

    pthread_mutex_lock(&lock);
    last_seq = last_seq >= SEQ_MAX ? 1 : last_seq + 1;
    ring_slot_t *s = &ring[last_seq % RING_SLOTS];
    s->seq = last_seq;
    snprintf(s->msg, sizeof(s->msg), "%s", msg);
    code = (last_seq << XB_ERRCODE_CLASS_BITS) | errclass;
    pthread_mutex_unlock(&lock);
    return code;
}

/* Class of a code, or -1 if it is not valid. Lock held. */
/* The tools interface's classes (MPI_T_ERR_*, 1001..1018): returned by the
 * MPI_T functions (src/mpit), valid for MPI_Error_string and _class. */
static const char *const t_text[] = {
    "MPI_T_ERR_CANNOT_INIT: the tools interface cannot be initialized",
    "MPI_T_ERR_NOT_ACCESSIBLE: not accessible now",
    "MPI_T_ERR_NOT_INITIALIZED: the tools interface is not initialized",
    "MPI_T_ERR_NOT_SUPPORTED: not supported",
    "MPI_T_ERR_MEMORY: out of memory",
    "MPI_T_ERR_INVALID: invalid use of the tools interface or invalid argument",
    "MPI_T_ERR_INVALID_INDEX: invalid index of a variable, category, event or source",
    "MPI_T_ERR_INVALID_ITEM: invalid item of an enumeration",
    "MPI_T_ERR_INVALID_SESSION: invalid performance-variable session",
    "MPI_T_ERR_INVALID_HANDLE: invalid handle",
    "MPI_T_ERR_INVALID_NAME: no variable, category or event has that name",
    "MPI_T_ERR_OUT_OF_HANDLES: no more handles",
    "MPI_T_ERR_OUT_OF_SESSIONS: no more sessions",
    "MPI_T_ERR_CVAR_SET_NOT_NOW: the control variable cannot be set now",
    "MPI_T_ERR_CVAR_SET_NEVER: the control variable cannot be set",
    "MPI_T_ERR_PVAR_NO_WRITE: the performance variable cannot be written or reset",
    "MPI_T_ERR_PVAR_NO_STARTSTOP: the performance variable cannot be started or stopped",
    "MPI_T_ERR_PVAR_NO_ATOMIC: the performance variable cannot be read and reset atomically",
};

static bool is_t_class(int code)
{
    return code >= MPI_T_ERR_CANNOT_INIT &&
           code < MPI_T_ERR_CANNOT_INIT + (int)(sizeof t_text / sizeof t_text[0]);
}

static int class_locked(int code)
{
    if (code < 0)
        return -1;
    if (code <= XB_ERRCODE_PREDEF_LAST || is_t_class(code))
        return code;
    if (code < XB_ERRCODE_USER_BASE)
        return -1;
    if (code < XB_ERRCODE_USER_END) {
        int i = code - XB_ERRCODE_USER_BASE;
        if (i >= nuser || user[i].removed)
            return -1;
        return user[i].is_class ? code : user[i].errclass;
    }
    if (code >> XB_ERRCODE_CLASS_BITS > SEQ_MAX)
        return -1;
    int cls = code & CLASS_MASK;
    if (cls >= XB_ERRCODE_USER_BASE && cls - XB_ERRCODE_USER_BASE < nuser &&
        user[cls - XB_ERRCODE_USER_BASE].is_class && !user[cls - XB_ERRCODE_USER_BASE].removed)
        return cls;
    return cls <= XB_ERRCODE_PREDEF_LAST ? cls : -1;
}

int xb_errcode_class(int code, int *class_p)
{
    pthread_mutex_lock(&lock);
    int cls = class_locked(code);
    pthread_mutex_unlock(&lock);
    if (cls < 0)
        return xb_err_set(XB_ERR_ARG, "%d is not a valid error code or class",
                          code);
    *class_p = cls;
    return XB_OK;
}

int xb_errcode_string(int code, char *string, int *len_p)
{
    const char *text = NULL;
    const char *suffix = "";

    pthread_mutex_lock(&lock);
    int cls = class_locked(code);
    if (cls < 0) {
        pthread_mutex_unlock(&lock);
        return xb_err_set(XB_ERR_ARG, "%d is not a valid error code or class",
                          code);
    }
    if (code >= XB_ERRCODE_USER_BASE && code < XB_ERRCODE_USER_END) {
        text = user[code - XB_ERRCODE_USER_BASE].string;
        if (text == NULL)
            text = "";
    } else if (code >= XB_ERRCODE_USER_END) {
        ring_slot_t *s = &ring[(code >> XB_ERRCODE_CLASS_BITS) % RING_SLOTS];
        if (s->seq == code >> XB_ERRCODE_CLASS_BITS) {
            text = s->msg;
        } else {
            suffix = " (the details of this error are no longer kept)";
        }
    }
    if (text == NULL) {
        if (cls <= XB_ERRCODE_PREDEF_LAST)
            text = class_text[cls];
        else if (is_t_class(cls))
            text = t_text[cls - MPI_T_ERR_CANNOT_INIT];
        else
            text = user[cls - XB_ERRCODE_USER_BASE].string != NULL
                 ? user[cls - XB_ERRCODE_USER_BASE].string : "";
    }
    int n = snprintf(string, MPI_MAX_ERROR_STRING, "%s%s", text, suffix);
    pthread_mutex_unlock(&lock);
    *len_p = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return XB_OK;
}

/* Append a user entry; returns its value. Lock held. */
static int user_add_locked(bool is_class, int errclass, int *value_p)
{
    if (nuser >= XB_ERRCODE_USER_END - XB_ERRCODE_USER_BASE)
        return xb_err_set(XB_ERR_OTHER, "all %d user-defined error classes and "
                          "codes are used", nuser);
    if (nuser == user_cap) {
        int cap = user_cap == 0 ? 16 : 2 * user_cap;
        user_entry_t *u = realloc(user, (size_t)cap * sizeof(*u));
        if (u == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "no memory for a new error code");
        user = u;
        user_cap = cap;
    }
    user[nuser] = (user_entry_t){ .is_class = is_class, .errclass = errclass };
    *value_p = XB_ERRCODE_USER_BASE + nuser++;
    return XB_OK;
}

int xb_errcode_add_class(int *class_p)
{
    int v = 0;

    pthread_mutex_lock(&lock);
    int rc = user_add_locked(true, 0, &v);
    if (rc == XB_OK)
        user[v - XB_ERRCODE_USER_BASE].errclass = v;
    pthread_mutex_unlock(&lock);
    if (rc == XB_OK)
        *class_p = v;
    return rc;
}

int xb_errcode_add_code(int errclass, int *code_p)
{
    int v = 0, rc;

    pthread_mutex_lock(&lock);
    int cls = class_locked(errclass);
    if (cls < 0 || cls != errclass)
        rc = xb_err_set(XB_ERR_ARG, "%d is not a valid error class", errclass);
    else
        rc = user_add_locked(false, errclass, &v);
    pthread_mutex_unlock(&lock);
    if (rc == XB_OK)
        *code_p = v;
    return rc;
}

int xb_errcode_add_string(int code, const char *string)
{
    int rc = XB_OK;
    size_t len = strlen(string);

    if (len >= MPI_MAX_ERROR_STRING)
        return xb_err_set(XB_ERR_ARG, "the string has %zu characters; at most "
                          "%d fit (MPI_MAX_ERROR_STRING - 1)", len,
                          MPI_MAX_ERROR_STRING - 1);
    char *copy = strdup(string);
    if (copy == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for an error string");
    pthread_mutex_lock(&lock);
    if (code < XB_ERRCODE_USER_BASE || code >= XB_ERRCODE_USER_BASE + nuser ||
        user[code - XB_ERRCODE_USER_BASE].removed) {
        rc = xb_err_set(XB_ERR_ARG, "%d is not a user-defined error class or "
                        "code (only those made by MPI_Add_error_class/code "
                        "take a string)", code);
        free(copy);
    } else {
        user_entry_t *u = &user[code - XB_ERRCODE_USER_BASE];
        free(u->string);
        u->string = copy;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

/* ---- MPI 4.1: removing user-defined classes, codes and strings -------------
 * A removed value is never handed out again (MPI_LASTUSEDCODE keeps its
 * meaning); every function then treats it as unknown. The standard's order
 * is enforced: a code's string before the code, a class's codes (and its
 * string) before the class. */

/* The live user entry of value v that is a class (want_class) or a code,
 * else NULL with an error recorded. Lock held. */
static user_entry_t *user_entry_locked(int v, bool want_class, int *rc_p)
{
    const char *what = want_class ? "class" : "code";
    const char *adder = want_class ? "MPI_Add_error_class" : "MPI_Add_error_code";
    if (v < XB_ERRCODE_USER_BASE || v >= XB_ERRCODE_USER_BASE + nuser) {
        *rc_p = xb_err_set(XB_ERR_ARG, "%d is not an error %s made by %s (predefined "
                           "classes and codes cannot be removed)", v, what, adder);
        return NULL;
    }
    user_entry_t *u = &user[v - XB_ERRCODE_USER_BASE];
    if (u->removed) {
        *rc_p = xb_err_set(XB_ERR_ARG, "error %s %d was removed already", what, v);
        return NULL;
    }
    if (u->is_class != want_class) {
        *rc_p = xb_err_set(XB_ERR_ARG, "%d is an error %s, not an error %s (made by %s)", v,
                           u->is_class ? "class" : "code", what, adder);
        return NULL;
    }
    return u;
}

int xb_errcode_remove_class(int errclass)
{
    int rc = XB_OK;
    pthread_mutex_lock(&lock);
    user_entry_t *u = user_entry_locked(errclass, true, &rc);
    int ncodes = 0;
    for (int i = 0; u != NULL && i < nuser; i++)
        ncodes += !user[i].is_class && !user[i].removed && user[i].errclass == errclass;
    if (u == NULL)
        ;
    else if (ncodes > 0)
        rc = xb_err_set(XB_ERR_ARG, "error class %d still has %d error code%s: remove them "
                        "first (MPI_Remove_error_code)", errclass, ncodes, ncodes > 1 ? "s" : "");
    else if (u->string != NULL)
        rc = xb_err_set(XB_ERR_ARG, "error class %d still has an error string: remove it "
                        "first (MPI_Remove_error_string)", errclass);
    else
        u->removed = true;
    pthread_mutex_unlock(&lock);
    return rc;
}

int xb_errcode_remove_code(int errcode)
{
    int rc = XB_OK;
    pthread_mutex_lock(&lock);
    user_entry_t *u = user_entry_locked(errcode, false, &rc);
    if (u != NULL && u->string != NULL)
        rc = xb_err_set(XB_ERR_ARG, "error code %d still has an error string: remove it "
                        "first (MPI_Remove_error_string)", errcode);
    else if (u != NULL)
        u->removed = true;
    pthread_mutex_unlock(&lock);
    return rc;
}

int xb_errcode_remove_string(int errcode)
{
    int rc = XB_OK;
    pthread_mutex_lock(&lock);
    user_entry_t *u = NULL;
    if (errcode >= XB_ERRCODE_USER_BASE && errcode < XB_ERRCODE_USER_BASE + nuser)
        u = user_entry_locked(errcode, user[errcode - XB_ERRCODE_USER_BASE].is_class, &rc);
    else
        rc = xb_err_set(XB_ERR_ARG, "%d is not an error class or code made by "
                        "MPI_Add_error_class/code (predefined strings cannot be removed)",
                        errcode);
    if (u != NULL && u->string == NULL) {
        rc = xb_err_set(XB_ERR_ARG, "error %s %d has no string (MPI_Add_error_string) to "
                        "remove", u->is_class ? "class" : "code", errcode);
    } else if (u != NULL) {
        free(u->string);
        u->string = NULL;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int xb_errcode_lastused(void)
{
    pthread_mutex_lock(&lock);
    int v = nuser > 0 ? XB_ERRCODE_USER_BASE + nuser - 1 : MPI_ERR_LASTCODE;
    pthread_mutex_unlock(&lock);
    return v;
}
