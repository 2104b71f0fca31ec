/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_attr.c - the keyval/attribute engine (src/core/attr.c) without a
 * job: keyval numbering and reuse, set/get/replace/delete with their
 * callbacks, copy_all (NULL_COPY, DUP_FN, user copy, refusal, failure with
 * undo), delete_all newest first, a keyval freed while in use, and the
 * wrong-kind and invalid-keyval errors.
 */
#include <stdio.h>
#include <string.h>
#include "core/attr.h"

static int failures;
#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                      \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
        }                                                                    \
    } while (0)

static char trace[128];

static void add(char c, int k)
{
    size_t n = strlen(trace);
    if (n + 3 < sizeof(trace)) {
        trace[n] = c;
        trace[n + 1] = (char)('0' + k % 10);
        trace[n + 2] = '\0';
    }
}

static int del_cb(MPI_Comm c, int k, void *v, void *x)
{
    (void)c; (void)v; (void)x;
    add('d', k);
    return MPI_SUCCESS;
}

static int del_fail(MPI_Comm c, int k, void *v, void *x)
{
    (void)c; (void)v; (void)x;
    add('f', k);
    return MPI_ERR_NO_MEM;
}

static int copy_double(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c; (void)x;
    add('c', k);
    *(void **)out = (void *)((uintptr_t)in * 2);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_fail(MPI_Comm c, int k, void *x, void *in, void *out, int *flag)
{
    (void)c; (void)x; (void)in; (void)out;
    add('x', k);
    *flag = 1;
    return MPI_ERR_TAG;
}

#define FN(f) ((void (*)(void))(f))

int main(void)
{
    int k1, k2, k3, kt;
    void *H1 = (void *)0x10000, *H2 = (void *)0x20000;   /* fake handles */
    CHECK(xb_keyval_create(XB_ATTR_COMM, FN(copy_double), FN(del_cb), NULL, &k1) == 0, "k1");
    CHECK(xb_keyval_create(XB_ATTR_COMM, FN(1), FN(del_cb), NULL, &k2) == 0, "k2");
    CHECK(xb_keyval_create(XB_ATTR_COMM, FN(0), FN(0), NULL, &k3) == 0, "k3");
    CHECK(xb_keyval_create(XB_ATTR_TYPE, FN(0), FN(0), NULL, &kt) == 0, "kt");
    CHECK(k1 >= XB_KEYVAL_FIRST && k2 == k1 + 1 && k3 == k2 + 1, "numbering %d %d %d",
          k1, k2, k3);

    xb_attr_t *a = NULL, *b = NULL;
    void *v = NULL;
    int flag = -1;
    CHECK(xb_attr_get(XB_ATTR_COMM, a, k1, &v, &flag) == 0 && flag == 0, "empty get");
    xb_attr_set(XB_ATTR_COMM, &a, H1, k1, (void *)3);
    xb_attr_set(XB_ATTR_COMM, &a, H1, k2, (void *)5);
    xb_attr_set(XB_ATTR_COMM, &a, H1, k3, (void *)7);
    trace[0] = '\0';
    xb_attr_set(XB_ATTR_COMM, &a, H1, k2, (void *)6);           /* replace */
    CHECK(strcmp(trace, "d") == 0 || trace[0] == 'd', "replace deletes: %s", trace);
    xb_attr_get(XB_ATTR_COMM, a, k2, &v, &flag);
    CHECK(flag == 1 && v == (void *)6, "replaced value");

    trace[0] = '\0';
    CHECK(xb_attr_copy_all(XB_ATTR_COMM, a, H1, &b, H2) == 0, "copy_all");
    CHECK(trace[0] == 'c' && strlen(trace) == 2, "only the user copy ran: %s", trace);
    xb_attr_get(XB_ATTR_COMM, b, k1, &v, &flag);
    CHECK(flag && v == (void *)6, "user copy doubled: %p", v);
    xb_attr_get(XB_ATTR_COMM, b, k2, &v, &flag);
    CHECK(flag && v == (void *)6, "DUP_FN copied");
    xb_attr_get(XB_ATTR_COMM, b, k3, &v, &flag);
    CHECK(!flag, "NULL_COPY_FN not copied");

    /* free keyval k1 while attributes use it: still readable */
    int k1c = k1;
    CHECK(xb_keyval_free(XB_ATTR_COMM, &k1c) == 0 && k1c == MPI_KEYVAL_INVALID, "free k1");
    xb_attr_get(XB_ATTR_COMM, a, k1, &v, &flag);
    CHECK(flag && v == (void *)3, "attribute of a freed keyval");
    CHECK(xb_attr_set(XB_ATTR_COMM, &a, H1, k1, NULL) == XB_ERR_KEYVAL,
          "no new value on a freed keyval");

    trace[0] = '\0';
    CHECK(xb_attr_delete_all(XB_ATTR_COMM, &b, H2) == 0 && b == NULL, "delete_all b");
    /* b holds k1, k2 (in that order): newest first */
    char want[16];
    snprintf(want, sizeof(want), "d%dd%d", k2 % 10, k1 % 10);
    CHECK(strcmp(trace, want) == 0, "delete order %s want %s", trace, want);
    xb_attr_delete_all(XB_ATTR_COMM, &a, H1);
    /* k1's last user is gone: its number is reused */
    int k4;
    xb_keyval_create(XB_ATTR_COMM, FN(copy_fail), FN(del_fail), NULL, &k4);
    CHECK(k4 == k1, "freed keyval number reused: %d vs %d", k4, k1);

    /* failing copy: undo, class of the callback's code */
    xb_attr_set(XB_ATTR_COMM, &a, H1, k2, (void *)1);
    xb_attr_set(XB_ATTR_COMM, &a, H1, k4, (void *)2);
    trace[0] = '\0';
    int rc = xb_attr_copy_all(XB_ATTR_COMM, a, H1, &b, H2);
    CHECK(rc == -MPI_ERR_TAG, "failing copy rc %d", rc);
    CHECK(b == NULL, "failed copy leaves nothing");
    CHECK(strstr(xb_err_detail(), "copy callback") != NULL, "detail: %s", xb_err_detail());
    rc = xb_attr_delete(XB_ATTR_COMM, &a, H1, k4);
    CHECK(rc == XB_ERR_NO_MEM, "failing delete rc %d", rc);
    xb_attr_get(XB_ATTR_COMM, a, k4, &v, &flag);
    CHECK(flag, "a failed delete keeps the attribute");

    /* kinds and invalid keyvals */
    CHECK(xb_attr_set(XB_ATTR_COMM, &a, H1, kt, NULL) == XB_ERR_KEYVAL, "type keyval on comm");
    CHECK(strstr(xb_err_detail(), "datatypes") != NULL, "kind named: %s", xb_err_detail());
    CHECK(xb_attr_set(XB_ATTR_COMM, &a, H1, MPI_TAG_UB, NULL) == XB_ERR_KEYVAL, "predefined");
    CHECK(xb_attr_get(XB_ATTR_COMM, a, 99999, &v, &flag) == XB_ERR_KEYVAL, "no such keyval");
    CHECK(xb_keyval_free(XB_ATTR_TYPE, &k2) == XB_ERR_KEYVAL, "free with the wrong kind");
    xb_attr_delete_all(XB_ATTR_COMM, &a, H1);
    xb_attr_fini();
    if (failures == 0)
        printf("test_attr: all passed\n");
    return failures != 0;
}
