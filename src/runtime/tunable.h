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
 * Sources, by priority: environment XB_<NAME> > default. (MPI_T later.)
 * crossbar-info prints name, type, value, source, level and help.
 * Help text never repeats the default: the tool prints it.
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
    const char        *source;  /* "default" or "environment" */
} xb_tunable_t;

#define XB_TUNABLE(NAME, TYPE, DEF, LEVEL, HELP)                              \
    __attribute__((used, section("xb_tunables"), aligned(8)))                 \
    xb_tunable_t xb_tn_##NAME = { #NAME, TYPE, DEF, LEVEL, HELP, {0}, "default" }
#define XB_TUNABLE_DECL(NAME) extern xb_tunable_t xb_tn_##NAME

/* Parse every tunable from its default, then from the environment. Returns
 * XB_ERR_ARG (with detail naming the variable and the bad value) on a value
 * that does not parse: a typo in a tunable must not be silently ignored. */
int  xb_tunables_init(void);
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
