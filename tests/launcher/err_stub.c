/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * err_stub.c - test-only stand-ins for the runtime's error detail and log
 * functions, so the launcher helper links only the PMI client and the wire
 * parser (not the MPI library, which is tested elsewhere).
 */
#include "util/xb_common.h"
#include "runtime/runtime.h"

#include <stdio.h>
#include <string.h>

static char detail[1024];
int xb_log_levels[XB_LOG_NSUB];

int xb_err_set(int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return rc;
}

int xb_err_sys(int rc, int errnum, const char *fmt, ...)
{
    va_list ap;
    size_t n;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    n = strlen(detail);
    snprintf(detail + n, sizeof detail - n, ": %s", strerror(errnum));
    return rc;
}

const char *xb_err_detail(void) { return detail; }
void xb_err_clear(void) { detail[0] = '\0'; }

void xb_log_msg(enum xb_log_sub sub, enum xb_log_level lvl, const char *fmt, ...)
{
    va_list ap;
    (void)sub;
    (void)lvl;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
