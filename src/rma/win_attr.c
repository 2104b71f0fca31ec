/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * win_attr.c - the passive side of a window: its group, name, info hints,
 * attributes (the predefined MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT,
 * MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL and user keyvals) and its error
 * handler.
 *
 * Info: set_info keeps a copy of the pairs; get_info answers the window
 * hints of the standard, each with the value set or its default
 * (accumulate_ordering rar,raw,war,waw, accumulate_ops same_op_no_op,
 * no_locks false, same_size and same_disp_unit false,
 * mpi_accumulate_granularity 0, alloc_shared_noncontig false on a shared
 * window). Other keys are hints this library ignores, and are not
 * answered (the standard's "Window Info" asks for the hints not ignored;
 * MPICH and Open MPI leave the others out too).
 */
#include <stdio.h>
#include <string.h>
#include "rma/rma_int.h"
#include "core/info.h"
#include "xb_impl.h"

int xb_impl_win_get_group(xb_win_t *win, MPI_Group *group)
{
    xb_group_retain(win->comm->group);
    *group = xb_group_to_handle(win->comm->group);
    return XB_OK;
}

int xb_impl_win_set_name(xb_win_t *win, const char *win_name)
{
    size_t n = strlen(win_name);
    if (n >= MPI_MAX_OBJECT_NAME)
        return xb_err_set(XB_ERR_ARG, "invalid argument win_name: %zu characters "
                          "(at most %d)", n, MPI_MAX_OBJECT_NAME - 1);
    memcpy(win->name, win_name, n + 1);
    return XB_OK;
}

/* MPI_WIN_NULL (arriving as NULL) is named "MPI_WIN_NULL", as
 * MPI_COMM_NULL is (src/core/comm.c). */
int xb_impl_win_get_name(xb_win_t *win, char *win_name, int *resultlen)
{
    const char *name = win != NULL ? win->name : "MPI_WIN_NULL";
    size_t n = strlen(name);
    memcpy(win_name, name, n + 1);
    *resultlen = (int)n;
    return XB_OK;
}

int xb_impl_win_set_info(xb_win_t *win, xb_info_t *info)
{
    xb_info_t *copy;
    int rc = xb_info_copy(info, &copy);
    if (rc != XB_OK)
        return rc;
    xb_info_destroy(win->info);
    win->info = copy;
    return XB_OK;
}

int xb_impl_win_get_info(xb_win_t *win, MPI_Info *info_used)
{
    static const char *const known[][2] = {
        { "no_locks", "false" },
        { "accumulate_ordering", "rar,raw,war,waw" },
        { "accumulate_ops", "same_op_no_op" },
        { "same_size", "false" },
        { "same_disp_unit", "false" },
        { "mpi_accumulate_granularity", "0" },
        { "alloc_shared_noncontig", "false" },      /* shared windows only */
    };
    xb_info_t *used = xb_info_new();
    int rc = used != NULL ? XB_OK : xb_err_set(XB_ERR_NO_MEM, "no memory for an info");
    for (size_t i = 0; rc == XB_OK && i < XB_ARRAY_LEN(known); i++) {
        if (strcmp(known[i][0], "alloc_shared_noncontig") == 0 &&
            win->flavor != MPI_WIN_FLAVOR_SHARED)
            continue;
        const char *v = win->info != NULL ? xb_info_lookup(win->info, known[i][0]) : NULL;
        rc = xb_info_put(used, known[i][0], v != NULL ? v : known[i][1]);
    }
    if (rc != XB_OK) {
        xb_info_destroy(used);
        return rc;
    }
    *info_used = xb_info_to_handle(used);
    return XB_OK;
}

/* ---- attributes ------------------------------------------------------------ */
static bool predef_value(xb_win_t *w, int keyval, void **val_p)
{
    switch (keyval) {
    case MPI_WIN_BASE:
        *val_p = w->base;
        return true;
    case MPI_WIN_SIZE:
        w->attr_size = w->wsize;
        *val_p = &w->attr_size;
        return true;
    case MPI_WIN_DISP_UNIT:
        w->attr_disp_unit = w->disp_unit;
        *val_p = &w->attr_disp_unit;
        return true;
    case MPI_WIN_CREATE_FLAVOR:
        w->attr_flavor = w->flavor;
        *val_p = &w->attr_flavor;
        return true;
    case MPI_WIN_MODEL:
        w->attr_model = w->model;
        *val_p = &w->attr_model;
        return true;
    }
    return false;
}

int xb_impl_win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                              MPI_Win_delete_attr_function *win_delete_attr_fn,
                              int *win_keyval, void *extra_state)
{
    return xb_keyval_create(XB_ATTR_WIN, (void (*)(void))win_copy_attr_fn,
                            (void (*)(void))win_delete_attr_fn, extra_state, win_keyval);
}

int xb_impl_win_free_keyval(int *win_keyval)
{
    return xb_keyval_free(XB_ATTR_WIN, win_keyval);
}

int xb_impl_win_set_attr(xb_win_t *win, int win_keyval, void *attribute_val)
{
    return xb_attr_set(XB_ATTR_WIN, &win->attrs, win->handle, win_keyval, attribute_val);
}

int xb_impl_win_get_attr(xb_win_t *win, int win_keyval, void *attribute_val, int *flag)
{
    if (predef_value(win, win_keyval, (void **)attribute_val)) {
        *flag = 1;
        return XB_OK;
    }
    return xb_attr_get(XB_ATTR_WIN, win->attrs, win_keyval, (void **)attribute_val, flag);
}

int xb_impl_win_delete_attr(xb_win_t *win, int win_keyval)
{
    return xb_attr_delete(XB_ATTR_WIN, &win->attrs, win->handle, win_keyval);
}

/* ---- error handlers ---------------------------------------------------------- */
int xb_impl_win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                                  MPI_Errhandler *errhandler)
{
    xb_errhandler_t *e;
    int rc = xb_errhandler_create(XB_ERRH_OBJ_WIN, (void (*)(void))win_errhandler_fn, &e);
    if (rc == XB_OK)
        *errhandler = xb_errhandler_to_handle(e);
    return rc;
}

int xb_impl_win_set_errhandler(xb_win_t *win, xb_errhandler_t *errhandler)
{
    if (errhandler->obj != XB_ERRH_OBJ_ANY && errhandler->obj != XB_ERRH_OBJ_WIN)
        return xb_err_set(XB_ERR_ARG, "invalid argument errhandler: it was not made "
                          "for windows (use MPI_Win_create_errhandler)");
    xb_errhandler_retain(errhandler);
    xb_errhandler_release(win->errh);
    win->errh = errhandler;
    return XB_OK;
}

int xb_impl_win_get_errhandler(xb_win_t *win, MPI_Errhandler *errhandler)
{
    xb_errhandler_retain(win->errh);
    *errhandler = xb_errhandler_to_handle(win->errh);
    return XB_OK;
}

int xb_impl_win_call_errhandler(xb_win_t *win, int errorcode)
{
    char text[MPI_MAX_ERROR_STRING], msg[MPI_MAX_ERROR_STRING + 64];
    int len;
    if (xb_errcode_string(errorcode, text, &len) != XB_OK) {
        xb_err_clear();
        snprintf(text, sizeof(text), "error code %d", errorcode);
    }
    snprintf(msg, sizeof(msg), "MPI_Win_call_errhandler: %s", text);
    xb_errh_invoke_obj(win->errh, win->handle, errorcode, msg);
    return XB_OK;
}
