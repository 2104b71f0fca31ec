/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * info.c - the Info API: set/get/replace/delete, insertion order of
 * get_nthkey, get_valuelen, get_string (length query with buflen 0,
 * truncation), dup independence, MPI_INFO_ENV (maxprocs = world size, host
 * = MPI_Get_processor_name, command present, read-only), and the errors:
 * a too-long key, deleting a missing key, nthkey out of range, freeing
 * MPI_INFO_ENV, a freed handle.
 */
#include "ctest.h"

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Info info, dup;
    CHECK_RC(MPI_Info_create(&info));
    int n = -1, flag = 0, len = 0;
    MPI_Info_get_nkeys(info, &n);
    CHECK(n == 0, "new info has %d keys", n);
    CHECK_RC(MPI_Info_set(info, "b", "2"));
    CHECK_RC(MPI_Info_set(info, "a", "one"));
    CHECK_RC(MPI_Info_set(info, "c", "three"));
    CHECK_RC(MPI_Info_set(info, "a", "uno"));       /* replace keeps position */
    MPI_Info_get_nkeys(info, &n);
    CHECK(n == 3, "nkeys %d", n);
    char key[MPI_MAX_INFO_KEY], val[MPI_MAX_INFO_VAL];
    const char *order[3] = { "b", "a", "c" };
    for (int i = 0; i < 3 && n == 3; i++) {
        MPI_Info_get_nthkey(info, i, key);
        CHECK(strcmp(key, order[i]) == 0, "key %d is %s want %s", i, key, order[i]);
    }
    MPI_Info_get(info, "a", MPI_MAX_INFO_VAL - 1, val, &flag);
    CHECK(flag && strcmp(val, "uno") == 0, "get a = %s", val);
    MPI_Info_get(info, "c", 2, val, &flag);        /* truncated to 2 chars */
    CHECK(flag && strcmp(val, "th") == 0, "truncated get = %s", val);
    MPI_Info_get(info, "zz", 10, val, &flag);
    CHECK(!flag, "missing key found");
    MPI_Info_get_valuelen(info, "c", &len, &flag);
    CHECK(flag && len == 5, "valuelen %d", len);
    int buflen = 0;
    CHECK_RC(MPI_Info_get_string(info, "c", &buflen, NULL, &flag));
    CHECK(flag && buflen == 6, "get_string length query %d", buflen);
    buflen = 4;
    MPI_Info_get_string(info, "c", &buflen, val, &flag);
    CHECK(flag && buflen == 6 && strcmp(val, "thr") == 0, "get_string short %s %d", val, buflen);

    CHECK_RC(MPI_Info_dup(info, &dup));
    MPI_Info_delete(info, "b");
    MPI_Info_get_nkeys(dup, &n);
    CHECK(n == 3, "dup changed with the original (%d)", n);
    MPI_Info_get_nkeys(info, &n);
    CHECK(n == 2, "delete: nkeys %d", n);
    MPI_Info_get_nthkey(info, 0, key);
    CHECK(strcmp(key, "a") == 0, "after delete key 0 = %s", key);

    /* errors */
    char longkey[MPI_MAX_INFO_KEY + 10];
    memset(longkey, 'k', sizeof(longkey) - 1);
    longkey[sizeof(longkey) - 1] = '\0';
    CHECK(ct_class(MPI_Info_set(info, longkey, "v")) == MPI_ERR_INFO_KEY, "long key");
    CHECK(ct_class(MPI_Info_delete(info, "nope")) == MPI_ERR_INFO_NOKEY, "delete missing");
    CHECK(ct_class(MPI_Info_get_nthkey(info, 2, key)) == MPI_ERR_ARG, "nthkey range");
    MPI_Info env = MPI_INFO_ENV;
    CHECK(ct_class(MPI_Info_free(&env)) == MPI_ERR_INFO, "free MPI_INFO_ENV");
    CHECK(ct_class(MPI_Info_set(MPI_INFO_ENV, "x", "y")) == MPI_ERR_INFO, "set on ENV");

    /* MPI_INFO_ENV */
    MPI_Info_get(MPI_INFO_ENV, "maxprocs", 30, val, &flag);
    CHECK(flag && atoi(val) == ct_size, "maxprocs %s", flag ? val : "(none)");
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(host, &len);
    MPI_Info_get(MPI_INFO_ENV, "host", MPI_MAX_INFO_VAL - 1, val, &flag);
    CHECK(flag && strcmp(val, host) == 0, "host %s want %s", flag ? val : "(none)", host);
    MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL - 1, val, &flag);
    CHECK(flag && strstr(val, "info") != NULL, "command %s", flag ? val : "(none)");
    MPI_Info_get(MPI_INFO_ENV, "thread_level", MPI_MAX_INFO_VAL - 1, val, &flag);
    CHECK(flag && strcmp(val, "MPI_THREAD_SINGLE") == 0, "thread_level %s",
          flag ? val : "(none)");

    /* Info_create_env from our own arguments */
    char a0[] = "prog", a1[] = "-x", a2[] = "7";
    char *av[] = { a0, a1, a2, NULL };
    MPI_Info ce;
    CHECK_RC(MPI_Info_create_env(3, av, &ce));
    MPI_Info_get(ce, "command", MPI_MAX_INFO_VAL - 1, val, &flag);
    CHECK(flag && strcmp(val, "prog") == 0, "create_env command %s", flag ? val : "-");
    MPI_Info_get(ce, "argv", MPI_MAX_INFO_VAL - 1, val, &flag);
    CHECK(flag && strcmp(val, "-x 7") == 0, "create_env argv %s", flag ? val : "-");
    MPI_Info_get(ce, "maxprocs", 30, val, &flag);
    CHECK(flag && atoi(val) == ct_size, "create_env maxprocs");
    MPI_Info_free(&ce);

    MPI_Info stale = info;
    CHECK_RC(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "free sets MPI_INFO_NULL");
    CHECK(ct_class(MPI_Info_get_nkeys(stale, &n)) == MPI_ERR_INFO, "freed handle");
    MPI_Info_free(&dup);
    return ct_finish();
}
