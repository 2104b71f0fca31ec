/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * session.h - MPI_Session objects (session.c). A session holds its
 * errhandler (a reference) and a copy of the info it was made with.
 * Lifecycle: MPI_Session_init makes one (initialising the library when no
 * MPI_Init came first), MPI_Session_finalize frees it (and finalises the
 * library when the sessions initialised it and this was the last one).
 * Threading: one thread at a time.
 */
#ifndef XB_SESSION_H
#define XB_SESSION_H

#include "core/core.h"
#include "core/errhandler.h"

struct xb_session {
    uint32_t          magic;     /* XB_MAGIC_SESSION; XB_MAGIC_FREED when freed */
    xb_errhandler_t  *errh;
    struct xb_info   *info;      /* copy of the info given, or NULL          */
    MPI_Session       handle;
    struct xb_bbuf   *bbuf;      /* MPI_Session_attach_buffer's slot (from init) */
};

enum { XB_MAGIC_SESSION = 0x58425339u };

/* Run the session's errhandler for code (like xb_errh_invoke_comm). */
int  xb_errh_invoke_session(xb_session_t *s, int code, const char *msg);

#endif
