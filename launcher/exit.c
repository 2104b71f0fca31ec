/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * exit.c - signals, reaping, the failure policy and ending the job.
 *
 * Policy (docs/design/launcher.md): the first rank that ends abnormally
 * (killed by a signal, nonzero exit, MPI_Abort, exit after PMI init without
 * finalize while others run, exit while the others wait for it in a PMI
 * barrier) fixes mpiexec's exit status and prints ONE line naming rank,
 * host, pid and cause; then every other rank gets SIGTERM (to its process
 * group) and SIGKILL LX_KILL_GRACE_S later. SIGINT/SIGTERM/SIGHUP/SIGQUIT
 * to mpiexec do the same with status 128+signal; a second one kills at once.
 */
#include "launcher.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

static sigset_t saved_mask;
static struct sigaction saved_pipe;

int lx_signals_setup(lx_job_t *job)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGQUIT);
    if (sigprocmask(SIG_BLOCK, &set, &saved_mask) != 0)
        goto err;
    job->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    if (job->sigfd < 0)
        goto err;
    struct sigaction ign = { .sa_handler = SIG_IGN };
    sigaction(SIGPIPE, &ign, &saved_pipe);
    return 0;
err:
    lx_msg("cannot set up signal handling: %s", strerror(errno));
    return -1;
}

void lx_signals_restore_child(void)
{
    sigaction(SIGPIPE, &saved_pipe, NULL);
    sigprocmask(SIG_SETMASK, &saved_mask, NULL);
}

const char *lx_signame(int sig, char *buf, size_t len)
{
    const char *abbrev = sigabbrev_np(sig);
    const char *desc = strsignal(sig);
    if (abbrev)
        snprintf(buf, len, "%s, SIG%s", desc ? desc : "unknown", abbrev);
    else
        snprintf(buf, len, "%s", desc ? desc : "unknown");
    return buf;
}

void lx_kill_local(lx_job_t *job, int sig)
{
    for (int i = 0; i < job->n; i++) {
        lx_rank_t *r = &job->ranks[i];
        if (!r->remote && r->pid > 0 && !r->exited) {
            kill(-r->pid, sig);
            kill(r->pid, sig);
        }
    }
}

/* Every rank of the job: here by kill(), elsewhere through its proxy. */
static void kill_all(lx_job_t *job, int sig)
{
    lx_kill_local(job, sig);
    lx_remote_signal(job, sig);
    lx_spawn_signal(job, sig);
}

void lx_end_job(lx_job_t *job)
{
    if (job->ending)
        return;
    job->ending = true;
    job->kill_at = lx_now() + LX_KILL_GRACE_S;
    lx_stdin_close(job);
    kill_all(job, SIGTERM);
}

void lx_fail(lx_job_t *job, int code, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    if (job->failed || job->ending)
        return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    job->failed = true;
    job->exit_code = code;
    lx_msg("%s", text);
    lx_end_job(job);
}

static void classify(lx_job_t *job, lx_rank_t *r)
{
    int st = r->wstatus;
    const char *tail = job->nlive > 0 ? "; ending the job" : "";
    if (job->ending || r->aborted)
        return;
    if (WIFSIGNALED(st)) {
        char name[96];
        int sig = WTERMSIG(st);
        lx_fail(job, 128 + sig, "rank %d (pid %d) on %s exited on signal %d (%s)%s", r->rank,
                (int)r->pid, lx_rank_host(job, r), sig, lx_signame(sig, name, sizeof name), tail);
    } else if (WEXITSTATUS(st) != 0) {
        lx_fail(job, WEXITSTATUS(st), "rank %d (pid %d) on %s exited with status %d%s", r->rank,
                (int)r->pid, lx_rank_host(job, r), WEXITSTATUS(st), tail);
    } else if (r->pmi_init && !r->finalized && job->nlive > 0) {
        lx_fail(job, LX_EXIT_NOFINALIZE, "rank %d (pid %d) on %s exited with status 0 without "
                "calling MPI_Finalize while other ranks still run%s", r->rank, (int)r->pid,
                lx_rank_host(job, r), tail);
    } else {
        lx_barrier_check(job, r);
    }
}

static void reap(lx_job_t *job)
{
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        lx_rank_t *r = NULL;
        for (int i = 0; i < job->n && !r; i++)
            if (!job->ranks[i].remote && job->ranks[i].pid == pid && !job->ranks[i].exited)
                r = &job->ranks[i];
        if (lx_spawn_reaped(job, pid, st))   /* a job spawned by a rank */
            continue;
        for (int i = 0; i < job->nproxies && !r; i++)
            if (job->proxies[i].pid == pid && !job->proxies[i].reaped) {
                lx_remote_reaped(job, &job->proxies[i], st);
                break;
            }
        if (!r)
            continue;
        /* Its last PMI words (abort, finalize) are in the socket: read them
         * before judging how it ended. */
        while (r->pmi_fd >= 0 && lx_pmi_readable(job, r))
            ;
        lx_pmi_close(job, r);
        /* Its last output goes out before any message about its end. The
         * bound is for a grandchild that keeps writing into the pipe. */
        for (int k = 0; k < 64 && lx_stream_readable(job, r, &r->out); k++)
            ;
        for (int k = 0; k < 64 && lx_stream_readable(job, r, &r->err); k++)
            ;
        lx_rank_ended(job, r, st);
    }
}

void lx_rank_ended(lx_job_t *job, lx_rank_t *r, int st)
{
    r->exited = true;
    r->wstatus = st;
    job->nlive--;
    if (r->rank == 0)
        lx_stdin_close(job);
    if (job->opt.proxy_mode)
        lx_proxy_rank_exited(job, r);    /* mpiexec judges, not us */
    else
        classify(job, r);
}

void lx_signal_readable(lx_job_t *job)
{
    struct signalfd_siginfo si;
    while (read(job->sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD) {
            reap(job);
            continue;
        }
        if (job->ending) {
            kill_all(job, SIGKILL);
            job->killed = true;
            continue;
        }
        char name[96];
        lx_msg("got signal %d (%s); ending the job", sig, lx_signame(sig, name, sizeof name));
        if (!job->failed) {
            job->failed = true;
            job->exit_code = 128 + sig;
        }
        lx_end_job(job);
    }
    reap(job);   /* SIGCHLDs coalesce; a cheap extra look never hurts */
}

void lx_deadlines(lx_job_t *job, double now)
{
    if (job->ending && !job->killed && now >= job->kill_at) {
        kill_all(job, SIGKILL);
        job->killed = true;
    }
    if (job->timeout_at > 0 && !job->ending && now >= job->timeout_at)
        lx_timeout_fire(job);
}
