/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* main.c - mpiexec: set up, start the ranks, run the loop, report. */
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double lx_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

lx_chan_t *lx_msg_chan;
bool lx_msg_quiet;
const char *lx_msg_label = "";
char lx_last_msg[1024];

/* One whole line on stderr, in one write, so it never interleaves. In a
 * proxy the text goes to mpiexec instead, which prints it. */
void lx_msg(const char *fmt, ...)
{
    char line[2048];
    int n = snprintf(line, sizeof line, "mpiexec: %s", lx_msg_label);
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    snprintf(lx_last_msg, sizeof lx_last_msg, "%.*s", n - 9, line + 9);
    if (lx_msg_quiet)
        return;
    if (lx_msg_chan && lx_msg_chan->wfd >= 0) {
        (void)lx_chan_send(lx_msg_chan, LX_F_MSG, -1, line + 9, (size_t)n - 9);
        return;
    }
    line[n++] = '\n';
    (void)lx_write_all(2, line, (size_t)n);
}

int lx_write_all(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EAGAIN) {
            struct timespec ts = { 0, 1000000 };
            nanosleep(&ts, NULL);
            continue;
        }
        if (w <= 0)
            return -1;            /* e.g. EPIPE: the reader is gone; drop */
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

/* fds 0-2 must be open so that nothing we create lands on them. */
static void ensure_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0) {
            int nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (nfd >= 0 && nfd != fd) {
                dup2(nfd, fd);
                close(nfd);
            }
        }
}

int lx_job_setup(lx_job_t *job)
{
    job->self = getpid();
    job->n = job->opt.nprocs;
    job->sigfd = job->in_src = job->in_dst = -1;
    if (gethostname(job->host, sizeof job->host - 1) != 0)
        snprintf(job->host, sizeof job->host, "localhost");
    snprintf(job->kvsname, sizeof job->kvsname, "kvs_%d_0", (int)job->self);
    snprintf(job->mapping, sizeof job->mapping, "(vector,(0,1,%d))", job->n);
    job->ranks = calloc((size_t)job->n, sizeof *job->ranks);
    job->kvs = lx_kvs_new();
    if (!job->ranks || !job->kvs) {
        lx_msg("out of memory for %d ranks", job->n);
        return -1;
    }
    for (int i = 0; i < job->opt.npreput; i++)      /* --xb-preput (spawn.c) */
        if (lx_kvs_put(job->kvs, job->opt.preput[i].name, job->opt.preput[i].value)) {
            lx_msg("out of memory for the KVS");
            return -1;
        }
    for (int i = 0, app = 0, first = 0; i < job->n; i++) {
        lx_rank_t *r = &job->ranks[i];
        while (i >= first + job->opt.apps[app].nprocs)
            first += job->opt.apps[app++].nprocs;
        r->app = app;
        r->rank = i;
        r->pid = -1;
        r->pmi_fd = r->out.fd = r->err.fd = -1;
        xb_pmiw_reader_init(&r->rd);
    }
    if (job->opt.proxy_mode)
        return 0;                /* everything else came in the setup */
    /* Like -hosts / --local-hosts, for runners that cannot add options. */
    const char *hl = getenv("MPIEXEC_HOSTS"), *lh = getenv("MPIEXEC_LOCAL_HOSTS");
    if (job->opt.nhosts == 0 && hl && *hl && lx_hosts_from_list(&job->opt, hl))
        return -1;
    if (lh && strcmp(lh, "1") == 0)
        job->opt.local_hosts = true;
    const char *b = getenv("MPIEXEC_BIND");
    if (!job->opt.bind_set && b && *b) {
        if (strcmp(b, "core") != 0 && strcmp(b, "none") != 0) {
            lx_msg("MPIEXEC_BIND='%s': use core or none", b);
            return -1;
        }
        job->opt.bind_set = true;
        job->opt.bind_core = strcmp(b, "core") == 0;
    }
    const char *t = getenv("MPIEXEC_TIMEOUT");
    if (job->opt.timeout_s <= 0 && t && *t) {
        char *end;
        double v = strtod(t, &end);
        if (*end || v < 0) {
            lx_msg("MPIEXEC_TIMEOUT='%s' is not a number of seconds", t);
            return -1;
        }
        job->opt.timeout_s = v;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static lx_job_t job;
    ensure_std_fds();
    int rc = lx_cli_parse(argc, argv, &job.opt);
    if (rc > 0)
        return 0;
    if (rc < 0)
        return LX_EXIT_USAGE;
    if (job.opt.proxy_mode)
        return lx_proxy_main(&job);
    if (job.opt.spawned)
        lx_msg_label = "in a job spawned by MPI_Comm_spawn: ";
    if (lx_job_setup(&job))
        return LX_EXIT_USAGE;
    if (lx_hosts_place(&job))
        return LX_EXIT_USAGE;
    if (lx_signals_setup(&job) || lx_jobseg_create(&job))
        return LX_EXIT_ERROR;
    job.timeout_at = job.opt.timeout_s > 0 ? lx_now() + job.opt.timeout_s : 0;
    rc = lx_start_local(&job);
    if (rc > 0)
        return rc;               /* nothing started (e.g. 127: no such program) */
    if (lx_remote_start(&job))   /* proxies for the other hosts; message printed */
        lx_end_job(&job);
    lx_loop_run(&job);
    lx_kvs_free(job.kvs);
    lx_spawn_free(&job);
    lx_names_free(&job);
    for (int i = 0; i < job.opt.npreput; i++) {
        free(job.opt.preput[i].name);
        free(job.opt.preput[i].value);
    }
    free(job.opt.preput);
    return job.exit_code;
}
