/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_chan.c - the lanes' channels of the shm method (several progress
 * contexts, docs/design/threads.md "Progress contexts").
 *
 * Lane k has its own set of per-pair rings in the segment (set k, shm.h),
 * its own producer cursors in each endpoint (ep->ltx[k]) and its own
 * consumer cursors (st->lin[k]). Under MULTIPLE, lane k's rings are
 * pushed and polled only by a holder of lane k's lock (or of all), so
 * the single-producer single-consumer rule of each ring holds while
 * lanes run at the same time. The wake-up word of the process is shared:
 * senders wake every thread that sleeps here (shm_wait.c).
 *
 * What a lane does not do: counter-mode polling (it reads each of its
 * rings), the per-method MPI_T counters (shared; pt2pt counts per
 * channel), the helped single copy (shm_help.c, off with lanes), and
 * full_ep bookkeeping (a full lane ring makes the send wait in pt2pt's
 * queue, retried by the lane's polls).
 */
#include <stdlib.h>
#include <time.h>
#include "method/shm/shm.h"

int xb_shm_chan_setup(xb_shm_t *st)
{
    for (int c = 1; c < st->nsets; c++) {
        st->lin[c] = calloc((size_t)st->nin, sizeof(xb_shm_in_t));
        if (st->lin[c] == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "no memory for the shm rings of lane %d", c);
        for (int s = 0, k = 0; s < st->nlocal; s++) {
            if (s == st->me)
                continue;
            xb_shm_rx_init(&st->lin[c][k].rx, xb_shm_seg_ring_chan(st, c, s, st->me),
                           st->ring_size);
            st->lin[c][k].src = xb_gpid_make(0, (uint32_t)st->local_ranks[s]);
            st->lin[c][k].src_ctl = xb_shm_seg_ctl(st, s);
            k++;
        }
    }
    return XB_OK;
}

void xb_shm_chan_fini(xb_shm_t *st)
{
    for (int c = 1; c <= XB_LANES_MAX; c++) {
        free(st->lin[c]);
        st->lin[c] = NULL;
    }
}

int xb_shm_chan_open(xb_ep_t *ep)
{
    xb_shm_t *st = ep->st;
    if (ep->ltx != NULL || st->nsets <= 1)
        return XB_OK;
    xb_shm_tx_t *tx = calloc((size_t)st->nsets, sizeof(*tx));
    if (tx == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for the shm lanes to rank %d",
                          st->local_ranks[ep->peer_local]);
    for (int c = 1; c < st->nsets; c++) {
        xb_shm_tx_init(&tx[c], xb_shm_seg_ring_chan(st, c, st->me, ep->peer_local),
                       st->ring_size);
        xb_shm_tx_prefault(&tx[c]);
    }
    ep->ltx = tx;
    return XB_OK;
}

int xb_shm_send_am_chan(xb_ep_t *ep, int chan, uint8_t am_id, const void *hdr,
                        size_t hdr_len, const xb_payload_t *pl)
{
    xb_shm_t *st = ep->st;
    if (XB_UNLIKELY(ep->ltx == NULL || chan <= 0 || chan >= st->nsets ||
                    hdr_len > XB_AM_HDR_MAX ||
                    (pl != NULL && pl->len > st->m->caps.frag_max)))
        return xb_err_set(XB_ERR_INTERN, "shm lane %d to rank %d: not open, or a message "
                          "too large (header %zu, payload %zu bytes)", chan,
                          st->local_ranks[ep->peer_local], hdr_len, pl != NULL ? pl->len : 0);
    xb_shm_tx_t *tx = &ep->ltx[chan];
    int rc = xb_shm_ring_push(tx, am_id, hdr, hdr_len, pl);
    if (XB_UNLIKELY(rc == XB_ERR_AGAIN)) {
        /* full: ask the consumer to wake us when it frees space (shm_wait.c
         * F4), then look once more */
        __atomic_store_n(tx->tx_waiting, 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        rc = xb_shm_ring_push(tx, am_id, hdr, hdr_len, pl);
    }
    if (rc == XB_OK)
        xb_shm_notify(st, ep->peer_ctl);
    else if (rc != XB_ERR_AGAIN)
        return xb_err_set(XB_ERR_INTERN, "the pack callback of a %zu-byte message to rank "
                          "%d stopped early", pl != NULL ? pl->len : 0,
                          st->local_ranks[ep->peer_local]);
    return rc;
}

enum { LANE_BATCH = XB_AM_BATCH };   /* as the main rings (method.h) */

static int poll_lane_ring(xb_shm_t *st, xb_shm_in_t *in)
{
    int n = 0;
    uint64_t w;
    while (n < LANE_BATCH && (w = xb_shm_ring_peek(&in->rx)) != 0) {
        if (XB_UNLIKELY(XB_SHM_W_KIND(w) == XB_SHM_REC_PAD)) {
            xb_shm_ring_skip_pad(&in->rx);
            continue;
        }
        const uint8_t *p = xb_shm_ring_rec(&in->rx);
        size_t hl = XB_SHM_W_HLEN(w);
        if (XB_LIKELY(XB_SHM_W_KIND(w) == XB_SHM_REC_MSG))
            xb_am_dispatch(XB_SHM_W_AM(w), in->src, p + XB_SHM_REC_HDR, hl,
                           p + XB_SHM_REC_HDR + xb_shm_a8(hl), XB_SHM_W_LEN(w));
        xb_shm_ring_release(&in->rx, w);
        n++;
    }
    if (n > 0)
        xb_shm_space_released(st, in);
    return n;
}

int xb_shm_progress_chan(xb_method_t *m, int chan)
{
    xb_shm_t *st = m->priv;
    if (st == NULL || chan <= 0 || chan >= st->nsets || st->lin[chan] == NULL ||
        st->lbusy[chan])
        return 0;
    xb_shm_in_t *in = st->lin[chan];
    int n = 0;
    st->lbusy[chan] = 1;        /* a handler that polls again would re-enter */
    for (int k = 0; k < st->nin; k++)
        if (xb_shm_ring_peek(&in[k].rx) != 0)
            n += poll_lane_ring(st, &in[k]);
    st->lbusy[chan] = 0;
    return n;
}

bool xb_shm_chan_pending(xb_shm_t *st, int chan)
{
    int lo = chan > 0 ? chan : 1, hi = chan > 0 ? chan : st->nsets - 1;
    for (int c = lo; c <= hi && c < st->nsets; c++)
        for (int k = 0; st->lin[c] != NULL && k < st->nin; k++)
            if (xb_shm_ring_pending_mt(&st->lin[c][k].rx))
                return true;
    return false;
}

void xb_shm_block_chan(xb_method_t *m, int chan, int timeout_ms)
{
    xb_shm_block_shared(m->priv, chan, timeout_ms);
}
