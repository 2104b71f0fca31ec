/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * names.c - the name service of MPI_Publish_name / MPI_Lookup_name (PMI-1
 * publish_name, unpublish_name, lookup_name; spec/pmi_wire.txt section 8).
 * One table per mpiexec, shared by every rank of its job; a job started by
 * a spawn has its own mpiexec, hence its own table. A service is published
 * once: a second publish fails (rc=-1) until it is unpublished.
 */
#include "launcher.h"

#include <stdlib.h>
#include <string.h>

typedef struct lx_names {
    struct lx_names *next;
    char            *service, *port;
} lx_name_t;

static lx_name_t **find(lx_job_t *job, const char *service)
{
    lx_name_t **pp = &job->names;
    while (*pp && strcmp((*pp)->service, service) != 0)
        pp = &(*pp)->next;
    return pp;
}

void lx_names_publish(lx_job_t *job, lx_rank_t *r, const char *service, const char *port)
{
    lx_name_t **pp = find(job, service);
    if (*pp) {
        lx_pmi_reply_rc(job, r, "publish_result", -1, "service_already_published");
        return;
    }
    lx_name_t *n = calloc(1, sizeof *n);
    if (!n || !(n->service = strdup(service)) || !(n->port = strdup(port))) {
        if (n)
            free(n->service);
        free(n);
        lx_pmi_reply_rc(job, r, "publish_result", -1, "out_of_memory");
        return;
    }
    *pp = n;
    lx_pmi_reply_rc(job, r, "publish_result", 0, "success");
}

void lx_names_unpublish(lx_job_t *job, lx_rank_t *r, const char *service)
{
    lx_name_t **pp = find(job, service);
    if (!*pp) {
        lx_pmi_reply_rc(job, r, "unpublish_result", -1, "service_not_published");
        return;
    }
    lx_name_t *n = *pp;
    *pp = n->next;
    free(n->service);
    free(n->port);
    free(n);
    lx_pmi_reply_rc(job, r, "unpublish_result", 0, "success");
}

void lx_names_lookup(lx_job_t *job, lx_rank_t *r, const char *service)
{
    lx_name_t *n = *find(job, service);
    if (!n) {
        lx_pmi_reply_rc(job, r, "lookup_result", -1, "service_not_published");
        return;
    }
    xb_pmiw_out_t o;
    xb_pmiw_begin(&o, "lookup_result");
    xb_pmiw_add(&o, "rc", "0");
    xb_pmiw_add(&o, "port", n->port);
    lx_pmi_answer(job, r, &o);
}

void lx_names_free(lx_job_t *job)
{
    while (job->names) {
        lx_name_t *n = job->names;
        job->names = n->next;
        free(n->service);
        free(n->port);
        free(n);
    }
}
