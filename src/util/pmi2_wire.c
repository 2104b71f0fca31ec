/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* pmi2_wire.c - the PMI-2 command codec (pmi2_wire.h, spec/pmi2_wire.txt). */
#include "util/pmi2_wire.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void put(xb_pmi2_out_t *o, const char *s, size_t n)
{
    if (o->bad || o->len + n > XB_PMI2_CMD_MAX) {
        o->bad = true;
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

void xb_pmi2_begin(xb_pmi2_out_t *o, const char *cmd)
{
    o->bad = false;
    memset(o->buf, ' ', XB_PMI2_LENLEN);
    o->len = XB_PMI2_LENLEN;
    xb_pmi2_add(o, "cmd", cmd);
}

void xb_pmi2_add(xb_pmi2_out_t *o, const char *key, const char *val)
{
    put(o, key, strlen(key));
    put(o, "=", 1);
    for (const char *p = val; *p; p++) {
        if (*p == ';')
            put(o, ";;", 2);             /* a ';' inside a value is doubled */
        else
            put(o, p, 1);
    }
    put(o, ";", 1);
}

void xb_pmi2_add_int(xb_pmi2_out_t *o, const char *key, long val)
{
    char num[32];
    snprintf(num, sizeof num, "%ld", val);
    xb_pmi2_add(o, key, num);
}

int xb_pmi2_end(xb_pmi2_out_t *o)
{
    if (o->bad)
        return -1;
    char field[XB_PMI2_LENLEN + 1];
    snprintf(field, sizeof field, "%-6d", (int)(o->len - XB_PMI2_LENLEN));
    memcpy(o->buf, field, XB_PMI2_LENLEN);
    o->buf[o->len] = '\0';
    return 0;
}

long xb_pmi2_parse_len(const char field[XB_PMI2_LENLEN])
{
    long v = 0;
    int i = 0, digits = 0;
    while (i < XB_PMI2_LENLEN && field[i] == ' ')
        i++;
    for (; i < XB_PMI2_LENLEN && isdigit((unsigned char)field[i]); i++, digits++)
        v = v * 10 + (field[i] - '0');
    for (; i < XB_PMI2_LENLEN; i++)
        if (field[i] != ' ' && field[i] != '\0')
            return -1;
    return digits == 0 || v > XB_PMI2_CMD_MAX - XB_PMI2_LENLEN ? -1 : v;
}

static int fail(char *err, size_t errlen, const char *why)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", why);
    return -1;
}

/* Copies body into m->text, splitting pairs at single ';' and turning ";;"
 * into ';'. */
int xb_pmi2_parse(const char *body, size_t len, xb_pmi2_msg_t *m, char *err, size_t errlen)
{
    if (len > XB_PMI2_CMD_MAX - XB_PMI2_LENLEN)
        return fail(err, errlen, "command longer than 4090 bytes");
    m->npairs = 0;
    size_t o = 0;
    char *start = m->text;
    for (size_t i = 0; i < len; i++) {
        char c = body[i];
        if (c == '\0' || c == '\n')
            return fail(err, errlen, "NUL or newline inside a command");
        if (c == ';' && i + 1 < len && body[i + 1] == ';') {
            m->text[o++] = ';';
            i++;
            continue;
        }
        if (c != ';') {
            m->text[o++] = c;
            continue;
        }
        m->text[o++] = '\0';              /* end of a pair */
        char *eq = strchr(start, '=');
        if (!eq || eq == start)
            return fail(err, errlen, "a pair without 'key='");
        if (m->npairs == XB_PMI2_PAIRS_MAX)
            return fail(err, errlen, "more than 24 pairs");
        *eq = '\0';
        m->key[m->npairs] = start;
        m->val[m->npairs++] = eq + 1;
        start = m->text + o;
    }
    if (start != m->text + o)
        return fail(err, errlen, "the last pair does not end with ';'");
    if (m->npairs == 0 || strcmp(m->key[0], "cmd") != 0)
        return fail(err, errlen, "the command does not start with cmd=");
    return 0;
}

const char *xb_pmi2_get(const xb_pmi2_msg_t *m, const char *key)
{
    for (int i = 0; i < m->npairs; i++)
        if (strcmp(m->key[i], key) == 0)
            return m->val[i];
    return NULL;
}

const char *xb_pmi2_cmd(const xb_pmi2_msg_t *m)
{
    return m->npairs > 0 ? m->val[0] : "";
}

int xb_pmi2_get_int(const xb_pmi2_msg_t *m, const char *key, long *v)
{
    const char *s = xb_pmi2_get(m, key);
    char *end;
    if (!s || !*s)
        return -1;
    long x = strtol(s, &end, 10);
    if (end == s)
        return -1;
    *v = x;
    return 0;
}

int xb_pmi2_get_bool(const xb_pmi2_msg_t *m, const char *key)
{
    const char *s = xb_pmi2_get(m, key);
    if (!s)
        return -1;
    if (strcasecmp(s, "TRUE") == 0)
        return 1;
    if (strcasecmp(s, "FALSE") == 0)
        return 0;
    return -1;
}
