/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * info_env.c - the contents of MPI_INFO_ENV: how this process was started.
 * Keys (MPI standard, "Info objects / MPI_INFO_ENV"), each only when known:
 *   command       argv[0] of the process (from /proc/self/cmdline)
 *   argv          the other arguments, separated by single spaces
 *   maxprocs      the number of processes of the job (MPI_COMM_WORLD's size)
 *   host          the host name as the launcher knows it
 *   arch          the machine type (uname)
 *   wdir          the working directory at the time of the first query
 *   thread_level  the thread level provided by MPI_Init_thread
 * "soft" and "file" are left out: our mpiexec has no soft process counts
 * and no application-context file.
 *
 * MPI_Info_create_env builds the same construction from its arguments and
 * gives the same object before MPI_Init, while MPI is initialised and after
 * MPI_Finalize (the standard ties it to the arguments, not to the state of
 * the library; the MPICH test suite's infocreateenv compares the three):
 * maxprocs and host come from the launcher's environment
 * (xb_rt_env_size, xb_rt_host_name), and thread_level is left out (it is
 * what an MPI_Init_thread call asked for, which the arguments do not say).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "core/info.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

/* argv[0] to command, the rest joined by spaces to args. */
static void read_cmdline(char *command, size_t clen, char *args, size_t alen)
{
    command[0] = args[0] = '\0';
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f == NULL)
        return;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    snprintf(command, clen, "%.*s", (int)clen - 1, buf);
    size_t pos = strlen(buf) + 1, used = 0;
    while (pos < n) {
        const char *a = buf + pos;
        int w = snprintf(args + used, alen - used, "%s%s", used ? " " : "", a);
        if (w < 0 || (size_t)w >= alen - used)
            break;
        used += (size_t)w;
        pos += strlen(a) + 1;
    }
}

static const char *level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:     return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:   return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default:                    return "MPI_THREAD_MULTIPLE";
    }
}

/* MPI_INFO_ENV (init: the runtime's view and the thread level) or
 * MPI_Info_create_env's object (!init: what the environment says). */
static void fill(xb_info_t *env, const char *command, const char *args, bool init)
{
    char num[32];
    if (command[0] != '\0')
        xb_info_put(env, "command", command);
    if (args[0] != '\0')
        xb_info_put(env, "argv", args);
    if (!init) {
        int size = xb_rt_env_size();
        char host[256];
        if (size > 0) {
            snprintf(num, sizeof(num), "%d", size);
            xb_info_put(env, "maxprocs", num);
        }
        xb_rt_host_name(host, sizeof(host));
        xb_info_put(env, "host", host);
    } else if (xb_init_state() == XB_STATE_INIT) {
        const xb_rt_info_t *rt = xb_rt();
        snprintf(num, sizeof(num), "%d", rt->size);
        xb_info_put(env, "maxprocs", num);
        if (rt->host[0] != '\0')
            xb_info_put(env, "host", rt->host);
        int level;
        if (xb_impl_query_thread(&level) == XB_OK)
            xb_info_put(env, "thread_level", level_name(level));
    }
    struct utsname u;
    if (uname(&u) == 0)
        xb_info_put(env, "arch", u.machine);
    char wdir[MPI_MAX_INFO_VAL];
    if (getcwd(wdir, sizeof(wdir)) != NULL)
        xb_info_put(env, "wdir", wdir);
    xb_err_clear();
}

void xb_info_env_fill(xb_info_t *env)
{
    char command[MPI_MAX_INFO_VAL], args[MPI_MAX_INFO_VAL];
    read_cmdline(command, sizeof(command), args, sizeof(args));
    fill(env, command, args, true);
}

/* MPI_Info_create_env: the same keys, command and argv from the arguments,
 * the same object whatever the state of the library (top of the file). */
int xb_impl_info_create_env(int argc, char *argv[], MPI_Info *info)
{
    char command[MPI_MAX_INFO_VAL] = "", args[MPI_MAX_INFO_VAL] = "";
    if (argc < 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument argc: %d (negative)", argc);
    if (argc > 0 && argv != NULL && argv[0] != NULL)
        snprintf(command, sizeof(command), "%.*s", MPI_MAX_INFO_VAL - 1, argv[0]);
    size_t used = 0;
    for (int i = 1; argv != NULL && i < argc && argv[i] != NULL; i++) {
        int w = snprintf(args + used, sizeof(args) - used, "%s%s", used ? " " : "",
                         argv[i]);
        if (w < 0 || (size_t)w >= sizeof(args) - used)
            break;
        used += (size_t)w;
    }
    xb_info_t *o = xb_info_new();
    if (o == NULL)
        return XB_ERR_NO_MEM;
    fill(o, command, args, false);
    *info = xb_info_to_handle(o);
    return XB_OK;
}
