/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dpm_spawn.c - MPI_Comm_spawn, MPI_Comm_spawn_multiple, and the child
 * side of a spawn in MPI_Init.
 *
 * Parent (collective over comm): the root checks its arguments, opens a
 * port and asks the launcher (runtime: PMI-1 spawn) to start the commands
 * as one new job, with PARENT_ROOT_PORT_NAME=<port> put in that job's KVS
 * (the key MPICH uses: Hydra's children find it too). The root broadcasts
 * the outcome; on success every parent accepts on the port (root = root),
 * then the root closes it. On failure every parent returns MPI_ERR_SPAWN
 * with the launcher's reason and array_of_errcodes (where given) holds
 * MPI_ERR_SPAWN for each process; on success MPI_SUCCESS for each. The
 * count is the sum of maxprocs at the root, broadcast to all.
 *
 * Child: a job the launcher started for a spawn has PMI_SPAWNED=1 in its
 * environment; MPI_Init reads the port from its KVS and connects over
 * COMM_WORLD, root 0; the result is MPI_Comm_get_parent's.
 *
 * Info keys passed to the launcher: "host", "wdir", "path" (and any other,
 * which mpiexec ignores). A command that cannot be started fails the whole
 * spawn (the launcher checks before it starts anything).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dpm/dpm.h"
#include "coll/coll.h"
#include "core/info.h"
#include "datatype/datatype.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

static const char port_key[] = "PARENT_ROOT_PORT_NAME";

typedef struct spawn_outcome {
    int32_t rc;
    int32_t total;           /* processes asked for, for array_of_errcodes */
    char    why[300];
} spawn_outcome_t;

int xb_dpm_spawn_child_init(void)
{
    const char *s = getenv("PMI_SPAWNED");
    if (s == NULL || strcmp(s, "1") != 0)
        return XB_OK;
    char port[MPI_MAX_PORT_NAME];
    int rc = xb_rt_kvs_get(-1, port_key, port, sizeof(port));
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

/* Root: check one command; fill *c (info arrays point into info). */
static int check_cmd(int i, const char *command, char **argv, int maxprocs,
                     xb_info_t *info, xb_rt_spawn_cmd_t *c)
{
    char name[40] = "command", mp[40] = "maxprocs";
    if (i >= 0) {
        snprintf(name, sizeof(name), "array_of_commands[%d]", i);
        snprintf(mp, sizeof(mp), "array_of_maxprocs[%d]", i);
    }
    if (command == NULL || command[0] == '\0')
        return xb_err_set(XB_ERR_ARG, "invalid %s: %s", name,
                          command == NULL ? "NULL" : "an empty string");
    if (maxprocs < 0)
        return xb_err_set(XB_ERR_ARG, "invalid %s %d (must be at least 0)", mp, maxprocs);
    c->command = command;
    c->argv = argv;
    c->maxprocs = maxprocs;
    c->ninfo = info != NULL ? info->n : 0;
    c->info_keys = info != NULL ? (const char *const *)info->keys : NULL;
    c->info_vals = info != NULL ? (const char *const *)info->vals : NULL;
    return XB_OK;
}

/* Root: open a port, ask the launcher. *port is the port (open) on success. */
static int root_spawn(int n, const xb_rt_spawn_cmd_t *cmds, char *port)
{
    int rc = xb_impl_open_port(NULL, port);
    if (rc != XB_OK)
        return rc;
    const char *k[1] = { port_key }, *v[1] = { port };
    rc = xb_rt_spawn(n, cmds, 1, k, v);
    if (rc != XB_OK) {
        char keep[400];
        snprintf(keep, sizeof(keep), "%s", xb_err_detail());
        xb_impl_close_port(port);
        xb_err_set(rc, "%s", keep);
    }
    return rc;
}

/* Everyone: after the root's check (crc) and spawn, the outcome, the accept. */
static int spawn_common(int n, const xb_rt_spawn_cmd_t *cmds, int crc, int root,
                        xb_comm_t *comm, MPI_Comm *intercomm, int *errcodes)
{
    spawn_outcome_t o;
    memset(&o, 0, sizeof(o));
    char port[MPI_MAX_PORT_NAME] = "";
    if (comm->rank == root) {
        for (int i = 0; crc == XB_OK && i < n; i++)
            o.total += cmds[i].maxprocs;
        o.rc = crc == XB_OK ? root_spawn(n, cmds, port) : crc;
        if (o.rc != XB_OK)
            snprintf(o.why, sizeof(o.why), "%s", xb_err_detail());
    }
    int rc = xb_coll_bcast(&o, (MPI_Count)sizeof(o), xb_dt_from_handle(MPI_BYTE), root,
                           comm);
    if (rc != XB_OK)
        return rc;
    xb_comm_t *c = NULL;
    if (o.rc == XB_OK) {
        rc = xb_dpm_connect(true, port, root, comm, &c);
        if (comm->rank == root)
            xb_impl_close_port(port);
    }
    for (int i = 0; errcodes != NULL && i < o.total; i++)
        errcodes[i] = o.rc != XB_OK ? MPI_ERR_SPAWN : rc != XB_OK ? -rc : MPI_SUCCESS;
    if (o.rc != XB_OK)
        return comm->rank == root ? xb_err_set(o.rc, "%s", o.why)
                                  : xb_err_set(o.rc, "failed at the root (rank %d): %s",
                                               root, o.why);
    if (rc == XB_OK)
        *intercomm = xb_comm_to_handle(c);
    return rc;
}

static int check_comm(xb_comm_t *comm)
{
    if (xb_comm_is_inter(comm))
        return xb_err_set(XB_ERR_COMM, "invalid argument comm: an intercommunicator "
                          "(an intracommunicator is needed)");
    return XB_OK;
}

int xb_impl_comm_spawn(const char *command, char *argv[], int maxprocs, xb_info_t *info,
                       int root, xb_comm_t *comm, MPI_Comm *intercomm,
                       int array_of_errcodes[])
{
    int rc = check_comm(comm);
    if (rc != XB_OK)
        return rc;
    xb_rt_spawn_cmd_t c;
    memset(&c, 0, sizeof(c));
    int crc = XB_OK;
    if (comm->rank == root)
        crc = check_cmd(-1, command, argv, maxprocs, info, &c);
    return spawn_common(1, &c, crc, root, comm, intercomm, array_of_errcodes);
}

int xb_impl_comm_spawn_multiple(int count, char *array_of_commands[],
                                char **array_of_argv[], const int array_of_maxprocs[],
                                const MPI_Info array_of_info[], int root,
                                xb_comm_t *comm, MPI_Comm *intercomm,
                                int array_of_errcodes[])
{
    int rc = check_comm(comm);
    if (rc != XB_OK)
        return rc;
    xb_rt_spawn_cmd_t *c = NULL;
    int crc = XB_OK, n = 0;
    if (comm->rank == root) {
        if (count <= 0)
            crc = xb_err_set(XB_ERR_ARG, "invalid count %d (must be at least 1)", count);
        else if (array_of_commands == NULL || array_of_maxprocs == NULL)
            crc = xb_err_set(XB_ERR_ARG, "invalid argument %s: NULL",
                             array_of_commands == NULL ? "array_of_commands"
                                                       : "array_of_maxprocs");
        else if ((c = calloc((size_t)count, sizeof(*c))) == NULL)
            crc = xb_err_set(XB_ERR_NO_MEM, "out of memory for %d commands", count);
        for (int i = 0; crc == XB_OK && i < count; i++) {
            MPI_Info ih = array_of_info != NULL ? array_of_info[i] : MPI_INFO_NULL;
            xb_info_t *info = ih == MPI_INFO_NULL ? NULL : xb_info_from_handle(ih);
            if (ih != MPI_INFO_NULL && info == NULL)
                crc = xb_err_set(XB_ERR_INFO, "invalid array_of_info[%d]: not an info "
                                 "object", i);
            else
                crc = check_cmd(i, array_of_commands[i],
                                array_of_argv != MPI_ARGVS_NULL ? array_of_argv[i] : NULL,
                                array_of_maxprocs[i], info, &c[i]);
        }
        n = count;
    }
    rc = spawn_common(n, c, crc, root, comm, intercomm, array_of_errcodes);
    free(c);
    return rc;
}
