/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * info.h - MPI_Info objects (info.c) and MPI_INFO_ENV (info_env.c).
 *
 * Lifecycle: objects are made by MPI_Info_create/dup and by the library
 * (MPI_Comm_get_info returns a fresh copy) and freed by MPI_Info_free;
 * the library never keeps a pointer to a user's info object (it copies).
 * MPI_INFO_ENV is static and filled on first resolution of its handle.
 * xb_info_pool_fini (MPI_Finalize) releases the free list.
 * Threading: one thread at a time (objects are not locked).
 * Returns: XB_OK or a negative XB_ERR_* (detail recorded).
 */
#ifndef XB_INFO_H
#define XB_INFO_H

#include "core/core.h"

struct xb_info {
    uint32_t magic;        /* XB_MAGIC_INFO; XB_MAGIC_FREED when freed */
    int      n, cap;       /* keys in use / allocated                  */
    char   **keys, **vals; /* [n], insertion order                     */
    MPI_Info handle;
};
typedef struct xb_info xb_info_t;

xb_info_t *xb_info_from_handle(MPI_Info h);
MPI_Info   xb_info_to_handle(xb_info_t *info);
xb_info_t *xb_info_new(void);                 /* NULL on no memory      */
void       xb_info_destroy(xb_info_t *info);  /* NULL and ENV: no-op    */
/* A new object holding src's pairs (src may be NULL: empty). */
int        xb_info_copy(const xb_info_t *src, xb_info_t **out_p);
/* Set/replace a pair, without the read-only check of MPI_INFO_ENV. */
int        xb_info_put(xb_info_t *info, const char *key, const char *value);
int        xb_info_find(const xb_info_t *info, const char *key);   /* -1 */
/* The value of key, or NULL (info may be NULL). */
const char *xb_info_lookup(const xb_info_t *info, const char *key);
/* Fills MPI_INFO_ENV (info_env.c). */
void       xb_info_env_fill(xb_info_t *env);
void       xb_info_pool_fini(void);

#endif
