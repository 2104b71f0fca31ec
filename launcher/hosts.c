/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * hosts.c - which host each rank runs on: -hosts a,b,c / -f HOSTFILE /
 * -ppn N, and the job's node map (PMI_process_mapping).
 *
 * Hostfile lines: "host", "host:N" (Hydra) or "host slots=N" (Open MPI);
 * '#' starts a comment. -hosts entries may carry ":N" too. Slots of a host:
 * its N, else -ppn, else the ranks spread evenly (ceil(n / hosts)). Ranks
 * fill the hosts in order, block by block, wrapping when the job has more
 * ranks than slots (oversubscription is allowed).
 *
 * Where the ranks start. A host is this machine when its name is
 * "localhost", "127.0.0.1" or our host name; with --local-hosts every host
 * is started on this machine and is still its own node (its own job
 * segment, its own XB_HOST), so shared memory serves ranks of one host and
 * tcp the pairs across hosts: a multi-host job for tests on one machine.
 * Any other host is remote: its ranks are started by a proxy that the
 * remote-start command (ssh, --launcher-exec) runs there (remote.c).
 */
#include "launcher.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_host(lx_opts_t *o, const char *name, size_t len, int slots)
{
    if (len == 0 || len >= LX_HOST_MAX) {
        lx_msg("host name '%.*s' is empty or too long", (int)len, name);
        return -1;
    }
    lx_hostspec_t *h = realloc(o->hosts, (size_t)(o->nhosts + 1) * sizeof *h);
    if (!h)
        return -1;
    o->hosts = h;
    memcpy(h[o->nhosts].name, name, len);
    h[o->nhosts].name[len] = '\0';
    h[o->nhosts].slots = slots;
    o->nhosts++;
    return 0;
}

/* "name", "name:N" or "name slots=N" (n chars at s). */
static int parse_entry(lx_opts_t *o, const char *s, size_t n, const char *where)
{
    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 0)
        return 0;
    size_t name_len = strcspn(s, ": \t");
    if (name_len > n)
        name_len = n;
    int slots = 0;
    const char *rest = s + name_len;
    size_t rl = n - name_len;
    if (rl > 0) {
        char buf[64];
        if (rl >= sizeof buf)
            rl = sizeof buf - 1;
        memcpy(buf, rest, rl);
        buf[rl] = '\0';
        char *p = buf + strspn(buf, " \t"), *end;
        if (*p == ':')
            p++;
        else if (strncmp(p, "slots=", 6) == 0)
            p += 6;
        else
            p = NULL;
        long v = p ? strtol(p, &end, 10) : 0;
        if (!p || end == p || *end != '\0' || v < 1 || v > 1000000) {
            lx_msg("%s: cannot read '%.*s' (want host, host:N or host slots=N)", where,
                   (int)n, s);
            return -1;
        }
        slots = (int)v;
    }
    return add_host(o, s, name_len, slots);
}

int lx_hosts_from_list(lx_opts_t *o, const char *list)
{
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (parse_entry(o, p, n, "-hosts"))
            return -1;
        p += n + (p[n] == ',');
    }
    return 0;
}

int lx_hosts_from_file(lx_opts_t *o, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        lx_msg("cannot read the host file %s: %s", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        line[strcspn(line, "#\n")] = '\0';
        rc = parse_entry(o, line, strlen(line), path);
    }
    fclose(f);
    if (rc == 0 && o->nhosts == 0) {
        lx_msg("the host file %s names no host", path);
        rc = -1;
    }
    return rc;
}

static bool is_this_machine(const lx_job_t *job, const char *name)
{
    return strcmp(name, "localhost") == 0 || strcmp(name, "127.0.0.1") == 0 ||
           strcmp(name, job->host) == 0;
}

/* Rank -> host (block fill), the per-host counts and the PMI node map. A
 * proxy computes the same placement from the same options (proxy.c). */
int lx_hosts_place(lx_job_t *job)
{
    const lx_opts_t *o = &job->opt;
    int nh = o->nhosts > 0 ? o->nhosts : 1;
    job->hosts = calloc((size_t)nh, sizeof *job->hosts);
    if (!job->hosts)
        return -1;
    job->nhosts = nh;
    for (int h = 0; h < nh; h++) {
        lx_host_t *H = &job->hosts[h];
        snprintf(H->name, sizeof H->name, "%s", o->nhosts ? o->hosts[h].name : job->host);
        H->seg_fd = -1;
        H->proxy = -1;
        if (o->proxy_mode)
            H->remote = h != job->proxy_host;
        else
            H->remote = o->nhosts && !o->local_hosts && !is_this_machine(job, H->name);
    }
    int even = (job->n + nh - 1) / nh;
    for (int r = 0, h = 0, used = 0; r < job->n; r++) {
        int slots = o->nhosts && o->hosts[h].slots ? o->hosts[h].slots
                  : o->ppn > 0 ? o->ppn : even;
        if (used == slots) {
            h = (h + 1) % nh;
            used = 0;
            r--;
            continue;
        }
        job->ranks[r].host = h;
        job->ranks[r].remote = job->hosts[h].remote;
        job->ranks[r].local = job->hosts[h].nranks++;
        used++;
    }
    /* (vector,(node,1,count),...) in rank order; consecutive runs merge. */
    size_t off = (size_t)snprintf(job->mapping, sizeof job->mapping, "(vector");
    for (int r = 0; r < job->n;) {
        int h = job->ranks[r].host, k = r;
        while (k < job->n && job->ranks[k].host == h)
            k++;
        off += (size_t)snprintf(job->mapping + off, off < sizeof job->mapping ?
                                sizeof job->mapping - off : 0, ",(%d,1,%d)", h, k - r);
        r = k;
    }
    if (off + 2 > sizeof job->mapping)
        job->mapping[0] = '\0';      /* too long: the ranks compare host names */
    else
        snprintf(job->mapping + off, sizeof job->mapping - off, ")");
    return 0;
}

const char *lx_rank_host(const lx_job_t *job, const lx_rank_t *r)
{
    return job->hosts && r ? job->hosts[r->host].name : job->host;
}
