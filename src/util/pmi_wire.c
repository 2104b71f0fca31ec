/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* pmi_wire.c - PMI-1 line parser, formatter and line reader (spec/pmi_wire.txt). */
#include "util/pmi_wire.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The commands of spec/pmi_wire.txt section 3 with the keys they require.
 * For responses the keys are required only when rc is 0. */
typedef struct {
    const char   *cmd;
    xb_pmiw_dir_t dir;
    const char   *need[3];
} cmd_spec_t;

static const cmd_spec_t cmd_table[] = {
    { "init",              XB_PMIW_REQUEST,  { "pmi_version", "pmi_subversion" } },
    { "get_maxes",         XB_PMIW_REQUEST,  { 0 } },
    { "get_appnum",        XB_PMIW_REQUEST,  { 0 } },
    { "get_universe_size", XB_PMIW_REQUEST,  { 0 } },
    { "get_my_kvsname",    XB_PMIW_REQUEST,  { 0 } },
    { "put",               XB_PMIW_REQUEST,  { "kvsname", "key", "value" } },
    { "get",               XB_PMIW_REQUEST,  { "kvsname", "key" } },
    { "barrier_in",        XB_PMIW_REQUEST,  { 0 } },
    { "finalize",          XB_PMIW_REQUEST,  { 0 } },
    { "abort",             XB_PMIW_REQUEST,  { 0 } },
    { "initack",           XB_PMIW_REQUEST,  { "pmiid" } },
    { "publish_name",      XB_PMIW_REQUEST,  { "service", "port" } },
    { "unpublish_name",    XB_PMIW_REQUEST,  { "service" } },
    { "lookup_name",       XB_PMIW_REQUEST,  { "service" } },
    { "response_to_init",  XB_PMIW_RESPONSE, { 0 } },
    { "maxes",             XB_PMIW_RESPONSE, { 0 } },
    { "appnum",            XB_PMIW_RESPONSE, { "appnum" } },
    { "universe_size",     XB_PMIW_RESPONSE, { "size" } },
    { "my_kvsname",        XB_PMIW_RESPONSE, { "kvsname" } },
    { "put_result",        XB_PMIW_RESPONSE, { 0 } },
    { "get_result",        XB_PMIW_RESPONSE, { "value" } },
    { "barrier_out",       XB_PMIW_RESPONSE, { 0 } },
    { "finalize_ack",      XB_PMIW_RESPONSE, { 0 } },
    { "initack",           XB_PMIW_RESPONSE, { 0 } },
    { "set",               XB_PMIW_RESPONSE, { 0 } },
    { "error",             XB_PMIW_RESPONSE, { 0 } },
    { "spawn_result",      XB_PMIW_RESPONSE, { 0 } },
    { "publish_result",    XB_PMIW_RESPONSE, { 0 } },
    { "unpublish_result",  XB_PMIW_RESPONSE, { 0 } },
    { "lookup_result",     XB_PMIW_RESPONSE, { 0 } },
};

static void say(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static const cmd_spec_t *find_cmd(const char *cmd, xb_pmiw_dir_t dir)
{
    for (size_t i = 0; i < sizeof cmd_table / sizeof cmd_table[0]; i++)
        if (cmd_table[i].dir == dir && strcmp(cmd_table[i].cmd, cmd) == 0)
            return &cmd_table[i];
    return NULL;
}

bool xb_pmiw_known(const char *cmd, xb_pmiw_dir_t dir)
{
    return cmd && find_cmd(cmd, dir) != NULL;
}

/* Bytes allowed on a line: printable ASCII and space (CR/LF handled apart). */
static int check_bytes(const char *line, size_t len, char *err, size_t errlen)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c < 0x20 || c > 0x7e) {
            say(err, errlen, "byte 0x%02x at column %zu is not printable ASCII", c, i + 1);
            return -1;
        }
    }
    return 0;
}

/* Split text (NUL-terminated, only printable bytes and spaces) into pairs. */
static int split_pairs(xb_pmiw_msg_t *m, char *err, size_t errlen)
{
    char *p = m->text;
    m->npairs = 0;
    for (;;) {
        while (*p == ' ')
            *p++ = '\0';
        if (!*p)
            break;
        char *tok = p;
        while (*p && *p != ' ')
            p++;
        if (*p)
            *p++ = '\0';
        char *eq = strchr(tok, '=');
        if (!eq) {
            say(err, errlen, "'%.40s' is not a key=value pair", tok);
            return -1;
        }
        if (eq == tok) {
            say(err, errlen, "empty key in '%.40s'", tok);
            return -1;
        }
        *eq = '\0';
        size_t klen = (size_t)(eq - tok), vlen = strlen(eq + 1);
        if (klen > XB_PMIW_KEY_MAX) {
            say(err, errlen, "key '%.20s...' is %zu bytes, more than %d", tok, klen, XB_PMIW_KEY_MAX);
            return -1;
        }
        if (vlen > XB_PMIW_VAL_MAX) {
            say(err, errlen, "value of key '%s' is %zu bytes, more than %d", tok, vlen, XB_PMIW_VAL_MAX);
            return -1;
        }
        if (m->npairs == XB_PMIW_PAIRS_MAX) {
            say(err, errlen, "more than %d key=value pairs", XB_PMIW_PAIRS_MAX);
            return -1;
        }
        m->key[m->npairs] = tok;
        m->val[m->npairs] = eq + 1;
        m->npairs++;
    }
    return 0;
}

static int check_command(const xb_pmiw_msg_t *m, xb_pmiw_dir_t dir, char *err, size_t errlen)
{
    if (m->npairs == 0) {
        say(err, errlen, "empty line");
        return -1;
    }
    if (strcmp(m->key[0], "cmd") != 0) {
        say(err, errlen, "line starts with '%s=' instead of 'cmd='", m->key[0]);
        return -1;
    }
    const cmd_spec_t *spec = find_cmd(m->val[0], dir);
    if (!spec) {
        say(err, errlen, "unknown %s '%.64s'", dir == XB_PMIW_REQUEST ? "command" : "response",
            m->val[0]);
        return -1;
    }
    if (dir == XB_PMIW_RESPONSE && xb_pmiw_rc(m) != 0)
        return 0;
    for (int i = 0; i < 3 && spec->need[i]; i++)
        if (!xb_pmiw_get(m, spec->need[i])) {
            say(err, errlen, "'%s' lacks the key '%s'", spec->cmd, spec->need[i]);
            return -1;
        }
    return 0;
}

int xb_pmiw_parse(const char *line, size_t len, xb_pmiw_dir_t dir,
                  xb_pmiw_msg_t *m, char *err, size_t errlen)
{
    if (len && line[len - 1] == '\n')
        len--;
    if (len && line[len - 1] == '\r')
        len--;
    if (len > XB_PMIW_LINE_MAX - 1) {
        say(err, errlen, "line longer than %d bytes", XB_PMIW_LINE_MAX);
        return -1;
    }
    if (check_bytes(line, len, err, errlen))
        return -1;
    memcpy(m->text, line, len);
    m->text[len] = '\0';
    if (split_pairs(m, err, errlen))
        return -1;
    return check_command(m, dir, err, errlen);
}

const char *xb_pmiw_cmd(const xb_pmiw_msg_t *m)
{
    return m->npairs ? m->val[0] : "";
}

const char *xb_pmiw_get(const xb_pmiw_msg_t *m, const char *key)
{
    for (int i = 1; i < m->npairs; i++)
        if (strcmp(m->key[i], key) == 0)
            return m->val[i];
    return NULL;
}

static int parse_long(const char *s, long *v)
{
    char *end;
    if (!s || !*s)
        return -1;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

int xb_pmiw_get_int(const xb_pmiw_msg_t *m, const char *key, long *v)
{
    return parse_long(xb_pmiw_get(m, key), v);
}

long xb_pmiw_rc(const xb_pmiw_msg_t *m)
{
    const char *s = xb_pmiw_get(m, "rc");
    long v;
    if (!s)
        return 0;
    return parse_long(s, &v) ? -1 : v;
}

/* ---- formatting -------------------------------------------------------- */

bool xb_pmiw_value_ok(const char *val, size_t maxlen)
{
    size_t n = 0;
    for (; val[n]; n++) {
        unsigned char c = (unsigned char)val[n];
        if (c < 0x21 || c > 0x7e || n >= maxlen)
            return false;
    }
    return true;
}

static void append(xb_pmiw_out_t *o, const char *s)
{
    size_t n = strlen(s);
    if (o->len + n > XB_PMIW_LINE_MAX - 1) {
        o->bad = true;
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

void xb_pmiw_begin(xb_pmiw_out_t *o, const char *cmd)
{
    o->len = 0;
    o->bad = false;
    o->buf[0] = '\0';
    xb_pmiw_add(o, "cmd", cmd);
}

void xb_pmiw_add(xb_pmiw_out_t *o, const char *key, const char *val)
{
    if (!key[0] || strchr(key, '=') || !xb_pmiw_value_ok(key, XB_PMIW_KEY_MAX) ||
        !xb_pmiw_value_ok(val, XB_PMIW_VAL_MAX)) {
        o->bad = true;
        return;
    }
    if (o->len)
        append(o, " ");
    append(o, key);
    append(o, "=");
    append(o, val);
}

void xb_pmiw_add_int(xb_pmiw_out_t *o, const char *key, long val)
{
    char num[32];
    snprintf(num, sizeof num, "%ld", val);
    xb_pmiw_add(o, key, num);
}

int xb_pmiw_end(xb_pmiw_out_t *o, char *err, size_t errlen)
{
    if (o->bad) {
        say(err, errlen, "message too long, or a key or value with a space or a non-printable byte");
        return -1;
    }
    o->buf[o->len++] = '\n';
    o->buf[o->len] = '\0';
    return 0;
}

void xb_pmiw_pct_encode(const char *src, char *dst, size_t dstlen)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    if (!dstlen)
        return;
    for (const unsigned char *s = (const unsigned char *)src; *s; s++) {
        bool plain = *s > 0x20 && *s < 0x7f && *s != '%';
        size_t need = plain ? 1 : 3;
        if (o + need >= dstlen)
            break;
        if (plain) {
            dst[o++] = (char)*s;
        } else {
            dst[o++] = '%';
            dst[o++] = hex[*s >> 4];
            dst[o++] = hex[*s & 15];
        }
    }
    dst[o] = '\0';
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void xb_pmiw_pct_decode(const char *src, char *dst, size_t dstlen)
{
    size_t o = 0;
    if (!dstlen)
        return;
    for (const char *s = src; *s && o + 1 < dstlen; s++) {
        int hi, lo;
        if (*s == '%' && (hi = hexval(s[1])) >= 0 && (lo = hexval(s[2])) >= 0) {
            char c = (char)(hi * 16 + lo);
            dst[o++] = (c == '\0' || c == '\n') ? '?' : c;
            s += 2;
        } else {
            dst[o++] = *s;
        }
    }
    dst[o] = '\0';
}

void xb_pmiw_underscore(char *s)
{
    for (; *s; s++)
        if (*s == ' ' || (unsigned char)*s < 0x21 || (unsigned char)*s > 0x7e)
            *s = '_';
}

/* ---- line reader ------------------------------------------------------- */

void xb_pmiw_reader_init(xb_pmiw_reader_t *r)
{
    r->start = r->len = 0;
    r->discarding = false;
}

long xb_pmiw_reader_fill(xb_pmiw_reader_t *r, int fd)
{
    if (r->start) {
        memmove(r->buf, r->buf + r->start, r->len);
        r->start = 0;
    }
    size_t room = sizeof r->buf - r->len;
    if (room == 0) {
        errno = ENOBUFS;   /* caller must take lines out first */
        return -1;
    }
    ssize_t n;
    do {
        n = read(fd, r->buf + r->len, room);
    } while (n < 0 && errno == EINTR);
    if (n > 0)
        r->len += (size_t)n;
    return (long)n;
}

int xb_pmiw_reader_next(xb_pmiw_reader_t *r, const char **line, size_t *len,
                        char *err, size_t errlen)
{
    for (;;) {
        char *base = r->buf + r->start;
        char *nl = r->len ? memchr(base, '\n', r->len) : NULL;
        if (r->discarding) {
            if (!nl) {
                r->start = r->len = 0;
                return 0;
            }
            size_t used = (size_t)(nl - base) + 1;
            r->start += used;
            r->len -= used;
            r->discarding = false;
            continue;
        }
        if (nl) {
            size_t used = (size_t)(nl - base) + 1;
            *line = base;
            *len = used - 1;
            r->start += used;
            r->len -= used;
            if (r->len == 0)
                r->start = 0;
            return 1;
        }
        if (r->len == sizeof r->buf) {
            r->start = r->len = 0;
            r->discarding = true;
            say(err, errlen, "line longer than %d bytes", XB_PMIW_LINE_MAX);
            return -1;
        }
        return 0;
    }
}

size_t xb_pmiw_reader_pending(const xb_pmiw_reader_t *r)
{
    return r->discarding ? 1 : r->len;
}
