/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * attr.h - the keyval/attribute engine shared by every object kind that
 * caches attributes (communicators, datatypes, later windows).
 *
 * Keyvals. xb_keyval_create makes a keyval of one kind with a copy and a
 * delete callback (the kind's MPI function types, stored as void (*)(void);
 * the null and dup callbacks are the ABI values 0 and 1 of MPI_*_NULL_COPY_FN,
 * MPI_*_DUP_FN and MPI_*_NULL_DELETE_FN). Keyval numbers start at
 * XB_KEYVAL_FIRST (predefined attribute keys are below it). A keyval lives
 * while the user holds it or an attribute uses it: MPI_*_free_keyval only
 * drops the user's reference, so attributes set with it keep working.
 *
 * Attributes. An object owns a list (xb_attr_t *, NULL when empty) in the
 * order the keys were first set. The engine runs the callbacks:
 *   set on a key already present   delete callback on the old value first
 *   delete                         delete callback
 *   xb_attr_copy_all (dup)         copy callback of each attribute, in order;
 *                                  flag = 1 copies the value it returns
 *   xb_attr_delete_all (free)      delete callbacks, newest attribute first
 * A callback returning other than MPI_SUCCESS fails the call with that
 * class (user codes become MPI_ERR_OTHER) and a message naming the keyval;
 * copy_all then undoes what it copied.
 *
 * Callbacks receive the object's handle (`handle`, cast to the kind's
 * handle type). They run with no library lock held and may call MPI.
 * Threading: one thread at a time.
 * Returns: XB_OK or a negative XB_ERR_* (detail recorded).
 */
#ifndef XB_ATTR_H
#define XB_ATTR_H

#include "core/core.h"
#include "datatype/datatype.h"

typedef enum { XB_ATTR_COMM, XB_ATTR_TYPE, XB_ATTR_WIN, XB_ATTR_NKINDS } xb_attr_kind_t;
enum { XB_KEYVAL_FIRST = 1000 };

typedef struct xb_attr {
    struct xb_attr *next;
    int             keyval;
    void           *val;
} xb_attr_t;

int  xb_keyval_create(xb_attr_kind_t kind, void (*copy)(void), void (*del)(void),
                      void *extra_state, int *keyval_p);
int  xb_keyval_free(xb_attr_kind_t kind, int *keyval_p);
/* XB_OK when keyval is a live keyval of `kind` (else XB_ERR_KEYVAL). */
int  xb_keyval_check(xb_attr_kind_t kind, int keyval);

int  xb_attr_set(xb_attr_kind_t kind, xb_attr_t **list, void *handle, int keyval,
                 void *val);
/* *flag = 0 when not set; else *val_p = the value. */
int  xb_attr_get(xb_attr_kind_t kind, xb_attr_t *list, int keyval, void **val_p,
                 int *flag);
int  xb_attr_delete(xb_attr_kind_t kind, xb_attr_t **list, void *handle, int keyval);
int  xb_attr_copy_all(xb_attr_kind_t kind, xb_attr_t *src, void *src_handle,
                      xb_attr_t **dst, void *dst_handle);
int  xb_attr_delete_all(xb_attr_kind_t kind, xb_attr_t **list, void *handle);

/* Datatypes keep their lists in a side table (attr_type.c): the hooks the
 * datatype layer calls on MPI_Type_dup and when a datatype is freed. */
int  xb_attr_type_dup_hook(xb_datatype_t *old, xb_datatype_t *dup);
int  xb_attr_type_free_hook(xb_datatype_t *dt);
/* MPI_Finalize: forget every keyval and datatype attribute list. */
void xb_attr_type_fini(void);
void xb_attr_fini(void);

#endif
