/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * start_local.c - the starter: fork and exec every rank of the job whose
 * host is started here (this machine, --local-hosts). The other hosts get
 * a proxy (remote.c), which runs this same code on its host (proxy.c).
 *
 * What each child gets: fd 0 (rank 0: a pipe fed from our stdin; others:
 * /dev/null), fds 1 and 2 (pipes to us), fd 3 = its end of the PMI
 * socketpair, fd 4 = the job segment; every other fd is closed. Its own
 * process group (so a terminal's Ctrl-C reaches only mpiexec, which then
 * ends the ranks), PR_SET_PDEATHSIG(SIGKILL), signals as at our start.
 */
#include "launcher.h"
#include "runtime/jobseg.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { CHILD_PMI_FD = 3, CHILD_SEG_FD = 4, CHILD_EXEC_FD = 5 };

/* mpiexec holds 4 fds per rank while starting; the ranks get the limit we
 * were started with back. */
static struct rlimit saved_nofile;
static bool nofile_raised;

static void raise_nofile(int n)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)n * 4 + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= need)
        return;
    saved_nofile = rl;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
    nofile_raised = setrlimit(RLIMIT_NOFILE, &rl) == 0;
}

/* Variables a rank must not inherit from our own environment (we may run
 * under another launcher) because we set them or they would mislead it. */
static bool ours(const char *entry)
{
    static const char *const names[] = {
        "PMI_FD", "PMI_PORT", "PMI_ID", "PMI_RANK", "PMI_SIZE", "PMI_SPAWNED",
        "PMI_JOBID", "PMI2_SUN_PATH", "HYDI_CONTROL_FD", "MPI_LOCALNRANKS",
        "MPI_LOCALRANKID", "XB_HOST", XB_JOBSEG_ENV, "XB_JOB_SECRET", "XB_NODE_CPUS",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(entry, names[i], n) == 0 && entry[n] == '=')
            return true;
    }
    return false;
}

static bool named_by_opts(const lx_opts_t *o, const char *entry)
{
    for (int i = 0; i < o->nenv; i++) {
        size_t n = strlen(o->env[i].name);
        if (strncmp(entry, o->env[i].name, n) == 0 && entry[n] == '=')
            return true;
    }
    return false;
}

/* The part of the environment common to all ranks; NULL-terminated with
 * room for the per-rank variables after it. Strings are never freed (the
 * launcher is short-lived and execs nothing else). */
char **lx_base_env(const lx_opts_t *o, int *nbase)
{
    int n = 0, cap = o->nenv + 1;
    for (char **e = environ; *e; e++)
        cap++;
    char **env = calloc((size_t)cap, sizeof *env);
    if (!env)
        return NULL;
    if (!o->env_none)
        for (char **e = environ; *e; e++)
            if (!ours(*e) && !named_by_opts(o, *e))
                env[n++] = *e;
    for (int i = 0; i < o->nenv; i++) {
        const char *v = o->env[i].value ? o->env[i].value : getenv(o->env[i].name);
        char *s;
        if (!v)
            continue;               /* -x VAR of an unset VAR: nothing to pass */
        if (asprintf(&s, "%s=%s", o->env[i].name, v) < 0)
            return NULL;
        env[n++] = s;
    }
    *nbase = n;
    return env;
}

/* The strings lx_base_env made (not environ's), and the array. */
void lx_free_base_env(char **base, int nbase)
{
    if (!base)
        return;
    for (int i = 0; i < nbase; i++) {
        bool mine = true;
        for (char **e = environ; *e && mine; e++)
            mine = *e != base[i];
        if (mine)
            free(base[i]);
    }
    free(base);
}

/* The per-job secret every tcp connection of the job must show (hex of 32
 * random bytes, src/method/tcp); made once per mpiexec run. */
static char hex[65];

void lx_set_job_secret(const char *s)
{
    snprintf(hex, sizeof hex, "%s", s);
}

const char *lx_job_secret(void)
{
    unsigned char raw[32];
    if (hex[0] != '\0')
        return hex;
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
        return NULL;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(hex + 2 * i, 3, "%02x", raw[i]);
    return hex;
}

/* The CPUs ranks are bound from, as a list ("0-3,8"), into buf: a bound
 * rank's progress thread runs on the others (src/progress/progress_mt.c). */
static void cpu_list(const cpu_set_t *set, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, set) || (c > 0 && CPU_ISSET(c - 1, set)))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        int n = e > c ? snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", c, e)
                      : snprintf(buf + len, size - len, "%s%d", len ? "," : "", c);
        if (n < 0 || (size_t)n >= size - len) {
            buf[0] = '\0';            /* too long: the library takes every CPU */
            return;
        }
        len += (size_t)n;
    }
}

static char **rank_env(lx_job_t *job, char **base, int nbase, int rank, const char *cpus)
{
    enum { NEXTRA = 10 };
    char **env = calloc((size_t)nbase + NEXTRA + 1, sizeof *env);
    int n = nbase, bad = 0;
    if (!env)
        return NULL;
    memcpy(env, base, (size_t)nbase * sizeof *env);
    bad |= asprintf(&env[n++], "PMI_FD=%d", CHILD_PMI_FD) < 0;
    bad |= asprintf(&env[n++], "PMI_RANK=%d", rank) < 0;
    bad |= asprintf(&env[n++], "PMI_SIZE=%d", job->n) < 0;
    const lx_rank_t *r = &job->ranks[rank];
    bad |= asprintf(&env[n++], "MPI_LOCALNRANKS=%d", job->hosts[r->host].nranks) < 0;
    bad |= asprintf(&env[n++], "MPI_LOCALRANKID=%d", r->local) < 0;
    bad |= asprintf(&env[n++], "XB_HOST=%s", lx_rank_host(job, r)) < 0;
    bad |= asprintf(&env[n++], "%s=%d", XB_JOBSEG_ENV, CHILD_SEG_FD) < 0;
    const char *secret = lx_job_secret();
    bad |= secret == NULL || asprintf(&env[n++], "XB_JOB_SECRET=%s", secret) < 0;
    if (cpus[0] != '\0')
        bad |= asprintf(&env[n++], "XB_NODE_CPUS=%s", cpus) < 0;
    env[n] = NULL;
    return bad ? NULL : env;
}

/* In the child, between fork and exec. Never returns. */
static void child_exec(lx_job_t *job, int rank, int in_fd, int out_fd, int err_fd,
                       int pmi_fd, int exec_fd, char **env, int cpu)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != job->self)
        _exit(LX_EXIT_ERROR);        /* mpiexec died before we set the above */
    lx_signals_restore_child();
    if (in_fd < 0)
        in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int pmi = fcntl(pmi_fd, F_DUPFD_CLOEXEC, 10);
    int seg = fcntl(job->hosts[job->ranks[rank].host].seg_fd, F_DUPFD_CLOEXEC, 10);
    int ex = fcntl(exec_fd, F_DUPFD_CLOEXEC, 10);
    if (in_fd < 0 || pmi < 0 || seg < 0 || ex < 0 || dup2(in_fd, 0) < 0 ||
        dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0 || dup2(pmi, CHILD_PMI_FD) < 0 ||
        dup2(seg, CHILD_SEG_FD) < 0 || dup2(ex, CHILD_EXEC_FD) < 0)
        goto err_report;
    fcntl(CHILD_EXEC_FD, F_SETFD, FD_CLOEXEC);
    if (close_range(CHILD_EXEC_FD + 1, ~0U, 0) != 0)
        for (int fd = CHILD_EXEC_FD + 1; fd < 65536; fd++)
            close(fd);
    if (nofile_raised)                 /* after closing: no fd above it left */
        (void)setrlimit(RLIMIT_NOFILE, &saved_nofile);
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        (void)sched_setaffinity(0, sizeof set, &set);
    }
    const lx_app_t *app = &job->opt.apps[job->ranks[rank].app];
    if (app->wdir && chdir(app->wdir) != 0)
        goto err_report;
    execvpe(app->argv[0], app->argv, env);
err_report:;
    int e = errno;
    if (write(fcntl(CHILD_EXEC_FD, F_GETFD) >= 0 ? CHILD_EXEC_FD : exec_fd, &e, sizeof e) < 0)
        _exit(LX_EXIT_NOEXEC);
    _exit(LX_EXIT_NOEXEC);
}

/* i-th allowed cpu, wrapping; -1 when not binding. */
static int cpu_for(const lx_job_t *job, const cpu_set_t *allowed, int rank)
{
    int n = CPU_COUNT(allowed), k = 0;
    if (!job->opt.bind_core || n == 0)
        return -1;
    /* A proxy binds by the rank's index on its host. */
    int want = (job->opt.proxy_mode ? job->ranks[rank].local : rank) % n;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, allowed) && k++ == want)
            return c;
    return -1;
}

static void set_nonblock(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Fork rank r; fills r and returns the read end of its exec-status pipe. */
static int start_rank(lx_job_t *job, lx_rank_t *r, char **env, int cpu)
{
    int sv[2], out[2], err[2], in[2] = { -1, -1 }, ex[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return -1;
    if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(ex, O_CLOEXEC) ||
        (r->rank == 0 && pipe2(in, O_CLOEXEC)))
        return -1;                   /* fd exhaustion: mpiexec gives up anyway */
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        child_exec(job, r->rank, in[0], out[1], err[1], sv[1], ex[1], env, cpu);
    setpgid(pid, pid);               /* also here: no race with kill(-pid) */
    close(sv[1]);
    close(out[1]);
    close(err[1]);
    close(ex[1]);
    r->pid = pid;
    r->pmi_fd = sv[0];
    set_nonblock(sv[0]);
    lx_stream_open(&r->out, out[0], 1);
    lx_stream_open(&r->err, err[0], 2);
    if (in[0] >= 0) {
        close(in[0]);
        set_nonblock(in[1]);
        job->in_dst = in[1];
        /* In the background of an interactive shell, reading the terminal
         * would stop mpiexec (SIGTTIN): rank 0 then gets end of file. A
         * proxy's stdin is its channel: rank 0's input comes in frames. */
        if (job->opt.proxy_mode) {
            job->in_src = -1;
            job->in_fed = true;
        } else {
            job->in_src = isatty(0) && tcgetpgrp(0) != getpgrp() ? -1 : 0;
            if (job->in_src < 0)
                lx_stdin_close(job);
        }
    }
    job->nlive++;
    return ex[0];
}

/* Wait until every child has exec'd or failed to; 0 or the errno of the
 * first that failed (its rank in *who). */
static int collect_exec_status(int *exfd, int n, int *who)
{
    int first = 0;
    for (int i = 0; i < n; i++) {
        int e = 0;
        if (exfd[i] < 0)
            continue;                    /* a remote rank */
        ssize_t got;
        do {
            got = read(exfd[i], &e, sizeof e);
        } while (got < 0 && errno == EINTR);
        if (got == (ssize_t)sizeof e && !first) {
            first = e ? e : EINVAL;
            *who = i;
        }
        close(exfd[i]);
    }
    return first;
}

static int give_up(lx_job_t *job, int code)
{
    for (int i = 0; i < job->n; i++)
        if (!job->ranks[i].remote && job->ranks[i].pid > 0) {
            kill(-job->ranks[i].pid, SIGKILL);
            waitpid(job->ranks[i].pid, NULL, 0);
        }
    return code;
}

static void free_env(char **env, int from)
{
    if (!env)
        return;
    for (int i = from; env[i]; i++)
        free(env[i]);
    free(env);
}

/* Fork every rank; on failure end those started. 0, or an exit status. */
static int start_all(lx_job_t *job, char **base, int nbase, int *exfd)
{
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        CPU_ZERO(&allowed);
    /* Unbound ranks of a job that fits the CPUs may be put on one CPU by
     * a busy scheduler (a ping-pong then pays a context switch per message);
     * an oversubscribed job is better left to the scheduler. Counted per
     * host: a proxy (or mpiexec with other hosts) starts only its host's
     * ranks. */
    if (!job->opt.bind_set) {
        int here = 0;                   /* the ranks this process starts */
        for (int i = 0; i < job->n; i++)
            here += !job->ranks[i].remote;
        job->opt.bind_core = here <= CPU_COUNT(&allowed);
    }
    char cpus[1024] = "";
    if (job->opt.bind_core)
        cpu_list(&allowed, cpus, sizeof cpus);
    for (int i = 0; i < job->n; i++) {
        exfd[i] = -1;
        if (job->ranks[i].remote)
            continue;
        char **env = rank_env(job, base, nbase, i, cpus);
        exfd[i] = env ? start_rank(job, &job->ranks[i], env, cpu_for(job, &allowed, i)) : -1;
        int saved = errno;
        free_env(env, nbase);
        if (exfd[i] < 0) {
            lx_msg("cannot start rank %d of %d on %s: %s", i, job->n,
                   lx_rank_host(job, &job->ranks[i]), strerror(saved));
            int who;
            collect_exec_status(exfd, i, &who);
            return give_up(job, LX_EXIT_ERROR);
        }
    }
    int who = 0, e = collect_exec_status(exfd, job->n, &who);
    if (e) {
        lx_msg("cannot start '%s' on %s: %s", job->opt.apps[job->ranks[who].app].argv[0],
               lx_rank_host(job, &job->ranks[who]), strerror(e));
        return give_up(job, e == ENOENT ? LX_EXIT_NOEXEC : 126);
    }
    return 0;
}

int lx_start_local(lx_job_t *job)
{
    int nbase = 0, rc = LX_EXIT_ERROR, nhere = 0;
    for (int i = 0; i < job->n; i++)
        nhere += !job->ranks[i].remote;
    if (nhere == 0)
        return 0;                     /* every host has a proxy */
    char **base = lx_base_env(&job->opt, &nbase);
    int *exfd = calloc((size_t)job->n, sizeof *exfd);
    raise_nofile(job->n);
    if (!base || !exfd)
        lx_msg("out of memory while preparing the environment of the ranks");
    else
        rc = start_all(job, base, nbase, exfd);
    lx_free_base_env(base, nbase);
    free(exfd);
    if (rc == 0 && job->opt.verbose)
        lx_msg("started %d rank%s of '%s'%s on %s", nhere, nhere == 1 ? "" : "s",
               job->opt.apps[0].argv[0], job->opt.napps > 1 ? " and others" : "",
               job->opt.proxy_mode ? job->hosts[job->proxy_host].name : job->host);
    return rc;
}
