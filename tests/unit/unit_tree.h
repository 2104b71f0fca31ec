/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * unit_tree.h - fake file trees for the unit tests of readers of /sys and
 * /proc (header only; include after unit_check.h): tree_begin() makes a
 * temporary directory (under $TMPDIR, else /tmp) whose path is tree_base,
 * put() writes a file under it, creating directories, and tree_end()
 * removes it all.
 */
#ifndef XB_UNIT_TREE_H
#define XB_UNIT_TREE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char tree_base[256];

/* The temporary directory, named after `name`; false (and a message) when
 * it cannot be made. */
static bool tree_begin(const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(tree_base, sizeof(tree_base), "%s/xb-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
    if (mkdtemp(tree_base) == NULL) {
        perror("mkdtemp");
        return false;
    }
    return true;
}

static void tree_end(void)
{
    char cmd[400];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_base);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tree_base);
}

/* Write text to tree_base/<path> (made of printf args), creating
 * directories. */
static void put(const char *text, const char *fmt, ...)
{
    char rel[512], path[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rel, sizeof(rel), fmt, ap);
    va_end(ap);
    snprintf(path, sizeof(path), "%s/%s", tree_base, rel);
    for (char *p = path + strlen(tree_base) + 1; *p != '\0'; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

#endif
