/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi_spawn.h - the PMI-1 spawn request (spec/pmi_wire.txt section 7): a
 * multi-line "mcmd=spawn" block per command of MPI_Comm_spawn(_multiple),
 * one key=value per line (values may hold spaces), "endcmd" closing each.
 *
 * Server side (mpiexec): feed the lines of a client one by one to an
 * xb_pmiw_spawn_t; it says when the whole request (totspawns blocks) is in,
 * or why a line is malformed. Client side (the library): xb_pmiw_spawn_format
 * writes the blocks.
 *
 * Lifecycle: init, feed ... (1 = complete: use it, then free), free. After
 * an error (-1) free it (and init again for the next request).
 * Ownership: the structure owns copies of every string. Threading: none.
 */
#ifndef XB_PMI_SPAWN_H
#define XB_PMI_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

#define XB_PMIW_SPAWN_CMDS_MAX   64     /* totspawns */
#define XB_PMIW_SPAWN_ARGS_MAX  256     /* argcnt */
#define XB_PMIW_SPAWN_KV_MAX     64     /* preput_num, info_num */
#define XB_PMIW_SPAWN_NPROCS_MAX 4096

typedef struct xb_pmiw_kv {
    char *key, *val;
} xb_pmiw_kv_t;

typedef struct xb_pmiw_spawn_cmd {
    char         *exec;
    long          nprocs;
    int           argc;
    char        **argv;          /* [argc], argv[i] is "arg<i+1>" */
    int           ninfo;
    xb_pmiw_kv_t *info;
} xb_pmiw_spawn_cmd_t;

typedef struct xb_pmiw_spawn {
    int                  total;   /* totspawns (0 until the first block says) */
    int                  ncmds;   /* blocks complete                          */
    xb_pmiw_spawn_cmd_t *cmds;    /* [total]                                  */
    int                  npreput; /* from the first block                     */
    xb_pmiw_kv_t        *preput;
    /* the block being read */
    bool                 in_block;
    long                 argcnt, ppnum, infonum, sofar;
    xb_pmiw_spawn_cmd_t  cur;
    xb_pmiw_kv_t        *cur_pp;
} xb_pmiw_spawn_t;

void xb_pmiw_spawn_init(xb_pmiw_spawn_t *s);
void xb_pmiw_spawn_free(xb_pmiw_spawn_t *s);
/* One line (LF excluded). 1: the request is complete; 0: more lines
 * needed; -1: malformed (err says why). */
int  xb_pmiw_spawn_feed(xb_pmiw_spawn_t *s, const char *line, size_t len,
                        char *err, size_t errlen);
/* Is this line the start of a multi-line command? */
bool xb_pmiw_is_mcmd(const char *line, size_t len);

#endif
