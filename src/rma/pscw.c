/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pscw.c - generalised active target synchronisation: MPI_Win_post,
 * MPI_Win_start, MPI_Win_complete, MPI_Win_wait, MPI_Win_test.
 *
 * post(group) sends POST to every origin of the group; start(group) waits
 * for a POST from every target of its group (each POST is used once, so a
 * later post of the same target is kept for the next start); complete()
 * waits until its operations are answered (applied) and sends COMPLETE to
 * every target; wait() returns once a COMPLETE came from every origin of
 * the posted group. With MPI_MODE_NOCHECK start does not wait (the user
 * promises the matching post has happened; the POST is still sent and
 * counted, so later epochs stay paired).
 */
#include <stdlib.h>
#include "rma/rma_int.h"
#include "xb_impl.h"

void xb_rma_pscw_arrived(xb_win_t *w, const xb_rma_hdr_t *h)
{
    if (h->kind == XB_RMA_POST)
        w->post_seen[h->src_rank]++;
    else
        w->completes++;
}

/* Window ranks of the members of g; XB_ERR_GROUP when one is not in it. */
static int group_ranks(const xb_win_t *w, const xb_group_t *g, int **ranks_p)
{
    int *r = malloc(((size_t)g->size + 1) * sizeof(int));
    if (r == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a group of %d", g->size);
    for (int i = 0; i < g->size; i++) {
        r[i] = xb_rma_rank_of(w, xb_group_gpid(g, i));
        if (r[i] < 0) {
            free(r);
            return xb_err_set(XB_ERR_GROUP, "invalid argument group: its member %d "
                              "is not in the window's group", i);
        }
    }
    *ranks_p = r;
    return XB_OK;
}

int xb_impl_win_post(xb_group_t *group, int assert, xb_win_t *win)
{
    const int ok = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT;
    if (!xb_rma_valid_assert(assert, ok))
        return xb_err_set(XB_RMA_ERR_ASSERT, "invalid argument assert: 0x%x (post "
                          "takes MPI_MODE_NOCHECK, NOSTORE, NOPUT)", (unsigned)assert);
    if (win->post_grp != NULL)
        return xb_err_set(XB_RMA_ERR_SYNC, "post while an exposure epoch is open "
                          "(call MPI_Win_wait first)");
    int *ranks, rc = group_ranks(win, group, &ranks);
    if (rc != XB_OK)
        return rc;
    for (int i = 0; i < group->size && rc == XB_OK; i++)
        rc = xb_rma_ctl(win, ranks[i], XB_RMA_POST, 0);
    free(ranks);
    if (rc != XB_OK)
        return rc;
    xb_group_retain(group);
    win->post_grp = group;
    return XB_OK;
}

struct posted {
    const xb_win_t *w;
};

static bool all_posted(void *arg)
{
    const xb_win_t *w = ((struct posted *)arg)->w;
    for (int i = 0; i < w->start_grp->size; i++)
        if (w->post_seen[w->start_rank[i]] <= 0)
            return false;
    return true;
}

int xb_impl_win_start(xb_group_t *group, int assert, xb_win_t *win)
{
    if (!xb_rma_valid_assert(assert, MPI_MODE_NOCHECK))
        return xb_err_set(XB_RMA_ERR_ASSERT, "invalid argument assert: 0x%x (start "
                          "takes MPI_MODE_NOCHECK only)", (unsigned)assert);
    if (win->start_grp != NULL || win->nlocked > 0 || win->lock_all)
        return xb_err_set(XB_RMA_ERR_SYNC, "start while an access epoch is open");
    int *ranks, rc = group_ranks(win, group, &ranks);
    if (rc != XB_OK)
        return rc;
    xb_group_retain(group);
    win->start_grp = group;
    win->start_rank = ranks;
    win->fence_open = false;
    struct posted p = { win };
    if (!(assert & MPI_MODE_NOCHECK) && !all_posted(&p))
        rc = xb_progress_wait_until(xb_progress_default(), all_posted, &p,
                                    "MPI_Win_start (waiting for MPI_Win_post)");
    if (rc != XB_OK)
        return rc;
    if (!(assert & MPI_MODE_NOCHECK))
        for (int i = 0; i < group->size; i++)
            win->post_seen[ranks[i]]--;
    win->start_nocheck = assert & MPI_MODE_NOCHECK;
    return XB_OK;
}

int xb_impl_win_complete(xb_win_t *win)
{
    if (win->start_grp == NULL)
        return xb_err_set(XB_RMA_ERR_SYNC, "complete without start");
    int rc = xb_rma_flush(win, -1);
    for (int i = 0; i < win->start_grp->size; i++) {
        int x = xb_rma_ctl(win, win->start_rank[i], XB_RMA_COMPLETE, 0);
        if (rc == XB_OK)
            rc = x;
    }
    if (win->start_nocheck)    /* the POST of this epoch came or will come */
        for (int i = 0; i < win->start_grp->size; i++)
            win->post_seen[win->start_rank[i]]--;
    xb_group_release(win->start_grp);
    win->start_grp = NULL;
    free(win->start_rank);
    win->start_rank = NULL;
    return rc;
}

static bool all_completed(void *arg)
{
    const xb_win_t *w = arg;
    return w->completes >= w->post_grp->size;
}

static void end_exposure(xb_win_t *w)
{
    w->completes -= w->post_grp->size;
    xb_group_release(w->post_grp);
    w->post_grp = NULL;
}

int xb_impl_win_wait(xb_win_t *win)
{
    if (win->post_grp == NULL)
        return xb_err_set(XB_RMA_ERR_SYNC, "wait without post");
    int rc = XB_OK;
    if (!all_completed(win))
        rc = xb_progress_wait_until(xb_progress_default(), all_completed, win,
                                    "MPI_Win_wait (waiting for MPI_Win_complete)");
    if (rc == XB_OK)
        end_exposure(win);
    return rc;
}

int xb_impl_win_test(xb_win_t *win, int *flag)
{
    if (win->post_grp == NULL)
        return xb_err_set(XB_RMA_ERR_SYNC, "test without post");
    if (!all_completed(win))
        xb_progress_poll_test(xb_progress_default());
    *flag = all_completed(win);
    if (*flag)
        end_exposure(win);
    return XB_OK;
}
