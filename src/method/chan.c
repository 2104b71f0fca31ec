/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * chan.c - the channels of the lanes (several progress contexts,
 * docs/design/threads.md "Progress contexts"): send, poll and sleep on
 * lane chan through the methods that have channels (self, shm). tcp has
 * none: a communicator with a member reached by tcp stays on channel 0.
 *
 * Threading: a lane's calls hold that lane's lock only, so nothing here
 * writes shared state: endpoints are opened beforehand (chan_ready, under
 * all the locks), and the per-method MPI_T counters are not touched (a
 * lane's messages are counted per channel by pt2pt).
 */
#include <time.h>
#include "method/method_int.h"
#include "util/xb_lanes.h"
#include "runtime/tunable.h"

/* Read by xb_method_init_all, which sets xb_mt_nlanes before the methods
 * build their channels (progress and pt2pt then make a context per lane). */
XB_TUNABLE(PROGRESS_CONTEXTS, XB_TT_INT, "1", XB_TL_USER,
           "Progress contexts communicators are spread over (1-16): with N > 1, "
           "point-to-point on a communicator of one node runs under its own lock, so "
           "threads on communicators of different contexts do not wait for each other "
           "(info hint \"xb_progress_context\" picks one, 0 = the main context)");

int xb_method_chan_ready(xb_gpid_t peer)
{
    xb_method_t *m = xb_peer_method(peer);
    if (m == NULL || m->ops->send_am_chan == NULL)
        return 0;
    xb_ep_t *ep;
    int rc = xb_peer_ep(peer, &ep);
    if (rc == XB_OK && m->ops->chan_open != NULL)
        rc = m->ops->chan_open(ep);
    return rc == XB_OK ? 1 : rc;
}

int xb_method_send_lane(int chan, xb_gpid_t peer, uint8_t am_id, const void *hdr,
                        size_t hdr_len, const xb_payload_t *pl)
{
    xb_method_t *m = xb_peer_method(peer);
    xb_ep_t *ep;
    if (XB_UNLIKELY(m == NULL || m->ops->send_am_chan == NULL))
        return xb_err_set(XB_ERR_INTERN, "rank %u is not reachable on channel %d",
                          xb_gpid_rank(peer), chan);
    int rc = xb_peer_ep(peer, &ep);
    if (rc != XB_OK)
        return rc;
    return m->ops->send_am_chan(ep, chan, am_id, hdr, hdr_len, pl);
}

int xb_method_progress_chan(int chan)
{
    int n = 0;
    for (int i = 0; i < XB_METHOD_NREG; i++) {
        xb_method_t *m = xb_method_get(i);
        if (m != NULL && m->enabled && m->ops->progress_chan != NULL)
            n += m->ops->progress_chan(m, chan);
    }
    return n;
}

void xb_method_block_chan(int chan, int timeout_ms)
{
    xb_method_t *m = xb_method_get(XB_METHOD_SHM);
    if (m != NULL && m->enabled && m->ops->block_chan != NULL) {
        m->ops->block_chan(m, chan, timeout_ms);
        return;
    }
    struct timespec ts = { 0, 1000000L };     /* nothing can wake us: nap */
    nanosleep(&ts, NULL);
}
