/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi_wire.h - parse and format PMI-1 wire lines (spec/pmi_wire.txt).
 *
 * Shared by the PMI client in the library (src/runtime/pmi_client.c) and the
 * PMI server in mpiexec (launcher/pmi_server.c). Self-contained: it needs
 * only libc, so mpiexec links it without the MPI library.
 *
 * Lifecycle. A connection owns one xb_pmiw_reader_t (bytes in, whole lines
 * out). A line is parsed into an xb_pmiw_msg_t, which holds its own copy of
 * the text: its key/value pointers stay valid as long as the message does.
 * Replies are built in an xb_pmiw_out_t and written in one write().
 *
 * Threading: none; every object is owned by its caller.
 *
 * Returns: 0 on success, -1 on malformed input (with one sentence in the
 * caller's err buffer: "line longer than 2048 bytes", "unknown command
 * 'foo'", ...). Nothing here crashes, loops or allocates on bad input.
 */
#ifndef XB_PMI_WIRE_H
#define XB_PMI_WIRE_H

#include <stddef.h>
#include <stdbool.h>

#define XB_PMIW_LINE_MAX    2048  /* bytes of one line, LF included       */
#define XB_PMIW_KEY_MAX       64  /* keylen_max served by get_maxes       */
#define XB_PMIW_VAL_MAX     1024  /* vallen_max                           */
#define XB_PMIW_KVSNAME_MAX  256  /* kvsname_max                          */
#define XB_PMIW_PAIRS_MAX     16
#define XB_PMIW_ERR_MAX      160  /* a good size for err buffers          */

typedef enum { XB_PMIW_REQUEST, XB_PMIW_RESPONSE } xb_pmiw_dir_t;

typedef struct xb_pmiw_msg {
    int         npairs;                    /* pair 0 is cmd=NAME          */
    const char *key[XB_PMIW_PAIRS_MAX];
    const char *val[XB_PMIW_PAIRS_MAX];
    char        text[XB_PMIW_LINE_MAX + 1];
} xb_pmiw_msg_t;

/* Parse one line (a trailing LF / CRLF is allowed, not required) sent in
 * direction `dir`, checking syntax, the command name and its required keys.
 * On error m is undefined and err holds the reason. */
int xb_pmiw_parse(const char *line, size_t len, xb_pmiw_dir_t dir,
                  xb_pmiw_msg_t *m, char *err, size_t errlen);
const char *xb_pmiw_cmd(const xb_pmiw_msg_t *m);
/* Value of `key`, or NULL when absent. */
const char *xb_pmiw_get(const xb_pmiw_msg_t *m, const char *key);
/* 0 and *v on success; -1 when absent or not a decimal integer. */
int xb_pmiw_get_int(const xb_pmiw_msg_t *m, const char *key, long *v);
/* The rc key of a response: 0 when absent, the value otherwise (a value that
 * is not a number counts as -1). */
long xb_pmiw_rc(const xb_pmiw_msg_t *m);
/* Is `cmd` a command the spec knows in this direction? */
bool xb_pmiw_known(const char *cmd, xb_pmiw_dir_t dir);

/* ---- building a line --------------------------------------------------- */
typedef struct xb_pmiw_out {
    size_t len;
    bool   bad;                 /* too long, or a key/value not allowed   */
    char   buf[XB_PMIW_LINE_MAX + 1];
} xb_pmiw_out_t;

void xb_pmiw_begin(xb_pmiw_out_t *o, const char *cmd);
void xb_pmiw_add(xb_pmiw_out_t *o, const char *key, const char *val);
void xb_pmiw_add_int(xb_pmiw_out_t *o, const char *key, long val);
/* Appends the LF. 0 when the line is valid, -1 (err says why) otherwise. */
int  xb_pmiw_end(xb_pmiw_out_t *o, char *err, size_t errlen);

/* A value the wire accepts: 0..maxlen bytes of %x21-7E. */
bool xb_pmiw_value_ok(const char *val, size_t maxlen);
/* Percent-encoding for free text (abort messages): space -> %20, '%' and
 * bytes outside %x21-7E -> %XX. Output always NUL-terminated, cut at a
 * whole escape when dst is short. Decoding leaves bad escapes as they are. */
void xb_pmiw_pct_encode(const char *src, char *dst, size_t dstlen);
void xb_pmiw_pct_decode(const char *src, char *dst, size_t dstlen);
/* Turn spaces into '_' (msg= values of responses). In place. */
void xb_pmiw_underscore(char *s);

/* ---- reading lines from a byte stream ---------------------------------- */
typedef struct xb_pmiw_reader {
    size_t start, len;          /* unread bytes are buf[start, start+len) */
    bool   discarding;          /* skipping the rest of an oversize line  */
    char   buf[XB_PMIW_LINE_MAX];
} xb_pmiw_reader_t;

void xb_pmiw_reader_init(xb_pmiw_reader_t *r);
/* One read() from fd into free space. Returns bytes read, 0 at end of
 * stream, -1 with errno set (EAGAIN for a non-blocking fd with no data;
 * EINTR is retried). */
long xb_pmiw_reader_fill(xb_pmiw_reader_t *r, int fd);
/* Next complete line: 1 with *line and *len (LF excluded, valid until the next
 * call), 0 when no complete line is buffered, -1 when an oversize line was
 * dropped (err says so; reading may go on). */
int  xb_pmiw_reader_next(xb_pmiw_reader_t *r, const char **line, size_t *len,
                         char *err, size_t errlen);
/* Bytes of an unfinished line: nonzero at end of stream = truncated. */
size_t xb_pmiw_reader_pending(const xb_pmiw_reader_t *r);

#endif
