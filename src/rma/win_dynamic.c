/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * win_dynamic.c - dynamic windows: MPI_Win_attach and MPI_Win_detach.
 * A dynamic window exposes the regions attached at this process; an
 * origin addresses them with absolute addresses (target_disp is an
 * MPI_Aint from MPI_Get_address at the target), and the target checks
 * each segment against its regions (an operation outside them is answered
 * with MPI_ERR_RMA_RANGE, which the origin's next synchronisation returns;
 * a segment may cover several regions attached back to back).
 * Attached regions may not overlap (MPI_ERR_RMA_ATTACH).
 */
#include <stdlib.h>
#include "rma/rma_int.h"
#include "xb_impl.h"

int xb_impl_win_attach(xb_win_t *win, void *base, MPI_Aint size)
{
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return xb_err_set(XB_RMA_ERR_FLAVOR, "attach on a window that is not dynamic "
                          "(made by MPI_Win_create_dynamic)");
    if (size < 0)
        return xb_err_set(XB_RMA_ERR_SIZE, "invalid argument size: %lld (must not be "
                          "negative)", (long long)size);
    if (base == NULL && size > 0)
        return xb_err_set(XB_ERR_ARG, "invalid argument base: NULL");
    uintptr_t b = (uintptr_t)base;
    for (int i = 0; i < win->nregions; i++) {
        const xb_rma_region_t *g = &win->regions[i];
        if (b < g->base + (uintptr_t)g->size && g->base < b + (uintptr_t)size)
            return xb_err_set(XB_RMA_ERR_ATTACH, "the region [%p, +%lld) overlaps "
                              "one attached already at %p", base, (long long)size,
                              (void *)g->base);
    }
    if (win->nregions == win->capregions) {
        int cap = win->capregions ? 2 * win->capregions : 4;
        xb_rma_region_t *r = realloc(win->regions, (size_t)cap * sizeof(*r));
        if (r == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "no memory to attach a region");
        win->regions = r;
        win->capregions = cap;
    }
    win->regions[win->nregions++] = (xb_rma_region_t){ b, size };
    return XB_OK;
}

int xb_impl_win_detach(xb_win_t *win, const void *base)
{
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return xb_err_set(XB_RMA_ERR_FLAVOR, "detach on a window that is not dynamic");
    for (int i = 0; i < win->nregions; i++) {
        if (win->regions[i].base == (uintptr_t)base) {
            win->regions[i] = win->regions[--win->nregions];
            return XB_OK;
        }
    }
    return xb_err_set(XB_RMA_ERR_ATTACH, "no region attached at %p", base);
}
