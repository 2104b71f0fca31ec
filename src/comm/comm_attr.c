/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_attr.c - attributes on communicators: MPI_Comm_create_keyval,
 * _free_keyval, _set_attr, _get_attr, _delete_attr, and the predefined
 * attributes (MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL,
 * MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE). The standard attaches
 * those to MPI_COMM_WORLD; we answer them on every communicator (the values
 * are the same everywhere). Their value is a pointer to an int, as the
 * standard says; MPI_APPNUM is absent when the launcher gave none.
 */
#include "comm/comm_int.h"
#include "core/attr.h"
#include "core/errhandler.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

/* The largest tag: the value of XB_TAG_UB (src/binding/bind_check.h). */
enum { TAG_UB_VALUE = (1 << 30) - 1 };

static int predef_value(int keyval, void **val_p, int *flag)
{
    static int tag_ub, host, io, wtime_global, universe, appnum, lastused;
    const xb_rt_info_t *rt = xb_rt();
    int *v = NULL;
    switch (keyval) {
    case MPI_TAG_UB:          v = &tag_ub;  *v = TAG_UB_VALUE; break;
    case MPI_HOST:            v = &host;    *v = MPI_PROC_NULL; break;
    case MPI_IO:              v = &io;      *v = MPI_ANY_SOURCE; break;
    case MPI_WTIME_IS_GLOBAL: v = &wtime_global; *v = 0; break;
    case MPI_UNIVERSE_SIZE:
        v = &universe;
        *v = rt->universe_size > 0 ? rt->universe_size : rt->size;
        break;
    case MPI_APPNUM:
        if (rt->appnum >= 0)
            v = &appnum, *v = rt->appnum;
        break;
    case MPI_LASTUSEDCODE:    v = &lastused; *v = xb_errcode_lastused(); break;
    default:
        return 0;
    }
    *flag = v != NULL;
    if (v != NULL)
        *val_p = v;
    return 1;
}

int xb_impl_comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                               MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                               int *comm_keyval, void *extra_state)
{
    return xb_keyval_create(XB_ATTR_COMM, (void (*)(void))comm_copy_attr_fn,
                            (void (*)(void))comm_delete_attr_fn, extra_state,
                            comm_keyval);
}

int xb_impl_comm_free_keyval(int *comm_keyval)
{
    return xb_keyval_free(XB_ATTR_COMM, comm_keyval);
}

int xb_impl_comm_set_attr(xb_comm_t *comm, int comm_keyval, void *attribute_val)
{
    return xb_attr_set(XB_ATTR_COMM, &comm->attrs, comm->handle, comm_keyval,
                       attribute_val);
}

int xb_impl_comm_get_attr(xb_comm_t *comm, int comm_keyval, void *attribute_val,
                          int *flag)
{
    if (predef_value(comm_keyval, (void **)attribute_val, flag))
        return XB_OK;
    return xb_attr_get(XB_ATTR_COMM, comm->attrs, comm_keyval,
                       (void **)attribute_val, flag);
}

int xb_impl_comm_delete_attr(xb_comm_t *comm, int comm_keyval)
{
    return xb_attr_delete(XB_ATTR_COMM, &comm->attrs, comm->handle, comm_keyval);
}

/* ---- the deprecated MPI-1 forms (still in MPI 4.1, chapter "Deprecated
 * interfaces"): the same keyvals and attributes as the MPI_Comm_ forms.
 * MPI_Copy_function and MPI_Delete_function have the signatures of the
 * communicator callbacks, and MPI_NULL_COPY_FN, MPI_DUP_FN and
 * MPI_NULL_DELETE_FN are the same ABI values (0, 1, 0), so the engine
 * treats both families alike. */
int xb_impl_keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
                          int *keyval, void *extra_state)
{
    return xb_keyval_create(XB_ATTR_COMM, (void (*)(void))copy_fn, (void (*)(void))delete_fn,
                            extra_state, keyval);
}

int xb_impl_keyval_free(int *keyval)
{
    return xb_keyval_free(XB_ATTR_COMM, keyval);
}

int xb_impl_attr_put(xb_comm_t *comm, int keyval, void *attribute_val)
{
    return xb_impl_comm_set_attr(comm, keyval, attribute_val);
}

int xb_impl_attr_get(xb_comm_t *comm, int keyval, void *attribute_val, int *flag)
{
    return xb_impl_comm_get_attr(comm, keyval, attribute_val, flag);
}

int xb_impl_attr_delete(xb_comm_t *comm, int keyval)
{
    return xb_impl_comm_delete_attr(comm, keyval);
}
