/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi_spawn.c - parsing the multi-line PMI-1 spawn request (pmi_spawn.h,
 * spec/pmi_wire.txt section 7). Every value is checked (printable ASCII,
 * at most XB_PMIW_VAL_MAX bytes; numbers in range; indices inside the
 * counts announced); nothing crashes, loops or grows without bound on bad
 * input.
 */
#include "util/pmi_spawn.h"
#include "util/pmi_wire.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

bool xb_pmiw_is_mcmd(const char *line, size_t len)
{
    return len >= 5 && memcmp(line, "mcmd=", 5) == 0;
}

void xb_pmiw_spawn_init(xb_pmiw_spawn_t *s)
{
    memset(s, 0, sizeof(*s));
}

static void free_kv(xb_pmiw_kv_t *kv, long n)
{
    for (long i = 0; kv != NULL && i < n; i++) {
        free(kv[i].key);
        free(kv[i].val);
    }
    free(kv);
}

static void free_cmd(xb_pmiw_spawn_cmd_t *c)
{
    free(c->exec);
    for (int i = 0; c->argv != NULL && i < c->argc; i++)
        free(c->argv[i]);
    free(c->argv);
    free_kv(c->info, c->ninfo);
    memset(c, 0, sizeof(*c));
}

void xb_pmiw_spawn_free(xb_pmiw_spawn_t *s)
{
    for (int i = 0; s->cmds != NULL && i < s->ncmds; i++)
        free_cmd(&s->cmds[i]);
    free(s->cmds);
    free_kv(s->preput, s->npreput);
    free_cmd(&s->cur);
    free_kv(s->cur_pp, s->ppnum);
    xb_pmiw_spawn_init(s);
}

static int num(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || errno != 0 || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

/* "prefix<i>" with i in [base, base + n): the index, or -1. */
static long indexed(const char *key, const char *prefix, long base, long n)
{
    size_t pl = strlen(prefix);
    long i;
    if (strncmp(key, prefix, pl) != 0 || num(key + pl, base, base + n - 1, &i) != 0)
        return -1;
    return i - base;
}

/* A count line: allocate its array once. */
static int set_count(const char *key, const char *val, long max, long *cnt,
                     void **arr, size_t elem, char *err, size_t errlen)
{
    if (*arr != NULL)
        return fail(err, errlen, "%s given twice in one spawn block", key);
    if (num(val, 0, max, cnt) != 0)
        return fail(err, errlen, "%s=%.40s is not a number from 0 to %ld", key, val, max);
    *arr = calloc((size_t)(*cnt > 0 ? *cnt : 1), elem);
    if (*arr == NULL)
        return fail(err, errlen, "out of memory for %s=%ld", key, *cnt);
    return 0;
}

static int set_str(char **slot, const char *key, const char *val, char *err, size_t errlen)
{
    if (*slot != NULL)
        return fail(err, errlen, "%s given twice in one spawn block", key);
    if ((*slot = strdup(val)) == NULL)
        return fail(err, errlen, "out of memory for %s", key);
    return 0;
}

static int block_line(xb_pmiw_spawn_t *s, const char *key, const char *val,
                      char *err, size_t errlen)
{
    xb_pmiw_spawn_cmd_t *c = &s->cur;
    long i, x;
    if (strcmp(key, "nprocs") == 0)
        return num(val, 0, XB_PMIW_SPAWN_NPROCS_MAX, &c->nprocs) == 0 ? 0 :
               fail(err, errlen, "nprocs=%.40s is not a number from 0 to %d", val,
                    XB_PMIW_SPAWN_NPROCS_MAX);
    if (strcmp(key, "execname") == 0)
        return set_str(&c->exec, key, val, err, errlen);
    if (strcmp(key, "totspawns") == 0) {
        if (num(val, 1, XB_PMIW_SPAWN_CMDS_MAX, &x) != 0 || (s->total && x != s->total))
            return fail(err, errlen, "totspawns=%.40s is not a number from 1 to %d (or "
                        "differs from an earlier block)", val, XB_PMIW_SPAWN_CMDS_MAX);
        s->total = (int)x;
        return 0;
    }
    if (strcmp(key, "spawnssofar") == 0)
        return num(val, 1, XB_PMIW_SPAWN_CMDS_MAX, &s->sofar) == 0 ? 0 :
               fail(err, errlen, "spawnssofar=%.40s is not a number from 1 to %d", val,
                    XB_PMIW_SPAWN_CMDS_MAX);
    if (strcmp(key, "argcnt") == 0) {
        int rc = set_count(key, val, XB_PMIW_SPAWN_ARGS_MAX, &s->argcnt,
                           (void **)&c->argv, sizeof(char *), err, errlen);
        c->argc = (int)s->argcnt;
        return rc;
    }
    if (strcmp(key, "preput_num") == 0)
        return set_count(key, val, XB_PMIW_SPAWN_KV_MAX, &s->ppnum, (void **)&s->cur_pp,
                         sizeof(xb_pmiw_kv_t), err, errlen);
    if (strcmp(key, "info_num") == 0) {
        int rc = set_count(key, val, XB_PMIW_SPAWN_KV_MAX, &s->infonum,
                           (void **)&c->info, sizeof(xb_pmiw_kv_t), err, errlen);
        c->ninfo = (int)s->infonum;
        return rc;
    }
    if (c->argv != NULL && (i = indexed(key, "arg", 1, s->argcnt)) >= 0)
        return set_str(&c->argv[i], key, val, err, errlen);
    if (s->cur_pp != NULL && (i = indexed(key, "preput_key_", 0, s->ppnum)) >= 0)
        return set_str(&s->cur_pp[i].key, key, val, err, errlen);
    if (s->cur_pp != NULL && (i = indexed(key, "preput_val_", 0, s->ppnum)) >= 0)
        return set_str(&s->cur_pp[i].val, key, val, err, errlen);
    if (c->info != NULL && (i = indexed(key, "info_key_", 0, s->infonum)) >= 0)
        return set_str(&c->info[i].key, key, val, err, errlen);
    if (c->info != NULL && (i = indexed(key, "info_val_", 0, s->infonum)) >= 0)
        return set_str(&c->info[i].val, key, val, err, errlen);
    if (strncmp(key, "arg", 3) == 0 || strncmp(key, "preput_", 7) == 0 ||
        strncmp(key, "info_", 5) == 0)
        return fail(err, errlen, "%s is outside the count given before it", key);
    return 0;                                   /* unknown keys are ignored */
}

/* "endcmd": the block must be whole. */
static int end_block(xb_pmiw_spawn_t *s, char *err, size_t errlen)
{
    xb_pmiw_spawn_cmd_t *c = &s->cur;
    if (c->exec == NULL || s->total == 0 || s->sofar == 0)
        return fail(err, errlen, "a spawn block without %s", c->exec == NULL ? "execname"
                    : s->total == 0 ? "totspawns" : "spawnssofar");
    if (s->sofar != s->ncmds + 1)
        return fail(err, errlen, "spawnssofar=%ld where block %d was expected", s->sofar,
                    s->ncmds + 1);
    for (int i = 0; i < c->argc; i++)
        if (c->argv[i] == NULL)
            return fail(err, errlen, "arg%d missing (argcnt=%d)", i + 1, c->argc);
    for (int i = 0; i < c->ninfo; i++)
        if (c->info[i].key == NULL || c->info[i].val == NULL)
            return fail(err, errlen, "info pair %d incomplete (info_num=%d)", i, c->ninfo);
    for (long i = 0; i < s->ppnum; i++)
        if (s->cur_pp[i].key == NULL || s->cur_pp[i].val == NULL)
            return fail(err, errlen, "preput pair %ld incomplete (preput_num=%ld)", i,
                        s->ppnum);
    if (s->cmds == NULL && (s->cmds = calloc((size_t)s->total, sizeof(*s->cmds))) == NULL)
        return fail(err, errlen, "out of memory for %d commands", s->total);
    s->cmds[s->ncmds++] = *c;
    memset(c, 0, sizeof(*c));
    if (s->preput == NULL) {                  /* the first block's count */
        s->preput = s->cur_pp;
        s->npreput = (int)s->ppnum;
    } else
        free_kv(s->cur_pp, s->ppnum);
    s->cur_pp = NULL;
    s->ppnum = s->argcnt = s->infonum = s->sofar = 0;
    s->in_block = false;
    return s->ncmds == s->total ? 1 : 0;
}

int xb_pmiw_spawn_feed(xb_pmiw_spawn_t *s, const char *line, size_t len,
                       char *err, size_t errlen)
{
    char buf[XB_PMIW_LINE_MAX + 1];
    if (len > 0 && line[len - 1] == '\r')
        len--;
    if (len > XB_PMIW_LINE_MAX)
        return fail(err, errlen, "spawn line longer than %d bytes", XB_PMIW_LINE_MAX);
    memcpy(buf, line, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] > 0x7e)
            return fail(err, errlen, "byte 0x%02x at column %zu of a spawn line",
                        (unsigned char)buf[i], i + 1);
    if (!s->in_block) {
        if (strcmp(buf, "mcmd=spawn") != 0)
            return fail(err, errlen, "'%.40s' where mcmd=spawn was expected", buf);
        s->in_block = true;
        return 0;
    }
    if (strcmp(buf, "endcmd") == 0)
        return end_block(s, err, errlen);
    char *eq = strchr(buf, '=');
    if (eq == NULL || eq == buf || eq - buf > XB_PMIW_KEY_MAX)
        return fail(err, errlen, "'%.40s' in a spawn block is not key=value", buf);
    *eq = '\0';
    if (strlen(eq + 1) > XB_PMIW_VAL_MAX)
        return fail(err, errlen, "the value of %s is longer than %d bytes", buf,
                    XB_PMIW_VAL_MAX);
    return block_line(s, buf, eq + 1, err, errlen);
}
