/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * xb_lanes.h - the locks of several progress contexts ("lanes";
 * docs/design/threads.md "Progress contexts").
 *
 * Lifecycle: xb_mt_lanes_setup(n) at init (before other threads may call
 * MPI) makes lanes 1..n (n = 0: none, the one-lock world of xb_mt.h);
 * the count never goes back to 0 (a thread may still leave a call).
 *
 * Locking: lane c's lock protects lane c's state; "all" is xb_mt_big and
 * every lane lock, taken in index order and released in reverse. A thread
 * holds nothing, one lane lock, or all; never two lane locks, so the
 * order cannot be violated. What a thread holds is kept in a thread-local
 * (only when lanes exist): xb_cb_begin drops exactly that and
 * xb_progress_default() returns the held lane's context.
 *
 * Counting: xb_mt_lane_takes[c] is how often the bindings took context
 * c's lock (c = 0: "all"), incremented under that lock (MPI_T pvar
 * xb_pctx_locks; tests check that threads used different lanes).
 *
 * Returns: xb_cs_enter_chan returns the token for xb_cs_exit: 0 nothing
 * taken (no MULTIPLE), 1 the main lock or all, chan + 1 lane chan.
 */
#ifndef XB_LANES_H
#define XB_LANES_H

#include "util/xb_mt.h"

enum { XB_LANES_MAX = 16 };

extern xb_mutex_t xb_mt_lane_lock[XB_LANES_MAX + 1];   /* [1..n] */
extern uint64_t   xb_mt_lane_takes[XB_LANES_MAX + 1];
/* Guards the few objects a lane completion touches outside its lane (a
 * buffered send's slot); every other access to them holds "all". */
extern xb_mutex_t xb_mt_lanes_shared;

void xb_mt_lanes_setup(int n);
/* The token of what this thread holds (see above); 0 without lanes. */
int  xb_mt_lanes_held(void);
/* Try to take every lock but `chan`'s, which the caller holds: true when
 * it then holds all (release with xb_mt_lanes_drop_others). */
bool xb_mt_lanes_try_others(int chan);
void xb_mt_lanes_drop_others(int chan);
/* Lock all, or lane chan, for a call on channel chan (see Returns). */
int  xb_cs_enter_lanes(int chan);

static inline int xb_cs_enter_chan(int chan)
{
    if (XB_LIKELY(!xb_mt_on))
        return 0;
    if (XB_LIKELY(xb_mt_nlanes == 0)) {
        xb_mutex_lock(&xb_mt_big);
        return 1;
    }
    return xb_cs_enter_lanes(chan);
}

/* Held "all" and some lock is wanted by a sleeper: let it in. */
void xb_mt_yield_all(void);

#endif
