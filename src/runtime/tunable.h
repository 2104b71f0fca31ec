/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tunable.h - every tunable is declared ONCE, next to the code that uses it:
 *
 *   XB_TUNABLE(SHM_EAGER_MAX, XB_TT_SIZE, "16k", XB_TL_TUNER,
 *              "Largest message sent eagerly through shared memory");
 *
 * defines `xb_tunable_t xb_tn_SHM_EAGER_MAX` and places it in the linker
 * section "xb_tunables", so the registry finds every tunable of the library
 * without a central list. After xb_tunables_init() (first step of MPI_Init)
 * read the value with xb_tn_SHM_EAGER_MAX.v.size (or .i, .b, .s).
 *
 * Sources, by priority: MPI_T write > environment XB_<NAME> > default.
 * crossbar-info prints name, type, value, source, level and help.
 * Help text never repeats the default: the tool prints it.
 *
 * Live tunables. Most tunables are read once, at MPI_Init; a tool sees them
 * through MPI_T as read-only. A tunable that the code reads at each use (or
 * whose `changed` hook, called after a write, carries the new value to where
 * it is used) is declared with XB_TUNABLE_LIVE and may be written through
 * MPI_T_cvar_write (src/mpit, docs/design/mpit.md):
 *
 *   XB_TUNABLE_LIVE(DT_PACE, XB_TT_INT, "8", XB_TL_TUNER, "...", NULL);
 *
 * A hook runs under the progress lock, before or after MPI_Init; it returns
 * XB_OK, or an error (with detail) when the value cannot be used, and the
 * writer then puts the old value back and calls the hook again.
 *
 * Loading: xb_tunables_load() parses the table once per process (MPI_T_init
 * may come before MPI_Init; a value written then survives MPI_Init).
 *
 * Value syntax: int "42" / "-1"; size "4096", "64k", "1m", "2g" (binary
 * units); bool "1/0/yes/no/true/false/on/off"; string anything.
 */
#ifndef XB_TUNABLE_H
#define XB_TUNABLE_H

#include "util/xb_common.h"

typedef enum { XB_TT_INT, XB_TT_SIZE, XB_TT_BOOL, XB_TT_STRING } xb_tunable_type_t;
typedef enum { XB_TL_USER, XB_TL_TUNER, XB_TL_DEV } xb_tunable_level_t;

typedef struct xb_tunable {
    const char        *name;    /* without the XB_ prefix */
    xb_tunable_type_t  type;
    const char        *defval;
    xb_tunable_level_t level;
    const char        *help;
    union { long long i; size_t size; bool b; const char *s; } v;
    const char        *source;  /* "default", "environment" or "MPI_T" */
    bool               live;    /* writable through MPI_T (see above) */
    int              (*changed)(struct xb_tunable *t);   /* or NULL */
} xb_tunable_t;

#define XB_TUNABLE_LIVE(NAME, TYPE, DEF, LEVEL, HELP, HOOK)                   \
    __attribute__((used, section("xb_tunables"), aligned(8)))                 \
    xb_tunable_t xb_tn_##NAME = { .name = #NAME, .type = TYPE, .defval = DEF, \
                                  .level = LEVEL, .help = HELP,               \
                                  .source = "default", .live = true,          \
                                  .changed = HOOK }
#define XB_TUNABLE(NAME, TYPE, DEF, LEVEL, HELP)                              \
    __attribute__((used, section("xb_tunables"), aligned(8)))                 \
    xb_tunable_t xb_tn_##NAME = { .name = #NAME, .type = TYPE, .defval = DEF, \
                                  .level = LEVEL, .help = HELP,               \
                                  .source = "default" }
#define XB_TUNABLE_DECL(NAME) extern xb_tunable_t xb_tn_##NAME

/* Parse every tunable from its default, then from the environment. Returns
 * XB_ERR_ARG (with detail naming the variable and the bad value) on a value
 * that does not parse: a typo in a tunable must not be silently ignored. */
int  xb_tunables_init(void);
/* xb_tunables_init() the first time it succeeds in this process; XB_OK
 * without parsing again afterwards (MPI_Init, MPI_T_init_thread). */
int  xb_tunables_load(void);
/* How many tunables there are (the registry's length). */
size_t xb_tunable_count(void);
/* Parse `str` as the tunable's type into t->v. Pure; unit-tested. */
int  xb_tunable_parse(xb_tunable_t *t, const char *str);
/* Iterate: returns NULL past the last. Order is the link order. */
xb_tunable_t *xb_tunable_at(size_t idx);
xb_tunable_t *xb_tunable_find(const char *name);
/* Format the current value as text (for crossbar-info). */
void xb_tunable_format(const xb_tunable_t *t, char *buf, size_t len);

/* Typo protection. Closest tunable name to `name` (without XB_), or NULL if
 * none is close. check_env calls warn() once per XB_ variable of the
 * environment that names no tunable and is not one the launcher sets
 * ("XB_SHM_EAGERMAX is not a Crossbar tunable; did you mean
 * XB_SHM_EAGER_MAX?"); returns how many there were. */
const char *xb_tunable_suggest(const char *name);
int  xb_tunables_check_env(void (*warn)(const char *msg));

#endif
