/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * attr_deprecated.c - the deprecated MPI-1 attribute functions
 * (MPI_Keyval_create/_free, MPI_Attr_put/_get/_delete): MPI_NULL_COPY_FN
 * (not copied by MPI_Comm_dup), MPI_DUP_FN (the value is copied), a user
 * copy function, MPI_NULL_DELETE_FN and a user delete function (called on
 * replace, delete and MPI_Comm_free); the keyvals are the same as the
 * MPI_Comm_ ones (MPI_Comm_get_attr sees an MPI_Attr_put value); predefined
 * attributes through MPI_Attr_get; errors: a freed keyval, a predefined key
 * to MPI_Attr_put and MPI_Keyval_free.
 */
#include "ctest.h"
#include "cexpect.h"

static int ndel, ncopy;

static int del_fn(MPI_Comm c, int k, void *val, void *extra)
{
    (void)c; (void)k;
    CHECK(extra == &ndel, "delete: wrong extra_state");
    ndel += (int)(intptr_t)val;
    return MPI_SUCCESS;
}

static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)k; (void)extra;
    ncopy++;
    *(void **)out = (void *)((intptr_t)in * 10);
    *flag = 1;
    return MPI_SUCCESS;
}

static void *get(MPI_Comm c, int key, int *flag)
{
    void *v = NULL;
    CHECK_RC(MPI_Attr_get(c, key, &v, flag));
    return v;
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int knull, kdup, kuser, flag;
    CHECK_RC(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &knull, NULL));
    CHECK_RC(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kdup, NULL));
    CHECK_RC(MPI_Keyval_create(copy_fn, del_fn, &kuser, &ndel));
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    CHECK_RC(MPI_Attr_put(c, knull, (void *)11));
    CHECK_RC(MPI_Attr_put(c, kdup, (void *)22));
    CHECK_RC(MPI_Attr_put(c, kuser, (void *)3));
    CHECK(get(c, kdup, &flag) == (void *)22 && flag, "MPI_Attr_get after put");
    void *v = NULL;
    CHECK_RC(MPI_Comm_get_attr(c, kuser, &v, &flag));
    CHECK(flag && v == (void *)3, "MPI_Comm_get_attr sees %p", v);
    CHECK_RC(MPI_Attr_put(c, kuser, (void *)4));          /* replace: delete(3) */
    CHECK(ndel == 3, "delete on replace: %d", ndel);

    MPI_Comm d;
    MPI_Comm_dup(c, &d);
    get(d, knull, &flag);
    CHECK(!flag, "MPI_NULL_COPY_FN copied the attribute");
    CHECK(get(d, kdup, &flag) == (void *)22 && flag, "MPI_DUP_FN did not copy");
    CHECK(get(d, kuser, &flag) == (void *)40 && flag && ncopy == 1, "user copy: ncopy %d",
          ncopy);
    CHECK_RC(MPI_Attr_delete(d, kuser));                   /* delete(40) */
    CHECK(ndel == 43, "delete on MPI_Attr_delete: %d", ndel);
    get(d, kuser, &flag);
    CHECK(!flag, "attribute still there after MPI_Attr_delete");
    MPI_Comm_free(&d);
    CHECK(ndel == 43, "delete called for a deleted attribute: %d", ndel);

    CHECK_RC(MPI_Keyval_free(&kuser));
    CHECK(kuser == MPI_KEYVAL_INVALID, "MPI_Keyval_free did not reset the key");
    MPI_Comm_free(&c);                                     /* delete(4) still runs */
    CHECK(ndel == 47, "delete on MPI_Comm_free after MPI_Keyval_free: %d", ndel);

    int *tag_ub = NULL;
    CHECK_RC(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag && tag_ub != NULL && *tag_ub >= 32767, "MPI_TAG_UB through MPI_Attr_get");

    int freed = knull;
    CHECK_RC(MPI_Keyval_free(&knull));
    EXPECT(MPI_Attr_put(MPI_COMM_WORLD, freed, NULL), MPI_ERR_KEYVAL, "MPI_Attr_put", NULL);
    EXPECT(MPI_Attr_put(MPI_COMM_WORLD, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL, "MPI_Attr_put",
           NULL);
    int pre = MPI_TAG_UB;
    EXPECT(MPI_Keyval_free(&pre), MPI_ERR_KEYVAL, "MPI_Keyval_free", NULL);
    CHECK_RC(MPI_Keyval_free(&kdup));
    return ct_finish();
}
