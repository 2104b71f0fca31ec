/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * attr.c - attributes and keyvals on communicators and datatypes:
 * predefined attributes (MPI_TAG_UB >= 32767, MPI_HOST, MPI_IO,
 * MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE moves with
 * MPI_Add_error_class); set/get/delete; copy callbacks on MPI_Comm_dup and
 * MPI_Type_dup (NULL_COPY, DUP_FN, a user function that refuses with
 * flag = 0, one that returns an error: the dup fails with its class, and
 * one that returns a code of a user class: the dup returns that code);
 * delete callbacks on replace, delete, MPI_Comm_free, MPI_Type_free and
 * MPI_Finalize (COMM_SELF), newest attribute first; a keyval stays usable
 * after MPI_*_free_keyval while attributes use it; a datatype keyval on a
 * communicator and a predefined key are MPI_ERR_KEYVAL.
 */
#include "ctest.h"

static char log_[256];
static int nlog;

static void note(char what, int key_index)
{
    if (nlog < 250) {
        log_[nlog++] = what;
        log_[nlog++] = (char)('0' + key_index);
        log_[nlog] = '\0';
    }
}

static int copy_plus1(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)k;
    note('c', *(int *)extra);
    *(void **)out = (void *)((char *)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_refuse(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)k; (void)in; (void)out;
    note('c', *(int *)extra);
    *flag = 0;
    return MPI_SUCCESS;
}

static int copy_fail(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)k; (void)extra; (void)in; (void)out;
    *flag = 0;
    return MPI_ERR_SPAWN;
}

static int user_code;            /* a code of a user class (MPI_Add_error_code) */

static int copy_fail_user(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)k; (void)extra; (void)in; (void)out;
    *flag = 0;
    return user_code;
}

static int del_note(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c; (void)k; (void)val;
    note('d', *(int *)extra);
    return MPI_SUCCESS;
}

static int tcopy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)t; (void)k;
    note('C', *(int *)extra);
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int tdel(MPI_Datatype t, int k, void *val, void *extra)
{
    (void)t; (void)k; (void)val;
    note('D', *(int *)extra);
    return MPI_SUCCESS;
}

static int self_del(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c; (void)k; (void)val; (void)extra;
    /* runs inside MPI_Finalize: MPI must still work */
    int flag = 0;
    MPI_Initialized(&flag);
    int sum = 0, one = 1;
    if (MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS ||
        sum != ct_size || !flag) {
        printf("rank %d: FAIL: MPI unusable in a COMM_SELF delete callback\n", ct_rank);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return MPI_SUCCESS;
}

static void predefined(void)
{
    int *v, flag = 0;
    CHECK_RC(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    CHECK(flag && *v >= 32767, "MPI_TAG_UB");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &v, &flag);
    CHECK(flag && (*v == MPI_PROC_NULL || (*v >= 0 && *v < ct_size)), "MPI_HOST");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &v, &flag);
    CHECK(flag && (*v == MPI_ANY_SOURCE || *v == MPI_PROC_NULL || *v >= 0), "MPI_IO");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag);
    CHECK(!flag || *v == 0 || *v == 1, "MPI_WTIME_IS_GLOBAL");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag);
    CHECK(!flag || *v >= ct_size, "MPI_UNIVERSE_SIZE %d", flag ? *v : -1);
    int before, after, cls;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag);
    CHECK(flag, "MPI_LASTUSEDCODE missing");
    before = *v;
    MPI_Add_error_class(&cls);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag);
    after = *v;
    CHECK(after >= cls && after > before, "MPI_LASTUSEDCODE %d -> %d (class %d)",
          before, after, cls);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    predefined();
    static int idx[5] = { 0, 1, 2, 3, 4 };
    int k0, k1, k2, k3;
    CHECK_RC(MPI_Comm_create_keyval(copy_plus1, del_note, &k0, &idx[0]));
    CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, del_note, &k1, &idx[1]));
    CHECK_RC(MPI_Comm_create_keyval(copy_refuse, del_note, &k2, &idx[2]));
    CHECK_RC(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k3, NULL));
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    char base[8];
    MPI_Comm_set_attr(a, k0, base);
    MPI_Comm_set_attr(a, k1, base + 2);
    MPI_Comm_set_attr(a, k2, base + 4);
    MPI_Comm_set_attr(a, k3, base + 6);
    nlog = 0;
    CHECK_RC(MPI_Comm_dup(a, &b));
    CHECK(strcmp(log_, "c0c2") == 0, "copy callbacks ran '%s'", log_);
    void *v;
    int flag;
    MPI_Comm_get_attr(b, k0, &v, &flag);
    CHECK(flag && v == base + 1, "copy_plus1 value");
    MPI_Comm_get_attr(b, k1, &v, &flag);
    CHECK(flag && v == base + 2, "DUP_FN value");
    MPI_Comm_get_attr(b, k2, &v, &flag);
    CHECK(!flag, "refused copy present");
    MPI_Comm_get_attr(b, k3, &v, &flag);
    CHECK(!flag, "NULL_COPY_FN copied");
    nlog = 0;
    MPI_Comm_set_attr(b, k0, base + 3);            /* replace: delete old */
    CHECK(strcmp(log_, "d0") == 0, "replace ran '%s'", log_);
    nlog = 0;
    CHECK_RC(MPI_Comm_delete_attr(b, k1));
    CHECK(strcmp(log_, "d1") == 0, "delete ran '%s'", log_);
    MPI_Comm_get_attr(b, k1, &v, &flag);
    CHECK(!flag, "deleted attribute still there");
    CHECK(ct_class(MPI_Comm_delete_attr(b, k1)) == MPI_ERR_KEYVAL, "delete twice");
    nlog = 0;
    CHECK_RC(MPI_Comm_free(&b));
    CHECK(strcmp(log_, "d0") == 0, "free of b ran '%s'", log_);
    /* free the keyval first: attributes still work */
    CHECK_RC(MPI_Comm_free_keyval(&k1));
    CHECK(k1 == MPI_KEYVAL_INVALID, "free_keyval resets the handle");
    nlog = 0;
    CHECK_RC(MPI_Comm_free(&a));
    CHECK(strcmp(log_, "d2d1d0") == 0, "free of a ran '%s' (newest first)", log_);

    /* a failing copy callback fails the dup */
    int kf;
    MPI_Comm_create_keyval(copy_fail, MPI_COMM_NULL_DELETE_FN, &kf, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_attr(a, kf, NULL);
    b = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(a, &b);
    CHECK(ct_class(rc) == MPI_ERR_SPAWN, "failing copy: class %d", ct_class(rc));
    CHECK(b == MPI_COMM_NULL, "failing copy: newcomm set");
    MPI_Comm_free(&a);
    MPI_Comm_free_keyval(&kf);
    /* one that returns a code of a user class: the dup returns that code */
    int ucls;
    CHECK_RC(MPI_Add_error_class(&ucls));
    CHECK_RC(MPI_Add_error_code(ucls, &user_code));
    CHECK_RC(MPI_Add_error_string(user_code, "the user's copy failure"));
    MPI_Comm_create_keyval(copy_fail_user, MPI_COMM_NULL_DELETE_FN, &kf, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_attr(a, kf, NULL);
    rc = MPI_Comm_dup(a, &b);
    char es[MPI_MAX_ERROR_STRING];
    int elen = 0;
    MPI_Error_string(rc, es, &elen);
    CHECK(rc == user_code && ct_class(rc) == ucls && strcmp(es, "the user's copy failure") == 0,
          "user-class copy failure: code %d (want %d), class %d, '%s'", rc, user_code,
          ct_class(rc), es);
    CHECK(b == MPI_COMM_NULL, "user-class copy failure: newcomm set");
    MPI_Comm_free(&a);
    MPI_Comm_free_keyval(&kf);

    /* datatypes */
    int tk;
    CHECK_RC(MPI_Type_create_keyval(tcopy, tdel, &tk, &idx[4]));
    MPI_Datatype t, t2;
    MPI_Type_contiguous(2, MPI_INT, &t);
    CHECK_RC(MPI_Type_set_attr(t, tk, base));
    nlog = 0;
    CHECK_RC(MPI_Type_dup(t, &t2));
    CHECK(strcmp(log_, "C4") == 0, "type copy ran '%s'", log_);
    MPI_Type_get_attr(t2, tk, &v, &flag);
    CHECK(flag && v == base, "type attribute not copied");
    nlog = 0;
    MPI_Type_free(&t2);
    MPI_Type_free(&t);
    CHECK(strcmp(log_, "D4D4") == 0, "type deletes ran '%s'", log_);
    CHECK(ct_class(MPI_Comm_set_attr(MPI_COMM_WORLD, tk, NULL)) == MPI_ERR_KEYVAL,
          "datatype keyval on a communicator");
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(MPI_Comm_set_attr(MPI_COMM_WORLD, tk, NULL), msg, &len);
    CHECK(strstr(msg, "datatypes") != NULL, "wrong-kind message: %s", msg);
    CHECK(ct_class(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL)) == MPI_ERR_KEYVAL,
          "setting MPI_TAG_UB");
    MPI_Type_free_keyval(&tk);
    MPI_Comm_free_keyval(&k0);
    MPI_Comm_free_keyval(&k2);
    MPI_Comm_free_keyval(&k3);

    int ks;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del, &ks, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, ks, NULL);
    MPI_Comm_free_keyval(&ks);
    return ct_finish();
}
