/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * barrier.c - the PMI barrier (barrier_in / barrier_out) over every rank of
 * the job, and the rule that a barrier that can no longer complete (a rank
 * exited while the others wait in it) ends the job instead of hanging.
 */
#include "launcher.h"

static void release_all(lx_job_t *job)
{
    for (int i = 0; i < job->n; i++) {
        lx_rank_t *r = &job->ranks[i];
        if (r->in_barrier) {
            r->in_barrier = false;
            lx_pmi_reply(job, r, "barrier_out");
        }
    }
    job->nbarrier = 0;
}

static lx_rank_t *first_gone(lx_job_t *job)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].exited && !job->ranks[i].in_barrier)
            return &job->ranks[i];
    return NULL;
}

static void cannot_complete(lx_job_t *job, lx_rank_t *gone)
{
    lx_fail(job, LX_EXIT_NOFINALIZE,
            "rank %d (pid %d) on %s exited with status 0 while the other ranks wait for it in a "
            "PMI barrier (MPI_Init, a fence or MPI_Finalize); ending the job",
            gone->rank, (int)gone->pid, lx_rank_host(job, gone));
}

void lx_barrier_enter(lx_job_t *job, lx_rank_t *r)
{
    if (r->in_barrier)
        return;                  /* a second barrier_in before barrier_out */
    r->in_barrier = true;
    if (++job->nbarrier == job->n) {
        release_all(job);
        return;
    }
    lx_rank_t *gone = first_gone(job);
    if (gone)
        cannot_complete(job, gone);
}

void lx_barrier_check(lx_job_t *job, lx_rank_t *gone)
{
    if (job->nbarrier > 0 && !gone->in_barrier)
        cannot_complete(job, gone);
}
