/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * ct_cpulist.h - a Linux CPU list ("0-3,8", as in sysfs, /proc/.../status
 * and XB_NODE_CPUS) read into a cpu_set_t, for tests that check CPU sets.
 */
#ifndef CT_CPULIST_H
#define CT_CPULIST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdlib.h>

/* s -> set (CPUs beyond CPU_SETSIZE left out); 0 on a malformed list. */
static inline int ct_cpulist(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    while (*s != '\0' && *s != '\n') {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            return 0;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long c = a; c <= b && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, set);
        s = *end == ',' ? end + 1 : end;
    }
    return 1;
}

#endif
