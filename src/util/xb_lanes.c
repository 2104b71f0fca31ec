/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * xb_lanes.c - the locks of several progress contexts (xb_lanes.h).
 */
#include <sched.h>
#include "util/xb_lanes.h"

int        xb_mt_nlanes;
xb_mutex_t xb_mt_lane_lock[XB_LANES_MAX + 1];
uint64_t   xb_mt_lane_takes[XB_LANES_MAX + 1];
xb_mutex_t xb_mt_lanes_shared = XB_MUTEX_INIT;

/* What this thread holds: 0 nothing, 1 all, c + 1 lane c. */
static __thread int held;

void xb_mt_lanes_setup(int n)
{
    if (n > XB_LANES_MAX)
        n = XB_LANES_MAX;
    xb_mt_nlanes = n > 1 ? n : 0;
}

int xb_mt_lanes_held(void) { return xb_mt_nlanes != 0 ? held : 0; }

void xb_mt_lock_all(void)
{
    xb_mutex_lock(&xb_mt_big);
    for (int c = 1; c <= xb_mt_nlanes; c++)
        xb_mutex_lock(&xb_mt_lane_lock[c]);
    held = 1;
    xb_mt_lane_takes[0]++;
}

void xb_mt_unlock_all(void)
{
    held = 0;
    for (int c = xb_mt_nlanes; c >= 1; c--)
        xb_mutex_unlock(&xb_mt_lane_lock[c]);
    xb_mutex_unlock(&xb_mt_big);
}

int xb_cs_enter_lanes(int chan)
{
    if (chan <= 0 || chan > xb_mt_nlanes) {
        xb_mt_lock_all();
        return 1;
    }
    xb_mutex_lock(&xb_mt_lane_lock[chan]);
    held = chan + 1;
    xb_mt_lane_takes[chan]++;
    return chan + 1;
}

void xb_cs_lock(void)
{
    if (XB_LIKELY(xb_mt_nlanes == 0))
        xb_mutex_lock(&xb_mt_big);
    else
        xb_mt_lock_all();
}

void xb_cs_unlock(int cs)
{
    if (XB_LIKELY(xb_mt_nlanes == 0)) {
        xb_mutex_unlock(&xb_mt_big);
        return;
    }
    if (cs == 1) {
        xb_mt_unlock_all();
        return;
    }
    held = 0;
    xb_mutex_unlock(&xb_mt_lane_lock[cs - 1]);
}

/* A marker for "all" between xb_cb_begin and xb_cb_end (never locked). */
static xb_mutex_t all_mark;

xb_mutex_t *xb_cb_begin_lanes(void)
{
    int h = held;
    if (h == 0)
        return NULL;
    if (h == 1) {
        xb_mt_unlock_all();
        return &all_mark;
    }
    held = 0;
    xb_mutex_unlock(&xb_mt_lane_lock[h - 1]);
    return &xb_mt_lane_lock[h - 1];
}

void xb_cb_end_lanes(xb_mutex_t *m)
{
    if (m == &all_mark) {
        xb_mt_lock_all();
        return;
    }
    xb_mutex_lock(m);
    held = (int)(m - xb_mt_lane_lock) + 1;
}

bool xb_mt_lanes_try_others(int chan)
{
    /* we hold lane chan: lower locks may only be tried, never waited for */
    if (!xb_mutex_trylock(&xb_mt_big))
        return false;
    for (int c = 1; c <= xb_mt_nlanes; c++) {
        if (c == chan || xb_mutex_trylock(&xb_mt_lane_lock[c]))
            continue;
        while (--c >= 1)
            if (c != chan)
                xb_mutex_unlock(&xb_mt_lane_lock[c]);
        xb_mutex_unlock(&xb_mt_big);
        return false;
    }
    held = 1;
    return true;
}

void xb_mt_lanes_drop_others(int chan)
{
    held = chan + 1;
    for (int c = xb_mt_nlanes; c >= 1; c--)
        if (c != chan)
            xb_mutex_unlock(&xb_mt_lane_lock[c]);
    xb_mutex_unlock(&xb_mt_big);
}

void xb_mt_yield_all(void)
{
    bool wanted = xb_mutex_contended(&xb_mt_big);
    for (int c = 1; c <= xb_mt_nlanes && !wanted; c++)
        wanted = xb_mutex_contended(&xb_mt_lane_lock[c]);
    if (!wanted)
        return;
    xb_mt_unlock_all();
    sched_yield();
    xb_mt_lock_all();
}
