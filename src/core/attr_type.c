/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * attr_type.c - attributes on datatypes: MPI_Type_create_keyval,
 * _free_keyval, _set_attr, _get_attr, _delete_attr, and the two hooks the
 * datatype layer calls (dup copies the attributes through their copy
 * callbacks; free runs the delete callbacks).
 *
 * The datatype object is private to src/datatype, so its attribute lists
 * live here, in a side table keyed by the object's address (few datatypes
 * carry attributes; a list search is enough). Predefined datatypes may
 * carry attributes too.
 */
#include <stdlib.h>
#include "core/attr.h"
#include "xb_impl.h"

typedef struct entry {
    struct entry  *next;
    xb_datatype_t *dt;
    xb_attr_t     *attrs;
} entry_t;

static entry_t *table;

static entry_t **slot(const xb_datatype_t *dt)
{
    entry_t **p = &table;
    while (*p != NULL && (*p)->dt != dt)
        p = &(*p)->next;
    return p;
}

static xb_attr_t **list_of(xb_datatype_t *dt, bool create)
{
    entry_t **p = slot(dt);
    if (*p == NULL && create) {
        entry_t *e = calloc(1, sizeof(*e));
        if (e == NULL) {
            xb_err_set(XB_ERR_NO_MEM, "out of memory for a datatype attribute");
            return NULL;
        }
        e->dt = dt;
        *p = e;
    }
    return *p != NULL ? &(*p)->attrs : NULL;
}

/* Drop the entry of dt when its list became empty. */
static void prune(xb_datatype_t *dt)
{
    entry_t **p = slot(dt);
    if (*p != NULL && (*p)->attrs == NULL) {
        entry_t *e = *p;
        *p = e->next;
        free(e);
    }
}

int xb_attr_type_dup_hook(xb_datatype_t *old, xb_datatype_t *dup)
{
    xb_attr_t **src = list_of(old, false);
    if (src == NULL)
        return XB_OK;
    xb_attr_t **dst = list_of(dup, true);
    if (dst == NULL)
        return XB_ERR_NO_MEM;
    int rc = xb_attr_copy_all(XB_ATTR_TYPE, *src, xb_dt_to_handle(old), dst,
                              xb_dt_to_handle(dup));
    prune(dup);
    return rc;
}

int xb_attr_type_free_hook(xb_datatype_t *dt)
{
    xb_attr_t **l = list_of(dt, false);
    if (l == NULL)
        return XB_OK;
    int rc = xb_attr_delete_all(XB_ATTR_TYPE, l, xb_dt_to_handle(dt));
    prune(dt);
    return rc;
}

int xb_impl_type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                               MPI_Type_delete_attr_function *type_delete_attr_fn,
                               int *type_keyval, void *extra_state)
{
    return xb_keyval_create(XB_ATTR_TYPE, (void (*)(void))type_copy_attr_fn,
                            (void (*)(void))type_delete_attr_fn, extra_state,
                            type_keyval);
}

int xb_impl_type_free_keyval(int *type_keyval)
{
    return xb_keyval_free(XB_ATTR_TYPE, type_keyval);
}

int xb_impl_type_set_attr(xb_datatype_t *datatype, int type_keyval,
                          void *attribute_val)
{
    int rc = xb_keyval_check(XB_ATTR_TYPE, type_keyval);
    xb_attr_t **l = rc == XB_OK ? list_of(datatype, true) : NULL;
    if (rc != XB_OK || l == NULL)
        return rc != XB_OK ? rc : XB_ERR_NO_MEM;
    rc = xb_attr_set(XB_ATTR_TYPE, l, xb_dt_to_handle(datatype), type_keyval,
                     attribute_val);
    prune(datatype);
    return rc;
}

int xb_impl_type_get_attr(xb_datatype_t *datatype, int type_keyval,
                          void *attribute_val, int *flag)
{
    xb_attr_t **l = list_of(datatype, false);
    return xb_attr_get(XB_ATTR_TYPE, l != NULL ? *l : NULL, type_keyval,
                       (void **)attribute_val, flag);
}

int xb_impl_type_delete_attr(xb_datatype_t *datatype, int type_keyval)
{
    xb_attr_t *none = NULL;
    xb_attr_t **l = list_of(datatype, false);
    int rc = xb_attr_delete(XB_ATTR_TYPE, l != NULL ? l : &none,
                            xb_dt_to_handle(datatype), type_keyval);
    prune(datatype);
    return rc;
}

/* MPI_Finalize: forget the lists of datatypes never freed (no callbacks). */
void xb_attr_type_fini(void)
{
    while (table != NULL) {
        entry_t *e = table;
        table = e->next;
        while (e->attrs != NULL) {
            xb_attr_t *a = e->attrs;
            e->attrs = a->next;
            free(a);
        }
        free(e);
    }
}
