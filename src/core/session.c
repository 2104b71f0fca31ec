/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * session.c - MPI sessions (MPI 4): MPI_Session_init, _finalize,
 * _get_num_psets, _get_nth_pset, _get_pset_info, _get_info, the session
 * errhandler calls, and MPI_Group_from_session_pset.
 *
 * Process sets: "mpi://WORLD" (every process of the job) and "mpi://SELF"
 * (this process); names are compared without regard to case. Their info
 * holds "mpi_size".
 *
 * The world and sessions models share one library state: MPI_Session_init
 * before MPI_Init initialises the library (xb_impl_init_thread), and the
 * last MPI_Session_finalize then finalises it. A program that initialised
 * through sessions cannot call MPI_Init afterwards (the library reports
 * that MPI is already initialised); MPI_Init first, then sessions, works.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/session.h"
#include "core/info.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

static int live;                 /* sessions not yet finalised            */
static bool we_initialised;      /* Session_init called MPI's init        */

xb_session_t *xb_session_from_handle(MPI_Session h)
{
    if (xb_handle_is_predef(h))
        return NULL;
    xb_session_t *s = (xb_session_t *)h;
    return s->magic == XB_MAGIC_SESSION ? s : NULL;
}

static int thread_level_wanted(const xb_info_t *info)
{
    const char *v = xb_info_lookup(info, "thread_level");
    if (v == NULL)
        return MPI_THREAD_SINGLE;
    if (strcmp(v, "MPI_THREAD_MULTIPLE") == 0)
        return MPI_THREAD_MULTIPLE;
    if (strcmp(v, "MPI_THREAD_SERIALIZED") == 0)
        return MPI_THREAD_SERIALIZED;
    if (strcmp(v, "MPI_THREAD_FUNNELED") == 0)
        return MPI_THREAD_FUNNELED;
    return MPI_THREAD_SINGLE;
}

int xb_impl_session_init(xb_info_t *info, xb_errhandler_t *errhandler,
                         MPI_Session *session)
{
    if (errhandler != NULL && errhandler->obj != XB_ERRH_OBJ_ANY &&
        errhandler->obj != XB_ERRH_OBJ_SESSION)
        return xb_err_set(XB_ERR_ARG, "invalid argument errhandler: it was not "
                          "made for sessions (use MPI_Session_create_errhandler)");
    if (xb_init_state() == XB_STATE_NONE) {
        int provided;
        int rc = xb_impl_init_thread(NULL, NULL, thread_level_wanted(info), &provided);
        if (rc != XB_OK)
            return rc;
        we_initialised = true;
    } else if (xb_init_state() == XB_STATE_FINALIZED)
        return xb_err_set(-MPI_ERR_SESSION, "the library was finalized and "
                          "cannot be initialized again");
    xb_session_t *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a session");
    if (info != NULL && xb_info_copy(info, &s->info) != XB_OK) {
        free(s);
        return XB_ERR_NO_MEM;
    }
    if ((s->bbuf = xb_bbuf_new()) == NULL) {
        xb_info_destroy(s->info);
        free(s);
        return XB_ERR_NO_MEM;
    }
    s->magic = XB_MAGIC_SESSION;
    s->errh = errhandler != NULL ? errhandler : xb_errhandler_fatal();
    xb_errhandler_retain(s->errh);
    s->handle = (MPI_Session)s;
    live++;
    *session = s->handle;
    return XB_OK;
}

int xb_impl_session_finalize(MPI_Session *session)
{
    xb_session_t *s = xb_session_from_handle(*session);
    if (s == NULL)
        return xb_err_set(-MPI_ERR_SESSION, "invalid session handle (null or "
                          "already finalized)");
    xb_errhandler_release(s->errh);
    xb_info_destroy(s->info);
    xb_bbuf_release(s->bbuf);
    s->magic = XB_MAGIC_FREED;
    free(s);
    *session = MPI_SESSION_NULL;
    if (--live == 0 && we_initialised) {
        we_initialised = false;
        return xb_impl_finalize();
    }
    return XB_OK;
}

/* ---- process sets ------------------------------------------------------- */
static const char *const psets[] = { "mpi://WORLD", "mpi://SELF" };
enum { NPSETS = 2 };

static int pset_index(const char *name)
{
    for (int i = 0; i < NPSETS; i++)
        if (strcasecmp(name, psets[i]) == 0)
            return i;
    return xb_err_set(XB_ERR_ARG, "unknown process set \"%.200s\" (known: "
                      "mpi://WORLD, mpi://SELF)", name);
}

int xb_impl_session_get_num_psets(xb_session_t *session, xb_info_t *info,
                                  int *npset_names)
{
    (void)session;
    (void)info;
    *npset_names = NPSETS;
    return XB_OK;
}

int xb_impl_session_get_nth_pset(xb_session_t *session, xb_info_t *info, int n,
                                 int *pset_len, char *pset_name)
{
    (void)session;
    (void)info;
    if (n < 0 || n >= NPSETS)
        return xb_err_set(XB_ERR_ARG, "invalid argument n: %d (there are %d "
                          "process sets)", n, NPSETS);
    int len = (int)strlen(psets[n]) + 1;
    if (*pset_len > 0)
        snprintf(pset_name, (size_t)*pset_len, "%s", psets[n]);
    *pset_len = len;
    return XB_OK;
}

int xb_impl_session_get_pset_info(xb_session_t *session, const char *pset_name,
                                  MPI_Info *info)
{
    (void)session;
    int i = pset_index(pset_name);
    if (i < 0)
        return i;
    xb_info_t *o = xb_info_new();
    if (o == NULL)
        return XB_ERR_NO_MEM;
    char num[32];
    snprintf(num, sizeof(num), "%d", i == 0 ? xb_rt()->size : 1);
    int rc = xb_info_put(o, "mpi_size", num);
    if (rc != XB_OK) {
        xb_info_destroy(o);
        return rc;
    }
    *info = xb_info_to_handle(o);
    return XB_OK;
}

int xb_impl_session_get_info(xb_session_t *session, MPI_Info *info_used)
{
    xb_session_t *s = session;
    xb_info_t *o;
    int rc = xb_info_copy(s->info, &o);
    if (rc == XB_OK && xb_info_lookup(o, "thread_level") == NULL) {
        int level;
        xb_impl_query_thread(&level);
        rc = xb_info_put(o, "thread_level", level == MPI_THREAD_MULTIPLE
                         ? "MPI_THREAD_MULTIPLE" : level == MPI_THREAD_SERIALIZED
                         ? "MPI_THREAD_SERIALIZED" : level == MPI_THREAD_FUNNELED
                         ? "MPI_THREAD_FUNNELED" : "MPI_THREAD_SINGLE");
        if (rc != XB_OK)
            xb_info_destroy(o);
    }
    if (rc == XB_OK)
        *info_used = xb_info_to_handle(o);
    return rc;
}

int xb_impl_group_from_session_pset(xb_session_t *session, const char *pset_name,
                                    MPI_Group *newgroup)
{
    int i = pset_index(pset_name);
    if (i < 0)
        return i;
    int me = xb_rt()->rank;
    xb_group_t *g = i == 0 ? xb_group_new(xb_rt()->size, NULL) : xb_group_new(1, &me);
    if (g == NULL)
        return XB_ERR_NO_MEM;
    if (g->session_bbuf == NULL)   /* the empty group is shared: never tagged */
        g->session_bbuf = xb_bbuf_retain(session->bbuf);
    *newgroup = xb_group_to_handle(g);
    return XB_OK;
}

/* ---- errhandlers ---------------------------------------------------------- */
int xb_impl_session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                      MPI_Errhandler *errhandler)
{
    xb_errhandler_t *e;
    int rc = xb_errhandler_create(XB_ERRH_OBJ_SESSION,
                                  (void (*)(void))session_errhandler_fn, &e);
    if (rc == XB_OK)
        *errhandler = xb_errhandler_to_handle(e);
    return rc;
}

int xb_impl_session_set_errhandler(xb_session_t *session, xb_errhandler_t *errhandler)
{
    xb_session_t *s = session;
    if (errhandler->obj != XB_ERRH_OBJ_ANY && errhandler->obj != XB_ERRH_OBJ_SESSION)
        return xb_err_set(XB_ERR_ARG, "the error handler was not made for "
                          "sessions (use MPI_Session_create_errhandler)");
    xb_errhandler_retain(errhandler);
    xb_errhandler_release(s->errh);
    s->errh = errhandler;
    return XB_OK;
}

int xb_impl_session_get_errhandler(xb_session_t *session, MPI_Errhandler *errhandler)
{
    xb_session_t *s = session;
    xb_errhandler_retain(s->errh);
    *errhandler = xb_errhandler_to_handle(s->errh);
    return XB_OK;
}

int xb_impl_session_call_errhandler(xb_session_t *session, int errorcode)
{
    char text[MPI_MAX_ERROR_STRING], msg[MPI_MAX_ERROR_STRING + 64];
    int len;
    if (xb_errcode_string(errorcode, text, &len) != XB_OK) {
        xb_err_clear();
        snprintf(text, sizeof(text), "error code %d", errorcode);
    }
    snprintf(msg, sizeof(msg), "MPI_Session_call_errhandler: %s", text);
    xb_errh_invoke_session(session, errorcode, msg);
    return XB_OK;
}
