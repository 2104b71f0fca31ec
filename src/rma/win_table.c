/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * win_table.c - the table of live windows of this process (the id a peer
 * puts in a message's header picks the window here), window handles, the
 * error path of window calls, and the layer's init/fini.
 *
 * An id is a slot index in the low 16 bits and the slot's generation above,
 * so a message for a freed window never lands in the window that reused its
 * slot.
 */
#include <stdlib.h>
#include "rma/rma_int.h"

static xb_win_t **slots;
static uint16_t  *gens;
static int        nslots;

int xb_rma_table_add(xb_win_t *w)
{
    int s;
    for (s = 0; s < nslots && slots[s] != NULL; s++)
        ;
    if (s == nslots) {
        if (nslots == 0xffff)
            return xb_err_set(XB_ERR_NO_MEM, "too many windows (65535)");
        int n = nslots ? nslots * 2 : 16;
        if (n > 0xffff)
            n = 0xffff;
        xb_win_t **ns = realloc(slots, (size_t)n * sizeof(*ns));
        if (ns == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "no memory for the window table");
        slots = ns;
        uint16_t *ng = realloc(gens, (size_t)n * sizeof(*ng));
        if (ng == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "no memory for the window table");
        gens = ng;
        for (int i = nslots; i < n; i++) {
            slots[i] = NULL;
            gens[i] = 0;
        }
        nslots = n;
    }
    gens[s]++;
    slots[s] = w;
    w->id = (uint32_t)s | ((uint32_t)gens[s] << 16);
    return XB_OK;
}

void xb_rma_table_remove(xb_win_t *w)
{
    uint32_t s = w->id & 0xffff;
    if ((int)s < nslots && slots[s] == w)
        slots[s] = NULL;
}

xb_win_t *xb_rma_table_get(uint32_t id)
{
    uint32_t s = id & 0xffff;
    if ((int)s >= nslots || slots[s] == NULL || slots[s]->id != id)
        return NULL;
    return slots[s];
}

int xb_rma_rank_of(const xb_win_t *w, xb_gpid_t g)
{
    for (int r = 0; r < w->size; r++)
        if (w->gpid[r] == g)
            return r;
    return -1;
}

xb_win_t *xb_win_from_handle(MPI_Win h)
{
    if (h == MPI_WIN_NULL || xb_handle_is_predef((const void *)h))
        return NULL;
    xb_win_t *w = (xb_win_t *)h;
    return w->magic == XB_RMA_MAGIC ? w : NULL;
}

MPI_Win xb_win_to_handle(xb_win_t *w)
{
    return w != NULL ? w->handle : MPI_WIN_NULL;
}

int xb_errh_raise_win(xb_win_t *win, const char *fn, int rc)
{
    return xb_errh_raise_obj(win != NULL ? win->errh : NULL,
                             win != NULL ? (void *)win->handle : NULL, fn, rc);
}

int xb_rma_init(void)
{
    int rc = xb_am_register(XB_RMA_AM, xb_rma_am_handler);
    if (rc != XB_OK)
        return rc;
    return xb_rma_send_init();
}

void xb_rma_fini(void)
{
    for (int s = 0; s < nslots; s++)
        if (slots[s] != NULL)
            xb_rma_win_destroy(slots[s]);
    free(slots);
    free(gens);
    slots = NULL;
    gens = NULL;
    nslots = 0;
    xb_rma_send_fini();
}
