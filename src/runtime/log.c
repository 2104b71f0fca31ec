/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * log.c - XB_LOG parsing and the log sink.
 *
 * Syntax: one or more groups separated by ';' or spaces; a group is a
 * comma-separated list of subsystems (or "all") with an optional ":level":
 *     XB_LOG=method,pmi:debug      XB_LOG=all:info      XB_LOG="all:warn;shm:debug"
 * A level alone ("debug") means all subsystems. Without ":level" a group
 * means debug. The default is "warn" for every subsystem (errors and warnings
 * are always shown).
 *
 * Output: one write(2) per line to stderr, "crossbar[rank]: sub: text", so
 * lines of several threads or ranks never interleave mid-line.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "runtime/runtime.h"
#include "runtime/tunable.h"
#include "runtime/rt_internal.h"

XB_TUNABLE(LOG, XB_TT_STRING, "", XB_TL_USER,
           "Log selection: subsystems runtime,pmi,method,shm,pt2pt,coll,core "
           "or all, with :error|warn|info|debug (e.g. method,pmi:debug)");

int xb_log_levels[XB_LOG_NSUB] = {
    XB_LOG_WARN, XB_LOG_WARN, XB_LOG_WARN, XB_LOG_WARN,
    XB_LOG_WARN, XB_LOG_WARN, XB_LOG_WARN,
};

static const char *const sub_names[XB_LOG_NSUB] = {
    "runtime", "pmi", "method", "shm", "pt2pt", "coll", "core",
};
static const char *const level_names[] = { "error", "warn", "info", "debug" };

static int find_name(const char *const *names, int n, const char *s, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && strncasecmp(names[i], s, len) == 0)
            return i;
    return -1;
}

/* Apply one group "a,b:level" (len bytes at g) to levels[]. */
static int apply_group(int *levels, const char *g, size_t len)
{
    const char *colon = memchr(g, ':', len);
    size_t subs_len = colon != NULL ? (size_t)(colon - g) : len;
    int lvl = XB_LOG_DEBUG;

    if (colon != NULL) {
        size_t llen = len - subs_len - 1;
        lvl = find_name(level_names, 4, colon + 1, llen);
        if (lvl < 0)
            return xb_err_set(XB_ERR_ARG, "XB_LOG: unknown level '%.*s' "
                              "(expected error, warn, info or debug)",
                              (int)llen, colon + 1);
    } else if (find_name(level_names, 4, g, len) >= 0) {
        lvl = find_name(level_names, 4, g, len);   /* "debug" alone: all */
        for (int s = 0; s < XB_LOG_NSUB; s++)
            levels[s] = lvl;
        return XB_OK;
    }
    const char *p = g, *end = g + subs_len;
    while (p < end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t n = comma != NULL ? (size_t)(comma - p) : (size_t)(end - p);
        if (n == 3 && strncasecmp(p, "all", 3) == 0) {
            for (int s = 0; s < XB_LOG_NSUB; s++)
                levels[s] = lvl;
        } else if (n > 0) {
            int s = find_name(sub_names, XB_LOG_NSUB, p, n);
            if (s < 0)
                return xb_err_set(XB_ERR_ARG, "XB_LOG: unknown subsystem '%.*s' "
                                  "(known: all, runtime, pmi, method, shm, pt2pt, "
                                  "coll, core)", (int)n, p);
            levels[s] = lvl;
        }
        p += n + (comma != NULL);
    }
    return XB_OK;
}

int xb_log_parse(const char *spec, int *levels)
{
    int tmp[XB_LOG_NSUB];
    const char *p = spec;

    memcpy(tmp, levels, sizeof(tmp));
    while (p != NULL && *p != '\0') {
        size_t n = strcspn(p, "; \t");
        if (n > 0) {
            int rc = apply_group(tmp, p, n);
            if (rc < 0)
                return rc;
        }
        p += n;
        p += strspn(p, "; \t");
    }
    memcpy(levels, tmp, sizeof(tmp));   /* outputs only on success */
    return XB_OK;
}

int xb_log_init(void)
{
    return xb_log_parse(xb_tn_LOG.v.s, xb_log_levels);
}

void xb_log_msg(enum xb_log_sub sub, enum xb_log_level lvl, const char *fmt, ...)
{
    char line[1024];
    int n;
    va_list ap;
    int rank = xb_rt_rank_or_neg();

    if (rank >= 0)
        n = snprintf(line, sizeof(line), "crossbar[%d]: %s: %s", rank,
                     sub_names[sub], lvl <= XB_LOG_WARN ? level_names[lvl] : "");
    else
        n = snprintf(line, sizeof(line), "crossbar: %s: %s", sub_names[sub],
                     lvl <= XB_LOG_WARN ? level_names[lvl] : "");
    if (lvl <= XB_LOG_WARN && n > 0 && (size_t)n < sizeof(line) - 2)
        n += snprintf(line + n, sizeof(line) - (size_t)n, ": ");
    if (n < 0 || (size_t)n >= sizeof(line))
        return;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (m < 0)
        return;
    n += m;
    if ((size_t)n > sizeof(line) - 2)
        n = (int)sizeof(line) - 2;
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, (size_t)n);
    (void)w;
}
