/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * infotool.c - crossbar-info and MPI_T agree: the same tunables (one
 * control variable per "XB_<NAME> = value [type, source, ...]" line), the
 * same values, the source "environment" for the one the testlist sets
 * (XB_SPIN_US=77), and "MPI_T writable" exactly where the scope is not
 * MPI_T_SCOPE_CONSTANT.
 *
 * crossbar-info is found next to mpiexec in the build tree (bin/, three
 * levels above this program), or where XB_TEST_INFO_TOOL says.
 */
#include <limits.h>
#include <unistd.h>
#include "mpit_util.h"

typedef struct {
    char name[64], value[300], bracket[300];
} line_t;

enum { MAX_LINES = 256 };

static line_t lines[MAX_LINES];
static int nlines;

static void tool_path(char *out, size_t len)
{
    const char *env = getenv("XB_TEST_INFO_TOOL");
    char self[PATH_MAX];
    if (env != NULL) {
        snprintf(out, len, "%s", env);
        return;
    }
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(self, '/');
    if (slash != NULL)
        *slash = '\0';
    snprintf(out, len, "%s/../../../bin/crossbar-info", self);
}

/* "  XB_NAME    = value     [type, source, level, default d, MPI_T writable]" */
static void parse(char *l)
{
    if (strncmp(l, "  XB_", 5) != 0 || nlines == MAX_LINES)
        return;
    line_t *t = &lines[nlines];
    char *eq = strstr(l, " = "), *br = strrchr(l, '[');
    if (eq == NULL || br == NULL)
        return;
    int nl = 0;
    while (l[2 + nl] != ' ' && nl < 63) {
        t->name[nl] = l[2 + nl];
        nl++;
    }
    t->name[nl] = '\0';
    int vl = (int)(br - (eq + 3));
    snprintf(t->value, sizeof t->value, "%.*s", vl > 0 ? vl : 0, eq + 3);
    for (int k = (int)strlen(t->value) - 1; k >= 0 && t->value[k] == ' '; k--)
        t->value[k] = '\0';
    snprintf(t->bracket, sizeof t->bracket, "%s", br);
    nlines++;
}

static const line_t *find(const char *name)
{
    for (int i = 0; i < nlines; i++)
        if (strcmp(lines[i].name, name) == 0)
            return &lines[i];
    return NULL;
}

static unsigned long long parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    int shift = *end == 'k' ? 10 : *end == 'm' ? 20 : *end == 'g' ? 30 : *end == 't' ? 40 : 0;
    return v << shift;
}

/* The cvar's value formatted as crossbar-info prints it, compared. */
static void compare_value(int i, const char *name, const line_t *t)
{
    MPI_Datatype dt;
    MPI_T_enum en;
    MPI_T_cvar_handle h;
    int count, scope;
    char buf[512];
    CHECK_RC(MPI_T_cvar_get_info(i, NULL, NULL, NULL, &dt, &en, NULL, NULL, NULL, &scope));
    CHECK_RC(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
    CHECK_RC(MPI_T_cvar_read(h, buf));
    CHECK_RC(MPI_T_cvar_handle_free(&h));
    if (dt == MPI_CHAR)
        CHECK(strcmp(buf, t->value) == 0, "%s: MPI_T '%s', tool '%s'", name, buf, t->value);
    else if (dt == MPI_UNSIGNED_LONG_LONG)
        CHECK(*(unsigned long long *)buf == parse_size(t->value), "%s: MPI_T %llu, tool "
              "'%s'", name, *(unsigned long long *)buf, t->value);
    else if (en != MPI_T_ENUM_NULL)
        CHECK(strcmp(*(int *)buf ? "yes" : "no", t->value) == 0, "%s: MPI_T %d, tool "
              "'%s'", name, *(int *)buf, t->value);
    else
        CHECK(*(int *)buf == atoi(t->value), "%s: MPI_T %d, tool '%s'", name,
              *(int *)buf, t->value);
    bool writable = strstr(t->bracket, "MPI_T writable") != NULL;
    CHECK(writable == (scope != MPI_T_SCOPE_CONSTANT), "%s: tool says %s, scope %d", name,
          writable ? "writable" : "not writable", scope);
}

int main(int argc, char **argv)
{
    char path[PATH_MAX + 64], cmd[PATH_MAX + 128], l[1024];
    int provided, n = 0;
    ct_init(&argc, &argv);
    tool_path(path, sizeof path);
    snprintf(cmd, sizeof cmd, "'%s' --tunables", path);
    FILE *f = popen(cmd, "r");
    CHECK(f != NULL, "cannot run %s", cmd);
    while (f != NULL && fgets(l, sizeof l, f) != NULL) {
        l[strcspn(l, "\n")] = '\0';
        parse(l);
    }
    if (f != NULL)
        CHECK(pclose(f) == 0, "%s failed", cmd);
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_RC(MPI_T_cvar_get_num(&n));
    CHECK(n == nlines && n > 0, "MPI_T has %d control variables, crossbar-info %d", n, nlines);
    for (int i = 0; i < n; i++) {
        char name[128];
        int len = sizeof name;
        CHECK_RC(MPI_T_cvar_get_info(i, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
        const line_t *t = find(name);
        CHECK(t != NULL, "%s is not in crossbar-info's list", name);
        if (t != NULL)
            compare_value(i, name, t);
    }
    const line_t *spin = find("XB_SPIN_US");
    CHECK(spin != NULL && strstr(spin->bracket, "environment") != NULL &&
          strcmp(spin->value, "77") == 0, "XB_SPIN_US: '%s' %s", spin ? spin->value : "?",
          spin ? spin->bracket : "missing");
    CHECK_RC(MPI_T_finalize());
    return ct_finish();
}
