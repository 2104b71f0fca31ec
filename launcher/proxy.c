/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * proxy.c - `mpiexec --xb-proxy`: the per-host proxy that mpiexec starts on
 * a remote host through the remote-start command (remote.c). Its stdin and
 * stdout are the channel to mpiexec (chan.c), its stderr reaches mpiexec's
 * failure message.
 *
 * It says HELLO, reads SETUP (the options, the environment, the job secret
 * and which host it is), computes the same placement as mpiexec
 * (hosts.c), creates its host's job segment and starts that host's ranks
 * with the same starter as mpiexec (start_local.c). Then it runs the same
 * poll loop: the ranks' PMI request lines, output and ends go up as frames
 * (pmi_server.c, stdio.c, exit.c check opt.proxy_mode); PMI answers,
 * signals and rank 0's stdin come down. It judges nothing: the failure
 * policy is mpiexec's. When the channel closes (mpiexec or ssh died) it
 * ends its ranks. It exits when its ranks are gone and their frames sent.
 */
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LX_PROXY_FLUSH_MS 10000   /* last frames to mpiexec at exit */

static int add_arg(lx_app_t *app, int *nargs, const char *w)
{
    char **a = realloc(app->argv, (size_t)(*nargs + 2) * sizeof *a);
    if (!a)
        return -1;
    app->argv = a;
    a[(*nargs)++] = strdup(w);
    a[*nargs] = NULL;
    return a[*nargs - 1] ? 0 : -1;
}

static int setup_item(lx_job_t *job, const char *k, const char *v, int *nargs)
{
    lx_opts_t *o = &job->opt;
    lx_app_t *app = o->napps ? &o->apps[o->napps - 1] : NULL;
    if (strcmp(k, "me") == 0)
        job->proxy_host = atoi(v);
    else if (strcmp(k, "ppn") == 0)
        o->ppn = atoi(v);
    else if (strcmp(k, "bind") == 0) {
        o->bind_set = strcmp(v, "auto") != 0;    /* auto: decided per host */
        o->bind_core = strcmp(v, "1") == 0;
    }
    else if (strcmp(k, "verbose") == 0)
        o->verbose = strcmp(v, "1") == 0;
    else if (strcmp(k, "secret") == 0)
        lx_set_job_secret(v);
    else if (strcmp(k, "host") == 0) {
        char *name;
        long slots = strtol(v, &name, 10);
        if (*name != ' ' || lx_hosts_from_list(o, name + 1))
            return -1;
        o->hosts[o->nhosts - 1].slots = (int)slots;
    } else if (strcmp(k, "app") == 0) {
        lx_app_t *a = realloc(o->apps, (size_t)(o->napps + 1) * sizeof *a);
        if (!a)
            return -1;
        o->apps = a;
        a[o->napps] = (lx_app_t){ .argv = NULL, .nprocs = atoi(v), .wdir = NULL };
        o->nprocs += a[o->napps++].nprocs;
        *nargs = 0;
    } else if (strcmp(k, "wdir") == 0 && app) {
        app->wdir = strdup(v);
    } else if (strcmp(k, "arg") == 0 && app) {
        return add_arg(app, nargs, v);
    } else if (strcmp(k, "env") == 0) {
        const char *eq = strchr(v, '=');
        lx_envvar_t *e = realloc(o->env, (size_t)(o->nenv + 1) * sizeof *e);
        if (!eq || !e)
            return -1;
        o->env = e;
        e[o->nenv].name = strndup(v, (size_t)(eq - v));
        e[o->nenv].value = strdup(eq + 1);
        o->nenv++;
    }
    return 0;                           /* unknown keys: a newer mpiexec */
}

static int parse_setup(lx_job_t *job, const char *b, size_t len)
{
    int nargs = 0;
    job->opt.env_none = true;           /* exactly the environment mpiexec sent */
    for (const char *s = b; s < b + len; s += strlen(s) + 1) {
        const char *eq = memchr(s, '=', (size_t)(b + len - s));
        if (!eq || memchr(s, '\0', (size_t)(b + len - s)) == NULL)
            return -1;
        char key[16];
        snprintf(key, sizeof key, "%.*s", (int)(eq - s), s);
        if (setup_item(job, key, eq + 1, &nargs))
            return -1;
    }
    for (int a = 0; a < job->opt.napps; a++)
        if (!job->opt.apps[a].argv || job->opt.apps[a].nprocs < 1)
            return -1;
    return job->opt.napps > 0 && job->opt.nprocs > 0 ? 0 : -1;
}

/* Blocking: the first frame from mpiexec, which must be SETUP. */
static int read_setup(lx_job_t *job)
{
    for (;;) {
        int type, rank, rc;
        const char *b;
        size_t len;
        while ((rc = lx_chan_next(&job->up, &type, &rank, &b, &len)) == 0)
            if (lx_chan_fill(&job->up) < 0)
                return -1;
        if (rc < 0 || type != LX_F_SETUP)
            return -1;
        return parse_setup(job, b, len);
    }
}

static void send_frames_now(lx_job_t *job)
{
    lx_chan_drain_out(&job->up, LX_PROXY_FLUSH_MS);
}

int lx_proxy_main(lx_job_t *job)
{
    char host[256];
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "localhost");
    lx_chan_init(&job->up, 0, 1);
    (void)lx_chan_sendf(&job->up, LX_F_HELLO, -1, "proxy %s pid %d", host, (int)getpid());
    send_frames_now(job);
    if (read_setup(job) != 0) {
        fprintf(stderr, "mpiexec --xb-proxy: no valid setup from mpiexec on stdin\n");
        return LX_EXIT_USAGE;
    }
    lx_msg_chan = &job->up;
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    fcntl(1, F_SETFL, fcntl(1, F_GETFL) | O_NONBLOCK);
    int rc = LX_EXIT_ERROR;
    if (lx_job_setup(job) || lx_hosts_place(job) || job->proxy_host < 0 ||
        job->proxy_host >= job->nhosts) {
        (void)lx_chan_sendf(&job->up, LX_F_FAIL, -1, "%d the proxy on this host got a setup "
                            "it cannot use", LX_EXIT_ERROR);
        goto out;
    }
    if (lx_signals_setup(job) || lx_jobseg_create(job)) {
        (void)lx_chan_sendf(&job->up, LX_F_FAIL, -1, "%d %s", LX_EXIT_ERROR, lx_last_msg);
        goto out;
    }
    lx_msg_quiet = true;                /* start failures: one FAIL frame */
    lx_chan_t *up = &job->up;
    rc = lx_start_local(job);
    lx_msg_quiet = false;
    if (rc > 0) {
        (void)lx_chan_sendf(up, LX_F_FAIL, -1, "%d %s", rc, lx_last_msg);
        goto out;
    }
    for (int i = 0; i < job->n; i++)
        if (!job->ranks[i].remote)
            (void)lx_chan_sendf(up, LX_F_PID, i, "%d", (int)job->ranks[i].pid);
    lx_proxy_readable(job);             /* frames that came with the setup */
    lx_loop_run(job);
    rc = 0;
out:
    send_frames_now(job);
    lx_kvs_free(job->kvs);
    return rc;
}

void lx_proxy_rank_exited(lx_job_t *job, lx_rank_t *r)
{
    (void)lx_chan_sendf(&job->up, LX_F_EXIT, r->rank, "%d", r->wstatus);
    (void)lx_chan_flush(&job->up);
}

static void stdin_frame(lx_job_t *job, const char *b, size_t len)
{
    if (job->in_dst < 0) {              /* rank 0 closed its stdin: drop */
        (void)lx_chan_sendf(&job->up, LX_F_STDIN_ACK, 0, "%zu", len);
        return;
    }
    size_t room = sizeof job->inbuf - job->inlen;
    size_t n = len < room ? len : room; /* mpiexec's window keeps len <= room */
    memcpy(job->inbuf + job->inlen, b, n);
    job->inlen += n;
}

/* --timeout at mpiexec: what each rank here says it waits in (its status
 * slot), as "waiting in X", "" (not waiting) or "no MPI_Init yet". */
static void report_status(lx_job_t *job)
{
    for (int i = 0; i < job->n; i++) {
        lx_rank_t *r = &job->ranks[i];
        int pid = 0;
        if (r->remote || r->exited)
            continue;
        const char *what = lx_jobseg_waiting(job, r, &pid);
        (void)lx_chan_sendf(&job->up, LX_F_STATUS, i, "%s", what[0] ? what
                            : pid == 0 ? "-" : "");
    }
    (void)lx_chan_send(&job->up, LX_F_STATUS_END, -1, NULL, 0);
}

void lx_proxy_readable(lx_job_t *job)
{
    long got = lx_chan_fill(&job->up);
    int type, rank, rc;
    const char *b;
    size_t len;
    while ((rc = lx_chan_next(&job->up, &type, &rank, &b, &len)) > 0) {
        char num[32];
        snprintf(num, sizeof num, "%.*s", (int)(len < sizeof num ? len : sizeof num - 1), b);
        lx_rank_t *r = rank >= 0 && rank < job->n && !job->ranks[rank].remote
                     ? &job->ranks[rank] : NULL;
        if (type == LX_F_PMI_REPLY && r)
            lx_pmi_write(job, r, b, len);
        else if (type == LX_F_SIGNAL)
            lx_kill_local(job, atoi(num));
        else if (type == LX_F_STDIN)
            stdin_frame(job, b, len);
        else if (type == LX_F_STATUS_ASK)
            report_status(job);
        else if (type == LX_F_STDIN_EOF) {
            job->in_fed = false;
            if (job->inlen == 0)
                lx_stdin_close(job);
        }
    }
    if (got < 0 || rc < 0) {            /* mpiexec is gone: end the ranks */
        lx_chan_close(&job->up);
        lx_msg_chan = NULL;
        lx_end_job(job);
    }
}
