/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_agree.c - what every process of the job agrees on at MPI_Init, so
 * that all ranks of a communicator choose the same algorithm:
 *
 *   threads    some process runs with threads (MPI_THREAD_MULTIPLE or the
 *              progress thread): no node or two-stage algorithm anywhere
 *              (xb_coll_threads);
 *   multicast  with XB_MCAST=1 on a job of several nodes and no threads:
 *              every process opened its multicast socket (the job's lowest
 *              rank on each node joined the group), the frame size is the
 *              job's smallest, the window fits the smallest receive buffer,
 *              and a probe that rank 0 multicast reached every other node
 *              (xb_coll_mcast, xb_coll_mcast_window). If any of that fails
 *              the job runs without multicast and rank 0 says why.
 *
 * One allreduce over COMM_WORLD (two with multicast: the probe), run
 * before the locks are on, by messages (xb_coll_threads is true meanwhile,
 * so no node algorithm runs, and xb_coll_agreed false, so no node channel:
 * the channels of the blocking calls under threads lie in the slots that
 * the node algorithms of a rank that has agreed on "no threads" write;
 * MPI_Init hung with 8 ranks, one in MPI_Scatter's stream while others
 * still read the agreement's channel).
 */
#include <limits.h>
#include <time.h>
#include <unistd.h>
#include "coll/coll_int.h"
#include "method/mcast/mcast.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"

XB_TUNABLE(MCAST, XB_TT_BOOL, "0", XB_TL_USER,
           "Broadcast across nodes by UDP multicast: blocking MPI_Bcast from 64 "
           "KiB on communicators over 3 nodes or more (XB_COLL_BCAST=mcast: "
           "from 2), where the LAN forwards multicast");
XB_TUNABLE(MCAST_PROBE_MS, XB_TT_INT, "500", XB_TL_TUNER,
           "At MPI_Init with XB_MCAST=1: how long each node waits for rank 0's "
           "probe datagram before the job gives multicast up");

bool   xb_coll_threads = true;
bool   xb_coll_agreed;
bool   xb_coll_mcast;
size_t xb_coll_mcast_window;

enum { PROBE_CALL = 0xffffffffu, PROBE_COPIES = 3, PROBE_GAP_US = 5000 };

static int allreduce_max(int *v, int n)
{
    return xb_coll_allreduce(MPI_IN_PLACE, v, n, xb_dt_from_handle(MPI_INT),
                             xb_op_from_handle(MPI_MAX), xb_comm_world());
}

/* Rank 0 multicasts the probe; every receiver on another node waits for
 * it. True when it came (or this process need not see it). */
static bool probe(bool receiver)
{
    const xb_rt_info_t *rt = xb_rt();
    if (rt->rank == 0) {           /* spaced: a switch may still be taking the joins */
        char b = 'p';
        for (int i = 0; i < PROBE_COPIES; i++) {
            if (i > 0)
                usleep(PROBE_GAP_US);
            (void)xb_mcast_send(PROBE_CALL, &b, 1, 0, 1);
        }
    }
    if (!receiver || rt->node_of[0] == rt->my_node)
        return true;
    xb_mcast_hdr_t h;
    const void *payload;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        int got;
        while ((got = xb_mcast_next(&h, &payload)) > 0)
            if (h.sender == 0 && h.call == PROBE_CALL)
                return true;
        clock_gettime(CLOCK_MONOTONIC, &t);
        long left = (long)xb_tn_MCAST_PROBE_MS.v.i -
                    ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
        if (got < 0 || left <= 0)
            return false;
        (void)xb_mcast_wait((int)(left < 50 ? left : 50));
    }
}

int xb_coll_agree(bool threads)
{
    const xb_rt_info_t *rt = xb_rt();
    xb_comm_t *world = xb_comm_world();
    bool want = xb_tn_MCAST.v.b && rt->nnodes > 1;
    bool receiver = rt->local_ranks[0] == rt->rank;
    const char *why = NULL;
    /* v: threads, no socket here (not asked for, or it failed), minus the
     * frame, minus the window */
    int v[4] = { threads, 1, INT_MIN, INT_MIN };
    if (want && !threads) {
        if (xb_mcast_open(receiver, &why) == XB_OK) {
            v[1] = 0;
            v[2] = -(int)xb_mcast_frame();
            if (receiver)
                v[3] = -(int)(xb_mcast_rcvbuf() / 4 < INT_MAX ? xb_mcast_rcvbuf() / 4 : INT_MAX);
        }
    }
    int rc = XB_OK;
    xb_coll_threads = true;             /* the agreement runs by messages */
    xb_coll_agreed = false;
    xb_coll_mcast = false;
    if (world->size > 1)           /* always 4: XB_MCAST may differ between processes */
        rc = allreduce_max(v, 4);
    xb_coll_threads = v[0] != 0;
    xb_coll_agreed = true;
    if (rc != XB_OK || !want)
        return rc;                 /* a process that did not ask stays quiet */
    const char *off = v[0] ? "a process runs with threads"
                    : v[1] ? "a process has no multicast socket (XB_MCAST=0 there, or "
                             "it could not open one)"
                    : v[3] == INT_MIN || -v[3] < -v[2] ? "a receive buffer holds no frame"
                    : NULL;
    int lost = 0;
    if (off == NULL) {
        xb_mcast_set_frame((size_t)-v[2]);
        lost = !probe(receiver);
        if ((rc = allreduce_max(&lost, 1)) != XB_OK)
            return rc;
        if (lost)
            off = "rank 0's probe datagram did not reach every node";
    }
    if (off != NULL) {
        if (why != NULL)
            xb_log(XB_LOG_COLL, XB_LOG_WARN, "XB_MCAST=1: no multicast socket here: %s", why);
        if (rt->rank == 0)
            xb_log(XB_LOG_COLL, XB_LOG_WARN, "XB_MCAST=1, but the job runs without "
                   "multicast: %s", off);
        xb_mcast_close();
        return XB_OK;
    }
    xb_coll_mcast = true;
    xb_mcast_stats.active = 1;
    xb_coll_mcast_window = (size_t)-v[3];
    if (rt->rank == 0)
        xb_log(XB_LOG_COLL, XB_LOG_INFO, "multicast: %s, windows of %zu bytes",
               xb_mcast_describe(), xb_coll_mcast_window);
    return XB_OK;
}
