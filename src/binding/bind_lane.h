/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bind_lane.h - the critical section of a generated binding flagged `lane`
 * in spec/implemented.txt (docs/design/threads.md "Progress contexts").
 *
 * Such a call (the point-to-point family, Wait, Test ...) locks the
 * channel of its first communicator or request argument: one lane's lock
 * when that is a lane, "all" for the main channel. The handle is resolved
 * without a lock (a pointer read; the object was made, under "all", before
 * the application could pass its handle around); an invalid handle gives
 * "all", and the call's own checks then report it. Without MULTIPLE the
 * cost is the branch of xb_cs_enter; without lanes also the same lock.
 *
 * Returns the token for xb_cs_exit (util/xb_lanes.h).
 */
#ifndef XB_BIND_LANE_H
#define XB_BIND_LANE_H

#include "util/xb_lanes.h"
#include "mpi.h"

/* Under MULTIPLE (out of line, so the bindings stay small enough for
 * link-time inlining of their handle resolution). */
int xb_cs_enter_comm_mt(MPI_Comm h);
int xb_cs_enter_req_mt(const MPI_Request *p);

static inline int xb_cs_enter_comm(MPI_Comm h)
{
    return XB_LIKELY(!xb_mt_on) ? 0 : xb_cs_enter_comm_mt(h);
}

static inline int xb_cs_enter_req(const MPI_Request *p)
{
    return XB_LIKELY(!xb_mt_on) ? 0 : xb_cs_enter_req_mt(p);
}

#endif
