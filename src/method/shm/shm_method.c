/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_method.c - the `shm` method: ranks of one node talk through per-pair
 * rings in a shared memfd segment (shm_seg.c, shm_inl.h), sleep on a futex
 * (shm_wait.c) and read large messages straight from each other's memory
 * (shm_cma.c), the sender helping with the copy when it can (shm_help.c).
 * This file is the ops table and the glue.
 *
 * Eager path: send_am -> xb_shm_ring_push (header and payload copied into
 * the ring: the one copy) -> xb_shm_notify (a load, and a fence only where
 * membarrier(2) is missing; a syscall only when the receiver sleeps). progress -> poll the inbound rings ->
 * xb_am_dispatch with the payload pointer inside the ring -> release. No lock,
 * no syscall, no allocation on that path.
 *
 * Capabilities: frag_max = ring / 4 (four fragments in flight per pair),
 * eager_max = XB_SHM_EAGER_MAX, get_min = XB_SHM_GET_MIN, GET when the
 * kernel allows process_vm_readv and XB_SHM_CMA is on, SLEEP always.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "method/shm/shm.h"
#include "runtime/tunable.h"
#include "util/xb_mt.h"

XB_TUNABLE_DECL(SHM_RING_SIZE);

static int shm_eager_changed(xb_tunable_t *t);
XB_TUNABLE_LIVE(SHM_EAGER_MAX, XB_TT_SIZE, "16k", XB_TL_TUNER,
           "Largest message sent eagerly through shared memory (capped at a "
           "quarter of the ring)", shm_eager_changed);
XB_TUNABLE(SHM_GET_MIN, XB_TT_SIZE, "0", XB_TL_TUNER,
           "Smallest rendezvous message read with a single copy "
           "(process_vm_readv); smaller ones are pipelined through the rings");

enum {
    ADDR_VERSION = 1,
    /* With more inbound rings than this, senders also count arrivals in the
     * receiver's ctl line and an idle poll reads that one word instead of
     * one word per ring. Up to 4 rings the direct poll is at most 4 loads
     * of lines that stay in our cache while idle, cheaper than the extra
     * atomic add every sender would pay. */
    COUNTER_MODE_MIN_RINGS = 5,
};

static xb_shm_t shm;
static const xb_rt_info_t *shm_rt;
static char shm_why[256];

static int local_index(const xb_shm_t *st, int world)
{
    for (int i = 0; i < st->nlocal; i++)
        if (st->local_ranks[i] == world)
            return i;
    return -1;
}

static int setup_rings(xb_shm_t *st)
{
    st->my_ctl = xb_shm_seg_ctl(st, st->me);
    st->node = (xb_shm_node_t *)(void *)xb_shm_seg_ctl(st, st->nlocal);
    st->nin = st->nlocal - 1;
    st->in = calloc((size_t)st->nin, sizeof(*st->in));
    if (st->in == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for %d shm rings", st->nin);
    for (int s = 0, k = 0; s < st->nlocal; s++) {
        if (s == st->me)
            continue;
        xb_shm_rx_init(&st->in[k].rx, xb_shm_seg_ring(st, s, st->me), st->ring_size);
        st->in[k].src = xb_gpid_make(0, (uint32_t)st->local_ranks[s]);
        st->in[k].src_ctl = xb_shm_seg_ctl(st, s);
        k++;
    }
    st->counter_mode = st->nin >= COUNTER_MODE_MIN_RINGS;
    st->seen = __atomic_load_n(&st->my_ctl->arrived, __ATOMIC_ACQUIRE);
    return xb_shm_chan_setup(st);
}

static void set_caps(xb_shm_t *st, xb_method_t *m)
{
    size_t frag = st->ring_size / 4;
    if (frag > xb_shm_ring_payload_max(st->ring_size))
        frag = xb_shm_ring_payload_max(st->ring_size);
    m->caps.frag_max = frag;
    m->caps.eager_max = xb_tn_SHM_EAGER_MAX.v.size < frag ? xb_tn_SHM_EAGER_MAX.v.size
                                                         : frag;
    m->caps.get_min = xb_tn_SHM_GET_MIN.v.size;
    m->caps.flags = XB_METHOD_CAP_SLEEP | (st->cma ? XB_METHOD_CAP_GET : 0);
}

/* XB_SHM_EAGER_MAX written through MPI_T: the next send uses it. */
static int shm_eager_changed(xb_tunable_t *t)
{
    (void)t;
    xb_method_t *m = xb_method_get(XB_METHOD_SHM);
    if (m != NULL && m->enabled && m->priv != NULL)
        set_caps(m->priv, m);
    return XB_OK;
}

static int fail_why(const char **why)
{
    snprintf(shm_why, sizeof(shm_why), "%s", xb_err_detail());
    *why = shm_why;
    return XB_ERR_OTHER;
}

static int shm_init(xb_method_t *m, const xb_rt_info_t *rt, const char **why)
{
    xb_shm_t *st = &shm;
    memset(st, 0, sizeof(*st));
    st->m = m;
    st->own_fd = -1;
    st->nlocal = rt->local_size > 0 ? rt->local_size : 1;
    st->me = rt->local_rank;
    st->local_ranks = rt->local_ranks;
    shm_rt = rt;
    xb_shm_cma_setup(st);
    xb_shm_fence_setup(st);
    st->nsets = 1 + xb_mt_nlanes;
    st->ring_size = xb_shm_ring_size_for(st->nlocal, st->nsets);
    set_caps(st, m);
    m->priv = st;
    if (st->nlocal <= 1) {
        /* Alone on the node: no segment, but the node slots of one rank in
         * private memory (zero, untouched until used), so that every rank
         * of a job sees the same slot size (xb_shm_node_slot). */
        void *p = mmap(NULL, XB_SHM_COLL_AREAS * XB_SHM_COLL_SLOT, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            *why = "no memory for the node slots of a rank alone on its node";
            return xb_err_set(XB_ERR_NO_MEM, "shm: %s", *why);
        }
        st->lone_slots = p;
        return XB_OK;
    }
    size_t rings_off;
    st->seg_need = xb_shm_seg_layout(st->nlocal, st->ring_size, st->nsets, &rings_off);
    int rc = XB_OK;
    if (rt->jobseg_fd >= 0)
        rc = xb_shm_seg_attach_jobseg(st, rt->jobseg_fd);
    else if (st->me == 0)
        rc = xb_shm_seg_create(st);
    if (rc == XB_OK && st->base != NULL)
        rc = setup_rings(st);
    if (rc != XB_OK) {
        xb_shm_seg_detach(st);
        return fail_why(why);
    }
    return XB_OK;
}

static void shm_fini(xb_method_t *m)
{
    xb_shm_t *st = m->priv;
    if (st == NULL)
        return;
    xb_shm_seg_detach(st);
    xb_shm_chan_fini(st);
    if (st->lone_slots != NULL)
        munmap(st->lone_slots, XB_SHM_COLL_AREAS * XB_SHM_COLL_SLOT);
    st->lone_slots = NULL;
    free(st->in);
    st->in = NULL;
    st->nin = 0;
    st->my_ctl = NULL;
    st->node = NULL;
    m->priv = NULL;
}

static int shm_addr_pack(xb_method_t *m, void *buf, size_t *len_p)
{
    xb_shm_t *st = m->priv;
    xb_shm_addr_t a = {
        .version = ADDR_VERSION, .pid = (int32_t)getpid(), .memfd = st->own_fd,
        .ring_size = (uint32_t)st->ring_size,
        .cma_probe = (uint64_t)(uintptr_t)&xb_shm_cma_magic,
        .nsets = (uint32_t)st->nsets,
    };
    if (*len_p < sizeof(a))
        return xb_err_set(XB_ERR_INTERN, "shm address needs %zu bytes", sizeof(a));
    memcpy(buf, &a, sizeof(a));
    *len_p = sizeof(a);
    return XB_OK;
}

static int peer_addr(int world, xb_shm_addr_t *a)
{
    size_t len = sizeof(*a);
    int rc = xb_rt_peer_addr(world, "shm", a, &len);
    if (rc != XB_OK)
        return rc;
    if (len != sizeof(*a) || a->version != ADDR_VERSION)
        return xb_err_set(XB_ERR_OTHER, "rank %d published a shm address of another "
                          "version (%zu bytes)", world, len);
    return XB_OK;
}

static int shm_ready(xb_method_t *m)
{
    xb_shm_t *st = m->priv;
    xb_shm_addr_t a0, an;
    if (st->nlocal <= 1)
        return XB_OK;
    int rc = peer_addr(st->local_ranks[0], &a0);
    if (rc != XB_OK)
        return rc;
    if (a0.ring_size != st->ring_size)
        return xb_err_set(XB_ERR_OTHER, "shared-memory rings of %u bytes on rank %d "
                          "but %zu here: XB_SHM_RING_SIZE must be the same on every "
                          "rank", a0.ring_size, st->local_ranks[0], st->ring_size);
    if (a0.nsets != (uint32_t)st->nsets)
        return xb_err_set(XB_ERR_OTHER, "%u progress contexts on rank %d but %d here: "
                          "XB_PROGRESS_CONTEXTS must be the same on every rank",
                          a0.nsets, st->local_ranks[0], st->nsets);
    if (st->base == NULL) {
        if (a0.memfd < 0)
            return xb_err_set(XB_ERR_OTHER, "node-local rank %d published no shared "
                              "segment", st->local_ranks[0]);
        rc = xb_shm_seg_open_peer(st, a0.pid, a0.memfd);
        if (rc == XB_OK)
            rc = setup_rings(st);
        if (rc != XB_OK)
            return rc;
    }
    if (st->cma) {
        int next = st->local_ranks[(st->me + 1) % st->nlocal];
        if (peer_addr(next, &an) == XB_OK)
            xb_shm_cma_check_peer(st, an.pid, an.cma_probe);
        else
            xb_err_clear();
        set_caps(st, m);
    }
    return XB_OK;
}

static bool shm_reachable(xb_method_t *m, xb_gpid_t peer)
{
    xb_shm_t *st = m->priv;
    uint32_t r = xb_gpid_rank(peer);
    if (st == NULL || st->base == NULL || xb_gpid_job(peer) != 0 ||
        r >= (uint32_t)shm_rt->size || (int)r == shm_rt->rank)
        return false;
    return local_index(st, (int)r) >= 0;
}

static int shm_ep_open(xb_method_t *m, xb_gpid_t peer, xb_ep_t **ep_p)
{
    xb_shm_t *st = m->priv;
    int world = (int)xb_gpid_rank(peer);
    int li = local_index(st, world);
    if (st->base == NULL || li < 0 || li == st->me)
        return xb_err_set(XB_ERR_INTERN, "rank %d is not reachable through shared "
                          "memory", world);
    xb_ep_t *ep = calloc(1, sizeof(*ep));
    if (ep == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a shm endpoint");
    xb_shm_tx_init(&ep->tx, xb_shm_seg_ring(st, st->me, li), st->ring_size);
    xb_shm_tx_prefault(&ep->tx);
    ep->peer_ctl = xb_shm_seg_ctl(st, li);
    ep->st = st;
    ep->peer_local = li;
    if (st->cma) {
        xb_shm_addr_t a;
        if (peer_addr(world, &a) == XB_OK)
            ep->pid = a.pid;
        else
            xb_err_clear();       /* get() will refuse; pt2pt falls back */
    }
    *ep_p = ep;
    return XB_OK;
}

static void shm_ep_close(xb_ep_t *ep)
{
    if (ep->st->full_ep == ep)
        ep->st->full_ep = NULL;
    free(ep->ltx);
    free(ep);
}

static XB_NOINLINE int send_refused(xb_ep_t *ep, size_t hdr_len,
                                    const xb_payload_t *pl, int rc)
{
    if (rc == XB_ERR_INTERN)
        return xb_err_set(rc, "the pack callback of a %zu-byte message to rank %d "
                          "stopped early", pl->len, ep->st->local_ranks[ep->peer_local]);
    return xb_err_set(XB_ERR_INTERN, "shm message too large: header %zu bytes "
                      "(max %d), payload %zu bytes (max %zu)", hdr_len, XB_AM_HDR_MAX,
                      pl != NULL ? pl->len : 0, ep->st->m->caps.frag_max);
}

static int shm_send_am(xb_ep_t *ep, uint8_t am_id, const void *hdr, size_t hdr_len,
                       const xb_payload_t *pl, xb_am_done_t *done)
{
    (void)done;                       /* always copied: never INPROGRESS */
    if (XB_UNLIKELY(hdr_len > XB_AM_HDR_MAX ||
                    (pl != NULL && pl->len > ep->st->m->caps.frag_max)))
        return send_refused(ep, hdr_len, pl, XB_ERR_ARG);
    int rc = xb_shm_ring_push(&ep->tx, am_id, hdr, hdr_len, pl);
    if (XB_LIKELY(rc == XB_OK)) {
        xb_shm_notify(ep->st, ep->peer_ctl);
        if (XB_UNLIKELY(ep->st->full_ep == ep))
            ep->st->full_ep = NULL;           /* no longer waiting for space */
        return XB_OK;
    }
    if (rc == XB_ERR_AGAIN)
        return xb_shm_send_full(ep, am_id, hdr, hdr_len, pl);
    return send_refused(ep, hdr_len, pl, rc);
}

/* Why a single copy with ep's peer cannot be made (the caller falls back
 * to messages); XB_OK when it can. */
static int cma_refused(const xb_ep_t *ep, const char *dir)
{
    if (ep->st->cma && ep->pid > 0)
        return XB_OK;
    return xb_err_set(XB_ERR_OTHER, "single copy %s rank %d is off (%s)", dir,
                      ep->st->local_ranks[ep->peer_local],
                      ep->st->cma_why ? ep->st->cma_why : "no pid");
}

static int shm_get(xb_ep_t *ep, const struct iovec *local, int local_cnt,
                   uint64_t remote_addr, size_t len)
{
    int rc = cma_refused(ep, "from");
    return rc != XB_OK ? rc : xb_shm_help_get(ep, local, local_cnt, remote_addr, len);
}

static int shm_put(xb_ep_t *ep, const struct iovec *local, int local_cnt,
                   uint64_t remote_addr, size_t len)
{
    int rc = cma_refused(ep, "to");
    return rc != XB_OK ? rc : xb_shm_cma_put(ep->pid, local, local_cnt, remote_addr, len);
}

/* Handle up to xb_am_batch records of one ring (method.h: XB_AM_BATCH,
 * so one busy peer cannot starve the others and the handlers' work stays
 * bounded per call, or fewer when a handler yields); *more when some are
 * left. A yield leaves the records behind the awaited one here until the
 * caller's next receive is posted: a 2-rank 4 KiB bcast whose root ran
 * ahead sent 63 of every 64 through the unexpected queue, and the slowed
 * receiver stayed behind (docs/design/method.md "Batches"). */
static inline int poll_ring(xb_shm_t *st, xb_shm_in_t *in, bool *more)
{
    int n = 0;
    uint64_t w;
    while ((w = xb_shm_ring_peek(&in->rx)) != 0) {
        if (XB_UNLIKELY(XB_SHM_W_KIND(w) == XB_SHM_REC_PAD)) {
            xb_shm_ring_skip_pad(&in->rx);
            continue;
        }
        if (n >= __atomic_load_n(&xb_am_batch, __ATOMIC_RELAXED)) {
            *more = true;
            break;
        }
        const uint8_t *p = xb_shm_ring_rec(&in->rx);
        size_t hl = XB_SHM_W_HLEN(w);
        if (XB_LIKELY(XB_SHM_W_KIND(w) == XB_SHM_REC_MSG))
            xb_am_dispatch_from(XB_METHOD_SHM, XB_SHM_W_AM(w), in->src, p + XB_SHM_REC_HDR,
                                hl, p + XB_SHM_REC_HDR + xb_shm_a8(hl), XB_SHM_W_LEN(w));
        else
            xb_shm_help_handle(st, in, p + XB_SHM_REC_HDR, hl);
        xb_shm_ring_release(&in->rx, w);
        n++;
    }
    if (n > 0)
        xb_shm_space_released(st, in);
    return n;
}

static XB_NOINLINE int poll_rings(xb_shm_t *st, uint64_t arrived)
{
    int n = 0;
    bool more = false;
    st->in_progress = 1;
    /* others read it to decide whether to ask us for help (shm_help.c) */
    __atomic_store_n(&st->my_ctl->working, 1, __ATOMIC_RELAXED);
    for (int k = 0; k < st->nin; k++) {
        n += poll_ring(st, &st->in[k], &more);
        if (XB_UNLIKELY(__atomic_load_n(&xb_am_batch, __ATOMIC_RELAXED) != XB_AM_BATCH)) {
            __atomic_store_n(&xb_am_batch, XB_AM_BATCH, __ATOMIC_RELAXED);
            more = true;                 /* a handler yielded: leave */
            break;
        }
    }
    __atomic_store_n(&st->my_ctl->working, 0, __ATOMIC_RELAXED);
    st->in_progress = 0;
    if (st->counter_mode && !more)
        st->seen = arrived;
    return n;
}

/* Empty polls in a row after which a poll also asks for the two lines
 * after each ring's head, so that a record's lines come with its header
 * word's (docs/design/method.md, "The lines after the head"; a prefetch
 * past the ring's end does not fault). */
enum { EARLY_AFTER = 8 };

/* The empty poll, which a waiting rank runs in a loop, is a leaf with a few
 * loads (no call, no saved registers); records are handled out of line. */
int xb_shm_poll(xb_shm_t *st)
{
    /* A handler that polls again would see the record it is handling. */
    if (XB_UNLIKELY(st->in_progress) || st->nin == 0)
        return 0;
    if (st->counter_mode) {
        /* acquire: pairs with nothing stronger than the rings' own release
         * stores; a stale value only delays us to the next poll. */
        uint64_t arrived = __atomic_load_n(&st->my_ctl->arrived, __ATOMIC_ACQUIRE);
        return arrived == st->seen ? 0 : poll_rings(st, arrived);
    }
    bool early = ++st->empty_polls > EARLY_AFTER;
    for (int k = 0; k < st->nin; k++) {
        if (xb_shm_ring_peek(&st->in[k].rx) != 0) {
            st->empty_polls = 0;
            return poll_rings(st, 0);
        }
        if (early) {
            const uint8_t *next =
                (const uint8_t *)(((uintptr_t)xb_shm_ring_rec(&st->in[k].rx) | 63) + 1);
            __builtin_prefetch(next);
            __builtin_prefetch(next + 64);
        }
    }
    return 0;
}

/* Under MPI_THREAD_MULTIPLE block() runs without the lock while another
 * thread polls, so it reads only what the consumer publishes atomically:
 * the shared head (behind a PAD record it has skipped, look past it). */
bool xb_shm_ring_pending_mt(const xb_shm_rx_t *rx)
{
    uint64_t h = __atomic_load_n(rx->head_sh, __ATOMIC_ACQUIRE);
    uint64_t w = __atomic_load_n((const uint64_t *)(rx->data + (h & rx->mask)),
                                 __ATOMIC_ACQUIRE);
    if (w != 0 && XB_SHM_W_KIND(w) == XB_SHM_REC_PAD) {
        h += rx->mask + 1 - (h & rx->mask);
        w = __atomic_load_n((const uint64_t *)(rx->data + (h & rx->mask)), __ATOMIC_ACQUIRE);
    }
    return w != 0;
}

bool xb_shm_pending(xb_shm_t *st)
{
    if (XB_UNLIKELY(st->nsets > 1) && xb_shm_chan_pending(st, 0))
        return true;          /* the main context polls the lanes too */
    if (xb_mt_on) {
        /* the node watch takes the lock itself when it can (coll/node_nb.c) */
        if (xb_shm_node_pending(st) || xb_method_node_watch())
            return true;
        for (int k = 0; k < st->nin; k++)
            if (xb_shm_ring_pending_mt(&st->in[k].rx))
                return true;
        return false;
    }
    if (xb_shm_node_pending(st) || xb_method_node_watch())
        return true;
    for (int k = 0; k < st->nin; k++)
        if (xb_shm_ring_peek(&st->in[k].rx) != 0)
            return true;
    return false;
}

static int shm_progress(xb_method_t *m)
{
    return xb_shm_poll(m->priv);
}

static void shm_block(xb_method_t *m, int timeout_ms)
{
    xb_shm_block(m->priv, timeout_ms);
}

static bool shm_crowded(xb_method_t *m)
{
    return m->priv != NULL && xb_shm_crowded(m->priv);
}

/* Another thread of this process wakes our block() (MPI_THREAD_MULTIPLE). */
static void shm_wake(xb_method_t *m)
{
    xb_shm_t *st = m->priv;
    if (st->my_ctl != NULL)
        xb_shm_wake(st, st->my_ctl);
}

int xb_shm_probe(const char **why)
{
    int fd = memfd_create("crossbar-probe", MFD_CLOEXEC);
    if (fd < 0) {
        snprintf(shm_why, sizeof(shm_why), "memfd_create: %s", strerror(errno));
        *why = shm_why;
        return XB_ERR_OTHER;
    }
    close(fd);
    *why = NULL;
    return XB_OK;
}

int xb_shm_describe(xb_method_t *m, char *buf, size_t len)
{
    size_t off = strlen(buf);
    xb_shm_t *st = m->priv;
    if (st != NULL && m->enabled) {
        off = xb_method_bprintf(buf, len, off, "ring=%zu B x %d inbound, segment=%s, "
                                "poll=%s, wake-up fences: %s, single-copy: %s%s%s",
                                st->ring_size, st->nin,
                                st->base == NULL ? "none (alone on the node)" :
                                st->own_fd >= 0 ? "own memfd" :
                                shm_rt->jobseg_fd >= 0 ? "launcher memfd" : "peer memfd",
                                st->counter_mode ? "counter" : "direct",
                                st->fence_why == NULL ? "asymmetric (membarrier)"
                                                      : st->fence_why,
                                st->cma ? "on" : "off", st->cma_why ? ", " : "",
                                st->cma_why ? st->cma_why : "");
        return (int)off;
    }
    const char *why = NULL;
    int ok = xb_shm_cma_probe(&why) == XB_OK;
    off = xb_method_bprintf(buf, len, off, "XB_SHM_RING_SIZE=%zu XB_SHM_EAGER_MAX=%zu "
                            "XB_SHM_GET_MIN=%zu, single-copy: %s%s%s",
                            xb_tn_SHM_RING_SIZE.v.size, xb_tn_SHM_EAGER_MAX.v.size,
                            xb_tn_SHM_GET_MIN.v.size, ok ? "on" : "off",
                            why ? ", " : "", why ? why : "");
    return (int)off;
}

const xb_method_ops_t xb_shm_ops = {
    .name = "shm",
    .init = shm_init,
    .fini = shm_fini,
    .addr_pack = shm_addr_pack,
    .ready = shm_ready,
    .reachable = shm_reachable,
    .ep_open = shm_ep_open,
    .ep_close = shm_ep_close,
    .send_am = shm_send_am,
    .get = shm_get,
    .put = shm_put,
    .crowded = shm_crowded,
    .progress = shm_progress,
    .block = shm_block,
    .wake = shm_wake,
    .node_arrive = xb_shm_node_arrive,
    .node_released = xb_shm_node_released,
    .node_slot = xb_shm_node_slot,
    .node_wake = xb_shm_node_wake,
    .node_sleep_word = xb_shm_node_sleep_word,
    .node_fence = xb_shm_node_fence,
    .chan_open = xb_shm_chan_open,
    .send_am_chan = xb_shm_send_am_chan,
    .progress_chan = xb_shm_progress_chan,
    .block_chan = xb_shm_block_chan,
};
