/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mpit_cvar.c - control variables: one per tunable (index = the tunable's
 * place in the registry, name = its environment variable XB_<NAME>), their
 * handles, read and write; and the one enumeration (no/yes of the bool
 * tunables).
 *
 * Types: int tunables are MPI_INT (a value beyond int reads as INT_MIN or
 * INT_MAX), sizes MPI_UNSIGNED_LONG_LONG, bools MPI_INT with the no/yes
 * enumeration, strings MPI_CHAR with count XB_MPIT_STR_MAX.
 *
 * Writing: only live tunables (tunable.h: read at each use, or carried to
 * their use by a hook) accept a write; their scope is MPI_T_SCOPE_LOCAL, or
 * MPI_T_SCOPE_ALL_EQ for the collective forcing ones (every rank must
 * choose the same algorithm). The others are read once at MPI_Init and
 * never change after the tunables are loaded: MPI_T_SCOPE_CONSTANT, and a
 * write is MPI_T_ERR_CVAR_SET_NEVER. A written string is copied into a
 * static slot (no allocation outlives MPI_T): XB_MPIT_STR_SLOTS of them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpit/mpit.h"
#include "runtime/tunable.h"

enum { XB_MPIT_STR_MAX = 256, XB_MPIT_STR_SLOTS = 48, CVAR_MAGIC = 0x43564152 };

struct MPI_T_cvar_handle_t {
    uint32_t magic;
    int      idx;
    struct MPI_T_cvar_handle_t *next;
};

struct MPI_T_enum_t {
    const char *name;
    int         n;
    const char *item[2];
    int         value[2];
};

struct MPI_T_enum_t xb_mpit_enum_bool = { "bool", 2, { "no", "yes" }, { 0, 1 } };

static struct MPI_T_cvar_handle_t *handles;      /* every live handle */

static struct {
    const xb_tunable_t *t;
    char v[XB_MPIT_STR_MAX];
} str_slot[XB_MPIT_STR_SLOTS];

int xb_mpit_cvar_count(void)
{
    return (int)xb_tunable_count();
}

const char *xb_mpit_cvar_tunable_name(int idx)
{
    return xb_tunable_at((size_t)idx)->name;
}

static int scope_of(const xb_tunable_t *t)
{
    if (!t->live)
        return MPI_T_SCOPE_CONSTANT;
    return strncmp(t->name, "COLL_", 5) == 0 ? MPI_T_SCOPE_ALL_EQ : MPI_T_SCOPE_LOCAL;
}

static MPI_Datatype type_of(const xb_tunable_t *t)
{
    switch (t->type) {
    case XB_TT_SIZE:   return MPI_UNSIGNED_LONG_LONG;
    case XB_TT_STRING: return MPI_CHAR;
    default:           return MPI_INT;
    }
}

static int verbosity_of(xb_tunable_level_t l)
{
    return l == XB_TL_USER ? MPI_T_VERBOSITY_USER_BASIC
         : l == XB_TL_TUNER ? MPI_T_VERBOSITY_TUNER_BASIC
         : MPI_T_VERBOSITY_MPIDEV_BASIC;
}

static int cvar_get_num(int *num)
{
    int rc = xb_mpit_check_ptr("MPI_T_cvar_get_num", "num_cvar", num);
    if (rc == MPI_SUCCESS)
        *num = xb_mpit_cvar_count();
    return rc;
}

/* Every OUT argument may be NULL: the tool does not want that item. */
static int cvar_get_info(int idx, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                         int *desc_len, int *bind, int *scope)
{
    int rc = xb_mpit_check_index("MPI_T_cvar_get_info", "cvar_index", idx,
                                 xb_mpit_cvar_count());
    if (rc != MPI_SUCCESS)
        return rc;
    const xb_tunable_t *t = xb_tunable_at((size_t)idx);
    char full[128];
    snprintf(full, sizeof full, "XB_%s", t->name);
    xb_mpit_strout(full, name, name_len);
    xb_mpit_strout(t->help != NULL ? t->help : "", desc, desc_len);
    if (verbosity != NULL)
        *verbosity = verbosity_of(t->level);
    if (datatype != NULL)
        *datatype = type_of(t);
    if (enumtype != NULL)
        *enumtype = t->type == XB_TT_BOOL ? &xb_mpit_enum_bool : MPI_T_ENUM_NULL;
    if (bind != NULL)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope != NULL)
        *scope = scope_of(t);
    return MPI_SUCCESS;
}

static int cvar_get_index(const char *name, int *idx)
{
    static const char fn[] = "MPI_T_cvar_get_index";
    int rc = xb_mpit_check_ptr(fn, "name", name);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "cvar_index", idx);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < xb_mpit_cvar_count(); i++) {
        if (strncmp(name, "XB_", 3) == 0 &&
            strcmp(name + 3, xb_tunable_at((size_t)i)->name) == 0) {
            *idx = i;
            return MPI_SUCCESS;
        }
    }
    return xb_mpit_err(MPI_T_ERR_INVALID_NAME, fn, "invalid argument name: '%s' "
                       "is no control variable (crossbar-info --tunables lists "
                       "them)", name);
}

static int cvar_handle_alloc(int idx, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count)
{
    static const char fn[] = "MPI_T_cvar_handle_alloc";
    (void)obj_handle;     /* every cvar is bound to no object: ignored */
    int rc = xb_mpit_check_index(fn, "cvar_index", idx, xb_mpit_cvar_count());
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "handle", handle);
    if (rc == MPI_SUCCESS)
        rc = xb_mpit_check_ptr(fn, "count", count);
    if (rc != MPI_SUCCESS)
        return rc;
    struct MPI_T_cvar_handle_t *h = malloc(sizeof(*h));
    if (h == NULL)
        return xb_mpit_err(MPI_T_ERR_MEMORY, fn, "out of memory for a handle");
    h->magic = CVAR_MAGIC;
    h->idx = idx;
    h->next = handles;
    handles = h;
    *handle = h;
    *count = xb_tunable_at((size_t)idx)->type == XB_TT_STRING ? XB_MPIT_STR_MAX : 1;
    return MPI_SUCCESS;
}

/* The listed handle h, or NULL (with the error recorded in *rc). */
static struct MPI_T_cvar_handle_t **find_handle(const char *fn, MPI_T_cvar_handle h,
                                                int *rc)
{
    for (struct MPI_T_cvar_handle_t **p = &handles; *p != NULL; p = &(*p)->next)
        if (*p == h)
            return p;
    *rc = xb_mpit_err(MPI_T_ERR_INVALID_HANDLE, fn, "invalid argument handle: "
                      "%s", h == MPI_T_CVAR_HANDLE_NULL ? "MPI_T_CVAR_HANDLE_NULL"
                      : "not a control-variable handle (freed, or never allocated)");
    return NULL;
}

static int cvar_handle_free(MPI_T_cvar_handle *handle)
{
    static const char fn[] = "MPI_T_cvar_handle_free";
    int rc = xb_mpit_check_ptr(fn, "handle", handle);
    if (rc != MPI_SUCCESS)
        return rc;
    struct MPI_T_cvar_handle_t **p = find_handle(fn, *handle, &rc);
    if (p == NULL)
        return rc;
    struct MPI_T_cvar_handle_t *h = *p;
    *p = h->next;
    h->magic = 0;
    free(h);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

void xb_mpit_cvar_fini(void)
{
    while (handles != NULL) {
        struct MPI_T_cvar_handle_t *h = handles;
        handles = h->next;
        free(h);
    }
}

static int cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    static const char fn[] = "MPI_T_cvar_read";
    int rc = MPI_SUCCESS;
    if (find_handle(fn, handle, &rc) == NULL)
        return rc;
    if ((rc = xb_mpit_check_ptr(fn, "buf", buf)) != MPI_SUCCESS)
        return rc;
    const xb_tunable_t *t = xb_tunable_at((size_t)handle->idx);
    switch (t->type) {
    case XB_TT_INT:
        *(int *)buf = t->v.i > INT_MAX ? INT_MAX : t->v.i < INT_MIN ? INT_MIN : (int)t->v.i;
        break;
    case XB_TT_BOOL:
        *(int *)buf = t->v.b ? 1 : 0;
        break;
    case XB_TT_SIZE:
        *(unsigned long long *)buf = (unsigned long long)t->v.size;
        break;
    case XB_TT_STRING: {
        int len = XB_MPIT_STR_MAX;
        xb_mpit_strout(t->v.s != NULL ? t->v.s : "", buf, &len);
        break;
    }
    }
    return MPI_SUCCESS;
}

/* ---- writing ---------------------------------------------------------------- */

/* The slot that holds t's written string (the same one on every write). */
static char *str_slot_of(const xb_tunable_t *t)
{
    for (int i = 0; i < XB_MPIT_STR_SLOTS; i++) {
        if (str_slot[i].t == t)
            return str_slot[i].v;
        if (str_slot[i].t == NULL) {
            str_slot[i].t = t;
            return str_slot[i].v;
        }
    }
    return NULL;
}

/* Store the new value in t->v (strings: into t's slot). */
static int store(const char *fn, xb_tunable_t *t, const void *buf)
{
    switch (t->type) {
    case XB_TT_INT:
        t->v.i = *(const int *)buf;
        return MPI_SUCCESS;
    case XB_TT_BOOL: {
        int v = *(const int *)buf;
        if (v != 0 && v != 1)
            return xb_mpit_err(MPI_T_ERR_INVALID, fn, "invalid argument buf: "
                               "XB_%s is a boolean (0 or 1), not %d", t->name, v);
        t->v.b = v == 1;
        return MPI_SUCCESS;
    }
    case XB_TT_SIZE:
        t->v.size = (size_t)*(const unsigned long long *)buf;
        return MPI_SUCCESS;
    case XB_TT_STRING: {
        size_t n = strnlen(buf, XB_MPIT_STR_MAX);
        char *slot = str_slot_of(t);
        if (n == XB_MPIT_STR_MAX)
            return xb_mpit_err(MPI_T_ERR_INVALID, fn, "invalid argument buf: "
                               "the string for XB_%s is longer than %d characters",
                               t->name, XB_MPIT_STR_MAX - 1);
        if (slot == NULL)
            return xb_mpit_err(MPI_T_ERR_OUT_OF_HANDLES, fn, "more than %d string "
                               "control variables written", XB_MPIT_STR_SLOTS);
        memmove(slot, buf, n + 1);
        t->v.s = slot;
        return MPI_SUCCESS;
    }
    }
    return MPI_T_ERR_INVALID;
}

static int cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    static const char fn[] = "MPI_T_cvar_write";
    int rc = MPI_SUCCESS;
    if (find_handle(fn, handle, &rc) == NULL)
        return rc;
    if ((rc = xb_mpit_check_ptr(fn, "buf", buf)) != MPI_SUCCESS)
        return rc;
    xb_tunable_t *t = xb_tunable_at((size_t)handle->idx);
    if (!t->live)
        return xb_mpit_err(MPI_T_ERR_CVAR_SET_NEVER, fn, "XB_%s is read once, "
                           "at MPI_Init, and cannot be set (set it in the "
                           "environment before the program starts)", t->name);
    /* Keep the old value to put back if the hook refuses the new one. */
    char old_str[XB_MPIT_STR_MAX];
    __typeof__(t->v) old = t->v;
    const char *old_source = t->source;
    if (t->type == XB_TT_STRING)
        snprintf(old_str, sizeof old_str, "%s", t->v.s != NULL ? t->v.s : "");
    if ((rc = store(fn, t, buf)) != MPI_SUCCESS)
        return rc;
    t->source = "MPI_T";
    if (t->changed == NULL || t->changed(t) == XB_OK)
        return MPI_SUCCESS;
    char why[300];
    snprintf(why, sizeof why, "%s", xb_err_detail());
    if (t->type == XB_TT_STRING)
        store(fn, t, old_str);
    else
        t->v = old;
    t->source = old_source;
    if (t->changed != NULL)
        t->changed(t);
    return xb_mpit_err(MPI_T_ERR_INVALID, fn, "invalid argument buf: XB_%s "
                       "refused the value (%s); it keeps its value", t->name, why);
}

static int enum_get_info(MPI_T_enum e, int *num, char *name, int *name_len)
{
    static const char fn[] = "MPI_T_enum_get_info";
    if (e != &xb_mpit_enum_bool)
        return xb_mpit_err(MPI_T_ERR_INVALID_HANDLE, fn, "invalid argument "
                           "enumtype: %s", e == MPI_T_ENUM_NULL ? "MPI_T_ENUM_NULL"
                           : "not an enumeration of this library");
    int rc = xb_mpit_check_ptr(fn, "num", num);
    if (rc != MPI_SUCCESS)
        return rc;
    *num = e->n;
    xb_mpit_strout(e->name, name, name_len);
    return MPI_SUCCESS;
}

static int enum_get_item(MPI_T_enum e, int index, int *value, char *name, int *name_len)
{
    static const char fn[] = "MPI_T_enum_get_item";
    if (e != &xb_mpit_enum_bool)
        return xb_mpit_err(MPI_T_ERR_INVALID_HANDLE, fn, "invalid argument "
                           "enumtype: %s", e == MPI_T_ENUM_NULL ? "MPI_T_ENUM_NULL"
                           : "not an enumeration of this library");
    if (index < 0 || index >= e->n)
        return xb_mpit_err(MPI_T_ERR_INVALID_ITEM, fn, "invalid argument index: "
                           "%d is not between 0 and %d", index, e->n - 1);
    int rc = xb_mpit_check_ptr(fn, "value", value);
    if (rc != MPI_SUCCESS)
        return rc;
    *value = e->value[index];
    xb_mpit_strout(e->item[index], name, name_len);
    return MPI_SUCCESS;
}

/* ---- entry points --------------------------------------------------------- */

XB_EXPORT int PMPI_T_cvar_get_num(int *num_cvar)
{
    XB_MPIT_CALL("MPI_T_cvar_get_num", cvar_get_num(num_cvar));
}

XB_EXPORT int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len,
                                   int *verbosity, MPI_Datatype *datatype,
                                   MPI_T_enum *enumtype, char *desc, int *desc_len,
                                   int *bind, int *scope)
{
    XB_MPIT_CALL("MPI_T_cvar_get_info",
                 cvar_get_info(cvar_index, name, name_len, verbosity, datatype,
                               enumtype, desc, desc_len, bind, scope));
}

XB_EXPORT int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    XB_MPIT_CALL("MPI_T_cvar_get_index", cvar_get_index(name, cvar_index));
}

XB_EXPORT int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
                                       MPI_T_cvar_handle *handle, int *count)
{
    XB_MPIT_CALL("MPI_T_cvar_handle_alloc",
                 cvar_handle_alloc(cvar_index, obj_handle, handle, count));
}

XB_EXPORT int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    XB_MPIT_CALL("MPI_T_cvar_handle_free", cvar_handle_free(handle));
}

XB_EXPORT int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    XB_MPIT_CALL("MPI_T_cvar_read", cvar_read(handle, buf));
}

XB_EXPORT int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    XB_MPIT_CALL("MPI_T_cvar_write", cvar_write(handle, buf));
}

XB_EXPORT int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name,
                                   int *name_len)
{
    XB_MPIT_CALL("MPI_T_enum_get_info", enum_get_info(enumtype, num, name, name_len));
}

XB_EXPORT int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value,
                                   char *name, int *name_len)
{
    XB_MPIT_CALL("MPI_T_enum_get_item",
                 enum_get_item(enumtype, index, value, name, name_len));
}

XB_MPIT_ALIAS(MPI_T_cvar_get_num);
XB_MPIT_ALIAS(MPI_T_cvar_get_info);
XB_MPIT_ALIAS(MPI_T_cvar_get_index);
XB_MPIT_ALIAS(MPI_T_cvar_handle_alloc);
XB_MPIT_ALIAS(MPI_T_cvar_handle_free);
XB_MPIT_ALIAS(MPI_T_cvar_read);
XB_MPIT_ALIAS(MPI_T_cvar_write);
XB_MPIT_ALIAS(MPI_T_enum_get_info);
XB_MPIT_ALIAS(MPI_T_enum_get_item);
