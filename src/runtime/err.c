/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * err.c - the per-thread error-detail slot (see util/xb_common.h).
 *
 * The first function that detects an error records one sentence here; the
 * binding layer reads it (xb_err_detail), prefixes the MPI function name and
 * turns it into an error code (core/errcode.c), then clears the slot.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1     /* the GNU strerror_r */
#endif
#include <stdio.h>
#include <string.h>
#include "util/xb_common.h"

enum { ERR_DETAIL_MAX = 400 };   /* fits MPI_MAX_ERROR_STRING with the prefix */

static __thread char err_detail[ERR_DETAIL_MAX];
static __thread unsigned err_gen;

int xb_err_set(int rc, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err_detail, sizeof(err_detail), fmt, ap);
    va_end(ap);
    err_gen++;
    return rc;
}

int xb_err_sys(int rc, int errnum, const char *fmt, ...)
{
    va_list ap;
    size_t n;
    char ebuf[128];

    va_start(ap, fmt);
    vsnprintf(err_detail, sizeof(err_detail), fmt, ap);
    va_end(ap);
    err_gen++;
    n = strlen(err_detail);
    /* GNU strerror_r returns the message pointer (maybe not ebuf). */
    const char *etext = strerror_r(errnum, ebuf, sizeof(ebuf));
    if (n < sizeof(err_detail) - 1)
        snprintf(err_detail + n, sizeof(err_detail) - n, ": %s", etext);
    return rc;
}

const char *xb_err_detail(void)
{
    return err_detail;
}

void xb_err_clear(void)
{
    err_detail[0] = '\0';
    err_gen++;
}

unsigned xb_err_gen(void)
{
    return err_gen;
}
