/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* cli.c - mpiexec's command line. */
#include "launcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef XB_VERSION
#define XB_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "Usage: mpiexec [options] program [args...] [: [-n N] [-wdir DIR] program2 ...]\n"
    "Start N copies of program as one MPI job on this host; programs separated\n"
    "by ':' share the job (MPI_APPNUM 0, 1, ...).\n"
    "\n"
    "Options:\n"
    "  -n N, -np N            ranks of this program (default 1); more ranks than\n"
    "                         cores is allowed\n"
    "  -x VAR[=VALUE]         pass VAR (with VALUE, or its current value)\n"
    "  -genv VAR VALUE        set VAR to VALUE in every rank\n"
    "  -genvall               pass the whole environment (the default)\n"
    "  -genvnone              pass only the variables named by -x/-genv\n"
    "  --bind-to core|none    pin rank i to the i-th allowed core (wrapping), or\n"
    "                         not at all (default: core when the ranks of this\n"
    "                         machine fit its allowed cores, none otherwise;\n"
    "                         also MPIEXEC_BIND=core|none)\n"
    "  -wdir DIR              run the ranks (of this program) in DIR\n"
    "  --tag-output, -l       prefix every output line with \"[rank] \"\n"
    "  --timeout S            end the job after S seconds, printing what every\n"
    "                         rank waits in (also MPIEXEC_TIMEOUT=S); exit 124\n"
    "  -hosts H1[:N],H2...    the job's hosts (ranks fill them block by block)\n"
    "  -f FILE, -hostfile F   hosts from a file: 'host', 'host:N' or 'host slots=N'\n"
    "  -ppn N                 ranks per host (when an entry gives no N)\n"
    "  --local-hosts          start every host's ranks on this machine, each host\n"
    "                         still its own node (shm inside, tcp across): tests\n"
    "  --launcher-exec CMD    remote-start command for other hosts (default\n"
    "                         'ssh -x -o BatchMode=yes'; also MPIEXEC_LAUNCHER_EXEC):\n"
    "                         run as CMD HOST /path/mpiexec --xb-proxy\n"
    "  --proxy-path PATH      absolute path of mpiexec on the other hosts, started\n"
    "                         there as the host's proxy (default: this mpiexec's\n"
    "                         own path; also MPIEXEC_PROXY_PATH)\n"
    "  -v, --verbose          say what mpiexec does\n"
    "  -h, --help             this text\n"
    "  --version              the version\n"
    "\n"
    "stdin goes to rank 0; stdout and stderr of every rank are forwarded line by\n"
    "line. Exit status: 0 when every rank ended well; otherwise the first failing\n"
    "rank's exit code, or 128+signal; the code given to MPI_Abort; 124 on\n"
    "timeout; 128+N when mpiexec itself gets signal N; 127 when the program\n"
    "cannot be started; 2 for a bad command line.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mpiexec: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see mpiexec --help)\n");
    return -1;
}

static int parse_count(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 1 || v > 1000000)
        return -1;
    *out = (int)v;
    return 0;
}

static int add_env(lx_opts_t *o, const char *name, const char *value)
{
    lx_envvar_t *e = realloc(o->env, (size_t)(o->nenv + 1) * sizeof *e);
    if (!e)
        return -1;
    o->env = e;
    e[o->nenv].name = strdup(name);
    e[o->nenv].value = value ? strdup(value) : NULL;
    o->nenv++;
    return 0;
}

/* -x VAR or -x VAR=VALUE */
static int add_x(lx_opts_t *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (eq == arg || !*arg)
        return usage_error("-x needs a variable name, not '%s'", arg);
    if (!eq)
        return add_env(o, arg, NULL);
    char *name = strndup(arg, (size_t)(eq - arg));
    int rc = name ? add_env(o, name, eq + 1) : -1;
    free(name);
    return rc;
}

/* --xb-preput KEY=VALUE (internal, spawn.c): a pair for the job's KVS. */
static int add_preput(lx_opts_t *o, const char *kv)
{
    lx_envvar_t *p = realloc(o->preput, (size_t)(o->npreput + 1) * sizeof *p);
    if (!p)
        return -1;
    o->preput = p;
    size_t k = strcspn(kv, "=");
    p[o->npreput].name = strndup(kv, k);
    p[o->npreput].value = strdup(kv + k + 1);
    if (!p[o->npreput].name || !p[o->npreput].value) {
        free(p[o->npreput].name);
        free(p[o->npreput].value);
        return -1;
    }
    o->npreput++;
    return 0;
}

/* Long options may be written with one or two dashes; "--opt=value" too. */
static bool is_opt(const char *arg, const char *name, const char **inl)
{
    const char *a = arg[1] == '-' ? arg + 2 : arg + 1;
    size_t n = strlen(name);
    *inl = NULL;
    if (strncmp(a, name, n) != 0)
        return false;
    if (a[n] == '\0')
        return true;
    if (a[n] == '=') {
        *inl = a + n + 1;
        return true;
    }
    return false;
}

/* Options up to the program of one app; -n and -wdir belong to the app,
 * the others to the whole job. 0 go on, 1 exit 0, -1 usage error. */
static int parse_options(int argc, char **argv, int *ip, lx_opts_t *o, lx_app_t *app)
{
    int i = *ip;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
#define NEXT_VALUE() ((v) ? (v) : (i + 1 < argc ? argv[++i] : NULL))
        if (is_opt(a, "n", &v) || is_opt(a, "np", &v)) {
            const char *s = NEXT_VALUE();
            if (!s || parse_count(s, &app->nprocs))
                return usage_error("%s needs a number of ranks >= 1", a);
        } else if (is_opt(a, "wdir", &v)) {
            app->wdir = NEXT_VALUE();
            struct stat st;
            if (!app->wdir || stat(app->wdir, &st) != 0 || !S_ISDIR(st.st_mode))
                return usage_error("-wdir needs an existing directory, not '%s'",
                                   app->wdir ? app->wdir : "");
        } else if (is_opt(a, "x", &v)) {
            const char *s = NEXT_VALUE();
            if (!s)
                return usage_error("%s needs a variable name", a);
            if (add_x(o, s))
                return -1;
        } else if (is_opt(a, "genv", &v) || is_opt(a, "env", &v)) {
            if (i + 2 >= argc)
                return usage_error("%s needs a variable name and a value", a);
            if (add_env(o, argv[i + 1], argv[i + 2]))
                return -1;
            i += 2;
        } else if (is_opt(a, "genvall", &v)) {
            o->env_none = false;
        } else if (is_opt(a, "genvnone", &v)) {
            o->env_none = true;
        } else if (is_opt(a, "bind-to", &v)) {
            const char *s = NEXT_VALUE();
            o->bind_set = true;
            if (s && strcmp(s, "core") == 0)
                o->bind_core = true;
            else if (s && strcmp(s, "none") == 0)
                o->bind_core = false;
            else
                return usage_error("--bind-to takes 'core' or 'none', not '%s'", s ? s : "");
        } else if (is_opt(a, "tag-output", &v) || strcmp(a, "-l") == 0 ||
                   is_opt(a, "prepend-rank", &v)) {
            o->tag_output = true;
        } else if (is_opt(a, "timeout", &v)) {
            const char *s = NEXT_VALUE();
            char *end;
            o->timeout_s = s ? strtod(s, &end) : -1;
            if (!s || !*s || *end || o->timeout_s <= 0)
                return usage_error("--timeout needs a number of seconds > 0, not '%s'", s ? s : "");
        } else if (is_opt(a, "hosts", &v) || is_opt(a, "host", &v)) {
            const char *s = NEXT_VALUE();
            if (!s || lx_hosts_from_list(o, s))
                return usage_error("%s needs a list of hosts (a,b:2,c)", a);
        } else if (is_opt(a, "f", &v) || is_opt(a, "hostfile", &v) ||
                   is_opt(a, "machinefile", &v)) {
            const char *s = NEXT_VALUE();
            if (!s || lx_hosts_from_file(o, s))
                return usage_error("%s needs a readable host file", a);
        } else if (is_opt(a, "ppn", &v)) {
            const char *s = NEXT_VALUE();
            if (!s || parse_count(s, &o->ppn))
                return usage_error("%s needs a number of ranks per host >= 1", a);
        } else if (is_opt(a, "local-hosts", &v)) {
            o->local_hosts = true;
        } else if (is_opt(a, "launcher-exec", &v) || is_opt(a, "rsh", &v)) {
            o->launcher_exec = NEXT_VALUE();
            if (!o->launcher_exec || !*o->launcher_exec)
                return usage_error("%s needs a command (e.g. 'ssh -p 2222')", a);
        } else if (is_opt(a, "proxy-path", &v)) {
            o->proxy_path = NEXT_VALUE();
            if (!o->proxy_path || o->proxy_path[0] != '/')
                return usage_error("--proxy-path needs the absolute path of mpiexec on "
                                   "the other hosts, not '%s'",
                                   o->proxy_path ? o->proxy_path : "");
        } else if (is_opt(a, "xb-spawned", &v)) {
            o->spawned = true;               /* internal: started for a spawn */
            if (add_env(o, "PMI_SPAWNED", "1"))
                return usage_error("%s: out of memory", a);
        } else if (is_opt(a, "xb-preput", &v)) {
            const char *s = NEXT_VALUE();
            if (!s || !strchr(s, '=') || add_preput(o, s))
                return usage_error("%s needs KEY=VALUE", a);
        } else if (is_opt(a, "xb-proxy", &v)) {
            o->proxy_mode = true;            /* internal: started by mpiexec */
            *ip = argc;
            return 0;
        } else if (strcmp(a, "-v") == 0 || is_opt(a, "verbose", &v)) {
            o->verbose = true;
        } else if (strcmp(a, "-h") == 0 || is_opt(a, "help", &v)) {
            fputs(usage_text, stdout);
            return 1;
        } else if (is_opt(a, "version", &v)) {
            printf("mpiexec (Crossbar) %s\nPMI-1 server; MPI 5.0 standard ABI library\n", XB_VERSION);
            return 1;
        } else {
            return usage_error("unknown option '%s'", a);
        }
#undef NEXT_VALUE
    }
    *ip = i;
    return 0;
}

int lx_cli_parse(int argc, char **argv, lx_opts_t *o)
{
    int i = 1;
    for (;;) {
        lx_app_t app = { .argv = NULL, .nprocs = 1, .wdir = NULL };
        int rc = parse_options(argc, argv, &i, o, &app);
        if (rc || o->proxy_mode)
            return rc;
        if (i >= argc || strcmp(argv[i], ":") == 0)
            return usage_error("%sno program to run", o->napps ? "after ':', " : "");
        app.argv = &argv[i];
        while (i < argc && strcmp(argv[i], ":") != 0)
            i++;
        bool more = i < argc;
        if (more)
            argv[i++] = NULL;             /* ends this app's argv */
        lx_app_t *apps = realloc(o->apps, (size_t)(o->napps + 1) * sizeof *apps);
        if (!apps)
            return usage_error("%sout of memory", "");
        o->apps = apps;
        o->apps[o->napps++] = app;
        if (o->nprocs > 1000000 - app.nprocs)
            return usage_error("%stoo many ranks", "");
        o->nprocs += app.nprocs;
        if (!more)
            return 0;
    }
}
