/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * timeout.c - --timeout / MPIEXEC_TIMEOUT: when the job runs out of time,
 * print for every rank what it waits in (from its status slot in the job
 * segment, written by the library's progress layer; a remote rank's slot is
 * read by its host's proxy), then end the job with exit status 124.
 */
#include "launcher.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static void describe(lx_job_t *job, lx_rank_t *r)
{
    int pid = 0;
    const char *what = "";
    if (!r->remote) {
        what = lx_jobseg_waiting(job, r, &pid);
    } else if (r->remote_waiting) {       /* its proxy's answer; "-": not initialised */
        bool none = strcmp(r->remote_waiting, "-") == 0;
        what = none ? "" : r->remote_waiting;
        pid = none ? 0 : 1;
    } else if (!r->exited && !r->in_barrier) {
        lx_msg("  rank %d (pid %d) on %s: its host's proxy did not say what it waits in",
               r->rank, (int)r->pid, lx_rank_host(job, r));
        return;
    }
    if (r->exited) {
        if (WIFSIGNALED(r->wstatus))
            lx_msg("  rank %d (pid %d) on %s: already ended by signal %d", r->rank,
                   (int)r->pid, lx_rank_host(job, r), WTERMSIG(r->wstatus));
        else
            lx_msg("  rank %d (pid %d) on %s: already exited with status %d", r->rank,
                   (int)r->pid, lx_rank_host(job, r), WEXITSTATUS(r->wstatus));
    } else if (what[0]) {
        lx_msg("  rank %d (pid %d) on %s: waiting in %s", r->rank, (int)r->pid, lx_rank_host(job, r), what);
    } else if (pid == 0 && !r->pmi_init) {
        lx_msg("  rank %d (pid %d) on %s: has not called MPI_Init", r->rank, (int)r->pid,
               lx_rank_host(job, r));
    } else if (r->in_barrier) {
        lx_msg("  rank %d (pid %d) on %s: waiting in a PMI barrier (MPI_Init, a fence or "
               "MPI_Finalize)", r->rank, (int)r->pid, lx_rank_host(job, r));
    } else {
        lx_msg("  rank %d (pid %d) on %s: not waiting in MPI (computing, or in a call that "
               "reports nothing)", r->rank, (int)r->pid, lx_rank_host(job, r));
    }
}

/* Remote ranks' status slots are on their hosts: ask their proxies first
 * and report when every one answered, or after LX_STATUS_WAIT_S. */
#define LX_STATUS_WAIT_S 1.0

void lx_timeout_fire(lx_job_t *job)
{
    if (job->failed || job->ending)
        return;
    if (!job->status_asked) {
        job->status_asked = true;
        job->status_wait = lx_remote_ask_status(job);
        if (job->status_wait > 0) {
            job->timeout_at = lx_now() + LX_STATUS_WAIT_S;
            return;
        }
    }
    lx_msg("the job did not finish within %g seconds (--timeout/MPIEXEC_TIMEOUT); what each "
           "rank was doing:", job->opt.timeout_s);
    for (int i = 0; i < job->n; i++)
        describe(job, &job->ranks[i]);
    lx_msg("ending the job (exit status %d)", LX_EXIT_TIMEOUT);
    job->failed = true;
    job->exit_code = LX_EXIT_TIMEOUT;
    lx_end_job(job);
}
