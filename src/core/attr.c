/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * attr.c - keyvals and attribute lists for every object kind (attr.h).
 * Keyvals live in a growing table indexed by keyval - XB_KEYVAL_FIRST; a
 * slot whose last reference is gone is reused by the next create.
 */
#include <stdlib.h>
#include <string.h>
#include "core/attr.h"
#include "util/xb_mt.h"
#include "core/errhandler.h"

typedef struct {
    bool            used;
    bool            user_freed;    /* MPI_*_free_keyval was called        */
    xb_attr_kind_t  kind;
    int             refs;          /* user's handle + attributes using it */
    void          (*copy)(void);
    void          (*del)(void);
    void           *extra;
} keyval_t;

static keyval_t *kv;
static int nkv;

static const char *kind_name(xb_attr_kind_t k)
{
    static const char *const n[] = { "communicators", "datatypes", "windows" };
    return n[k];
}

int xb_keyval_create(xb_attr_kind_t kind, void (*copy)(void), void (*del)(void),
                     void *extra_state, int *keyval_p)
{
    int i = 0;
    while (i < nkv && kv[i].used)
        i++;
    if (i == nkv) {
        int n = nkv ? 2 * nkv : 16;
        keyval_t *t = realloc(kv, (size_t)n * sizeof(*t));
        if (t == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "out of memory for a keyval");
        memset(t + nkv, 0, (size_t)(n - nkv) * sizeof(*t));
        kv = t;
        nkv = n;
    }
    kv[i] = (keyval_t){ .used = true, .kind = kind, .refs = 1, .copy = copy,
                        .del = del, .extra = extra_state };
    *keyval_p = XB_KEYVAL_FIRST + i;
    return XB_OK;
}

static keyval_t *lookup(int keyval)
{
    int i = keyval - XB_KEYVAL_FIRST;
    return i >= 0 && i < nkv && kv[i].used ? &kv[i] : NULL;
}

static void kv_release(keyval_t *k)
{
    if (--k->refs == 0)
        memset(k, 0, sizeof(*k));
}

int xb_keyval_check(xb_attr_kind_t kind, int keyval)
{
    keyval_t *k = lookup(keyval);
    if (keyval == MPI_KEYVAL_INVALID)
        return xb_err_set(XB_ERR_KEYVAL, "invalid keyval: MPI_KEYVAL_INVALID");
    if (k == NULL || k->user_freed)
        return xb_err_set(XB_ERR_KEYVAL, "invalid keyval %d: %s", keyval,
                          keyval < XB_KEYVAL_FIRST && keyval > 0
                          ? "a predefined attribute key cannot be set, deleted "
                            "or freed" : k == NULL ? "no such keyval"
                          : "it was freed");
    if (k->kind != kind)
        return xb_err_set(XB_ERR_KEYVAL, "invalid keyval %d: it was created for "
                          "%s, not %s", keyval, kind_name(k->kind), kind_name(kind));
    return XB_OK;
}

int xb_keyval_free(xb_attr_kind_t kind, int *keyval_p)
{
    int rc = xb_keyval_check(kind, *keyval_p);
    if (rc != XB_OK)
        return rc;
    keyval_t *k = lookup(*keyval_p);
    k->user_freed = true;
    kv_release(k);
    *keyval_p = MPI_KEYVAL_INVALID;
    return XB_OK;
}

/* A callback's return code as our rc (detail recorded). */
static int cb_error(const char *what, int keyval, int code)
{
    int cls = MPI_ERR_OTHER;
    bool user = xb_errcode_class(code, &cls) == XB_OK && cls > XB_ERRCODE_PREDEF_LAST;
    if (user || cls <= 0 || cls > XB_ERRCODE_PREDEF_LAST)
        cls = MPI_ERR_OTHER;          /* user classes have no XB_ERR_ form */
    int rc = xb_err_set(-cls, "the %s callback of keyval %d returned error code %d",
                        what, keyval, code);
    if (user)                         /* the call returns the user's own code */
        xb_errh_pass_code(code);
    return rc;
}

static int call_delete(xb_attr_kind_t kind, keyval_t *k, void *handle, int keyval,
                       void *val)
{
    if ((uintptr_t)k->del <= 1)          /* MPI_*_NULL_DELETE_FN */
        return XB_OK;
    int code;
    xb_mutex_t *held = xb_cb_begin();    /* no lock across a user callback */
    switch (kind) {
    case XB_ATTR_COMM:
        code = ((MPI_Comm_delete_attr_function *)(void *)k->del)(
            (MPI_Comm)handle, keyval, val, k->extra);
        break;
    case XB_ATTR_TYPE:
        code = ((MPI_Type_delete_attr_function *)(void *)k->del)(
            (MPI_Datatype)handle, keyval, val, k->extra);
        break;
    default:
        code = ((MPI_Win_delete_attr_function *)(void *)k->del)(
            (MPI_Win)handle, keyval, val, k->extra);
        break;
    }
    xb_cb_end(held);
    return code == MPI_SUCCESS ? XB_OK : cb_error("delete", keyval, code);
}

/* Runs the copy callback; *flag = 1 and *out set when the value is copied. */
static int call_copy(xb_attr_kind_t kind, keyval_t *k, void *handle, int keyval,
                     void *in, void **out, int *flag)
{
    *flag = 0;
    if ((uintptr_t)k->copy == 0)          /* MPI_*_NULL_COPY_FN */
        return XB_OK;
    if ((uintptr_t)k->copy == 1) {        /* MPI_*_DUP_FN */
        *out = in;
        *flag = 1;
        return XB_OK;
    }
    int code;
    xb_mutex_t *held = xb_cb_begin();
    switch (kind) {
    case XB_ATTR_COMM:
        code = ((MPI_Comm_copy_attr_function *)(void *)k->copy)(
            (MPI_Comm)handle, keyval, k->extra, in, (void *)out, flag);
        break;
    case XB_ATTR_TYPE:
        code = ((MPI_Type_copy_attr_function *)(void *)k->copy)(
            (MPI_Datatype)handle, keyval, k->extra, in, (void *)out, flag);
        break;
    default:
        code = ((MPI_Win_copy_attr_function *)(void *)k->copy)(
            (MPI_Win)handle, keyval, k->extra, in, (void *)out, flag);
        break;
    }
    xb_cb_end(held);
    if (code != MPI_SUCCESS) {
        *flag = 0;
        return cb_error("copy", keyval, code);
    }
    return XB_OK;
}

static xb_attr_t **find(xb_attr_t **list, int keyval)
{
    while (*list != NULL && (*list)->keyval != keyval)
        list = &(*list)->next;
    return list;
}

/* Append without callbacks (the keyval is valid). */
static int append(xb_attr_t **list, int keyval, void *val)
{
    xb_attr_t **end = find(list, keyval);
    xb_attr_t *a = malloc(sizeof(*a));
    if (a == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for an attribute");
    *a = (xb_attr_t){ NULL, keyval, val };
    *end = a;
    lookup(keyval)->refs++;
    return XB_OK;
}

int xb_attr_set(xb_attr_kind_t kind, xb_attr_t **list, void *handle, int keyval,
                void *val)
{
    int rc = xb_keyval_check(kind, keyval);
    if (rc != XB_OK)
        return rc;
    xb_attr_t **p = find(list, keyval);
    if (*p == NULL)
        return append(list, keyval, val);
    rc = call_delete(kind, lookup(keyval), handle, keyval, (*p)->val);
    if (rc == XB_OK)
        (*p)->val = val;
    return rc;
}

int xb_attr_get(xb_attr_kind_t kind, xb_attr_t *list, int keyval, void **val_p,
                int *flag)
{
    keyval_t *k = lookup(keyval);
    if (k == NULL || k->kind != kind || (k->user_freed && *find(&list, keyval) == NULL))
        return xb_keyval_check(kind, keyval);
    xb_attr_t *a = *find(&list, keyval);
    *flag = a != NULL;
    if (a != NULL)
        *val_p = a->val;
    return XB_OK;
}

/* Unlink and free the node *p (its keyval reference too). */
static void drop(xb_attr_t **p)
{
    xb_attr_t *a = *p;
    *p = a->next;
    kv_release(lookup(a->keyval));
    free(a);
}

int xb_attr_delete(xb_attr_kind_t kind, xb_attr_t **list, void *handle, int keyval)
{
    keyval_t *k = lookup(keyval);
    if (k == NULL || k->kind != kind)
        return xb_keyval_check(kind, keyval);
    xb_attr_t **p = find(list, keyval);
    if (*p == NULL) {
        if (k->user_freed)
            return xb_keyval_check(kind, keyval);
        return xb_err_set(XB_ERR_KEYVAL, "keyval %d has no attribute on this "
                          "object", keyval);
    }
    int rc = call_delete(kind, k, handle, keyval, (*p)->val);
    if (rc == XB_OK)
        drop(p);
    return rc;
}

int xb_attr_copy_all(xb_attr_kind_t kind, xb_attr_t *src, void *src_handle,
                     xb_attr_t **dst, void *dst_handle)
{
    for (xb_attr_t *a = src; a != NULL; a = a->next) {
        void *out = NULL;
        int flag = 0;
        int rc = call_copy(kind, lookup(a->keyval), src_handle, a->keyval, a->val,
                           &out, &flag);
        if (rc == XB_OK && flag)
            rc = append(dst, a->keyval, out);
        if (rc != XB_OK) {
            char saved[256];
            strncpy(saved, xb_err_detail(), sizeof(saved) - 1);
            saved[sizeof(saved) - 1] = '\0';
            int user = xb_errh_passed_code();
            xb_attr_delete_all(kind, dst, dst_handle);
            rc = xb_err_set(rc, "%s", saved);
            if (user != 0)
                xb_errh_pass_code(user);
            return rc;
        }
    }
    return XB_OK;
}

int xb_attr_delete_all(xb_attr_kind_t kind, xb_attr_t **list, void *handle)
{
    int first_rc = XB_OK;
    while (*list != NULL) {
        xb_attr_t **last = list;           /* newest first */
        while ((*last)->next != NULL)
            last = &(*last)->next;
        int rc = call_delete(kind, lookup((*last)->keyval), handle,
                             (*last)->keyval, (*last)->val);
        if (rc != XB_OK && first_rc == XB_OK)
            first_rc = rc;
        drop(last);
    }
    return first_rc;
}

void xb_attr_fini(void)
{
    free(kv);
    kv = NULL;
    nkv = 0;
}
