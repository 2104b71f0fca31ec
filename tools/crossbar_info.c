/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * crossbar-info - what this Crossbar is and how it would run here:
 * the version, the build options, the communication methods available on
 * this machine (and why one is not), and every tunable with its value,
 * where the value came from, and its help.
 *
 *   crossbar-info [--all | --version | --build | --methods | --tunables |
 *                  --collectives | --help]
 *
 * Linked with the static archive of the library (xb_internal), whole, so
 * that every tunable of every object is in the "xb_tunables" section.
 * Exit status: 0, or 1 when a tunable in the environment does not parse
 * (the same check MPI_Init makes), or 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"
#include "xb_config.h"
#include "util/xb_common.h"
#include "runtime/tunable.h"
#include "method/method.h"
#include "coll/coll.h"

static void print_version(void)
{
    printf("Crossbar %s (MPI %d.%d, standard ABI)\n", XB_VERSION_STRING,
           MPI_VERSION, MPI_SUBVERSION);
}

static void print_build(void)
{
    printf("\nBuild\n");
    printf("  compiler   %s\n", XB_BUILD_CC);
    printf("  flags      %s\n", XB_BUILD_CFLAGS);
    printf("  sanitizer  %s\n", XB_BUILD_SANITIZE);
    printf("  build type %s\n", XB_BUILD_TYPE);
    printf("  system     %s\n", XB_BUILD_SYSTEM);
}

static void print_methods(void)
{
    char buf[8192];
    printf("\nMethods (in the order the peer table tries them)\n");
    if (xb_method_describe_all(buf, sizeof buf) != XB_OK) {
        printf("  (cannot describe the methods: %s)\n", xb_err_detail());
        return;
    }
    /* Indent every line of the description. */
    for (char *line = buf, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl) {
            printf("  %s\n", line);
            break;
        }
        printf("  %.*s\n", (int)(nl - line), line);
    }
}

static const char *type_name(xb_tunable_type_t t)
{
    switch (t) {
    case XB_TT_INT:    return "int";
    case XB_TT_SIZE:   return "size";
    case XB_TT_BOOL:   return "bool";
    case XB_TT_STRING: return "string";
    }
    return "?";
}

static const char *level_name(xb_tunable_level_t l)
{
    switch (l) {
    case XB_TL_USER:  return "user";
    case XB_TL_TUNER: return "tuner";
    case XB_TL_DEV:   return "dev";
    }
    return "?";
}

static int print_tunables(int init_rc)
{
    size_t n = 0;
    while (xb_tunable_at(n))
        n++;
    printf("\nTunables (%zu; set with the environment variable XB_<NAME>; each is\n"
           "also the MPI_T control variable of that name)\n", n);
    if (init_rc != XB_OK)
        printf("  warning: %s\n", xb_err_detail());
    for (size_t i = 0; i < n; i++) {
        const xb_tunable_t *t = xb_tunable_at(i);
        char val[256];
        xb_tunable_format(t, val, sizeof val);
        printf("  XB_%-28s = %-12s [%s, %s, %s, default %s%s]\n", t->name, val,
               type_name(t->type), t->source, level_name(t->level),
               t->defval && *t->defval ? t->defval : "\"\"",
               t->live ? ", MPI_T writable" : "");
        printf("      %s\n", t->help ? t->help : "");
    }
    return init_rc == XB_OK ? 0 : 1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: crossbar-info [--all | --version | --build | --methods | --tunables |\n"
            "                     --collectives]\n"
            "  --all       everything below (the default)\n"
            "  --version   the version\n"
            "  --build     compiler, flags, sanitizer, build type\n"
            "  --methods   communication methods on this machine, and why one is off\n"
            "  --tunables  every tunable: value, where it came from, level, help\n"
            "  --collectives  the collective algorithm selection table\n");
}

int main(int argc, char **argv)
{
    enum { VERSION = 1, BUILD = 2, METHODS = 4, TUNABLES = 8, COLL = 16, ALL = 31 };
    int what = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all") || !strcmp(argv[i], "-a"))
            what |= ALL;
        else if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V"))
            what |= VERSION;
        else if (!strcmp(argv[i], "--build"))
            what |= BUILD;
        else if (!strcmp(argv[i], "--methods"))
            what |= METHODS;
        else if (!strcmp(argv[i], "--tunables"))
            what |= TUNABLES;
        else if (!strcmp(argv[i], "--collectives"))
            what |= COLL;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "crossbar-info: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!what)
        what = ALL;

    int rc = xb_tunables_load();   /* methods read their tunables */
    int status = 0;
    if (what & VERSION)
        print_version();
    if (what & BUILD)
        print_build();
    if (what & METHODS)
        print_methods();
    if (what & COLL)
        xb_coll_print_table(stdout);
    if (what & TUNABLES)
        status = print_tunables(rc);
    else if (rc != XB_OK)
        fprintf(stderr, "crossbar-info: %s\n", xb_err_detail());
    return status ? status : (rc != XB_OK);
}
