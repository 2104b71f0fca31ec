/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rt.c - the runtime part of MPI_Init/Finalize: tunables, log, PMI client,
 * the job's shape (node of every rank, local ranks, host name), the
 * launcher's job segment, the KVS wrappers, fatal errors and abort.
 *
 * Node identity comes from the launcher: PMI_process_mapping when it gives
 * one, else the host names of all ranks exchanged through the KVS (XB_HOST
 * from our launcher, else gethostname()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime/hwtopo.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"
#include "runtime/pmi_client.h"
#include "runtime/jobseg.h"
#include "runtime/rt_internal.h"

XB_TUNABLE_DECL(TUNABLE_WARN);
XB_TUNABLE(RT_HOST_EXCHANGE, XB_TT_BOOL, "no", XB_TL_DEV,
           "Find the nodes by exchanging host names through the KVS even when "
           "the launcher gives PMI_process_mapping (tests the fallback)");

enum { HOST_KEY_MAX = 64, KVS_VAL_MAX = 1024 };

static int          init_state = XB_STATE_NONE;
static bool         pmi_up;
static xb_rt_info_t rt = { .rank = -1, .jobseg_fd = -1 };

/* The launcher's job segment (header + status slots), when there is one. */
static void               *jobseg_map;
static size_t              jobseg_len;
static xb_jobseg_status_t *my_status;


int xb_init_state(void) { return init_state; }
void xb_set_init_state(int state) { init_state = state; }
const xb_rt_info_t *xb_rt(void) { return &rt; }
int xb_rt_rank_or_neg(void) { return rt.rank; }   /* kept after finalize */

void xb_rt_host_name(char *buf, size_t len)
{
    const char *h = getenv("XB_HOST");

    if (h != NULL && h[0] != '\0') {
        snprintf(buf, len, "%s", h);
        return;
    }
    if (gethostname(buf, len) != 0)
        snprintf(buf, len, "localhost");
    buf[len - 1] = '\0';
}

int xb_rt_env_size(void)
{
    const char *s = getenv("PMI_SIZE");
    if (s != NULL) {
        char *end;
        long n = strtol(s, &end, 10);
        return end != s && *end == '\0' && n >= 1 && n <= 0x7fffffff ? (int)n : -1;
    }
    bool launched = getenv("PMI_FD") != NULL || getenv("PMI_PORT") != NULL ||
                    getenv("PMI_RANK") != NULL;
    return launched ? -1 : 1;
}

/* No mapping from the launcher: every rank publishes its host name and
 * numbers the hosts in order of first appearance (same result everywhere). */
static int nodes_from_hosts(void)
{
    char key[HOST_KEY_MAX], val[KVS_VAL_MAX];
    char (*hosts)[256] = calloc((size_t)rt.size, sizeof(*hosts));
    int rc, nnodes = 0;

    if (hosts == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for %d host names", rt.size);
    snprintf(key, sizeof(key), "xb-host-%d", rt.rank);
    rc = xb_pmi_put(key, rt.host);
    if (rc == XB_OK)
        rc = xb_pmi_fence();
    for (int r = 0; r < rt.size && rc == XB_OK; r++) {
        snprintf(key, sizeof(key), "xb-host-%d", r);
        rc = xb_pmi_get(key, val, sizeof(val));
        if (rc != XB_OK)
            break;
        snprintf(hosts[r], sizeof(hosts[r]), "%.255s", val);
        int n = 0;
        while (n < r && strcmp(hosts[n], hosts[r]) != 0)
            n++;
        rt.node_of[r] = n < r ? rt.node_of[n] : (uint32_t)nnodes++;
    }
    free(hosts);
    if (rc == XB_OK) {
        rt.nnodes = nnodes;
        xb_log(XB_LOG_RUNTIME, XB_LOG_DEBUG, "host names of %d ranks: %d node(s)",
               rt.size, nnodes);
    }
    return rc;
}

static int job_shape(const xb_pmi_job_t *job)
{
    int rc;

    rt.node_of = calloc((size_t)rt.size, sizeof(*rt.node_of));
    rt.local_ranks = calloc((size_t)rt.size, sizeof(*rt.local_ranks));
    if (rt.node_of == NULL || rt.local_ranks == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for the job map of %d ranks",
                          rt.size);
    if (rt.size == 1) {
        rt.nnodes = 1;
    } else if (job->process_mapping[0] != '\0' && !xb_tn_RT_HOST_EXCHANGE.v.b &&
               xb_pmi_parse_mapping(job->process_mapping, rt.size, rt.node_of,
                                    &rt.nnodes) == XB_OK) {
        xb_log(XB_LOG_RUNTIME, XB_LOG_DEBUG, "process mapping %s: %d node(s)",
               job->process_mapping, rt.nnodes);
    } else {
        if (job->process_mapping[0] != '\0' && !xb_tn_RT_HOST_EXCHANGE.v.b)
            xb_log(XB_LOG_RUNTIME, XB_LOG_WARN, "ignoring a process mapping "
                   "that does not parse (%s); comparing host names instead",
                   job->process_mapping);
        rc = nodes_from_hosts();
        if (rc != XB_OK)
            return rc;
    }
    rt.my_node = rt.node_of[rt.rank];
    rt.local_size = 0;
    for (int r = 0; r < rt.size; r++) {
        if (rt.node_of[r] != rt.my_node)
            continue;
        if (r == rt.rank)
            rt.local_rank = rt.local_size;
        rt.local_ranks[rt.local_size++] = r;
    }
    return XB_OK;
}

/* Map the header and status slots of the launcher's segment; write our pid. */
static int jobseg_open(void)
{
    const char *env = getenv(XB_JOBSEG_ENV);
    struct stat st;
    char *end;

    if (env == NULL || env[0] == '\0')
        return XB_OK;
    long fd = strtol(env, &end, 10);
    if (*end != '\0' || fd < 0 || fd > 1 << 20 || fstat((int)fd, &st) != 0)
        return xb_err_set(XB_ERR_OTHER, "%s=%s does not name an open file "
                          "descriptor; was this process started by Crossbar's "
                          "mpiexec?", XB_JOBSEG_ENV, env);
    if ((size_t)st.st_size < sizeof(xb_jobseg_hdr_t))
        return xb_err_set(XB_ERR_OTHER, "the job segment (%s=%s) is too small "
                          "(%lld bytes)", XB_JOBSEG_ENV, env, (long long)st.st_size);
    xb_jobseg_hdr_t hdr;
    if (pread((int)fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
        hdr.magic != XB_JOBSEG_MAGIC)
        return xb_err_set(XB_ERR_OTHER, "the job segment (%s=%s) has no valid "
                          "header; mpiexec and the library may be of different "
                          "versions", XB_JOBSEG_ENV, env);
    size_t need = hdr.status_off + (size_t)hdr.nlocal * sizeof(xb_jobseg_status_t);
    if (need > (size_t)st.st_size)
        return xb_err_set(XB_ERR_OTHER, "the job segment is smaller (%lld bytes) "
                          "than its header says (%zu)", (long long)st.st_size, need);
    void *map = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
    if (map == MAP_FAILED)
        return xb_err_sys(XB_ERR_OTHER, errno, "mmap of the job segment");
    (void)fcntl((int)fd, F_SETFD, FD_CLOEXEC);   /* children must not hold it */
    xb_jobseg_status_t *slots = (xb_jobseg_status_t *)((char *)map + hdr.status_off);
    for (uint32_t i = 0; i < hdr.nlocal; i++)
        if (slots[i].world_rank == rt.rank)
            my_status = &slots[i];
    if (my_status == NULL && rt.local_rank < (int)hdr.nlocal)
        my_status = &slots[rt.local_rank];
    if (my_status != NULL) {
        my_status->pid = (int32_t)getpid();
        my_status->waiting[0] = '\0';
    }
    jobseg_map = map;
    jobseg_len = need;
    rt.jobseg_fd = (int)fd;
    return XB_OK;
}

static void warn_unknown(const char *msg)
{
    xb_log(XB_LOG_RUNTIME, XB_LOG_WARN, "%s", msg);
}

int xb_rt_init(void)
{
    xb_pmi_job_t *job;
    int rc;

    rc = xb_tunables_load();
    if (rc == XB_OK)
        rc = xb_log_init();
    if (rc != XB_OK)
        return rc;
    job = calloc(1, sizeof(*job));
    if (job == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory at start-up");
    rc = xb_pmi_init(job);
    if (rc != XB_OK)
        goto out_free;
    pmi_up = true;
    rt.rank = job->rank;
    rt.size = job->size;
    rt.appnum = job->appnum;
    rt.universe_size = job->universe_size;
    rt.singleton = job->singleton;
    snprintf(rt.kvsname, sizeof(rt.kvsname), "%s", job->kvsname);
    xb_rt_host_name(rt.host, sizeof(rt.host));
    if (rt.rank == 0 && xb_tn_TUNABLE_WARN.v.b)
        xb_tunables_check_env(warn_unknown);
    rc = job_shape(job);
    if (rc == XB_OK)
        rc = jobseg_open();
    if (rc != XB_OK)
        goto err_shape;
    xb_log(XB_LOG_RUNTIME, XB_LOG_INFO, "rank %d of %d on %s: node %u of %d, "
           "local rank %d of %d%s", rt.rank, rt.size, rt.host, rt.my_node,
           rt.nnodes, rt.local_rank, rt.local_size,
           rt.singleton ? ", singleton" : "");
    free(job);
    return XB_OK;

err_shape:
    free(rt.node_of);
    free(rt.local_ranks);
    rt.node_of = NULL;
    rt.local_ranks = NULL;
    /* PMI stays up so that the failure can abort the whole job. */
out_free:
    free(job);
    return rc;
}

void xb_rt_fini(void)
{
    xb_hwtopo_fini();
    if (jobseg_map != NULL) {
        if (my_status != NULL)
            my_status->waiting[0] = '\0';
        munmap(jobseg_map, jobseg_len);
        jobseg_map = NULL;
        my_status = NULL;
    }
    if (rt.jobseg_fd >= 0) {
        close(rt.jobseg_fd);
        rt.jobseg_fd = -1;
    }
    if (pmi_up) {
        int rc = xb_pmi_finalize();
        if (rc != XB_OK)
            xb_log(XB_LOG_PMI, XB_LOG_WARN, "PMI finalize failed: %s",
                   xb_err_detail());
        pmi_up = false;
    }
    xb_rt_kvs_fini();
    free(rt.node_of);
    free(rt.local_ranks);
    rt.node_of = NULL;
    rt.local_ranks = NULL;
}

bool xb_rt_pmi_up(void)
{
    return pmi_up;
}

void xb_rt_set_waiting(const char *what)
{
    /* Called only before a wait sleeps: a copy of <= 247 bytes is cheap. */
    if (my_status == NULL)
        return;
    if (what == NULL) {
        my_status->waiting[0] = '\0';
        return;
    }
    snprintf(my_status->waiting, sizeof(my_status->waiting), "%s", what);
}

void xb_rt_abort(int code, const char *msg)
{
    fflush(stdout);
    fflush(stderr);
    if (pmi_up && !rt.singleton)
        xb_pmi_abort(code, msg != NULL ? msg : "");
    /* An exit status keeps only 8 bits: a nonzero code must stay nonzero. */
    int status = code & 0xff;
    if (status == 0 && code != 0)
        status = 1;
    _exit(status);
}

void xb_rt_fatal(const char *fmt, ...)
{
    char text[768], line[1100];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    if (rt.rank >= 0)
        snprintf(line, sizeof(line), "crossbar: rank %d on %.255s: %s\n", rt.rank,
                 rt.host, text);
    else
        snprintf(line, sizeof(line), "crossbar: %s\n", text);
    fflush(stdout);
    ssize_t w = write(STDERR_FILENO, line, strlen(line));
    (void)w;
    xb_rt_abort(1, text);
}
