/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi2_wire.h - format and parse PMI-2 wire commands (spec/pmi2_wire.txt),
 * the protocol of Slurm's `srun --mpi=pmi2`.
 *
 * A command is a 6-byte ASCII decimal length (left-justified, space padded)
 * followed by that many bytes of body: "key=value;" pairs, the first being
 * cmd=NAME; a ';' inside a value is doubled (";;"). Self-contained (libc
 * only), pure, no allocation: unit-tested in tests/unit/test_pmi2.c.
 *
 * Returns: 0 on success; -1 on malformed input, with one sentence in the
 * caller's err buffer.
 */
#ifndef XB_PMI2_WIRE_H
#define XB_PMI2_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#define XB_PMI2_LENLEN     6      /* the length field                      */
#define XB_PMI2_CMD_MAX    4096   /* our largest command, length field included */
#define XB_PMI2_PAIRS_MAX  24
#define XB_PMI2_KEY_MAX    64     /* PMI2_MAX_KEYLEN of the PMI-2 API      */
#define XB_PMI2_VAL_MAX    1024   /* PMI2_MAX_VALLEN                       */

typedef struct xb_pmi2_out {
    size_t len;                   /* bytes in buf, length field included   */
    bool   bad;                   /* did not fit                            */
    char   buf[XB_PMI2_CMD_MAX + 1];
} xb_pmi2_out_t;

void xb_pmi2_begin(xb_pmi2_out_t *o, const char *cmd);
void xb_pmi2_add(xb_pmi2_out_t *o, const char *key, const char *val);
void xb_pmi2_add_int(xb_pmi2_out_t *o, const char *key, long val);
/* Fills in the length field. 0, or -1 when the command did not fit. */
int  xb_pmi2_end(xb_pmi2_out_t *o);

typedef struct xb_pmi2_msg {
    int         npairs;
    const char *key[XB_PMI2_PAIRS_MAX];
    const char *val[XB_PMI2_PAIRS_MAX];
    char        text[XB_PMI2_CMD_MAX + 1];  /* unescaped copies             */
} xb_pmi2_msg_t;

/* The length field's value: 0..XB_PMI2_CMD_MAX, or -1 when it is not a
 * number (or too large for us). */
long xb_pmi2_parse_len(const char field[XB_PMI2_LENLEN]);
/* Parse a body (without the length field). */
int  xb_pmi2_parse(const char *body, size_t len, xb_pmi2_msg_t *m, char *err, size_t errlen);
const char *xb_pmi2_get(const xb_pmi2_msg_t *m, const char *key);   /* NULL: absent */
const char *xb_pmi2_cmd(const xb_pmi2_msg_t *m);                    /* "" when none */
/* 0 and *v when present and an integer (leading digits count, as Slurm's
 * jobid "7.0"), -1 otherwise. */
int  xb_pmi2_get_int(const xb_pmi2_msg_t *m, const char *key, long *v);
/* "TRUE"/"FALSE" (any case): 1/0; absent or other: -1. */
int  xb_pmi2_get_bool(const xb_pmi2_msg_t *m, const char *key);

#endif
