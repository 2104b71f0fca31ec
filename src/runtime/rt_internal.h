/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rt_internal.h - names shared by the files of src/runtime only (and by their
 * unit tests). Other layers use runtime.h and tunable.h.
 */
#ifndef XB_RT_INTERNAL_H
#define XB_RT_INTERNAL_H

#include "util/xb_common.h"

/* log.c: parse an XB_LOG value into levels[XB_LOG_NSUB] (written only on
 * success; XB_ERR_ARG with detail otherwise). */
int  xb_log_parse(const char *spec, int *levels);
int  xb_log_init(void);            /* applies the XB_LOG tunable */

/* rt.c: world rank once PMI is up, else -1 (for log prefixes). */
int  xb_rt_rank_or_neg(void);

/* rt.c: whether the PMI client is up (so an abort reaches the launcher). */
bool xb_rt_pmi_up(void);
/* rt_kvs.c: drop the cached peer addresses. */
void xb_rt_kvs_fini(void);

/* tunable.c: edit distance used for "did you mean" suggestions. */
int  xb_tunable_distance(const char *a, const char *b);

#endif
