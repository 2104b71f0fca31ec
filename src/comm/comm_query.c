/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_query.c - local communicator calls of issue 4: hints
 * (MPI_Comm_set_info / _get_info), MPI_Comm_test_inter, _remote_size,
 * _remote_group (MPI_Comm_get_parent is in src/dpm).
 *
 * Hints: set_info keeps a copy of every pair and get_info returns a new
 * object with those pairs (the standard lets an implementation return the
 * hints it ignores, and most programs read back what they set). One hint
 * is acted on: xb_tcp_buffer_size (bytes) sets the socket buffers of the
 * tcp connections to the communicator's members (src/method/tcp).
 */
#include "comm/comm_int.h"
#include "core/info.h"
#include "method/method.h"
#include "xb_impl.h"

int xb_comm_apply_hints(xb_comm_t *c)
{
    static const char key[] = "xb_tcp_buffer_size";
    const char *v = c->info != NULL ? xb_info_lookup(c->info, key) : NULL;
    if (v == NULL)
        return XB_OK;
    int rc = XB_OK;
    for (int g = 0; g < 2 && rc == XB_OK; g++) {
        const xb_group_t *grp = g == 0 ? c->group : c->remote;
        for (int r = 0; grp != NULL && r < grp->size && rc == XB_OK; r++)
            rc = xb_method_peer_hint(xb_group_gpid(grp, r), key, v);
    }
    return rc;
}

int xb_impl_comm_set_info(xb_comm_t *comm, xb_info_t *info)
{
    xb_info_t *copy;
    int rc = xb_info_copy(info, &copy);
    if (rc != XB_OK)
        return rc;
    xb_info_destroy(comm->info);
    comm->info = copy;
    return xb_comm_apply_hints(comm);
}

int xb_impl_comm_get_info(xb_comm_t *comm, MPI_Info *info_used)
{
    xb_info_t *copy;
    int rc = xb_info_copy(comm->info, &copy);
    if (rc == XB_OK)
        *info_used = xb_info_to_handle(copy);
    return rc;
}

int xb_impl_comm_test_inter(xb_comm_t *comm, int *flag)
{
    *flag = xb_comm_is_inter(comm);
    return XB_OK;
}

static int need_inter(const xb_comm_t *comm)
{
    if (!xb_comm_is_inter(comm))
        return xb_err_set(XB_ERR_COMM, "invalid argument comm: an "
                          "intracommunicator (this call needs an "
                          "intercommunicator)");
    return XB_OK;
}

int xb_impl_comm_remote_size(xb_comm_t *comm, int *size)
{
    int rc = need_inter(comm);
    if (rc == XB_OK)
        *size = comm->remote->size;
    return rc;
}

int xb_impl_comm_remote_group(xb_comm_t *comm, MPI_Group *group)
{
    int rc = need_inter(comm);
    if (rc == XB_OK) {
        xb_group_retain(comm->remote);
        *group = xb_group_to_handle(comm->remote);
    }
    return rc;
}

