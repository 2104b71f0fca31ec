/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * lhelper.c - a small program for the launcher tests. It does not use MPI;
 * modes that talk to the launcher use the PMI client (src/runtime/pmi_client.c).
 *
 *   lhelper exit N               exit with status N
 *   lhelper raise SIG            raise signal number SIG
 *   lhelper sleep S              sleep S seconds (fractions allowed)
 *   lhelper lines K              print K lines, each in several write()s
 *   lhelper cat                  rank 0 copies stdin to stdout
 *   lhelper env VAR...           print VAR=value (or VAR unset)
 *   lhelper pmi                  init, put/fence/get, mapping, finalize
 *   lhelper pmi-init-only        init, print the job, finalize (singleton checks)
 *   lhelper waiting TEXT         write TEXT into our job segment status slot, sleep
 *   lhelper pmi-abort CODE       init then abort with CODE
 *   lhelper pmi-exit-early R     rank R exits 0 at once, others init+fence
 *   lhelper pmi-nofinalize R     rank R inits and exits 0, others init and sleep
 *   lhelper pmi-raw              send stdin's bytes raw on PMI_FD, print answer
 *   lhelper fds                  print the open fds above 2 ("fds: 3 4")
 */
#include "runtime/pmi_client.h"
#include "runtime/jobseg.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int rank_env(void)
{
    const char *r = getenv("PMI_RANK");
    return r ? atoi(r) : 0;
}

static void nap(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static int fail(const char *what)
{
    fprintf(stderr, "lhelper: %s failed: %s\n", what, xb_err_detail());
    return 1;
}

static int do_lines(int k)
{
    int r = rank_env();
    char a[64], b[128];
    memset(b, 'x', sizeof b);
    for (int i = 0; i < k; i++) {
        int n = snprintf(a, sizeof a, "rank %d line %d ", r, i);
        if (write(1, a, (size_t)n) < 0 || write(1, b, 40 + (size_t)(i % 50)) < 0)
            return 1;
        nap(0.0002);
        if (write(1, " end\n", 5) < 0)
            return 1;
    }
    return 0;
}

static int do_cat(void)
{
    char buf[4096];
    ssize_t n;
    if (rank_env() != 0)
        return 0;
    while ((n = read(0, buf, sizeof buf)) > 0)
        if (write(1, buf, (size_t)n) != n)
            return 1;
    return 0;
}

static int do_pmi(void)
{
    xb_pmi_job_t job;
    char key[64], val[128], want[128];
    if (xb_pmi_init(&job))
        return fail("xb_pmi_init");
    snprintf(key, sizeof key, "lh-key-%d", job.rank);
    snprintf(val, sizeof val, "value-of-%d-(0x%x)", job.rank, job.rank * 7919);
    if (xb_pmi_put(key, val))
        return fail("xb_pmi_put");
    if (xb_pmi_fence())
        return fail("xb_pmi_fence");
    for (int r = 0; r < job.size; r++) {
        snprintf(key, sizeof key, "lh-key-%d", r);
        snprintf(want, sizeof want, "value-of-%d-(0x%x)", r, r * 7919);
        if (xb_pmi_get(key, val, sizeof val))
            return fail("xb_pmi_get");
        if (strcmp(val, want) != 0) {
            fprintf(stderr, "lhelper: key %s: got '%s', want '%s'\n", key, val, want);
            return 1;
        }
    }
    if (xb_pmi_get("lh-no-such-key", val, sizeof val) == XB_OK) {
        fprintf(stderr, "lhelper: a missing key was found\n");
        return 1;
    }
    uint32_t *node_of = calloc((size_t)job.size, sizeof *node_of);
    int nnodes = 0;
    if (!node_of || xb_pmi_parse_mapping(job.process_mapping, job.size, node_of, &nnodes))
        return fail("xb_pmi_parse_mapping");
    if (xb_pmi_fence())
        return fail("second xb_pmi_fence");
    printf("pmi ok rank %d size %d appnum %d universe %d nnodes %d node %u kvs %s map %s\n",
           job.rank, job.size, job.appnum, job.universe_size, nnodes, node_of[job.rank],
           job.kvsname[0] ? "set" : "empty", job.process_mapping);
    free(node_of);
    fflush(stdout);
    if (xb_pmi_finalize())
        return fail("xb_pmi_finalize");
    return 0;
}

static int do_init_only(void)
{
    xb_pmi_job_t job;
    if (xb_pmi_init(&job)) {
        printf("init error: %s\n", xb_err_detail());
        return 3;
    }
    printf("init ok rank %d size %d singleton %d map %s\n", job.rank, job.size,
           (int)job.singleton, job.process_mapping);
    char v[32];
    if (xb_pmi_put("k", "v") || xb_pmi_fence() || xb_pmi_get("k", v, sizeof v) ||
        strcmp(v, "v") != 0)
        return fail("put/fence/get");
    return xb_pmi_finalize() ? fail("xb_pmi_finalize") : 0;
}

static int do_waiting(const char *text)
{
    const char *s = getenv(XB_JOBSEG_ENV);
    if (!s)
        return fail("finding " XB_JOBSEG_ENV);
    int fd = atoi(s);
    xb_jobseg_hdr_t *h = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (h == MAP_FAILED || h->magic != XB_JOBSEG_MAGIC) {
        fprintf(stderr, "lhelper: no valid job segment on fd %d\n", fd);
        return 1;
    }
    int local = atoi(getenv("MPI_LOCALRANKID") ? getenv("MPI_LOCALRANKID") : "0");
    xb_jobseg_status_t *st = (xb_jobseg_status_t *)((char *)h + h->status_off) + local;
    if (st->world_rank != rank_env()) {
        fprintf(stderr, "lhelper: slot %d has world rank %d\n", local, st->world_rank);
        return 1;
    }
    st->pid = (int32_t)getpid();
    snprintf(st->waiting, sizeof st->waiting, "%s (rank %d)", text, rank_env());
    nap(30);
    return 0;
}

static int do_abort(int code)
{
    xb_pmi_job_t job;
    if (xb_pmi_init(&job))
        return fail("xb_pmi_init");
    if (job.rank == 1) {
        xb_pmi_abort(code, "helper gave up, 100% sure");
        nap(0.2);
        return code;
    }
    nap(30);
    return 0;
}

static int do_exit_early(int who, bool finalize_others)
{
    xb_pmi_job_t job;
    if (rank_env() == who && finalize_others)
        return 0;                           /* exits without any PMI */
    if (xb_pmi_init(&job))
        return fail("xb_pmi_init");
    if (job.rank == who)
        return 0;                           /* init, no finalize */
    if (finalize_others) {
        (void)xb_pmi_fence();               /* must not hang */
        return fail("the fence that cannot complete returned");
    }
    nap(30);
    return 0;
}

static int do_raw(void)
{
    char buf[8192];
    int fd = atoi(getenv("PMI_FD") ? getenv("PMI_FD") : "-1");
    ssize_t n = read(0, buf, sizeof buf);
    if (n > 0 && write(fd, buf, (size_t)n) != n)
        return 1;
    n = read(fd, buf, sizeof buf - 1);
    if (n < 0)
        return 1;
    buf[n] = '\0';
    printf("answer: %s", buf);
    return 0;
}

static int do_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int mine = d ? dirfd(d) : -1, fds[64], n = 0;
    if (!d)
        return 1;
    while ((e = readdir(d)) && n < 64) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] != '.' && fd > 2 && fd != mine)
            fds[n++] = fd;
    }
    closedir(d);
    for (int i = 0; i < n; i++)          /* sort: readdir order is arbitrary */
        for (int j = i + 1; j < n; j++)
            if (fds[j] < fds[i]) {
                int t = fds[i];
                fds[i] = fds[j];
                fds[j] = t;
            }
    printf("fds:");
    for (int i = 0; i < n; i++)
        printf(" %d", fds[i]);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const char *arg = argc > 2 ? argv[2] : "0";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(mode, "exit"))
        return atoi(arg);
    if (!strcmp(mode, "raise"))
        return raise(atoi(arg));
    if (!strcmp(mode, "sleep"))
        return nap(atof(arg)), 0;
    if (!strcmp(mode, "lines"))
        return do_lines(atoi(arg));
    if (!strcmp(mode, "cat"))
        return do_cat();
    if (!strcmp(mode, "env")) {
        for (int i = 2; i < argc; i++)
            printf("%s=%s\n", argv[i], getenv(argv[i]) ? getenv(argv[i]) : "(unset)");
        return 0;
    }
    if (!strcmp(mode, "pmi"))
        return do_pmi();
    if (!strcmp(mode, "pmi-init-only"))
        return do_init_only();
    if (!strcmp(mode, "waiting"))
        return do_waiting(arg);
    if (!strcmp(mode, "pmi-abort"))
        return do_abort(atoi(arg));
    if (!strcmp(mode, "pmi-exit-early"))
        return do_exit_early(atoi(arg), true);
    if (!strcmp(mode, "pmi-nofinalize"))
        return do_exit_early(atoi(arg), false);
    if (!strcmp(mode, "pmi-raw"))
        return do_raw();
    if (!strcmp(mode, "fds"))
        return do_fds();
    fprintf(stderr, "lhelper: unknown mode '%s'\n", mode);
    return 2;
}
