/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dpm_init.c - the dpm layer's part of MPI_Init and MPI_Finalize, and
 * MPI_Comm_get_parent.
 *
 * Init: a job started by MPI_Comm_spawn connects to its parents here
 * (dpm_spawn.c); any other job has no parent (MPI_COMM_NULL).
 * The layer keeps its own reference on the parent intercommunicator, so
 * the object is not reused while it looks at it: once the user frees or
 * disconnects it, MPI_Comm_get_parent returns MPI_COMM_NULL.
 * Finalize: the parent is freed if the user did not, open ports close.
 */
#include "dpm/dpm.h"
#include "binding/env_layers.h"
#include "xb_impl.h"

static xb_comm_t *parent;

void xb_dpm_set_parent(xb_comm_t *c)
{
    xb_comm_retain(c);
    parent = c;
}

int xb_dpm_init(void)
{
    parent = NULL;
    return xb_dpm_spawn_child_init();
}

void xb_dpm_fini(void)
{
    if (parent != NULL && !parent->user_freed) {
        MPI_Comm h = xb_comm_to_handle(parent);
        xb_impl_comm_free(&h);
        xb_err_clear();
    }
    if (parent != NULL)
        xb_comm_release(parent);
    parent = NULL;
    xb_dpm_ports_fini();
}

int xb_impl_comm_get_parent(MPI_Comm *p)
{
    *p = parent != NULL && !parent->user_freed ? xb_comm_to_handle(parent)
                                               : MPI_COMM_NULL;
    return XB_OK;
}
