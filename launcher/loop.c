/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * loop.c - mpiexec's one poll loop. Each turn: act on passed deadlines,
 * decide whether the job is over, poll every open fd (signals, our stdin,
 * rank 0's stdin pipe, every local rank's PMI socket, stdout and stderr,
 * every proxy's channel and stderr; in a proxy, the channel up) with the
 * nearest deadline as timeout, and hand each ready fd to its handler.
 */
#include "launcher.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>

enum src_kind { SRC_SIGNAL, SRC_STDIN, SRC_STDIN_PIPE, SRC_PMI, SRC_STREAM,
                SRC_PROXY_IN, SRC_PROXY_OUT, SRC_PROXY_ERR, SRC_UP_IN, SRC_UP_OUT };

typedef struct {
    enum src_kind kind;
    lx_rank_t    *r;
    lx_stream_t  *s;
    lx_proxy_t   *p;
} src_t;

static bool streams_open(const lx_job_t *job)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].out.fd >= 0 || job->ranks[i].err.fd >= 0)
            return true;
    return false;
}

static void close_streams(lx_job_t *job)
{
    for (int i = 0; i < job->n; i++) {
        lx_stream_close(job, &job->ranks[i], &job->ranks[i].out);
        lx_stream_close(job, &job->ranks[i], &job->ranks[i].err);
    }
}

static int add(struct pollfd *p, src_t *src, int n, int fd, short ev, src_t what)
{
    p[n].fd = fd;
    p[n].events = ev;
    p[n].revents = 0;
    src[n] = what;
    return n + 1;
}

/* The proxies' channels (mpiexec), or the channel up (a proxy). Pending
 * output is tried first; POLLOUT only for what the pipe did not take. */
static int build_channels(lx_job_t *job, struct pollfd *p, src_t *src, int n)
{
    for (int i = 0; i < job->nproxies; i++) {
        lx_proxy_t *x = &job->proxies[i];
        if (x->done)
            continue;
        if (x->ch.outlen)
            (void)lx_chan_flush(&x->ch);
        if (x->ch.rfd >= 0 && !x->ch.eof)
            n = add(p, src, n, x->ch.rfd, POLLIN, (src_t){ SRC_PROXY_IN, NULL, NULL, x });
        if (x->ch.wfd >= 0 && x->ch.outlen)
            n = add(p, src, n, x->ch.wfd, POLLOUT, (src_t){ SRC_PROXY_OUT, NULL, NULL, x });
        if (x->errfd >= 0)
            n = add(p, src, n, x->errfd, POLLIN, (src_t){ SRC_PROXY_ERR, NULL, NULL, x });
    }
    if (job->opt.proxy_mode) {
        if (job->up.outlen)
            (void)lx_chan_flush(&job->up);
        if (job->up.rfd >= 0 && !job->up.eof)
            n = add(p, src, n, job->up.rfd, POLLIN, (src_t){ SRC_UP_IN, NULL, NULL, NULL });
        if (job->up.wfd >= 0 && job->up.outlen)
            n = add(p, src, n, job->up.wfd, POLLOUT, (src_t){ SRC_UP_OUT, NULL, NULL, NULL });
    }
    return n;
}

static int build(lx_job_t *job, struct pollfd *p, src_t *src)
{
    int n = add(p, src, 0, job->sigfd, POLLIN, (src_t){ SRC_SIGNAL, NULL, NULL, NULL });
    if (job->in_src >= 0 && ((job->in_dst >= 0 && job->inlen < sizeof job->inbuf) ||
                             lx_remote_stdin_wanted(job)))
        n = add(p, src, n, job->in_src, POLLIN, (src_t){ SRC_STDIN, NULL, NULL, NULL });
    if (job->in_dst >= 0 && job->inlen > 0)
        n = add(p, src, n, job->in_dst, POLLOUT, (src_t){ SRC_STDIN_PIPE, NULL, NULL, NULL });
    n = build_channels(job, p, src, n);
    /* A proxy whose channel is backed up stops reading its ranks. */
    if (job->opt.proxy_mode && job->up.outlen > LX_CHAN_HIGH)
        return n;
    for (int i = 0; i < job->n; i++) {
        lx_rank_t *r = &job->ranks[i];
        if (r->pmi_fd >= 0)
            n = add(p, src, n, r->pmi_fd, POLLIN, (src_t){ SRC_PMI, r, NULL, NULL });
        if (r->out.fd >= 0)
            n = add(p, src, n, r->out.fd, POLLIN, (src_t){ SRC_STREAM, r, &r->out, NULL });
        if (r->err.fd >= 0)
            n = add(p, src, n, r->err.fd, POLLIN, (src_t){ SRC_STREAM, r, &r->err, NULL });
    }
    return n;
}

static int wait_ms(const lx_job_t *job, double now)
{
    double next = 0;
    if (job->ending && !job->killed)
        next = job->kill_at;
    if (job->timeout_at > 0 && !job->ending && (next == 0 || job->timeout_at < next))
        next = job->timeout_at;
    if (job->nlive == 0 && job->drain_until > 0 && (next == 0 || job->drain_until < next))
        next = job->drain_until;
    double r = lx_remote_next_deadline(job);
    if (r > 0 && (next == 0 || r < next))
        next = r;
    if (next == 0)
        return -1;
    double ms = (next - now) * 1000.0 + 1.0;
    return ms < 0 ? 0 : ms > 1e9 ? 1000000000 : (int)ms;
}

static void handle(lx_job_t *job, const struct pollfd *p, const src_t *s)
{
    switch (s->kind) {
    case SRC_SIGNAL:
        lx_signal_readable(job);
        break;
    case SRC_STDIN:
        if (job->in_src == p->fd)
            lx_stdin_readable(job);
        break;
    case SRC_STDIN_PIPE:
        if (job->in_dst == p->fd)
            lx_stdin_writable(job);
        break;
    case SRC_PMI:
        if (s->r->pmi_fd == p->fd)
            (void)lx_pmi_readable(job, s->r);
        break;
    case SRC_STREAM:
        if (s->s->fd == p->fd)
            (void)lx_stream_readable(job, s->r, s->s);
        break;
    case SRC_PROXY_IN:
        if (!s->p->done && s->p->ch.rfd == p->fd)
            lx_remote_readable(job, s->p);
        break;
    case SRC_PROXY_OUT:
        if (!s->p->done && s->p->ch.wfd == p->fd)
            (void)lx_chan_flush(&s->p->ch);
        break;
    case SRC_PROXY_ERR:
        if (s->p->errfd == p->fd)
            lx_remote_err_readable(job, s->p);
        break;
    case SRC_UP_IN:
        if (job->up.rfd == p->fd)
            lx_proxy_readable(job);
        break;
    case SRC_UP_OUT:
        if (job->up.wfd == p->fd)
            (void)lx_chan_flush(&job->up);
        break;
    }
}

int lx_loop_run(lx_job_t *job)
{
    size_t cap = 5 + 3 * (size_t)job->n + 3 * (size_t)job->nproxies;
    struct pollfd *p = calloc(cap, sizeof *p);
    src_t *src = calloc(cap, sizeof *src);
    if (!p || !src) {
        lx_msg("out of memory for the poll set");
        return -1;
    }
    for (;;) {
        double now = lx_now();
        lx_deadlines(job, now);
        lx_remote_deadlines(job, now);
        if (job->nlive == 0 && job->nspawned_live == 0) {
            if (!streams_open(job))
                break;
            if (job->drain_until == 0)
                job->drain_until = now + LX_DRAIN_MAX_S;
            else if (now >= job->drain_until) {
                close_streams(job);
                break;
            }
        }
        int n = build(job, p, src);
        int got = poll(p, (nfds_t)n, wait_ms(job, now));
        if (got < 0 && errno != EINTR) {
            lx_msg("poll failed; ending the job");
            break;
        }
        for (int i = 0; got > 0 && i < n; i++)
            if (p[i].revents)
                handle(job, &p[i], &src[i]);
    }
    free(p);
    free(src);
    return 0;
}
