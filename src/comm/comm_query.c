/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_query.c - local communicator calls of issue 4: hints
 * (MPI_Comm_set_info / _get_info), MPI_Comm_test_inter, _remote_size,
 * _remote_group (MPI_Comm_get_parent is in src/dpm).
 *
 * Hints: a communicator keeps a copy of every pair it was created with
 * (MPI_Comm_dup_with_info, _idup_with_info, or inherited by a dup), and
 * get_info returns a new object with its pairs. MPI_Comm_set_info updates
 * only the hints a communicator can take after its creation and ignores
 * the others, as MPICH and Open MPI do (the standard allows ignoring them;
 * MPICH's comm_info test reads an unknown key back and wants it absent);
 * hints that info does not name keep their values (standard). Taken:
 * xb_tcp_buffer_size (bytes), which sets the socket buffers of the tcp
 * connections to the communicator's members (src/method/tcp), and the
 * standard's mpi_assert_* assertions (recorded, not exploited).
 * xb_progress_context and mpi_hw_resource_type mean something only at
 * creation.
 */
#include <string.h>
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

static bool settable(const char *key)
{
    static const char *const keys[] = {
        "xb_tcp_buffer_size", "mpi_assert_no_any_tag", "mpi_assert_no_any_source",
        "mpi_assert_exact_length", "mpi_assert_allow_overtaking",
    };
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
        if (strcmp(key, keys[k]) == 0)
            return true;
    return false;
}

/* The communicator's hints updated with the settable ones of info; a value
 * the communicator cannot take (xb_comm_apply_hints) leaves them as they
 * were. */
int xb_impl_comm_set_info(xb_comm_t *comm, xb_info_t *info)
{
    xb_info_t *merged;
    int rc = xb_info_copy(comm->info, &merged);
    for (int k = 0; rc == XB_OK && k < info->n; k++)
        if (settable(info->keys[k]))
            rc = xb_info_put(merged, info->keys[k], info->vals[k]);
    if (rc != XB_OK) {
        xb_info_destroy(merged);
        return rc;
    }
    xb_info_t *old = comm->info;
    comm->info = merged;
    rc = xb_comm_apply_hints(comm);
    if (rc != XB_OK) {
        comm->info = old;
        xb_info_destroy(merged);
        return rc;
    }
    xb_info_destroy(old);
    return XB_OK;
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

