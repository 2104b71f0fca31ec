/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mem.c - MPI_Alloc_mem and MPI_Free_mem.
 *
 * The memory comes from posix_memalign, aligned to XB_MEM_ALIGN (a cache
 * line) or to the info key "mpi_minimum_memory_alignment" (MPI 4.1) when
 * it asks for more; other info keys are ignored, as the standard allows.
 * Every block is registered in a hash set of addresses so that MPI_Free_mem
 * of a pointer that did not come from MPI_Alloc_mem (or was freed already)
 * is reported (MPI_ERR_BASE) instead of corrupting the heap. Size 0 gives a
 * valid, unique pointer (a 1-byte block) that MPI_Free_mem accepts.
 *
 * Threading: called under the bindings' lock. xb_mem_fini (MPI_Finalize)
 * drops the set; blocks the user never freed stay the user's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/info.h"
#include "xb_impl.h"

enum { XB_MEM_ALIGN = 64 };
#define MEM_TOMB ((void *)(uintptr_t)1)   /* deleted slot of the open set */

static void  **set;      /* open addressing; NULL empty, MEM_TOMB deleted */
static size_t  set_cap;  /* power of two */
static size_t  set_used; /* live + tombstones */
static size_t  set_live; /* live blocks */

static size_t addr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 32;
    return (size_t)x;
}

static int set_rehash(size_t cap)
{
    void **n = calloc(cap, sizeof(*n));
    if (n == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for the table of MPI_Alloc_mem blocks");
    size_t used = 0;
    for (size_t i = 0; i < set_cap; i++) {
        if (set[i] == NULL || set[i] == MEM_TOMB)
            continue;
        size_t j = addr_hash(set[i]) & (cap - 1);
        while (n[j] != NULL)
            j = (j + 1) & (cap - 1);
        n[j] = set[i];
        used++;
    }
    free(set);
    set = n;
    set_cap = cap;
    set_used = used;
    return XB_OK;
}

static int set_add(void *p)
{
    if ((set_used + 1) * 2 > set_cap) {
        size_t cap = 64;
        while (cap < (set_live + 1) * 4)
            cap *= 2;
        int rc = set_rehash(cap);
        if (rc != XB_OK)
            return rc;
    }
    size_t j = addr_hash(p) & (set_cap - 1);
    while (set[j] != NULL && set[j] != MEM_TOMB)
        j = (j + 1) & (set_cap - 1);
    if (set[j] == NULL)
        set_used++;
    set[j] = p;
    set_live++;
    return XB_OK;
}

/* Removes p; false when it is not in the set. */
static bool set_remove(const void *p)
{
    if (set_cap == 0)
        return false;
    size_t j = addr_hash(p) & (set_cap - 1);
    while (set[j] != NULL) {
        if (set[j] == p) {
            set[j] = MEM_TOMB;
            set_live--;
            return true;
        }
        j = (j + 1) & (set_cap - 1);
    }
    return false;
}

/* The alignment the info asks for (0: none); error on a bad value. */
static int info_alignment(const xb_info_t *info, size_t *align)
{
    const char *v = xb_info_lookup(info, "mpi_minimum_memory_alignment");
    *align = 0;
    if (v == NULL)
        return XB_OK;
    char *end;
    errno = 0;
    unsigned long long a = strtoull(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0' || a == 0 || (a & (a - 1)) != 0
        || a > (1ull << 30))
        return xb_err_set(XB_ERR_INFO, "invalid info value mpi_minimum_memory_alignment=\"%s\" "
                          "(a power of two up to 2^30 is expected)", v);
    *align = (size_t)a;
    return XB_OK;
}

int xb_impl_alloc_mem(MPI_Aint size, xb_info_t *info, void *baseptr)
{
    if (size < 0)
        return xb_err_set(XB_ERR_ARG, "invalid size %lld (it must not be negative)",
                          (long long)size);
    size_t align;
    int rc = info_alignment(info, &align);
    if (rc != XB_OK)
        return rc;
    if (align < XB_MEM_ALIGN)
        align = XB_MEM_ALIGN;
    if ((uint64_t)size > (uint64_t)PTRDIFF_MAX - align)
        return xb_err_set(XB_ERR_NO_MEM, "cannot allocate %lld bytes (more than the address "
                          "space allows)", (long long)size);
    void *p = NULL;
    int err = posix_memalign(&p, align, size > 0 ? (size_t)size : 1);
    if (err != 0)
        return xb_err_set(XB_ERR_NO_MEM, "cannot allocate %lld bytes aligned to %zu: %s",
                          (long long)size, align, strerror(err));
    rc = set_add(p);
    if (rc != XB_OK) {
        free(p);
        return rc;
    }
    *(void **)baseptr = p;
    return XB_OK;
}

int xb_impl_free_mem(void *base)
{
    if (base == NULL || !set_remove(base))
        return xb_err_set(-MPI_ERR_BASE, "base %p did not come from MPI_Alloc_mem (or was "
                          "freed already)", base);
    free(base);
    return XB_OK;
}

void xb_mem_fini(void)
{
    free(set);
    set = NULL;
    set_cap = set_used = set_live = 0;
}
