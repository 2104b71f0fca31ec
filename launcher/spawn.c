/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * spawn.c - the PMI-1 spawn request (spec/pmi_wire.txt section 7): a rank
 * asks for a new job (MPI_Comm_spawn / _spawn_multiple).
 *
 * The lines of the request are gathered per rank (util/pmi_spawn.c). When
 * the request is whole, every command is checked here first (it must be an
 * executable file: found through the info key "path", then PATH, relative
 * to "wdir" or the asking rank's working directory; "host" must be one of
 * this mpiexec's hosts); one that fails fails the whole spawn with a line
 * on stderr saying why and spawn_result rc=-1 with the reason. Otherwise we
 * fork another mpiexec (our own binary) with
 *     --xb-spawned [--xb-preput K=V]... [-hosts H] -n N -wdir D cmd args : ...
 * which runs the new job like any other (its own KVS, COMM_WORLD, stdio
 * forwarding to our stdout/stderr, death reports) with PMI_SPAWNED=1 for
 * its ranks, and answer spawn_result rc=0. That mpiexec is our child: we
 * wait for it before we exit, a nonzero status of it ends our job with that
 * status (it has said which of its ranks died and how), and ending our job
 * (a failure, Ctrl-C, --timeout) sends it SIGTERM, which ends its ranks.
 * Nested spawns work the same way one level down.
 */
#include "launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { PATH_LEN = 4096 };

/* A strdup'd argv under construction. */
typedef struct argv_b {
    char **v;
    int    n, cap;
    bool   bad;
} argv_b_t;

static void push(argv_b_t *a, const char *s)
{
    if (a->bad)
        return;
    if (a->n + 2 > a->cap) {
        int cap = a->cap ? 2 * a->cap : 32;
        char **v = realloc(a->v, (size_t)cap * sizeof(*v));
        if (!v) {
            a->bad = true;
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    if (!(a->v[a->n] = strdup(s))) {
        a->bad = true;
        return;
    }
    a->v[++a->n] = NULL;
}

static void argv_free(argv_b_t *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
}

static const char *info_get(const xb_pmiw_spawn_cmd_t *c, const char *key)
{
    for (int i = 0; i < c->ninfo; i++)
        if (strcmp(c->info[i].key, key) == 0)
            return c->info[i].val;
    return NULL;
}

static bool executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Search dirs (':'-separated) for exec; relative dirs are under base. */
static bool search(const char *dirs, const char *exec, const char *base, char *out)
{
    while (dirs && *dirs) {
        size_t n = strcspn(dirs, ":");
        int k = n > 0 ? snprintf(out, PATH_LEN, "%s%s%.*s/%s", dirs[0] == '/' ? "" : base,
                                 dirs[0] == '/' ? "" : "/", (int)n, dirs, exec) : -1;
        if (k > 0 && k < PATH_LEN && executable(out))
            return true;
        dirs += n + (dirs[n] == ':');
    }
    return false;
}

/* The working directory of the asking rank (local ranks), else ours. */
static void rank_cwd(const lx_rank_t *r, char *out)
{
    char link[64];
    ssize_t n = -1;
    if (!r->remote && r->pid > 0) {
        snprintf(link, sizeof link, "/proc/%d/cwd", (int)r->pid);
        n = readlink(link, out, PATH_LEN - 1);
    }
    if (n > 0)
        out[n] = '\0';
    else if (!getcwd(out, PATH_LEN))
        snprintf(out, PATH_LEN, ".");
}

/* Check one command; its absolute path in exe, its directory in wdir.
 * NULL when fine, else why (static or in why_buf). */
static const char *check_cmd(lx_job_t *job, const lx_rank_t *r,
                             const xb_pmiw_spawn_cmd_t *c, char *exe, char *wdir,
                             char *why_buf, size_t why_len)
{
    char cwd[PATH_LEN];
    rank_cwd(r, cwd);
    const char *w = info_get(c, "wdir");
    int n = w && w[0] == '/' ? snprintf(wdir, PATH_LEN, "%s", w)
          : w ? snprintf(wdir, PATH_LEN, "%s/%s", cwd, w)
              : snprintf(wdir, PATH_LEN, "%s", cwd);
    if (n < 0 || n >= PATH_LEN)
        return "the working directory's path is too long";
    struct stat st;
    if (stat(wdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why_buf, why_len, "wdir '%s' is not a directory", wdir);
        return why_buf;
    }
    const char *host = info_get(c, "host");
    if (host) {
        bool known = strcmp(host, job->host) == 0 || strcmp(host, "localhost") == 0;
        for (int h = 0; h < job->nhosts && !known; h++)
            known = strcmp(host, job->hosts[h].name) == 0;
        if (!known) {
            snprintf(why_buf, why_len, "host '%s' is not one of this mpiexec's hosts",
                     host);
            return why_buf;
        }
    }
    if (strchr(c->exec, '/')) {
        n = snprintf(exe, PATH_LEN, "%s%s%s", c->exec[0] == '/' ? "" : wdir,
                     c->exec[0] == '/' ? "" : "/", c->exec);
        if (n > 0 && n < PATH_LEN && executable(exe))
            return NULL;
    } else if (search(info_get(c, "path"), c->exec, wdir, exe) ||
               search(getenv("PATH"), c->exec, wdir, exe)) {
        return NULL;
    }
    snprintf(why_buf, why_len, "cannot start '%s': %s", c->exec,
             strchr(c->exec, '/') ? (errno == EACCES ? "permission denied"
                                                     : "no such executable file")
                                  : "not found in the info key 'path' nor in PATH");
    return why_buf;
}

/* The argv of the mpiexec for the new job; NULL-terminated in a->v. */
static const char *build_argv(lx_job_t *job, lx_rank_t *r, const xb_pmiw_spawn_t *s,
                              argv_b_t *a, char *why, size_t wl)
{
    char self[PATH_LEN], exe[PATH_LEN], wdir[PATH_LEN], kv[2 * 1024 + 4];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return "cannot find mpiexec's own path (/proc/self/exe)";
    self[n] = '\0';
    push(a, self);
    push(a, "--xb-spawned");
    for (int i = 0; i < s->npreput; i++) {
        snprintf(kv, sizeof kv, "%s=%s", s->preput[i].key, s->preput[i].val);
        push(a, "--xb-preput");
        push(a, kv);
    }
    if (job->opt.tag_output)
        push(a, "--tag-output");
    const char *host = s->ncmds > 0 ? info_get(&s->cmds[0], "host") : NULL;
    if (host && strcmp(host, job->host) != 0 && strcmp(host, "localhost") != 0) {
        push(a, "-hosts");                   /* another host of this job */
        push(a, host);
        if (job->opt.local_hosts)
            push(a, "--local-hosts");
        if (job->opt.launcher_exec) {
            push(a, "--launcher-exec");
            push(a, job->opt.launcher_exec);
        }
    }
    bool first = true;
    for (int i = 0; i < s->ncmds; i++) {
        const xb_pmiw_spawn_cmd_t *c = &s->cmds[i];
        if (c->nprocs == 0)
            continue;
        const char *bad = check_cmd(job, r, c, exe, wdir, why, wl);
        if (bad)
            return bad;
        char num[32];
        snprintf(num, sizeof num, "%ld", c->nprocs);
        if (!first)
            push(a, ":");
        first = false;
        push(a, "-n");
        push(a, num);
        push(a, "-wdir");
        push(a, wdir);
        push(a, "--");
        push(a, exe);
        for (int k = 0; k < c->argc; k++)
            push(a, c->argv[k]);
    }
    if (first)
        return "";                     /* nothing to start: every nprocs is 0 */
    return a->bad ? "out of memory" : NULL;
}

static void child_exec(char **argv)
{
    lx_signals_restore_child();
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) {
        dup2(nul, 0);
        if (nul != 0)
            close(nul);
    }
    execv(argv[0], argv);
    fprintf(stderr, "mpiexec: cannot run %s for a spawn: %s\n", argv[0], strerror(errno));
    _exit(LX_EXIT_NOEXEC);
}

static void answer_fail(lx_job_t *job, lx_rank_t *r, const char *why)
{
    char msg[XB_PMIW_VAL_MAX + 1];
    lx_msg("rank %d asked to spawn processes, but %s", r->rank, why);
    if (snprintf(msg, sizeof msg, "%s", why) >= (int)sizeof msg)
        memcpy(msg + sizeof msg - 4, "...", 4);     /* the whole text is on stderr */
    xb_pmiw_underscore(msg);
    lx_pmi_reply_rc(job, r, "spawn_result", -1, msg);
}

static void run_spawn(lx_job_t *job, lx_rank_t *r, const xb_pmiw_spawn_t *s)
{
    argv_b_t a = { 0 };
    char why[PATH_LEN + 200];
    const char *bad = job->ending ? "the job is ending" :
                      build_argv(job, r, s, &a, why, sizeof why);
    if (bad && !*bad) {                       /* nothing to start */
        lx_pmi_reply_rc(job, r, "spawn_result", 0, "success");
        argv_free(&a);
        return;
    }
    lx_spawned_t *sp = bad ? NULL : calloc(1, sizeof *sp);
    if (!bad && !sp)
        bad = "out of memory";
    pid_t pid = bad ? -1 : fork();
    if (pid == 0)
        child_exec(a.v);
    if (!bad && pid < 0)
        bad = "fork failed";
    if (bad) {
        answer_fail(job, r, bad);
        free(sp);
        argv_free(&a);
        return;
    }
    long total = 0;
    for (int i = 0; i < s->ncmds; i++)
        total += s->cmds[i].nprocs;
    sp->pid = pid;
    sp->parent_rank = r->rank;
    snprintf(sp->what, sizeof sp->what, "%.80s%s (%ld process%s)", s->cmds[0].exec,
             s->ncmds > 1 ? " and more" : "", total, total == 1 ? "" : "es");
    sp->next = job->spawned;
    job->spawned = sp;
    job->nspawned_live++;
    if (job->opt.verbose)
        lx_msg("rank %d spawned %s: mpiexec pid %d", r->rank, sp->what, (int)pid);
    argv_free(&a);
    lx_pmi_reply_rc(job, r, "spawn_result", 0, "success");
}

void lx_spawn_line(lx_job_t *job, lx_rank_t *r, const char *line, size_t len)
{
    char err[XB_PMIW_ERR_MAX];
    if (!r->mcmd) {
        r->mcmd = malloc(sizeof *r->mcmd);
        if (!r->mcmd) {
            answer_fail(job, r, "mpiexec is out of memory");
            return;
        }
        xb_pmiw_spawn_init(r->mcmd);
    }
    int rc = xb_pmiw_spawn_feed(r->mcmd, line, len, err, sizeof err);
    if (rc == 0)
        return;
    if (rc < 0) {
        char why[XB_PMIW_ERR_MAX + 40];
        snprintf(why, sizeof why, "the request is malformed: %s", err);
        answer_fail(job, r, why);
    } else {
        run_spawn(job, r, r->mcmd);
    }
    xb_pmiw_spawn_free(r->mcmd);
    free(r->mcmd);
    r->mcmd = NULL;
}

bool lx_spawn_reaped(lx_job_t *job, pid_t pid, int st)
{
    lx_spawned_t *sp = job->spawned;
    while (sp && (sp->pid != pid || sp->reaped))
        sp = sp->next;
    if (!sp)
        return false;
    sp->reaped = true;
    job->nspawned_live--;
    if (job->ending)
        return true;
    if (WIFSIGNALED(st)) {
        char name[96];
        lx_fail(job, 128 + WTERMSIG(st), "the job rank %d spawned (%s, mpiexec pid %d) "
                "ended on signal %d (%s); ending the job", sp->parent_rank, sp->what,
                (int)pid, WTERMSIG(st), lx_signame(WTERMSIG(st), name, sizeof name));
    } else if (WEXITSTATUS(st) != 0) {
        lx_fail(job, WEXITSTATUS(st), "the job rank %d spawned (%s, mpiexec pid %d) "
                "ended with status %d; ending the job", sp->parent_rank, sp->what,
                (int)pid, WEXITSTATUS(st));
    }
    return true;
}

void lx_spawn_signal(lx_job_t *job, int sig)
{
    /* SIGTERM only: a spawned mpiexec ends its own ranks (at once on a
     * second signal); a SIGKILL would leave them behind. */
    (void)sig;
    for (lx_spawned_t *sp = job->spawned; sp; sp = sp->next)
        if (!sp->reaped)
            kill(sp->pid, SIGTERM);
}

void lx_spawn_free(lx_job_t *job)
{
    while (job->spawned) {
        lx_spawned_t *sp = job->spawned;
        job->spawned = sp->next;
        free(sp);
    }
    for (int i = 0; job->ranks && i < job->n; i++)
        if (job->ranks[i].mcmd) {
            xb_pmiw_spawn_free(job->ranks[i].mcmd);
            free(job->ranks[i].mcmd);
            job->ranks[i].mcmd = NULL;
        }
}
