/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * cpus.c - the CPUs the ranks of this node can use (cpus.h).
 */
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "runtime/cpus.h"

/* dir/file into path; false when it does not fit. */
static bool join(char *path, size_t len, const char *dir, const char *file)
{
    int n = snprintf(path, len, "%s/%s", dir, file);
    return n >= 0 && (size_t)n < len;
}

/* CPUs (rounded up) of the limit in directory dir, or 0 (none, unreadable). */
static long limit_in(const char *dir, bool v2)
{
    char path[4096];
    long long quota = -1, period = 0;
    if (!join(path, sizeof path, dir, v2 ? "cpu.max" : "cpu.cfs_quota_us"))
        return 0;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (v2) {
        char q[32];
        if (fscanf(f, "%31s %lld", q, &period) != 2 || strcmp(q, "max") == 0 ||
            sscanf(q, "%lld", &quota) != 1)
            quota = -1;
    } else if (fscanf(f, "%lld", &quota) != 1) {
        quota = -1;
    }
    fclose(f);
    if (!v2 && quota > 0) {
        if (!join(path, sizeof path, dir, "cpu.cfs_period_us") || (f = fopen(path, "r")) == NULL)
            return 0;
        if (fscanf(f, "%lld", &period) != 1)
            period = 0;
        fclose(f);
    }
    if (quota <= 0 || period <= 0)
        return 0;
    return (long)((quota + period - 1) / period);
}

/* The smallest limit from base/path up to base itself (0: none). */
static long walk(const char *base, const char *path, bool v2)
{
    char dir[4096];
    long best = 0;
    int n = snprintf(dir, sizeof dir, "%s%s", base, path);
    if (n < 0 || (size_t)n >= sizeof dir)
        return 0;
    size_t stop = strlen(base);
    for (;;) {
        long l = limit_in(dir, v2);
        if (l > 0 && (best == 0 || l < best))
            best = l;
        char *slash = strrchr(dir, '/');
        if (slash == NULL || (size_t)(slash - dir) < stop)
            break;
        *slash = '\0';
    }
    return best;
}

static bool is_dir_with(const char *dir, const char *file)
{
    char path[4096];
    return join(path, sizeof path, dir, file) && access(path, F_OK) == 0;
}

/* Does the comma-separated controller list name "cpu"? */
static bool names_cpu(const char *list)
{
    for (const char *s = list; *s != '\0';) {
        size_t len = strcspn(s, ",");
        if (len == 3 && strncmp(s, "cpu", 3) == 0)
            return true;
        s += len + (s[len] == ',');
    }
    return false;
}

int xb_cpus_quota_at(const char *cgroup_file, const char *fs)
{
    FILE *f = fopen(cgroup_file, "r");
    if (f == NULL)
        return 0;
    char line[4096], base[4096];
    long best = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
        if (c2 == NULL)
            continue;
        *c1 = *c2 = '\0';
        const char *controllers = c1 + 1, *path = c2 + 1;
        long l = 0;
        if (strcmp(line, "0") == 0 && *controllers == '\0') {          /* v2 */
            snprintf(base, sizeof base, "%s", fs);
            if (!is_dir_with(base, "cgroup.controllers"))
                snprintf(base, sizeof base, "%s/unified", fs);
            l = walk(base, strcmp(path, "/") == 0 ? "" : path, true);
        } else if (names_cpu(controllers)) {                              /* v1 */
            snprintf(base, sizeof base, "%s/cpu", fs);
            if (!is_dir_with(base, "cpu.cfs_quota_us"))
                snprintf(base, sizeof base, "%s/cpu,cpuacct", fs);
            l = walk(base, strcmp(path, "/") == 0 ? "" : path, false);
        }
        if (l > 0 && (best == 0 || l < best))
            best = l;
    }
    fclose(f);
    return best > (long)1 << 20 ? 1 << 20 : (int)best;
}

static int capped(long n)
{
    int q = xb_cpus_quota_at("/proc/self/cgroup", "/sys/fs/cgroup");
    if (q > 0 && (n <= 0 || q < n))
        n = q;
    return n > 0 ? (int)n : 1;
}

int xb_cpus_node(void)
{
    return capped(sysconf(_SC_NPROCESSORS_ONLN));
}

int xb_cpus_usable(void)
{
    cpu_set_t set;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 1)
        n = CPU_COUNT(&set);
    return capped(n);
}
