/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tunable.c - the tunable registry (see tunable.h).
 *
 * Every XB_TUNABLE() lands in the linker section "xb_tunables"; the linker
 * defines __start_/__stop_ symbols around it, so the registry is the array
 * between them, in link order. The section exists because this file and
 * log.c declare tunables of their own.
 *
 * Environment: XB_<NAME> overrides the default. A variable that starts with
 * XB_ but names no tunable (and is not one the launcher sets) draws a
 * warning with the closest tunable name, so a typo is never silently
 * ignored. A value that does not parse is an error naming the variable.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "runtime/runtime.h"
#include "runtime/tunable.h"
#include "runtime/rt_internal.h"

extern xb_tunable_t __start_xb_tunables[] __attribute__((visibility("hidden")));
extern xb_tunable_t __stop_xb_tunables[] __attribute__((visibility("hidden")));
extern char **environ;

XB_TUNABLE(TUNABLE_WARN, XB_TT_BOOL, "yes", XB_TL_USER,
           "Warn about XB_ environment variables that name no tunable");

/* XB_ variables that are not tunables: set by our launcher (JOBSEG_FD,
 * HOST), read by mpicc (CC, CXX) or by the test scripts; "X_" entries are
 * prefixes. */
static const char *const env_allow[] = {
    "JOBSEG_FD", "HOST", "JOB_SECRET", "NODE_CPUS", "CC", "CXX", "BUILD_DIR", "SOURCE_DIR", "TEST_",
};

static size_t tunable_count(void)
{
    return (size_t)(__stop_xb_tunables - __start_xb_tunables);
}

size_t xb_tunable_count(void)
{
    return tunable_count();
}

xb_tunable_t *xb_tunable_at(size_t idx)
{
    return idx < tunable_count() ? &__start_xb_tunables[idx] : NULL;
}

xb_tunable_t *xb_tunable_find(const char *name)
{
    for (size_t i = 0; i < tunable_count(); i++)
        if (strcmp(__start_xb_tunables[i].name, name) == 0)
            return &__start_xb_tunables[i];
    return NULL;
}

static int parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = { "1", "yes", "true", "on", "y" };
    static const char *const no[]  = { "0", "no", "false", "off", "n" };

    for (size_t i = 0; i < XB_ARRAY_LEN(yes); i++) {
        if (strcasecmp(s, yes[i]) == 0) { *out = true;  return XB_OK; }
        if (strcasecmp(s, no[i]) == 0)  { *out = false; return XB_OK; }
    }
    return XB_ERR_ARG;
}

static int parse_int(const char *s, long long *out)
{
    char *end;

    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (end == s || errno != 0)
        return XB_ERR_ARG;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0')
        return XB_ERR_ARG;
    *out = v;
    return XB_OK;
}

/* "4096", "64k", "1m", "2g", "1t", also "64kb", "64KiB"; binary units. */
static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned shift = 0;

    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return XB_ERR_ARG;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno != 0)
        return XB_ERR_ARG;
    switch (tolower((unsigned char)*end)) {
    case 'k': shift = 10; end++; break;
    case 'm': shift = 20; end++; break;
    case 'g': shift = 30; end++; break;
    case 't': shift = 40; end++; break;
    default: break;
    }
    if (shift != 0 && tolower((unsigned char)*end) == 'i')
        end++;
    if (tolower((unsigned char)*end) == 'b')
        end++;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0')
        return XB_ERR_ARG;
    if (shift != 0 && v > (SIZE_MAX >> shift))
        return XB_ERR_ARG;
    *out = (size_t)(v << shift);
    return XB_OK;
}

int xb_tunable_parse(xb_tunable_t *t, const char *str)
{
    int rc = XB_ERR_ARG;

    switch (t->type) {
    case XB_TT_INT: {
        long long v;
        rc = parse_int(str, &v);
        if (rc == XB_OK)
            t->v.i = v;
        else
            xb_err_set(rc, "'%s' is not an integer", str);
        break;
    }
    case XB_TT_SIZE: {
        size_t v;
        rc = parse_size(str, &v);
        if (rc == XB_OK)
            t->v.size = v;
        else
            xb_err_set(rc, "'%s' is not a size (a number of bytes with an "
                       "optional k, m, g or t suffix, e.g. 64k)", str);
        break;
    }
    case XB_TT_BOOL: {
        bool v;
        rc = parse_bool(str, &v);
        if (rc == XB_OK)
            t->v.b = v;
        else
            xb_err_set(rc, "'%s' is not a boolean (yes/no, on/off, "
                       "true/false, 1/0)", str);
        break;
    }
    case XB_TT_STRING:
        t->v.s = str;       /* not copied: defaults and environ persist */
        rc = XB_OK;
        break;
    }
    return rc;
}

int xb_tunables_init(void)
{
    char var[128];

    for (size_t i = 0; i < tunable_count(); i++) {
        xb_tunable_t *t = &__start_xb_tunables[i];
        if (xb_tunable_parse(t, t->defval) != XB_OK)
            return xb_err_set(XB_ERR_INTERN, "tunable %s has a default '%s' "
                              "that does not parse", t->name, t->defval);
        t->source = "default";
        snprintf(var, sizeof(var), "XB_%s", t->name);
        const char *env = getenv(var);
        if (env == NULL)
            continue;
        if (xb_tunable_parse(t, env) != XB_OK) {
            char why[256];
            snprintf(why, sizeof(why), "%s", xb_err_detail());
            return xb_err_set(XB_ERR_ARG, "the environment variable %s=%s is "
                              "invalid: %s", var, env, why);
        }
        t->source = "environment";
    }
    return XB_OK;
}

int xb_tunables_load(void)
{
    static bool loaded;

    if (loaded)
        return XB_OK;
    int rc = xb_tunables_init();
    if (rc == XB_OK)
        loaded = true;
    return rc;
}

void xb_tunable_format(const xb_tunable_t *t, char *buf, size_t len)
{
    static const char units[] = "kmgt";

    switch (t->type) {
    case XB_TT_INT:
        snprintf(buf, len, "%lld", t->v.i);
        break;
    case XB_TT_SIZE: {
        size_t v = t->v.size;
        int u = -1;
        while (v != 0 && (v & 1023) == 0 && u < 3) {
            v >>= 10;
            u++;
        }
        if (u < 0)
            snprintf(buf, len, "%zu", v);
        else
            snprintf(buf, len, "%zu%c", v, units[u]);
        break;
    }
    case XB_TT_BOOL:
        snprintf(buf, len, "%s", t->v.b ? "yes" : "no");
        break;
    case XB_TT_STRING:
        snprintf(buf, len, "%s", t->v.s != NULL ? t->v.s : "");
        break;
    }
}

/* Levenshtein distance, case-insensitive, for names up to 63 characters. */
int xb_tunable_distance(const char *a, const char *b)
{
    int row[64], la = (int)strlen(a), lb = (int)strlen(b);

    if (la > 63 || lb > 63)
        return 99;
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *xb_tunable_suggest(const char *name)
{
    const char *best = NULL;
    int best_d = 4;      /* suggest only close names */

    for (size_t i = 0; i < tunable_count(); i++) {
        int d = xb_tunable_distance(name, __start_xb_tunables[i].name);
        if (d < best_d) {
            best_d = d;
            best = __start_xb_tunables[i].name;
        }
    }
    return best;
}

static bool env_allowed(const char *name, size_t len)
{
    for (size_t i = 0; i < XB_ARRAY_LEN(env_allow); i++) {
        size_t al = strlen(env_allow[i]);
        bool prefix = env_allow[i][al - 1] == '_';
        if (prefix ? (len >= al && strncmp(name, env_allow[i], al) == 0)
                   : (len == al && strncmp(name, env_allow[i], al) == 0))
            return true;
    }
    return false;
}

int xb_tunables_check_env(void (*warn)(const char *msg))
{
    int nbad = 0;
    char name[128], msg[320];

    for (char **e = environ; e != NULL && *e != NULL; e++) {
        if (strncmp(*e, "XB_", 3) != 0)
            continue;
        const char *eq = strchr(*e, '=');
        size_t len = eq != NULL ? (size_t)(eq - *e) - 3 : strlen(*e) - 3;
        if (len == 0 || len >= sizeof(name) || env_allowed(*e + 3, len))
            continue;
        memcpy(name, *e + 3, len);
        name[len] = '\0';
        if (xb_tunable_find(name) != NULL)
            continue;
        const char *sugg = xb_tunable_suggest(name);
        if (sugg != NULL)
            snprintf(msg, sizeof(msg), "XB_%s is not a Crossbar tunable; did "
                     "you mean XB_%s?", name, sugg);
        else
            snprintf(msg, sizeof(msg), "XB_%s is not a Crossbar tunable "
                     "(crossbar-info lists them all)", name);
        if (warn != NULL)
            warn(msg);
        nbad++;
    }
    return nbad;
}
