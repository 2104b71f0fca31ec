/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_mpit.c - the MPI_T layer without MPI (src/mpit, src/runtime/tunable.c):
 * tunables load once; a live tunable's hook sees a write and may refuse it
 * (the old value and source come back, the hook runs again); strings are
 * copied and survive the writer's buffer; a string too long is refused;
 * a tunable that is not live refuses any write; string out-parameters are
 * truncated the standard's way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"
#include "runtime/tunable.h"
#include "mpit/mpit.h"

static int hook_calls;
static long long hook_seen;

/* Refuses values above 100. */
static int ut_hook(xb_tunable_t *t)
{
    hook_calls++;
    hook_seen = t->v.i;
    if (t->v.i > 100)
        return xb_err_set(XB_ERR_ARG, "%lld is above 100", t->v.i);
    return XB_OK;
}

static int str_hook(xb_tunable_t *t)
{
    hook_calls++;
    if (strcmp(t->v.s, "bad") == 0)
        return xb_err_set(XB_ERR_ARG, "'bad' refused");
    return XB_OK;
}

XB_TUNABLE_LIVE(UT_LIVE, XB_TT_INT, "7", XB_TL_DEV, "unit test: a live int", ut_hook);
XB_TUNABLE_LIVE(UT_LIVE_STR, XB_TT_STRING, "abc", XB_TL_DEV, "unit test: a live string",
                str_hook);
XB_TUNABLE(UT_FIXED, XB_TT_INT, "3", XB_TL_DEV, "unit test: read once");

#include "unit_check.h"

static MPI_T_cvar_handle handle(const char *name)
{
    int idx = -1, count = 0;
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    CHECK(MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS, "no cvar %s", name);
    CHECK(MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) == MPI_SUCCESS, "alloc %s", name);
    return h;
}

static void test_load_once(void)
{
    setenv("XB_UT_FIXED", "4", 1);
    CHECK(xb_tunables_load() == XB_OK, "load: %s", xb_err_detail());
    CHECK(xb_tn_UT_FIXED.v.i == 4, "env value %lld", xb_tn_UT_FIXED.v.i);
    setenv("XB_UT_FIXED", "5", 1);
    CHECK(xb_tunables_load() == XB_OK && xb_tn_UT_FIXED.v.i == 4,
          "a second load parsed again: %lld", xb_tn_UT_FIXED.v.i);
    unsetenv("XB_UT_FIXED");
}

static void test_live_int(void)
{
    MPI_T_cvar_handle h = handle("XB_UT_LIVE");
    int v = 50;
    hook_calls = 0;
    CHECK(MPI_T_cvar_write(h, &v) == MPI_SUCCESS, "write 50");
    CHECK(hook_calls == 1 && hook_seen == 50 && xb_tn_UT_LIVE.v.i == 50,
          "hook %d saw %lld, value %lld", hook_calls, hook_seen, xb_tn_UT_LIVE.v.i);
    CHECK(strcmp(xb_tn_UT_LIVE.source, "MPI_T") == 0, "source %s", xb_tn_UT_LIVE.source);
    v = 500;
    CHECK(MPI_T_cvar_write(h, &v) == MPI_T_ERR_INVALID, "500 accepted");
    CHECK(hook_calls == 3 && hook_seen == 50 && xb_tn_UT_LIVE.v.i == 50,
          "after a refusal: hook %d saw %lld, value %lld", hook_calls, hook_seen,
          xb_tn_UT_LIVE.v.i);
    CHECK(strstr(xb_err_detail(), "MPI_T_cvar_write") != NULL &&
          strstr(xb_err_detail(), "above 100") != NULL, "detail '%s'", xb_err_detail());
    CHECK(MPI_T_cvar_read(h, &v) == MPI_SUCCESS && v == 50, "read %d", v);
    CHECK(MPI_T_cvar_handle_free(&h) == MPI_SUCCESS, "free");

    h = handle("XB_UT_FIXED");
    v = 9;
    CHECK(MPI_T_cvar_write(h, &v) == MPI_T_ERR_CVAR_SET_NEVER && xb_tn_UT_FIXED.v.i == 4,
          "a fixed tunable was written");
    MPI_T_cvar_handle_free(&h);
}

static void test_live_string(void)
{
    MPI_T_cvar_handle h = handle("XB_UT_LIVE_STR");
    char buf[300], big[400];
    snprintf(buf, sizeof buf, "first");
    CHECK(MPI_T_cvar_write(h, buf) == MPI_SUCCESS, "write first");
    memset(buf, 'x', 10);           /* the writer's buffer changes: no effect */
    CHECK(strcmp(xb_tn_UT_LIVE_STR.v.s, "first") == 0, "value '%s'", xb_tn_UT_LIVE_STR.v.s);
    CHECK(MPI_T_cvar_write(h, "bad") == MPI_T_ERR_INVALID, "bad accepted");
    CHECK(MPI_T_cvar_read(h, buf) == MPI_SUCCESS && strcmp(buf, "first") == 0,
          "after a refusal: '%s'", buf);
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK(MPI_T_cvar_write(h, big) == MPI_T_ERR_INVALID, "a 399-character string accepted");
    CHECK(strcmp(xb_tn_UT_LIVE_STR.v.s, "first") == 0, "value '%s'", xb_tn_UT_LIVE_STR.v.s);
    MPI_T_cvar_handle_free(&h);
}

static void test_strout(void)
{
    char b[8];
    int len = 0;
    xb_mpit_strout("hello", NULL, &len);
    CHECK(len == 6, "length asked: %d", len);
    len = 3;
    xb_mpit_strout("hello", b, &len);
    CHECK(len == 3 && strcmp(b, "he") == 0, "truncated: '%s' %d", b, len);
    len = 8;
    xb_mpit_strout("hello", b, &len);
    CHECK(len == 6 && strcmp(b, "hello") == 0, "whole: '%s' %d", b, len);
}

int main(void)
{
    int provided;
    test_load_once();
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T init");
    test_live_int();
    test_live_string();
    test_strout();
    CHECK(MPI_T_finalize() == MPI_SUCCESS, "MPI_T finalize");
    if (failures != 0) {
        fprintf(stderr, "test_mpit: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_mpit: all passed\n");
    return 0;
}
