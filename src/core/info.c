/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * info.c - MPI_Info objects: an ordered list of (key, value) strings, the
 * whole MPI_Info_* API, and MPI_INFO_ENV (predefined handle 0x131), filled
 * on first use from how the job was started (info_env.c).
 *
 * Keys keep their insertion order (MPI_Info_get_nthkey); setting an
 * existing key replaces its value in place. Keys are at most
 * MPI_MAX_INFO_KEY - 1 characters (else MPI_ERR_INFO_KEY), values at most
 * MPI_MAX_INFO_VAL - 1 (else MPI_ERR_INFO_VALUE). MPI_INFO_ENV is
 * read-only: set, delete and free on it are MPI_ERR_INFO.
 *
 * Freed objects are poisoned (magic XB_MAGIC_FREED) and kept on a free
 * list so a stale handle is reported as freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/info.h"
#include "runtime/runtime.h"
#include "xb_impl.h"

static struct xb_info env_info = { .magic = XB_MAGIC_INFO, .handle = MPI_INFO_ENV };
static bool env_filled;
static struct xb_info *free_list;      /* linked through `keys` */

static void clear(xb_info_t *i);

xb_info_t *xb_info_from_handle(MPI_Info h)
{
    if (h == MPI_INFO_ENV) {
        if (!env_filled) {           /* refilled until MPI is initialized */
            clear(&env_info);
            xb_info_env_fill(&env_info);
            env_filled = xb_init_state() == XB_STATE_INIT;
        }
        return &env_info;
    }
    if (xb_handle_is_predef(h))
        return NULL;
    xb_info_t *i = (xb_info_t *)h;
    return i->magic == XB_MAGIC_INFO ? i : NULL;
}

MPI_Info xb_info_to_handle(xb_info_t *info)
{
    return info == NULL ? MPI_INFO_NULL : info->handle;
}

xb_info_t *xb_info_new(void)
{
    xb_info_t *i = free_list;
    if (i != NULL)
        free_list = (xb_info_t *)(void *)i->keys;
    else if ((i = malloc(sizeof(*i))) == NULL) {
        xb_err_set(XB_ERR_NO_MEM, "out of memory for an info object");
        return NULL;
    }
    memset(i, 0, sizeof(*i));
    i->magic = XB_MAGIC_INFO;
    i->handle = (MPI_Info)i;
    return i;
}

static void clear(xb_info_t *i)
{
    for (int k = 0; k < i->n; k++) {
        free(i->keys[k]);
        free(i->vals[k]);
    }
    free(i->keys);
    free(i->vals);
    i->keys = i->vals = NULL;
    i->n = i->cap = 0;
}

void xb_info_destroy(xb_info_t *i)
{
    if (i == NULL || i == &env_info)
        return;
    clear(i);
    i->magic = XB_MAGIC_FREED;
    i->keys = (char **)(void *)free_list;
    free_list = i;
}

void xb_info_pool_fini(void)
{
    while (free_list != NULL) {
        xb_info_t *i = free_list;
        free_list = (xb_info_t *)(void *)i->keys;
        free(i);
    }
    clear(&env_info);
    env_filled = false;
}

int xb_info_find(const xb_info_t *i, const char *key)
{
    for (int k = 0; k < i->n; k++)
        if (strcmp(i->keys[k], key) == 0)
            return k;
    return -1;
}

const char *xb_info_lookup(const xb_info_t *i, const char *key)
{
    if (i == NULL)
        return NULL;
    int k = xb_info_find(i, key);
    return k < 0 ? NULL : i->vals[k];
}

static int check_key(const char *key)
{
    size_t n = strnlen(key, MPI_MAX_INFO_KEY);
    if (n == 0)
        return xb_err_set(-MPI_ERR_INFO_KEY, "invalid key: the empty string");
    if (n >= MPI_MAX_INFO_KEY)
        return xb_err_set(-MPI_ERR_INFO_KEY, "invalid key \"%.40s...\": longer "
                          "than MPI_MAX_INFO_KEY - 1 (%d) characters", key,
                          MPI_MAX_INFO_KEY - 1);
    return XB_OK;
}

/* Set without the read-only check (used to fill MPI_INFO_ENV too). */
int xb_info_put(xb_info_t *i, const char *key, const char *value)
{
    int rc = check_key(key);
    if (rc != XB_OK)
        return rc;
    if (strnlen(value, MPI_MAX_INFO_VAL) >= MPI_MAX_INFO_VAL)
        return xb_err_set(-MPI_ERR_INFO_VALUE, "invalid value for key \"%s\": "
                          "longer than MPI_MAX_INFO_VAL - 1 (%d) characters",
                          key, MPI_MAX_INFO_VAL - 1);
    char *v = strdup(value);
    if (v == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for an info value");
    int k = xb_info_find(i, key);
    if (k >= 0) {
        free(i->vals[k]);
        i->vals[k] = v;
        return XB_OK;
    }
    if (i->n == i->cap) {
        int cap = i->cap ? 2 * i->cap : 8;
        char **nk = realloc(i->keys, (size_t)cap * sizeof(char *));
        if (nk != NULL)
            i->keys = nk;
        char **nv = nk != NULL ? realloc(i->vals, (size_t)cap * sizeof(char *)) : NULL;
        if (nv == NULL) {
            free(v);
            return xb_err_set(XB_ERR_NO_MEM, "out of memory for an info key");
        }
        i->vals = nv;
        i->cap = cap;
    }
    if ((i->keys[i->n] = strdup(key)) == NULL) {
        free(v);
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for an info key");
    }
    i->vals[i->n++] = v;
    return XB_OK;
}

int xb_info_copy(const xb_info_t *src, xb_info_t **out_p)
{
    xb_info_t *i = xb_info_new();
    if (i == NULL)
        return XB_ERR_NO_MEM;
    for (int k = 0; src != NULL && k < src->n; k++) {
        int rc = xb_info_put(i, src->keys[k], src->vals[k]);
        if (rc != XB_OK) {
            xb_info_destroy(i);
            return rc;
        }
    }
    *out_p = i;
    return XB_OK;
}

static int check_writable(const xb_info_t *i)
{
    if (i == &env_info)
        return xb_err_set(XB_ERR_INFO, "MPI_INFO_ENV is read-only (duplicate "
                          "it with MPI_Info_dup to change it)");
    return XB_OK;
}

/* ---- MPI_Info_* ---------------------------------------------------------- */
int xb_impl_info_create(MPI_Info *info)
{
    xb_info_t *i = xb_info_new();
    if (i == NULL)
        return XB_ERR_NO_MEM;
    *info = xb_info_to_handle(i);
    return XB_OK;
}

static int need_info(const xb_info_t *info)
{
    if (info == NULL)
        return xb_err_set(XB_ERR_INFO, "invalid argument info: MPI_INFO_NULL");
    return XB_OK;
}

int xb_impl_info_set(xb_info_t *info, const char *key, const char *value)
{
    int rc = need_info(info);
    if (rc == XB_OK)
        rc = check_writable(info);
    return rc == XB_OK ? xb_info_put(info, key, value) : rc;
}

int xb_impl_info_delete(xb_info_t *info, const char *key)
{
    int rc = need_info(info);
    if (rc == XB_OK)
        rc = check_writable(info);
    if (rc == XB_OK)
        rc = check_key(key);
    if (rc != XB_OK)
        return rc;
    int k = xb_info_find(info, key);
    if (k < 0)
        return xb_err_set(-MPI_ERR_INFO_NOKEY, "key \"%s\" is not in the info "
                          "object", key);
    free(info->keys[k]);
    free(info->vals[k]);
    memmove(info->keys + k, info->keys + k + 1, (size_t)(info->n - k - 1) * sizeof(char *));
    memmove(info->vals + k, info->vals + k + 1, (size_t)(info->n - k - 1) * sizeof(char *));
    info->n--;
    return XB_OK;
}

int xb_impl_info_get(xb_info_t *info, const char *key, int valuelen, char *value,
                     int *flag)
{
    int rc = need_info(info);
    if (rc == XB_OK)
        rc = check_key(key);
    if (rc != XB_OK)
        return rc;
    if (valuelen < 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument valuelen: %d (negative)",
                          valuelen);
    const char *v = xb_info_lookup(info, key);
    *flag = v != NULL;
    if (v != NULL) {
        size_t n = strnlen(v, (size_t)valuelen);
        memcpy(value, v, n);
        value[n] = '\0';
    }
    return XB_OK;
}

int xb_impl_info_get_string(xb_info_t *info, const char *key, int *buflen,
                            char *value, int *flag)
{
    int rc = need_info(info);
    if (rc == XB_OK)
        rc = check_key(key);
    if (rc != XB_OK)
        return rc;
    if (*buflen < 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument *buflen: %d (negative)",
                          *buflen);
    const char *v = xb_info_lookup(info, key);
    *flag = v != NULL;
    if (v == NULL)
        return XB_OK;
    int len = (int)strlen(v);
    if (*buflen > 0) {
        int n = len < *buflen - 1 ? len : *buflen - 1;
        memcpy(value, v, (size_t)n);
        value[n] = '\0';
    }
    *buflen = len + 1;
    return XB_OK;
}

int xb_impl_info_get_valuelen(xb_info_t *info, const char *key, int *valuelen,
                              int *flag)
{
    int rc = need_info(info);
    if (rc == XB_OK)
        rc = check_key(key);
    if (rc != XB_OK)
        return rc;
    const char *v = xb_info_lookup(info, key);
    *flag = v != NULL;
    if (v != NULL)
        *valuelen = (int)strlen(v);
    return XB_OK;
}

int xb_impl_info_get_nkeys(xb_info_t *info, int *nkeys)
{
    int rc = need_info(info);
    if (rc == XB_OK)
        *nkeys = info->n;
    return rc;
}

int xb_impl_info_get_nthkey(xb_info_t *info, int n, char *key)
{
    int rc = need_info(info);
    if (rc != XB_OK)
        return rc;
    if (n < 0 || n >= info->n)
        return xb_err_set(XB_ERR_ARG, "invalid argument n: %d (the info object "
                          "has %d keys, numbered from 0)", n, info->n);
    strcpy(key, info->keys[n]);
    return XB_OK;
}

int xb_impl_info_dup(xb_info_t *info, MPI_Info *newinfo)
{
    int rc = need_info(info);
    xb_info_t *i = NULL;
    if (rc == XB_OK)
        rc = xb_info_copy(info, &i);
    if (rc == XB_OK)
        *newinfo = xb_info_to_handle(i);
    return rc;
}

int xb_impl_info_free(MPI_Info *info)
{
    xb_info_t *i = xb_info_from_handle(*info);
    if (i == NULL)
        return xb_err_set(XB_ERR_INFO, "invalid info handle %p (MPI_INFO_NULL "
                          "or already freed)", (void *)*info);
    int rc = check_writable(i);
    if (rc != XB_OK)
        return rc;
    xb_info_destroy(i);
    *info = MPI_INFO_NULL;
    return XB_OK;
}
