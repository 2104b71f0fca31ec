/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dpm_spawn.c - MPI_Comm_spawn's child side: a job the launcher started for
 * a spawn (PMI_SPAWNED=1 in its environment) finds the port its parents'
 * root opened in its own KVS, under PARENT_ROOT_PORT_NAME (the launcher
 * puts it there from the spawn command's pre-put keys), and connects to it
 * over COMM_WORLD, root 0. The result is MPI_Comm_get_parent's.
 */
#include <stdlib.h>
#include <string.h>
#include "dpm/dpm.h"
#include "runtime/runtime.h"

int xb_dpm_spawn_child_init(void)
{
    const char *s = getenv("PMI_SPAWNED");
    if (s == NULL || strcmp(s, "1") != 0)
        return XB_OK;
    char port[MPI_MAX_PORT_NAME];
    int rc = xb_rt_kvs_get(-1, "PARENT_ROOT_PORT_NAME", port, sizeof(port));
    if (rc != XB_OK)
        return xb_err_set(XB_DPM_ERR_SPAWN, "this job was spawned (PMI_SPAWNED=1) but "
                          "its parents' port is not in the KVS: %s", xb_err_detail());
    xb_comm_t *c = NULL;
    rc = xb_dpm_connect(false, port, 0, xb_comm_world(), &c);
    if (rc != XB_OK)
        return rc;
    xb_dpm_set_parent(c);        /* c's own reference is the user's handle */
    return XB_OK;
}
