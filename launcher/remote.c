/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * remote.c - mpiexec's side of the per-host proxies (docs/design/launcher.md).
 *
 * For every host that is not started here, mpiexec forks the remote-start
 * command with the host name and the proxy's command appended:
 *     ssh -x -o BatchMode=yes HOST /abs/path/mpiexec --xb-proxy
 * (--launcher-exec CMD or MPIEXEC_LAUNCHER_EXEC replace the first words;
 * --proxy-path PATH or MPIEXEC_PROXY_PATH replace /abs/path/mpiexec, for
 * hosts where it is installed elsewhere).
 * The command's stdin and stdout are the proxy's channel (chan.c); its
 * stderr is read for the failure message. The first frame down is SETUP
 * (the options, the environment, the job secret, which host it is); the
 * proxy answers HELLO, then starts its ranks and relays their PMI requests,
 * output and ends as frames, which this file hands to the same code that
 * serves local ranks (pmi_server.c, stdio.c, exit.c).
 *
 * Failures end the job with one message naming the host and the cause:
 * the command ended before HELLO (host unreachable, proxy binary missing:
 * the command's last stderr line is quoted), no HELLO within
 * MPIEXEC_PROXY_TIMEOUT seconds, the proxy died while its ranks ran, a
 * corrupt frame. Exit status 255 for all of these.
 */
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LX_EXIT_PROXY     255
#define LX_REMOTE_DEFAULT "ssh -x -o BatchMode=yes"
#define LX_STDIN_WINDOW   65536   /* stdin bytes in flight to a remote rank 0 */
#define LX_PROXY_TIMEOUT_S 60.0

/* ---- setup ------------------------------------------------------------- */

static int put_str(char **buf, size_t *len, size_t *cap, const char *k, const char *v)
{
    size_t need = strlen(k) + 1 + strlen(v) + 1;
    if (*len + need > *cap) {
        size_t n = *cap ? *cap * 2 : 65536;
        while (n < *len + need)
            n *= 2;
        char *nb = realloc(*buf, n);
        if (!nb)
            return -1;
        *buf = nb;
        *cap = n;
    }
    *len += (size_t)sprintf(*buf + *len, "%s=%s", k, v) + 1;
    return 0;
}

/* The SETUP payload: NUL-ended "key=value" strings (proxy.c reads them). */
static char *setup_payload(lx_job_t *job, int host, size_t *lenp)
{
    const lx_opts_t *o = &job->opt;
    char *b = NULL, num[64];
    size_t len = 0, cap = 0;
    int bad = 0, nbase = 0;
    snprintf(num, sizeof num, "%d", host);
    bad |= put_str(&b, &len, &cap, "me", num);
    snprintf(num, sizeof num, "%d", o->ppn);
    bad |= put_str(&b, &len, &cap, "ppn", num);
    bad |= put_str(&b, &len, &cap, "bind",
                   !o->bind_set ? "auto" : o->bind_core ? "1" : "0");
    bad |= put_str(&b, &len, &cap, "verbose", o->verbose ? "1" : "0");
    bad |= put_str(&b, &len, &cap, "secret", lx_job_secret() ? lx_job_secret() : "");
    for (int h = 0; h < o->nhosts; h++) {
        char hs[LX_HOST_MAX + 32];
        snprintf(hs, sizeof hs, "%d %s", o->hosts[h].slots, o->hosts[h].name);
        bad |= put_str(&b, &len, &cap, "host", hs);
    }
    for (int a = 0; a < o->napps; a++) {
        snprintf(num, sizeof num, "%d", o->apps[a].nprocs);
        bad |= put_str(&b, &len, &cap, "app", num);
        if (o->apps[a].wdir)
            bad |= put_str(&b, &len, &cap, "wdir", o->apps[a].wdir);
        for (char **w = o->apps[a].argv; *w; w++)
            bad |= put_str(&b, &len, &cap, "arg", *w);
    }
    char **env = lx_base_env(o, &nbase);
    bad |= env == NULL;
    for (int i = 0; env && i < nbase; i++)
        bad |= put_str(&b, &len, &cap, "env", env[i]);
    lx_free_base_env(env, nbase);
    if (bad) {
        free(b);
        return NULL;
    }
    *lenp = len;
    return b;
}

/* ---- starting a proxy -------------------------------------------------- */

/* argv of the remote-start command: its words, the host, the proxy. */
static char **command_argv(const char *cmd, const char *host, const char *self, char *text,
                           size_t tlen, char **copyp)
{
    size_t n = 0;
    char **argv = calloc(strlen(cmd) / 2 + 5, sizeof *argv);
    char *copy = strdup(cmd);
    *copyp = copy;
    if (!argv || !copy) {
        free(argv);
        free(copy);
        return NULL;
    }
    for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        argv[n++] = w;
    argv[n++] = (char *)host;
    argv[n++] = (char *)self;
    argv[n++] = (char *)"--xb-proxy";
    argv[n] = NULL;
    size_t off = 0;
    text[0] = '\0';
    for (size_t i = 0; i < n && off < tlen; i++)
        off += (size_t)snprintf(text + off, tlen - off, "%s%s", i ? " " : "", argv[i]);
    return argv;
}

static void set_nonblock(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static int spawn(lx_job_t *job, lx_proxy_t *p, const char *cmd, const char *self)
{
    const char *host = job->hosts[p->host].name;
    char *words = NULL;
    char **argv = command_argv(cmd, host, self, p->cmd, sizeof p->cmd, &words);
    int down[2] = { -1, -1 }, up[2] = { -1, -1 }, err[2] = { -1, -1 };
    if (!argv || pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
        goto err_msg;
    pid_t pid = fork();
    if (pid < 0)
        goto err_msg;
    if (pid == 0) {
        setpgid(0, 0);                   /* a terminal's Ctrl-C reaches only us */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != job->self)
            _exit(LX_EXIT_ERROR);
        lx_signals_restore_child();
        if (dup2(down[0], 0) < 0 || dup2(up[1], 1) < 0 || dup2(err[1], 2) < 0)
            _exit(LX_EXIT_ERROR);
        execvp(argv[0], argv);
        dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(LX_EXIT_NOEXEC);
    }
    setpgid(pid, pid);
    close(down[0]);
    close(up[1]);
    close(err[1]);
    free(argv);
    free(words);
    p->pid = pid;
    lx_chan_init(&p->ch, up[0], down[1]);
    p->errfd = err[0];
    set_nonblock(up[0]);
    set_nonblock(down[1]);
    set_nonblock(err[0]);
    return 0;
err_msg:
    lx_fail(job, LX_EXIT_PROXY, "cannot start the proxy for host %s: %s", host, strerror(errno));
    if (argv) {
        free(argv);
        free(words);
    }
    for (int i = 0; i < 2; i++) {
        if (down[i] >= 0)
            close(down[i]);
        if (up[i] >= 0)
            close(up[i]);
        if (err[i] >= 0)
            close(err[i]);
    }
    return -1;
}

static double proxy_timeout(void)
{
    const char *t = getenv("MPIEXEC_PROXY_TIMEOUT");
    char *end;
    double v = t && *t ? strtod(t, &end) : 0;
    return t && *t && !*end && v > 0 ? v : LX_PROXY_TIMEOUT_S;
}

int lx_remote_start(lx_job_t *job)
{
    int n = 0;
    for (int h = 0; h < job->nhosts; h++)
        n += job->hosts[h].remote && job->hosts[h].nranks > 0;
    if (n == 0)
        return 0;
    const char *cmd = job->opt.launcher_exec ? job->opt.launcher_exec
                    : getenv("MPIEXEC_LAUNCHER_EXEC");
    if (!cmd || !*cmd)
        cmd = LX_REMOTE_DEFAULT;
    char self[4096];
    const char *path = job->opt.proxy_path ? job->opt.proxy_path : getenv("MPIEXEC_PROXY_PATH");
    ssize_t sl;
    if (path && *path) {
        if (path[0] != '/' || strlen(path) >= sizeof self) {
            lx_fail(job, LX_EXIT_ERROR, "MPIEXEC_PROXY_PATH must be an absolute path (of "
                    "mpiexec on the other hosts), not '%s'", path);
            return -1;
        }
        sl = (ssize_t)strlen(path);
        memcpy(self, path, (size_t)sl);
    } else {
        sl = readlink("/proc/self/exe", self, sizeof self - 1);
    }
    job->proxies = calloc((size_t)n, sizeof *job->proxies);
    if (sl <= 0 || !job->proxies) {
        lx_fail(job, LX_EXIT_ERROR, "cannot find mpiexec's own path for the proxies");
        return -1;
    }
    self[sl] = '\0';
    for (int i = 0; i < job->n; i++) {   /* remote ranks' output comes in frames */
        job->ranks[i].out.dest = 1;
        job->ranks[i].err.dest = 2;
    }
    double by = lx_now() + proxy_timeout();
    for (int h = 0; h < job->nhosts; h++) {
        if (!job->hosts[h].remote || job->hosts[h].nranks == 0)
            continue;
        lx_proxy_t *p = &job->proxies[job->nproxies];
        p->host = h;
        p->errfd = -1;
        p->nlive = job->hosts[h].nranks;
        p->hello_by = by;
        lx_chan_init(&p->ch, -1, -1);
        job->hosts[h].proxy = job->nproxies++;
        job->nlive += p->nlive;
        size_t len = 0;
        char *setup = setup_payload(job, h, &len);
        if (!setup || spawn(job, p, cmd, self) != 0) {
            free(setup);
            if (!job->failed)
                lx_fail(job, LX_EXIT_ERROR, "out of memory while starting the proxies");
            p->done = true;
            job->nlive -= p->nlive;
            p->nlive = 0;
            return -1;
        }
        (void)lx_chan_send(&p->ch, LX_F_SETUP, -1, setup, len);
        free(setup);
        (void)lx_chan_flush(&p->ch);
        if (job->opt.verbose)
            lx_msg("started the proxy for host %s: %s (pid %d)", job->hosts[h].name, p->cmd,
                   (int)p->pid);
    }
    if (job->ranks[0].remote)            /* rank 0's stdin goes through its proxy */
        job->in_src = isatty(0) && tcgetpgrp(0) != getpgrp() ? -1 : 0;
    return 0;
}

/* ---- the end of a proxy ------------------------------------------------ */

static const char *status_text(const lx_proxy_t *p, char *buf, size_t len)
{
    char name[96];
    if (!p->reaped)
        snprintf(buf, len, "closed its connection");
    else if (WIFSIGNALED(p->wstatus))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(p->wstatus),
                 lx_signame(WTERMSIG(p->wstatus), name, sizeof name));
    else
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(p->wstatus));
    return buf;
}

/* The last non-empty line of what the command wrote on stderr. */
static const char *last_err_line(lx_proxy_t *p)
{
    while (p->errlen > 0 && (p->errtail[p->errlen - 1] == '\n' || p->errtail[p->errlen - 1] == '\r'))
        p->errlen--;
    p->errtail[p->errlen] = '\0';
    char *nl = strrchr(p->errtail, '\n');
    return nl ? nl + 1 : p->errtail;
}

/* The proxy is gone (end of file, or reaped): judge it once. */
static void proxy_gone(lx_job_t *job, lx_proxy_t *p, const char *why)
{
    if (p->done)
        return;
    p->done = true;
    char st[160];
    const char *tail = last_err_line(p);
    const char *host = job->hosts[p->host].name;
    if (why)
        lx_fail(job, LX_EXIT_PROXY, "the proxy on host %s (%s) %s; ending the job", host, p->cmd, why);
    else if (!p->hello)
        lx_fail(job, LX_EXIT_PROXY, "cannot start the proxy on host %s (%s): the command %s%s%s; "
                "ending the job", host, p->cmd, status_text(p, st, sizeof st), *tail ? ": " : "",
                tail);
    else if (p->nlive > 0)
        lx_fail(job, LX_EXIT_PROXY, "the proxy on host %s (pid %d) %s while %d of its ranks still "
                "ran%s%s; ending the job", host, (int)p->pid, status_text(p, st, sizeof st),
                p->nlive, *tail ? ": " : "", tail);
    for (int i = 0; i < job->n && p->nlive > 0; i++) {
        lx_rank_t *r = &job->ranks[i];
        if (r->host == p->host && !r->exited) {
            r->exited = true;             /* lost with its proxy */
            r->wstatus = 0;
            p->nlive--;
            job->nlive--;
            if (r->rank == 0)
                lx_stdin_close(job);
        }
    }
    lx_chan_close(&p->ch);
    if (p->errfd >= 0)
        close(p->errfd);
    p->errfd = -1;
    if (!p->reaped)
        kill(-p->pid, SIGKILL);           /* the command outlived its channel */
}

/* End of file: wait a moment for the command's exit status, for the message. */
static void channel_eof(lx_job_t *job, lx_proxy_t *p)
{
    for (int i = 0; i < 100 && !p->reaped; i++) {
        int st;
        if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
            p->reaped = true;
            p->wstatus = st;
            break;
        }
        struct timespec ts = { 0, 10000000 };
        nanosleep(&ts, NULL);
    }
    while (p->errfd >= 0 && !p->hello) {  /* its last words, for the message */
        size_t before = p->errlen;
        lx_remote_err_readable(job, p);
        if (p->errlen == before)
            break;
    }
    proxy_gone(job, p, NULL);
}

void lx_remote_reaped(lx_job_t *job, lx_proxy_t *p, int wstatus)
{
    p->reaped = true;
    p->wstatus = wstatus;
    /* Everything it wrote is in the pipe: take it before judging. When
     * the pipe stays open but empty, someone else holds it: judge anyway. */
    while (!p->done && p->ch.rfd >= 0 && !p->ch.eof && lx_remote_readable(job, p) > 0)
        ;
    if (!p->done)
        channel_eof(job, p);
}

/* ---- frames from a proxy ----------------------------------------------- */

static lx_rank_t *frame_rank(lx_job_t *job, lx_proxy_t *p, int rank)
{
    if (rank < 0 || rank >= job->n || job->ranks[rank].host != p->host)
        return NULL;
    return &job->ranks[rank];
}

/* 0 ok, -1 a frame that breaks the protocol */
static int frame(lx_job_t *job, lx_proxy_t *p, int type, int rank, const char *b, size_t len)
{
    char text[2048];
    snprintf(text, sizeof text, "%.*s", (int)len, b);
    lx_rank_t *r = frame_rank(job, p, rank);
    switch (type) {
    case LX_F_HELLO:
        p->hello = true;
        if (job->opt.verbose)
            lx_msg("the proxy on host %s answered: %s", job->hosts[p->host].name, text);
        return 0;
    case LX_F_MSG:
        if (!job->failed && !job->ending)
            lx_msg("%s", text);
        return 0;
    case LX_F_FAIL: {
        char *rest;
        long code = strtol(text, &rest, 10);
        lx_fail(job, (int)code, "%s", *rest ? rest + 1 : "a proxy failed");
        return 0;
    }
    case LX_F_STATUS_END:
        if (job->status_wait > 0 && --job->status_wait == 0)
            job->timeout_at = lx_now();   /* every answer is in: report now */
        return 0;
    case LX_F_STDIN_ACK: {
        size_t n = (size_t)strtoul(text, NULL, 10);
        p->stdin_inflight -= n < p->stdin_inflight ? n : p->stdin_inflight;
        return 0;
    }
    }
    if (!r || r->exited)
        return r ? 0 : -1;
    switch (type) {
    case LX_F_PID:
        r->pid = (pid_t)atoi(text);
        return 0;
    case LX_F_STATUS:
        free(r->remote_waiting);
        r->remote_waiting = strdup(text);
        return 0;
    case LX_F_PMI:
        lx_pmi_dispatch(job, r, b, len);
        return 0;
    case LX_F_OUT:
    case LX_F_ERR:
        lx_stream_emit(job, r, type == LX_F_OUT ? &r->out : &r->err, b, len);
        return 0;
    case LX_F_EXIT:
        p->nlive--;
        lx_rank_ended(job, r, atoi(text));
        return 0;
    }
    return -1;
}

long lx_remote_readable(lx_job_t *job, lx_proxy_t *p)
{
    long got = lx_chan_fill(&p->ch);
    int type = 0, rank = -1, rc;
    const char *b;
    size_t len;
    while (!p->done && (rc = lx_chan_next(&p->ch, &type, &rank, &b, &len)) != 0) {
        if (rc < 0 || frame(job, p, type, rank, b, len) < 0) {
            char why[96];
            snprintf(why, sizeof why, "sent a frame mpiexec cannot read (type %d, rank %d)",
                     rc < 0 ? -1 : type, rank);
            proxy_gone(job, p, why);
            return -1;
        }
    }
    if (got < 0 && !p->done)
        channel_eof(job, p);
    return got;
}

void lx_remote_err_readable(lx_job_t *job, lx_proxy_t *p)
{
    char buf[4096];
    ssize_t n = read(p->errfd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        close(p->errfd);
        p->errfd = -1;
        return;
    }
    if (!p->hello || job->opt.verbose) { /* kept for the failure message */
        size_t keep = sizeof p->errtail - 1;
        if ((size_t)n >= keep) {
            memcpy(p->errtail, buf + n - keep, keep);
            p->errlen = keep;
        } else {
            if (p->errlen + (size_t)n > keep) {
                size_t drop = p->errlen + (size_t)n - keep;
                memmove(p->errtail, p->errtail + drop, p->errlen - drop);
                p->errlen -= drop;
            }
            memcpy(p->errtail + p->errlen, buf, (size_t)n);
            p->errlen += (size_t)n;
        }
    }
    if (p->hello)                          /* after startup: pass it on */
        for (char *s = buf, *e; s < buf + n; s = e + 1) {
            e = memchr(s, '\n', (size_t)(buf + n - s));
            if (!e)
                e = buf + n;
            if (e > s)
                lx_msg("host %s: %.*s", job->hosts[p->host].name, (int)(e - s), s);
        }
}

/* ---- frames to proxies ------------------------------------------------- */

void lx_remote_signal(lx_job_t *job, int sig)
{
    for (int i = 0; i < job->nproxies; i++) {
        lx_proxy_t *p = &job->proxies[i];
        if (p->done)
            continue;
        (void)lx_chan_sendf(&p->ch, LX_F_SIGNAL, -1, "%d", sig);
        (void)lx_chan_flush(&p->ch);
        if (sig == SIGKILL)               /* an unresponsive proxy dies too */
            kill(-p->pid, SIGKILL);
    }
}

void lx_remote_pmi_send(lx_job_t *job, lx_rank_t *r, const char *buf, size_t len)
{
    int k = job->hosts[r->host].proxy;
    if (k < 0 || job->proxies[k].done)
        return;
    (void)lx_chan_send(&job->proxies[k].ch, LX_F_PMI_REPLY, r->rank, buf, len);
    (void)lx_chan_flush(&job->proxies[k].ch);
}

int lx_remote_ask_status(lx_job_t *job)
{
    int n = 0;
    for (int i = 0; i < job->nproxies; i++) {
        lx_proxy_t *p = &job->proxies[i];
        if (p->done || p->nlive == 0)
            continue;
        (void)lx_chan_send(&p->ch, LX_F_STATUS_ASK, -1, NULL, 0);
        (void)lx_chan_flush(&p->ch);
        n++;
    }
    return n;
}

lx_proxy_t *lx_remote_stdin_proxy(lx_job_t *job)
{
    if (job->nproxies == 0 || !job->ranks[0].remote)
        return NULL;
    int k = job->hosts[job->ranks[0].host].proxy;
    return k >= 0 && !job->proxies[k].done ? &job->proxies[k] : NULL;
}

/* Our stdin is readable and rank 0 is remote: send what fits the window. */
void lx_remote_stdin(lx_job_t *job)
{
    lx_proxy_t *p = lx_remote_stdin_proxy(job);
    if (!p || p->stdin_inflight >= LX_STDIN_WINDOW)
        return;
    char buf[LX_STDIN_WINDOW];
    ssize_t n = read(job->in_src, buf, LX_STDIN_WINDOW - p->stdin_inflight);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        (void)lx_chan_send(&p->ch, LX_F_STDIN_EOF, 0, NULL, 0);
        job->in_src = -1;
        return;
    }
    (void)lx_chan_send(&p->ch, LX_F_STDIN, 0, buf, (size_t)n);
    p->stdin_inflight += (size_t)n;
}

bool lx_remote_stdin_wanted(lx_job_t *job)
{
    lx_proxy_t *p = lx_remote_stdin_proxy(job);
    return p && job->in_src >= 0 && p->stdin_inflight < LX_STDIN_WINDOW;
}

/* ---- deadlines --------------------------------------------------------- */

double lx_remote_next_deadline(const lx_job_t *job)
{
    double next = 0;
    for (int i = 0; i < job->nproxies; i++) {
        const lx_proxy_t *p = &job->proxies[i];
        if (!p->done && !p->hello && (next == 0 || p->hello_by < next))
            next = p->hello_by;
    }
    return next;
}

void lx_remote_deadlines(lx_job_t *job, double now)
{
    for (int i = 0; i < job->nproxies; i++) {
        lx_proxy_t *p = &job->proxies[i];
        if (!p->done && !p->hello && now >= p->hello_by) {
            char why[128];
            snprintf(why, sizeof why, "did not answer within %g s (MPIEXEC_PROXY_TIMEOUT): the "
                     "host is unreachable or the command waits for input", proxy_timeout());
            proxy_gone(job, p, why);
        }
    }
}
