/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bind_check.c - the cold halves of the argument checks (bind_check.h):
 * each formats one sentence naming the argument, the value and the reason,
 * records it with xb_err_set and returns the error code. Also the
 * count-array conversions of the int flavour of large-count functions.
 */
#include <stdio.h>
#include <stdlib.h>
#include "binding/bind_check.h"
#include "core/topo.h"

XB_TUNABLE_LIVE(PARAM_CHECK, XB_TT_BOOL, "on", XB_TL_TUNER,
           "Check the arguments of every MPI call (off: only handles are "
           "resolved; for measuring the cost of the checks)", NULL);

/* Until xb_tunables_init() parses the default (first step of MPI_Init) the
 * value is zero; the functions callable before MPI_Init must check too. */
__attribute__((constructor)) static void param_check_preinit(void)
{
    xb_tn_PARAM_CHECK.v.b = true;
}

static const struct {
    const char *name;
    const char *null;
    int         code;
} hk_info[XB_HK_COUNT] = {
    [XB_HK_COMM]       = { "communicator", "MPI_COMM_NULL", XB_ERR_COMM },
    [XB_HK_DATATYPE]   = { "datatype", "MPI_DATATYPE_NULL", XB_ERR_TYPE },
    [XB_HK_GROUP]      = { "group", "MPI_GROUP_NULL", XB_ERR_GROUP },
    [XB_HK_OP]         = { "operation", "MPI_OP_NULL", XB_ERR_OP },
    [XB_HK_ERRHANDLER] = { "error handler", "MPI_ERRHANDLER_NULL", XB_ERR_ERRHANDLER },
    [XB_HK_REQUEST]    = { "request", "MPI_REQUEST_NULL", XB_ERR_REQUEST },
    [XB_HK_INFO]       = { "info object", "MPI_INFO_NULL", XB_ERR_INFO },
    [XB_HK_MESSAGE]    = { "message", "MPI_MESSAGE_NULL", XB_ERR_REQUEST },
    [XB_HK_SESSION]    = { "session", "MPI_SESSION_NULL", -MPI_ERR_SESSION },
    [XB_HK_WIN]        = { "window", "MPI_WIN_NULL", -MPI_ERR_WIN },
    [XB_HK_FILE]       = { "file", "MPI_FILE_NULL", -MPI_ERR_FILE },
};

/* The ABI values of the null handles, in xb_hk_t order. */
static const uintptr_t hk_null_value[XB_HK_COUNT] = {
    [XB_HK_COMM]       = (uintptr_t)MPI_COMM_NULL,
    [XB_HK_DATATYPE]   = (uintptr_t)MPI_DATATYPE_NULL,
    [XB_HK_GROUP]      = (uintptr_t)MPI_GROUP_NULL,
    [XB_HK_OP]         = (uintptr_t)MPI_OP_NULL,
    [XB_HK_ERRHANDLER] = (uintptr_t)MPI_ERRHANDLER_NULL,
    [XB_HK_REQUEST]    = (uintptr_t)MPI_REQUEST_NULL,
    [XB_HK_INFO]       = (uintptr_t)MPI_INFO_NULL,
    [XB_HK_MESSAGE]    = (uintptr_t)MPI_MESSAGE_NULL,
    [XB_HK_SESSION]    = (uintptr_t)MPI_SESSION_NULL,
    [XB_HK_WIN]        = (uintptr_t)MPI_WIN_NULL,
    [XB_HK_FILE]       = (uintptr_t)MPI_FILE_NULL,
};

const char *xb_hk_name(xb_hk_t kind)
{
    return (unsigned)kind < XB_HK_COUNT ? hk_info[kind].name : "handle";
}

const char *xb_hk_null_name(xb_hk_t kind)
{
    return (unsigned)kind < XB_HK_COUNT ? hk_info[kind].null : "null handle";
}

int xb_check_init_fail(void)
{
    if (xb_init_state() == XB_STATE_FINALIZED)
        return xb_err_set(XB_ERR_OTHER, "called after MPI_Finalize");
    return xb_err_set(XB_ERR_OTHER, "called before MPI_Init");
}

int xb_check_handle_fail(xb_hk_t kind, const char *arg, const void *h)
{
    int code = (unsigned)kind < XB_HK_COUNT ? hk_info[kind].code : XB_ERR_ARG;
    uintptr_t v = (uintptr_t)h;

    if ((unsigned)kind < XB_HK_COUNT && v == hk_null_value[kind])
        return xb_err_set(code, "%s is not a valid %s for argument %s",
                          hk_info[kind].null, hk_info[kind].name, arg);
    if (v == 0)
        return xb_err_set(code, "NULL is not a valid %s for argument %s",
                          xb_hk_name(kind), arg);
    if (xb_handle_is_predef(h))
        return xb_err_set(code, "invalid %s 0x%lx for argument %s (not a "
                          "predefined %s)", xb_hk_name(kind), (unsigned long)v,
                          arg, xb_hk_name(kind));
    /* Objects start with their magic word, overwritten on free. */
    if (v % sizeof(uint32_t) == 0 && *(const uint32_t *)h == XB_MAGIC_FREED)
        return xb_err_set(code, "%s %p for argument %s was already freed",
                          xb_hk_name(kind), h, arg);
    return xb_err_set(code, "invalid %s %p for argument %s (not a %s handle, "
                      "or already freed)", xb_hk_name(kind), h, arg,
                      xb_hk_name(kind));
}

int xb_check_nonneg_fail(const char *arg, MPI_Count v, int code)
{
    return xb_err_set(code, "invalid value %lld for argument %s (must not be "
                      "negative)", (long long)v, arg);
}

static const char *allowed_text(unsigned allow)
{
    switch (allow & (XB_ALLOW_PROC_NULL | XB_ALLOW_ANY_SOURCE)) {
    case XB_ALLOW_PROC_NULL:
        return ", or MPI_PROC_NULL";
    case XB_ALLOW_ANY_SOURCE:
        return ", or MPI_ANY_SOURCE";
    case XB_ALLOW_PROC_NULL | XB_ALLOW_ANY_SOURCE:
        return ", or MPI_PROC_NULL or MPI_ANY_SOURCE";
    default:
        return "";
    }
}

int xb_check_rank_fail(const char *arg, int v, const xb_comm_t *comm, unsigned allow)
{
    int n = xb_check_peer_size(comm);

    if ((v == MPI_PROC_NULL && (allow & XB_ALLOW_PROC_NULL)) ||
        (v == MPI_ANY_SOURCE && (allow & XB_ALLOW_ANY_SOURCE)))
        return XB_OK;
    if (v == MPI_ANY_SOURCE)
        return xb_err_set(XB_ERR_RANK, "MPI_ANY_SOURCE is not allowed for "
                          "argument %s", arg);
    if (v == MPI_PROC_NULL)
        return xb_err_set(XB_ERR_RANK, "MPI_PROC_NULL is not allowed for "
                          "argument %s", arg);
    return xb_err_set(XB_ERR_RANK, "invalid rank %d for argument %s (the "
                      "communicator has %d rank%s: 0..%d%s)", v, arg, n,
                      n == 1 ? "" : "s", n - 1, allowed_text(allow));
}

int xb_check_root_fail(const char *arg, int v, const xb_comm_t *comm)
{
    if (comm->remote != NULL) {
        if (v == MPI_ROOT || v == MPI_PROC_NULL ||
            (v >= 0 && v < comm->remote->size))
            return XB_OK;
        return xb_err_set(XB_ERR_ROOT, "invalid root %d for argument %s (the "
                          "remote group has %d ranks; MPI_ROOT and "
                          "MPI_PROC_NULL are also allowed)", v, arg,
                          comm->remote->size);
    }
    return xb_err_set(XB_ERR_ROOT, "invalid root %d for argument %s (the "
                      "communicator has %d rank%s: 0..%d)", v, arg, comm->size,
                      comm->size == 1 ? "" : "s", comm->size - 1);
}

int xb_check_tag_fail(const char *arg, int v, unsigned allow)
{
    if (v == MPI_ANY_TAG && (allow & XB_ALLOW_ANY_TAG))
        return XB_OK;
    if (v == MPI_ANY_TAG)
        return xb_err_set(XB_ERR_TAG, "MPI_ANY_TAG is not allowed for argument "
                          "%s", arg);
    return xb_err_set(XB_ERR_TAG, "invalid tag %d for argument %s (tags are "
                      "0..%d%s)", v, arg, XB_TAG_UB,
                      (allow & XB_ALLOW_ANY_TAG) ? ", or MPI_ANY_TAG" : "");
}

int xb_check_buf_fail(const char *arg, MPI_Count count, const xb_datatype_t *dt)
{
    if (dt != NULL && !xb_dt_is_predefined(dt))
        return XB_OK;   /* MPI_BOTTOM with a type of absolute addresses */
    if (dt == NULL)
        return xb_err_set(XB_ERR_BUFFER, "NULL buffer for argument %s with a "
                          "size of %lld bytes", arg, (long long)count);
    return xb_err_set(XB_ERR_BUFFER, "NULL buffer for argument %s with a count "
                      "of %lld %s", arg, (long long)count, xb_dt_name(dt));
}

int xb_check_committed_fail(const char *arg, MPI_Datatype h)
{
    return xb_err_set(XB_ERR_TYPE, "datatype %p for argument %s is not "
                      "committed (call MPI_Type_commit first)", (void *)h, arg);
}

int xb_check_ptr_fail(const char *arg)
{
    return xb_err_set(XB_ERR_ARG, "NULL pointer for argument %s", arg);
}

int xb_check_array_fail(const char *arg, MPI_Count n)
{
    return xb_err_set(XB_ERR_ARG, "NULL array for argument %s, which should "
                      "hold %lld elements", arg, (long long)n);
}

/* ---- conversions ---------------------------------------------------------- */
static int widen_alloc(const char *arg, MPI_Count n, MPI_Count *stack, MPI_Count **out)
{
    *out = NULL;
    if (n <= 0)
        return XB_OK;
    if (n <= XB_BIND_STACK) {
        *out = stack;
        return XB_OK;
    }
    *out = malloc((size_t)n * sizeof(MPI_Count));
    if (*out == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory converting the %lld "
                          "elements of argument %s", (long long)n, arg);
    return XB_OK;
}

int xb_bind_widen_int_heap(const char *arg, const int *src, MPI_Count n, MPI_Count **out)
{
    int rc = widen_alloc(arg, n, NULL, out);
    if (rc != XB_OK)
        return rc;
    for (MPI_Count i = 0; i < n; i++)
        (*out)[i] = src[i];
    return XB_OK;
}

int xb_bind_widen_aint(const char *arg, const MPI_Aint *src, MPI_Count n, MPI_Count *stack,
                       MPI_Count **out)
{
    if (src == NULL) {          /* stays NULL: the implementation checks it */
        *out = NULL;
        return XB_OK;
    }
    int rc = widen_alloc(arg, n, stack, out);

    if (rc != XB_OK || *out == NULL || src == NULL)
        return rc;
    for (MPI_Count i = 0; i < n; i++)
        (*out)[i] = src[i];
    return XB_OK;
}

int xb_bind_in_degree(const xb_comm_t *comm)
{
    int in = 0, out = 0;
    xb_topo_degrees(comm, &in, &out);
    return in;
}

int xb_bind_out_degree(const xb_comm_t *comm)
{
    int in = 0, out = 0;
    xb_topo_degrees(comm, &in, &out);
    return out;
}
