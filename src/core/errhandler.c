/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * errhandler.c - error handler objects, their handles, and the error path of
 * every MPI call (xb_errh_raise_comm, called by the binding on failure).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/errhandler.h"
#include "core/session.h"
#include "runtime/runtime.h"
#include "util/xb_mt.h"

#define PREDEF_FIRST ((uintptr_t)MPI_ERRORS_ARE_FATAL)

static xb_errhandler_t predef[3] = {
    { XB_MAGIC_ERRH, 1, XB_ERRH_FATAL,  XB_ERRH_OBJ_ANY, NULL, MPI_ERRORS_ARE_FATAL },
    { XB_MAGIC_ERRH, 1, XB_ERRH_RETURN, XB_ERRH_OBJ_ANY, NULL, MPI_ERRORS_RETURN },
    { XB_MAGIC_ERRH, 1, XB_ERRH_ABORT,  XB_ERRH_OBJ_ANY, NULL, MPI_ERRORS_ABORT },
};

static bool is_predef(const xb_errhandler_t *e)
{
    return e >= &predef[0] && e <= &predef[2];
}

xb_errhandler_t *xb_errhandler_fatal(void)
{
    return &predef[0];
}

xb_errhandler_t *xb_errhandler_from_handle(MPI_Errhandler h)
{
    uintptr_t v = (uintptr_t)h;

    if (xb_handle_is_predef(h)) {
        if (v >= PREDEF_FIRST && v < PREDEF_FIRST + 3)
            return &predef[v - PREDEF_FIRST];
        return NULL;          /* MPI_ERRHANDLER_NULL or no such handle */
    }
    xb_errhandler_t *e = (xb_errhandler_t *)h;
    return e->magic == XB_MAGIC_ERRH ? e : NULL;
}

MPI_Errhandler xb_errhandler_to_handle(xb_errhandler_t *e)
{
    return e != NULL ? e->handle : MPI_ERRHANDLER_NULL;
}

int xb_errhandler_create(xb_errh_obj_t obj, void (*fn)(void), xb_errhandler_t **errh_p)
{
    xb_errhandler_t *e = calloc(1, sizeof(*e));

    if (e == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for an error handler");
    e->magic = XB_MAGIC_ERRH;
    e->refcount = 1;
    e->kind = XB_ERRH_USER;
    e->obj = obj;
    e->fn = fn;
    e->handle = (MPI_Errhandler)e;
    *errh_p = e;
    return XB_OK;
}

void xb_errhandler_retain(xb_errhandler_t *e)
{
    if (e != NULL && !is_predef(e))
        __atomic_add_fetch(&e->refcount, 1, __ATOMIC_RELAXED);
}

void xb_errhandler_release(xb_errhandler_t *e)
{
    if (e == NULL || is_predef(e))
        return;
    if (__atomic_sub_fetch(&e->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
        e->magic = XB_MAGIC_FREED;
        free(e);
    }
}

/* Print the message of a fatal error and end the job. */
static void __attribute__((noreturn)) die(const char *msg, int code, const char *why)
{
    const xb_rt_info_t *rt = xb_rt();
    char line[MPI_MAX_ERROR_STRING + 512];

    if (xb_init_state() == XB_STATE_INIT || rt->rank >= 0)
        snprintf(line, sizeof(line), "crossbar: rank %d on %.255s: %s\n"
                 "crossbar: rank %d: %s\n", rt->rank, rt->host, msg,
                 rt->rank, why);
    else
        snprintf(line, sizeof(line), "crossbar: %s\ncrossbar: %s\n", msg, why);
    fflush(stdout);
    ssize_t w = write(STDERR_FILENO, line, strlen(line));
    (void)w;
    int cls;
    if (xb_errcode_class(code, &cls) != XB_OK)
        cls = MPI_ERR_OTHER;
    xb_rt_abort(cls != 0 ? cls : MPI_ERR_OTHER, msg);
}

int xb_errh_invoke_comm(xb_comm_t *comm, int code, const char *msg)
{
    xb_errhandler_t *e = comm != NULL ? comm->errh : NULL;

    if (e == NULL)
        e = &predef[0];
    switch (e->kind) {
    case XB_ERRH_RETURN:
        return code;
    case XB_ERRH_FATAL:
        die(msg, code, "the error handler is MPI_ERRORS_ARE_FATAL, so the "
            "job is ended (set MPI_ERRORS_RETURN to handle errors yourself)");
    case XB_ERRH_ABORT:
        die(msg, code, "the error handler is MPI_ERRORS_ABORT, so the job "
            "is ended");
    case XB_ERRH_USER: {
        MPI_Comm h = comm->handle;
        int c = code;
        xb_errhandler_retain(e);   /* the user may free it inside */
        xb_mutex_t *held = xb_cb_begin();   /* no lock across a user callback */
        ((MPI_Comm_errhandler_function *)(void *)e->fn)(&h, &c);
        xb_cb_end(held);
        xb_errhandler_release(e);
        return c;
    }
    }
    return code;
}

/* The code of a failed call, with its message in msg (the process ends
 * when MPI is not initialized). */
static __thread struct { int code; unsigned gen; } passed;

void xb_errh_pass_code(int code)
{
    passed.code = code;
    passed.gen = xb_err_gen();
}

int xb_errh_passed_code(void)
{
    return passed.code != 0 && passed.gen == xb_err_gen() ? passed.code : 0;
}

static int make_error(const char *fn, int rc, char *msg)
{
    int cls = xb_errcode_class_of_rc(rc);
    const char *detail = xb_err_detail();
    int user = xb_errh_passed_code();
    passed.code = 0;

    if (rc < -XB_ERRCODE_PREDEF_LAST && detail[0] == '\0')
        snprintf(msg, MPI_MAX_ERROR_STRING, "%s: internal error (code %d reached the "
                 "binding)", fn, rc);
    else if (detail[0] != '\0')
        snprintf(msg, MPI_MAX_ERROR_STRING, "%s: %s", fn, detail);
    else {
        char text[MPI_MAX_ERROR_STRING];
        int len;
        xb_errcode_string(cls, text, &len);
        snprintf(msg, MPI_MAX_ERROR_STRING, "%s: %.400s", fn, text);
    }
    xb_err_clear();
    int code = user != 0 ? user : xb_errcode_make(cls, msg);
    int state = xb_init_state();
    if (state == XB_STATE_NONE && strncmp(fn, "MPI_Init", 8) == 0)
        die(msg, code, "MPI_Init failed, so the process is ended");
    if (state != XB_STATE_INIT)
        die(msg, code, state == XB_STATE_NONE
            ? "MPI is not initialized, so no error handler applies and the "
              "process is ended"
            : "MPI is finalized, so no error handler applies and the process "
              "is ended");
    return code;
}

static __thread struct { xb_comm_t *comm; unsigned gen; } noted;

/* The noted communicator, if its detail is still the current one (the
 * caller releases it), and no note any more. */
static xb_comm_t *take_note(void)
{
    xb_comm_t *c = noted.comm;
    noted.comm = NULL;
    if (c != NULL && noted.gen != xb_err_gen()) {
        xb_comm_release(c);
        c = NULL;
    }
    return c;
}

void xb_errh_note_comm(xb_comm_t *comm)
{
    xb_comm_t *old = noted.comm;
    noted.comm = NULL;
    if (old != NULL)
        xb_comm_release(old);
    if (comm == NULL)
        return;
    xb_comm_retain(comm);
    noted.comm = comm;
    noted.gen = xb_err_gen();
}

void xb_errh_note_keep(void)
{
    noted.gen = xb_err_gen();
}

int xb_errh_raise_comm(xb_comm_t *comm, const char *fn, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    xb_comm_t *note = take_note();
    if (xb_errcode_class_of_rc(rc) == MPI_SUCCESS) {
        if (note != NULL)
            xb_comm_release(note);
        return MPI_SUCCESS;
    }
    int code = make_error(fn, rc, msg);
    if (comm == NULL)
        comm = note != NULL ? note : xb_comm_self();
    code = xb_errh_invoke_comm(comm, code, msg);
    if (note != NULL)
        xb_comm_release(note);
    return code;
}

int xb_errh_raise_session(xb_session_t *session, const char *fn, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    if (xb_errcode_class_of_rc(rc) == MPI_SUCCESS)
        return MPI_SUCCESS;
    int code = make_error(fn, rc, msg);
    if (session == NULL)
        return xb_errh_invoke_comm(xb_comm_self(), code, msg);
    return xb_errh_invoke_session(session, code, msg);
}

int xb_errh_invoke_session(xb_session_t *s, int code, const char *msg)
{
    xb_errhandler_t *e = s->errh != NULL ? s->errh : &predef[0];
    if (e->kind != XB_ERRH_USER) {
        xb_comm_t tmp = { .errh = e };      /* same predefined behaviour */
        return xb_errh_invoke_comm(&tmp, code, msg);
    }
    MPI_Session h = s->handle;
    int c = code;
    xb_errhandler_retain(e);
    xb_mutex_t *held = xb_cb_begin();
    ((MPI_Session_errhandler_function *)(void *)e->fn)(&h, &c);
    xb_cb_end(held);
    xb_errhandler_release(e);
    return c;
}

typedef void (xb_obj_errh_fn_t)(void **handle, int *code, ...);

int xb_errh_invoke_obj(xb_errhandler_t *e, void *handle, int code, const char *msg)
{
    if (e == NULL || e->kind != XB_ERRH_USER) {
        xb_comm_t tmp = { .errh = e != NULL ? e : &predef[0] };
        return xb_errh_invoke_comm(&tmp, code, msg);
    }
    void *h = handle;
    int c = code;
    xb_errhandler_retain(e);        /* the user may free it inside */
    xb_mutex_t *held = xb_cb_begin();
    ((xb_obj_errh_fn_t *)(void *)e->fn)(&h, &c);
    xb_cb_end(held);
    xb_errhandler_release(e);
    return c;
}

int xb_errh_raise_obj(xb_errhandler_t *e, void *handle, const char *fn, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    if (xb_errcode_class_of_rc(rc) == MPI_SUCCESS)
        return MPI_SUCCESS;
    int code = make_error(fn, rc, msg);
    if (e == NULL)
        return xb_errh_invoke_comm(xb_comm_self(), code, msg);
    return xb_errh_invoke_obj(e, handle, code, msg);
}

/* ---- files (MPI-IO) ------------------------------------------------------ */
int xb_errh_invoke_file(xb_errhandler_t *e, MPI_File fh, int code, const char *msg)
{
    if (e == NULL)
        e = &predef[1];                     /* files default to ERRORS_RETURN */
    if (e->kind != XB_ERRH_USER) {
        xb_comm_t tmp = { .errh = e };      /* same predefined behaviour */
        return xb_errh_invoke_comm(&tmp, code, msg);
    }
    MPI_File h = fh;
    int c = code;
    xb_errhandler_retain(e);
    xb_mutex_t *held = xb_cb_begin();
    ((MPI_File_errhandler_function *)(void *)e->fn)(&h, &c);
    xb_cb_end(held);
    xb_errhandler_release(e);
    return c;
}

int xb_errh_raise_file(xb_errhandler_t *e, MPI_File fh, const char *fn, int rc)
{
    char msg[MPI_MAX_ERROR_STRING];
    if (xb_errcode_class_of_rc(rc) == MPI_SUCCESS)
        return MPI_SUCCESS;
    int code = make_error(fn, rc, msg);
    return xb_errh_invoke_file(e, fh, code, msg);
}
