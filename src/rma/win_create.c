/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * win_create.c - making and freeing windows: MPI_Win_create,
 * MPI_Win_allocate, MPI_Win_create_dynamic, MPI_Win_free.
 *
 * Creation (collective over an intracommunicator): the window enters this
 * process's table first, then every member sends every other its entry
 * (base address, size, displacement unit, its window id) by point-to-point
 * on the communicator's collective context with XB_RMA_TAG. When a
 * member has everyone's entry, every member has entered its table, so a
 * one-sided message can never reach a process that does not know the
 * window yet.
 *
 * Free (collective): waits until this process's operations are answered,
 * then a window barrier; after it, every operation on this window is
 * complete everywhere and nothing more can arrive for it.
 */
#include <stdlib.h>
#include <string.h>
#include "rma/rma_int.h"
#include "core/info.h"
#include "pt2pt/pt2pt.h"
#include "xb_impl.h"

typedef struct entry {
    uint64_t base;
    int64_t  size;
    int64_t  disp_unit;
    uint32_t id;
    uint32_t pad;
} entry_t;

static int exchange(xb_win_t *w)
{
    int n = w->size, rc = XB_OK;
    entry_t *e = calloc((size_t)n, sizeof(*e));
    xb_request_t **rq = calloc(2 * (size_t)n, sizeof(*rq));
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    if (e == NULL || rq == NULL) {
        rc = xb_err_set(XB_ERR_NO_MEM, "no memory for the window's peer table");
        goto out_free;
    }
    entry_t *me = &e[w->rank];
    *me = (entry_t){ (uint64_t)(uintptr_t)w->base, w->wsize, w->disp_unit, w->id, 0 };
    for (int r = 0; r < n && rc == XB_OK; r++) {
        if (r == w->rank)
            continue;
        rc = xb_pt2pt_irecv(&e[r], sizeof(entry_t), byte, r, XB_RMA_TAG, w->comm, 1, &rq[2 * r]);
        if (rc == XB_OK)
            rc = xb_pt2pt_isend(me, sizeof(entry_t), byte, r, XB_RMA_TAG, w->comm, 1,
                                &rq[2 * r + 1]);
    }
    int wrc = xb_request_waitall(2 * n, rq);
    for (int i = 0; i < 2 * n; i++)
        if (rq[i] != NULL)
            xb_request_release(rq[i]);
    if (rc == XB_OK)
        rc = wrc;
    for (int r = 0; r < n && rc == XB_OK; r++)
        w->peers[r] = (xb_rma_peer_t){ e[r].base, (MPI_Aint)e[r].size,
                                       (int)e[r].disp_unit, e[r].id };
out_free:
    free(rq);
    free(e);
    return rc;
}

int xb_rma_check_comm(xb_comm_t *comm)
{
    if (xb_comm_is_inter(comm))
        return xb_err_set(XB_ERR_COMM, "invalid argument comm: an intercommunicator "
                          "(windows are made over intracommunicators)");
    return XB_OK;
}

/* A window object for comm with the given local memory, in the table, its
 * peers known. On failure nothing is left. */
int xb_rma_win_new(xb_comm_t *comm, void *base, MPI_Aint size, MPI_Aint disp_unit,
                   int flavor, xb_info_t *info, xb_win_t **w_p)
{
    int n = comm->size, rc;
    xb_win_t *w = calloc(1, sizeof(*w));
    if (w == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a window");
    w->peers = calloc((size_t)n, sizeof(*w->peers));
    w->gpid = calloc((size_t)n, sizeof(*w->gpid));
    w->pending = calloc((size_t)n, sizeof(int));
    w->lk_state = calloc((size_t)n, 1);
    w->lk_how = calloc((size_t)n, 1);
    w->post_seen = calloc((size_t)n, sizeof(int));
    w->magic = XB_RMA_MAGIC;
    w->handle = (MPI_Win)w;
    w->comm = comm;
    xb_comm_retain(comm);
    w->rank = comm->rank;
    w->size = n;
    w->base = base;
    w->wsize = size;
    w->disp_unit = (int)disp_unit;
    w->flavor = flavor;
    w->model = MPI_WIN_UNIFIED;
    w->lk_excl = -1;
    w->errh = xb_errhandler_fatal();
    if (w->peers == NULL || w->gpid == NULL || w->pending == NULL ||
        w->lk_state == NULL || w->lk_how == NULL || w->post_seen == NULL) {
        rc = xb_err_set(XB_ERR_NO_MEM, "no memory for a window of %d processes", n);
        goto fail_destroy;
    }
    for (int r = 0; r < n; r++)
        w->gpid[r] = xb_comm_gpid(comm, r);
    if (info != NULL && (rc = xb_info_copy(info, &w->info)) != XB_OK)
        goto fail_destroy;
    if ((rc = xb_rma_table_add(w)) != XB_OK)
        goto fail_destroy;
    if ((rc = exchange(w)) != XB_OK)
        goto fail_destroy;
    *w_p = w;
    return XB_OK;
fail_destroy:
    w->own_base = false;        /* the caller frees what it allocated */
    xb_rma_win_destroy(w);
    return rc;
}

int xb_rma_check_size(MPI_Aint size, MPI_Aint disp_unit)
{
    if (size < 0)
        return xb_err_set(XB_RMA_ERR_SIZE, "invalid argument size: %lld (must not be "
                          "negative)", (long long)size);
    if (disp_unit <= 0 || disp_unit > INT32_MAX)
        return xb_err_set(XB_ERR_ARG, "invalid argument disp_unit: %lld (must be "
                          "positive and fit an int)", (long long)disp_unit);
    return XB_OK;
}

int xb_impl_win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, xb_info_t *info,
                       xb_comm_t *comm, MPI_Win *win)
{
    int rc = xb_rma_check_comm(comm);
    if (rc == XB_OK)
        rc = xb_rma_check_size(size, disp_unit);
    if (rc == XB_OK && base == NULL && size > 0)
        rc = xb_err_set(XB_ERR_ARG, "invalid argument base: NULL with size %lld",
                        (long long)size);
    xb_win_t *w;
    if (rc == XB_OK)
        rc = xb_rma_win_new(comm, base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, info, &w);
    if (rc != XB_OK)
        return rc;
    xb_rma_lock_lines(w);       /* MPI_Win_lock without the target, on a node */
    xb_rma_set_ready(w);
    *win = w->handle;
    return XB_OK;
}

int xb_impl_win_allocate(MPI_Aint size, MPI_Aint disp_unit, xb_info_t *info,
                         xb_comm_t *comm, void *baseptr, MPI_Win *win)
{
    int rc = xb_rma_check_comm(comm);
    if (rc == XB_OK)
        rc = xb_rma_check_size(size, disp_unit);
    if (rc != XB_OK)
        return rc;
    xb_win_t *w;
    rc = xb_rma_win_new(comm, NULL, size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, info, &w);
    if (rc != XB_OK)
        return rc;
    if (!xb_rma_allocate_on_node(w)) {
        /* aligned for any basic type; one byte at least so base is not NULL */
        void *mem = aligned_alloc(64, ((size_t)size + 63) / 64 * 64 + 64);
        if (mem == NULL) {
            xb_rma_win_destroy(w);
            return xb_err_set(XB_ERR_NO_MEM, "no memory for a window of %lld bytes",
                              (long long)size);
        }
        memset(mem, 0, (size_t)size);
        w->base = mem;
        w->own_base = true;
    }
    xb_rma_set_ready(w);
    *(void **)baseptr = w->base;
    *win = w->handle;
    return XB_OK;
}

int xb_impl_win_create_dynamic(xb_info_t *info, xb_comm_t *comm, MPI_Win *win)
{
    int rc = xb_rma_check_comm(comm);
    xb_win_t *w;
    if (rc == XB_OK)
        rc = xb_rma_win_new(comm, NULL, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, info, &w);
    if (rc != XB_OK)
        return rc;
    xb_rma_set_ready(w);
    *win = w->handle;
    return XB_OK;
}

void xb_rma_win_destroy(xb_win_t *w)
{
    xb_rma_table_remove(w);
    xb_rma_drop_early(w);
    if (w->own_base)
        free(w->base);
    xb_rma_shared_unmap(w);
    if (w->start_grp != NULL)
        xb_group_release(w->start_grp);
    if (w->post_grp != NULL)
        xb_group_release(w->post_grp);
    xb_errhandler_release(w->errh);
    xb_info_destroy(w->info);
    xb_attr_delete_all(XB_ATTR_WIN, &w->attrs, w->handle);
    xb_comm_release(w->comm);
    free(w->peers);
    free(w->gpid);
    free(w->pending);
    free(w->lk_state);
    free(w->lk_how);
    free(w->post_seen);
    free(w->start_rank);
    free(w->lk_queue);
    free(w->regions);
    free(w->shm_off);
    w->magic = XB_MAGIC_FREED;
    free(w);
}

int xb_impl_win_free(MPI_Win *win)
{
    xb_win_t *w = xb_win_from_handle(*win);
    if (w == NULL)
        return xb_err_set(XB_RMA_ERR_WIN, "invalid window %p for argument win (%s)",
                          (void *)*win, *win == MPI_WIN_NULL ? "MPI_WIN_NULL" :
                          "not a window, or already freed");
    if (w->nlocked > 0 || w->lock_all || w->start_grp != NULL || w->post_grp != NULL)
        return xb_err_set(XB_RMA_ERR_SYNC, "the window still has an open epoch (%s); "
                          "end it before freeing the window",
                          w->lock_all ? "MPI_Win_lock_all" : w->nlocked > 0 ?
                          "MPI_Win_lock" : w->start_grp != NULL ? "MPI_Win_start" :
                          "MPI_Win_post");
    int rc = xb_attr_delete_all(XB_ATTR_WIN, &w->attrs, w->handle);
    if (rc != XB_OK)
        return rc;
    rc = xb_rma_flush(w, -1);
    int brc = xb_rma_barrier(w);
    xb_rma_win_destroy(w);
    *win = MPI_WIN_NULL;
    return rc != XB_OK ? rc : brc;
}
