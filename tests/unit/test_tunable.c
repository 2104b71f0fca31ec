/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_tunable.c - the tunable parser, the registry, environment overrides,
 * typo warnings and the XB_LOG parser (src/runtime/tunable.c, log.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runtime/runtime.h"
#include "runtime/tunable.h"
#include "runtime/rt_internal.h"

XB_TUNABLE(UT_SIZE, XB_TT_SIZE, "16k", XB_TL_DEV, "unit test: a size");
XB_TUNABLE(UT_INT, XB_TT_INT, "-3", XB_TL_DEV, "unit test: an int");
XB_TUNABLE(UT_FLAG, XB_TT_BOOL, "off", XB_TL_DEV, "unit test: a bool");
XB_TUNABLE(UT_NAME, XB_TT_STRING, "abc", XB_TL_DEV, "unit test: a string");

#include "unit_check.h"

static void size_ok(const char *s, size_t want)
{
    xb_tunable_t t = { .name = "T", .type = XB_TT_SIZE };
    int rc = xb_tunable_parse(&t, s);
    CHECK(rc == XB_OK && t.v.size == want, "'%s' -> rc %d value %zu, want %zu",
          s, rc, t.v.size, want);
}

static void size_bad(const char *s)
{
    xb_tunable_t t = { .name = "T", .type = XB_TT_SIZE, .v.size = 77 };
    xb_err_clear();
    int rc = xb_tunable_parse(&t, s);
    CHECK(rc == XB_ERR_ARG, "'%s' should not parse as a size (rc %d)", s, rc);
    CHECK(t.v.size == 77, "'%s': value written on failure", s);
    CHECK(strstr(xb_err_detail(), "is not a size") != NULL,
          "'%s': detail '%s'", s, xb_err_detail());
}

static void int_case(const char *s, int want_rc, long long want)
{
    xb_tunable_t t = { .name = "T", .type = XB_TT_INT, .v.i = 5 };
    int rc = xb_tunable_parse(&t, s);
    CHECK(rc == want_rc, "int '%s': rc %d, want %d", s, rc, want_rc);
    CHECK(t.v.i == (rc == XB_OK ? want : 5), "int '%s': value %lld", s, t.v.i);
}

static void bool_case(const char *s, int want_rc, bool want)
{
    xb_tunable_t t = { .name = "T", .type = XB_TT_BOOL, .v.b = !want };
    int rc = xb_tunable_parse(&t, s);
    CHECK(rc == want_rc, "bool '%s': rc %d, want %d", s, rc, want_rc);
    if (rc == XB_OK)
        CHECK(t.v.b == want, "bool '%s': value %d", s, t.v.b);
}

static void test_parsers(void)
{
    size_ok("0", 0);
    size_ok("4096", 4096);
    size_ok("64k", 65536);
    size_ok("64K", 65536);
    size_ok("64kb", 65536);
    size_ok("64KiB", 65536);
    size_ok("1m", 1u << 20);
    size_ok("2g", 2ull << 30);
    size_ok("1t", 1ull << 40);
    size_ok(" 8k ", 8192);
    size_bad("");
    size_bad("k");
    size_bad("-1");
    size_bad("12q");
    size_bad("1.5m");
    size_bad("64 k b");
    size_bad("99999999999999999999999");
    size_bad("17179869184g");          /* 2^34 * 2^30 overflows */

    int_case("42", XB_OK, 42);
    int_case("-1", XB_OK, -1);
    int_case("0x10", XB_OK, 16);
    int_case("4x", XB_ERR_ARG, 0);
    int_case("", XB_ERR_ARG, 0);
    int_case("99999999999999999999999", XB_ERR_ARG, 0);

    const char *yes[] = { "1", "yes", "YES", "true", "on", "On" };
    const char *no[] = { "0", "no", "false", "FALSE", "off" };
    for (size_t i = 0; i < XB_ARRAY_LEN(yes); i++)
        bool_case(yes[i], XB_OK, true);
    for (size_t i = 0; i < XB_ARRAY_LEN(no); i++)
        bool_case(no[i], XB_OK, false);
    bool_case("maybe", XB_ERR_ARG, false);
    bool_case("", XB_ERR_ARG, false);

    xb_tunable_t s = { .name = "T", .type = XB_TT_STRING };
    CHECK(xb_tunable_parse(&s, "tcp,shm") == XB_OK && strcmp(s.v.s, "tcp,shm") == 0,
          "string value '%s'", s.v.s);
}

static void test_registry(void)
{
    unsetenv("XB_UT_SIZE");
    unsetenv("XB_UT_INT");
    setenv("XB_UT_FLAG", "yes", 1);
    CHECK(xb_tunables_init() == XB_OK, "init: %s", xb_err_detail());
    CHECK(xb_tn_UT_SIZE.v.size == 16384, "default size %zu", xb_tn_UT_SIZE.v.size);
    CHECK(strcmp(xb_tn_UT_SIZE.source, "default") == 0, "source %s", xb_tn_UT_SIZE.source);
    CHECK(xb_tn_UT_INT.v.i == -3, "default int %lld", xb_tn_UT_INT.v.i);
    CHECK(xb_tn_UT_FLAG.v.b, "XB_UT_FLAG=yes not applied");
    CHECK(strcmp(xb_tn_UT_FLAG.source, "environment") == 0, "source %s",
          xb_tn_UT_FLAG.source);
    CHECK(strcmp(xb_tn_UT_NAME.v.s, "abc") == 0, "string default %s", xb_tn_UT_NAME.v.s);

    /* every tunable is reachable by index and by name, including XB_LOG */
    size_t n = 0;
    bool seen_log = false, seen_ut = false;
    for (xb_tunable_t *t; (t = xb_tunable_at(n)) != NULL; n++) {
        CHECK(xb_tunable_find(t->name) == t, "find(%s)", t->name);
        seen_log |= strcmp(t->name, "LOG") == 0;
        /* by name and value, not by address: the registry is the section
         * seen through __start_xb_tunables, a different object as far as
         * the compiler knows, and LTO folds such a comparison to false */
        seen_ut |= strcmp(t->name, "UT_SIZE") == 0 && t->v.size == 16384;
    }
    CHECK(n >= 5 && seen_log && seen_ut, "registry: %zu tunables, LOG %d, UT %d",
          n, seen_log, seen_ut);
    CHECK(xb_tunable_find("NO_SUCH_THING") == NULL, "find of an unknown name");

    char buf[64];
    xb_tunable_format(&xb_tn_UT_SIZE, buf, sizeof(buf));
    CHECK(strcmp(buf, "16k") == 0, "format size: %s", buf);
    xb_tunable_format(&xb_tn_UT_FLAG, buf, sizeof(buf));
    CHECK(strcmp(buf, "yes") == 0, "format bool: %s", buf);
    xb_tunable_format(&xb_tn_UT_INT, buf, sizeof(buf));
    CHECK(strcmp(buf, "-3") == 0, "format int: %s", buf);

    setenv("XB_UT_SIZE", "1m", 1);
    CHECK(xb_tunables_init() == XB_OK && xb_tn_UT_SIZE.v.size == 1u << 20,
          "XB_UT_SIZE=1m gave %zu", xb_tn_UT_SIZE.v.size);
    setenv("XB_UT_SIZE", "12q", 1);
    xb_err_clear();
    CHECK(xb_tunables_init() == XB_ERR_ARG, "a bad value must fail init");
    CHECK(strstr(xb_err_detail(), "XB_UT_SIZE=12q") != NULL,
          "the detail names the variable and value: '%s'", xb_err_detail());
    unsetenv("XB_UT_SIZE");
    unsetenv("XB_UT_FLAG");
}

static char warned[1024];
static int nwarn;
static void collect(const char *msg)
{
    nwarn++;
    snprintf(warned, sizeof(warned), "%s", msg);
}

static void test_typos(void)
{
    const char *s = xb_tunable_suggest("UT_SIZ");
    CHECK(s != NULL && strcmp(s, "UT_SIZE") == 0, "suggest UT_SIZ -> %s", s ? s : "(null)");
    CHECK(xb_tunable_suggest("COMPLETELY_UNRELATED_NAME") == NULL, "no suggestion expected");
    CHECK(xb_tunable_distance("abc", "abd") == 1, "distance");
    CHECK(xb_tunable_distance("UT_SIZE", "ut_size") == 0, "case-insensitive distance");

    /* a clean environment: a suite run with XB_... settings for the MPI
     * tests (XB_PROGRESS_CONTEXTS=4 make test) passes them here too, and
     * this program links only its own tunables */
    for (bool again = true; again;) {
        again = false;
        for (char **e = environ; *e != NULL; e++) {
            if (strncmp(*e, "XB_", 3) != 0)
                continue;
            char name[256];
            size_t n = strcspn(*e, "=");
            snprintf(name, sizeof name, "%.*s", (int)(n < 255 ? n : 255), *e);
            unsetenv(name);
            again = true;
            break;
        }
    }
    setenv("XB_UT_SIZEE", "1", 1);
    setenv("XB_JOBSEG_FD", "7", 1);     /* set by the launcher: allowed */
    nwarn = 0;
    xb_tunables_check_env(collect);
    CHECK(nwarn == 1, "%d warnings, want 1 (last: %s)", nwarn, warned);
    CHECK(strstr(warned, "XB_UT_SIZEE is not a Crossbar tunable; did you mean "
                 "XB_UT_SIZE?") != NULL, "warning text: %s", warned);
    unsetenv("XB_UT_SIZEE");
    unsetenv("XB_JOBSEG_FD");
    nwarn = 0;
    xb_tunables_check_env(collect);
    CHECK(nwarn == 0, "%d warnings with a clean environment (%s)", nwarn, warned);
}

static void test_log(void)
{
    int lv[XB_LOG_NSUB];
    for (int i = 0; i < XB_LOG_NSUB; i++)
        lv[i] = XB_LOG_WARN;
    CHECK(xb_log_parse("method,pmi:debug", lv) == XB_OK, "%s", xb_err_detail());
    CHECK(lv[XB_LOG_METHOD] == XB_LOG_DEBUG && lv[XB_LOG_PMI] == XB_LOG_DEBUG &&
          lv[XB_LOG_SHM] == XB_LOG_WARN, "method,pmi:debug");
    CHECK(xb_log_parse("all:info", lv) == XB_OK, "all:info");
    for (int i = 0; i < XB_LOG_NSUB; i++)
        CHECK(lv[i] == XB_LOG_INFO, "all:info sub %d = %d", i, lv[i]);
    CHECK(xb_log_parse("all:error;shm:debug", lv) == XB_OK &&
          lv[XB_LOG_SHM] == XB_LOG_DEBUG && lv[XB_LOG_PT2PT] == XB_LOG_ERROR,
          "two groups");
    CHECK(xb_log_parse("debug", lv) == XB_OK && lv[XB_LOG_CORE] == XB_LOG_DEBUG,
          "a level alone");
    CHECK(xb_log_parse("", lv) == XB_OK, "empty");
    int before = lv[XB_LOG_COLL];
    CHECK(xb_log_parse("coll:warn,bogus", lv) == XB_ERR_ARG, "bad level accepted");
    CHECK(xb_log_parse("bogus:debug", lv) == XB_ERR_ARG &&
          strstr(xb_err_detail(), "bogus") != NULL, "unknown subsystem: %s",
          xb_err_detail());
    CHECK(lv[XB_LOG_COLL] == before, "levels written on failure");
}

int main(void)
{
    test_parsers();
    test_registry();
    test_typos();
    test_log();
    if (failures != 0) {
        fprintf(stderr, "test_tunable: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_tunable: all passed\n");
    return 0;
}
