/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * jobseg.c - the per-host job segments (src/runtime/jobseg.h): one memfd
 * per host of the job with the header and one status slot per rank of that
 * host. The children inherit their host's (start_local.c puts it on a fixed
 * fd and names it in XB_JOBSEG_FD); it vanishes with the last process
 * holding it.
 */
#include "launcher.h"
#include "runtime/jobseg.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int create_one(lx_job_t *job, int host)
{
    lx_host_t *H = &job->hosts[host];
    long page = sysconf(_SC_PAGESIZE);
    size_t status_off = (sizeof(xb_jobseg_hdr_t) + 63) & ~(size_t)63;
    size_t end = status_off + (size_t)H->nranks * sizeof(xb_jobseg_status_t);
    size_t method_off = (end + (size_t)page - 1) & ~((size_t)page - 1);

    int fd = memfd_create("crossbar-jobseg", MFD_CLOEXEC);
    if (fd < 0) {
        lx_msg("cannot create the job segment (memfd_create): %s", strerror(errno));
        return -1;
    }
    if (ftruncate(fd, (off_t)method_off) != 0) {
        lx_msg("cannot size the job segment to %zu bytes: %s", method_off, strerror(errno));
        goto err_close;
    }
    void *p = mmap(NULL, method_off, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        lx_msg("cannot map the job segment: %s", strerror(errno));
        goto err_close;
    }
    xb_jobseg_hdr_t *h = p;
    h->nlocal = (uint32_t)H->nranks;
    h->host_index = (uint32_t)host;
    h->status_off = status_off;
    h->method_off = method_off;
    xb_jobseg_status_t *st = (xb_jobseg_status_t *)((char *)p + status_off);
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].host == host)
            st[job->ranks[i].local].world_rank = i;
    __atomic_store_n(&h->magic, XB_JOBSEG_MAGIC, __ATOMIC_RELEASE);
    H->seg_fd = fd;
    H->seg = p;
    H->seg_len = method_off;
    return 0;

err_close:
    close(fd);
    return -1;
}

int lx_jobseg_create(lx_job_t *job)
{
    for (int h = 0; h < job->nhosts; h++)
        if (job->hosts[h].nranks > 0 && !job->hosts[h].remote && create_one(job, h) != 0)
            return -1;
    return 0;
}

/* What local rank `local` says it waits in ("" when nothing), and the pid it
 * wrote at init (0 when it has not initialised). */
const char *lx_jobseg_waiting(const lx_job_t *job, const lx_rank_t *r, int *pid_p)
{
    static char text[sizeof(((xb_jobseg_status_t *)0)->waiting)];
    const xb_jobseg_hdr_t *h = job->hosts[r->host].seg;
    int local = r->local;
    if (!h || local < 0 || (uint32_t)local >= h->nlocal) {
        *pid_p = 0;
        return "";
    }
    const xb_jobseg_status_t *st =
        (const xb_jobseg_status_t *)((const char *)h + h->status_off) + local;
    *pid_p = st->pid;
    memcpy(text, (const char *)st->waiting, sizeof text);   /* torn reads are harmless */
    text[sizeof text - 1] = '\0';
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    return text;
}
