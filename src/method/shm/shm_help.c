/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_help.c - a large single copy split between the receiver and the
 * sender, so that both CPUs move bytes.
 *
 * A rendezvous receiver copies the sender's buffer with process_vm_readv
 * (get, shm_cma.c). Meanwhile the sender usually sits in a wait with nothing
 * to do. For a copy of XB_SHM_HELP_MIN bytes or more into one contiguous
 * buffer, the receiver cuts it into chunks of XB_SHM_HELP_CHUNK bytes and
 * asks the sender to help: a HELP record in the ring to the sender says
 * where both buffers are. Both sides then take chunks from one counter in
 * the receiver's ctl block (line 2) and copy them, the receiver with
 * process_vm_readv from the sender, the sender with process_vm_writev into
 * the receiver:
 *
 *   claim = gen << 32 | next     a chunk is claimed by a CAS that checks gen
 *   done                         chunks copied (release), by either side
 *   err                          a helper's copy failed
 *
 * The receiver arms the slot (done = 0, err = 0, then claim with a new
 * generation, release), pushes HELP, takes chunks until none is left, then
 * waits until done reaches the chunk count: it only ever waits for chunks
 * that the sender claimed and is copying at that moment, so the wait is
 * bounded by one chunk (it yields the CPU while it waits, in case the sender
 * was preempted in the middle). The get returns only then, so the receiver's
 * FIN (which lets the sender's request complete and its buffer be reused)
 * still comes after every byte has moved, exactly as without help.
 *
 * A sender that is busy elsewhere, or asleep, simply does not help: by the
 * time it reads the HELP record every chunk is taken, or the slot carries a
 * newer generation, and its CAS fails. That is also why the receiver may
 * re-arm the slot for its next copy without hearing from the sender: a stale
 * helper cannot claim anything. A helper whose copy fails sets err; the
 * receiver then copies the whole message itself.
 *
 * One slot per receiver is enough: gets run one at a time in a process (the
 * AM handler that calls get runs under the progress lock), and a receiver
 * asks only the sender it is copying from.
 *
 * When to ask (per copy, xb_shm_help_wanted). Help pays when the sender's
 * CPU would otherwise idle: a root waiting for its gather or scatter, a
 * sender waiting for its FIN. It costs when the sender has copies of its
 * own (alltoall: every rank reads from every other) on a node with more
 * ranks than CPUs: the chunks only move from one busy rank to another,
 * and a helper preempted in the middle of a chunk keeps its receiver
 * waiting for a time slice (4 ranks on 2 CPUs, alltoall of 1 MiB blocks:
 * 1122 us with help, 789 without; gather of 4 MiB blocks on 8 ranks:
 * 3363 us with help, 6519 without; 2026-11-24). So each rank says in line
 * 3 of its ctl block whether it is handling arrived records (`working`,
 * set around every poll that found some, and around a get), and the
 * receiver asks only a sender that is not working, and, on an
 * oversubscribed node, only while fewer ranks than CPUs are working (itself
 * included): then the helper has a CPU that nobody else would use. A rank
 * that computes outside the library counts as not working: asked, it just
 * does not answer. XB_SHM_HELP_ALWAYS=on asks every time (the choice before).
 *
 * Nor does a receiver ask when its receive is one side of an exchange
 * (xb_method_exchange, raised by pt2pt while a single-copy send of ours to
 * the same sender is in flight: MPI_Sendrecv between two ranks, the 2-rank
 * alltoall and allgather). The sender then has its own copy of our data to
 * make at about the same time; `working` only tells whether it has started.
 * Asked, it helps after its own copy, writing part of our buffer from its
 * CPU and cache while we copy the rest, and a helper preempted in the
 * middle of a chunk keeps us waiting: the 2-rank alltoall and allgather
 * of 256 KiB-1 MiB took 4-20% longer with help (2026-11-29, load 12-19,
 * docs/PERFORMANCE.md). Once our send has completed (the peer
 * copied it and sent FIN) the peer idles in its wait, and help is asked as
 * before. XB_SHM_HELP_EXCHANGE=on (live: MPI_T may write it) asks in an
 * exchange too.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <sys/uio.h>
#include <unistd.h>
#include "method/shm/shm.h"
#include "runtime/cpus.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"
#include "util/xb_mt.h"

XB_TUNABLE(SHM_HELP_MIN, XB_TT_SIZE, "256k", XB_TL_TUNER,
           "Smallest single copy split between receiver and sender (0: never)");
XB_TUNABLE(SHM_HELP_CHUNK, XB_TT_SIZE, "128k", XB_TL_TUNER,
           "Chunk of a split single copy");
XB_TUNABLE(SHM_HELP_ALWAYS, XB_TT_BOOL, "off", XB_TL_TUNER,
           "Ask the sender to help with every split single copy, even while it or "
           "every CPU of the node is busy with copies of its own");
XB_TUNABLE_LIVE(SHM_HELP_EXCHANGE, XB_TT_BOOL, "off", XB_TL_TUNER,
                "Ask the sender to help with a split single copy also when the receive "
                "is one side of an exchange (the sender reads a send of ours at once)",
                NULL);

/* The HELP record: sent by the receiver to the sender of the message. */
typedef struct help_rec {
    uint32_t gen;
    uint32_t nchunks;
    uint64_t chunk;          /* bytes per chunk (the last may be shorter)    */
    uint64_t len;            /* bytes of the whole copy                      */
    uint64_t src;            /* the sender's buffer, in the sender           */
    uint64_t dst;            /* the receiver's buffer, in the receiver       */
    int32_t  pid;            /* the receiver                                 */
    uint32_t pad;
} help_rec_t;

enum { SPINS_BEFORE_YIELD = 256 };
/* How long the receiver spins for the helper's last chunks before it
 * yields: a 128 KiB chunk takes about 10 us at 12 GB/s. */
#define HELP_SPIN_NS 50000u

/* Take the next chunk of generation gen; -1 when none is left. */
static int64_t claim(xb_shm_ctl_t *c, uint32_t gen, uint32_t nchunks)
{
    uint64_t v = __atomic_load_n(&c->help_claim, __ATOMIC_ACQUIRE);
    for (;;) {
        if ((uint32_t)(v >> 32) != gen || (uint32_t)v >= nchunks)
            return -1;
        /* acquire on success: the chunk's arming (done/err reset) is seen */
        if (__atomic_compare_exchange_n(&c->help_claim, &v, v + 1, false,
                                        __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
            return (int64_t)(uint32_t)v;
    }
}

static void chunk_done(xb_shm_ctl_t *c, bool ok)
{
    if (!ok)
        __atomic_store_n(&c->help_err, 1, __ATOMIC_RELAXED);
    /* release: the chunk's bytes (and err) before the count the receiver
     * acquires */
    __atomic_fetch_add(&c->help_done, 1, __ATOMIC_RELEASE);
}

/* Copy chunk k with process_vm_readv (reader) or _writev (helper); the
 * kernel may stop short at a page it cannot serve at once: loop. */
static bool copy_chunk(const help_rec_t *h, pid_t pid, int64_t k, bool reader)
{
    uint64_t off = (uint64_t)k * h->chunk;
    uint64_t left = h->len - off < h->chunk ? h->len - off : h->chunk;
    while (left > 0) {
        struct iovec mine = { (void *)(uintptr_t)((reader ? h->dst : h->src) + off), left };
        struct iovec theirs = { (void *)(uintptr_t)((reader ? h->src : h->dst) + off), left };
        ssize_t n = reader ? process_vm_readv(pid, &mine, 1, &theirs, 1, 0)
                           : process_vm_writev(pid, &mine, 1, &theirs, 1, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        off += (uint64_t)n;
        left -= (uint64_t)n;
    }
    return true;
}

static void copy_chunks(xb_shm_ctl_t *c, const help_rec_t *h, pid_t pid, bool reader)
{
    int64_t k;
    while ((k = claim(c, h->gen, h->nchunks)) >= 0)
        chunk_done(c, copy_chunk(h, pid, k, reader));
}

/* The sender's side: a HELP record arrived from the receiver `in`. */
void xb_shm_help_handle(xb_shm_t *st, xb_shm_in_t *in, const void *rec, size_t len)
{
    (void)st;
    help_rec_t h;
    if (len < sizeof(h))
        return;
    memcpy(&h, rec, sizeof(h));
    copy_chunks(in->src_ctl, &h, (pid_t)h.pid, false);
}

bool xb_shm_help_wanted(const xb_shm_ctl_t *ctl, int nlocal, int me, int peer, int ncpu)
{
    if (__atomic_load_n(&ctl[peer].working, __ATOMIC_RELAXED) != 0)
        return false;                   /* busy with its own records */
    if (nlocal <= ncpu)
        return true;                    /* a CPU for every rank */
    int working = 1;                    /* me */
    for (int i = 0; i < nlocal && working < ncpu; i++)
        if (i != me && __atomic_load_n(&ctl[i].working, __ATOMIC_RELAXED) != 0)
            working++;
    return working < ncpu;
}

static bool can_help(const xb_ep_t *ep, int local_cnt, size_t len)
{
    size_t min = xb_tn_SHM_HELP_MIN.v.size, chunk = xb_tn_SHM_HELP_CHUNK.v.size;
    if (min == 0 || len < min || chunk == 0 || local_cnt != 1 ||
        len / chunk >= UINT32_MAX || ep->st->my_ctl == NULL || xb_method_operand > 0)
        return false;
    xb_shm_t *st = ep->st;
    if (xb_tn_SHM_HELP_ALWAYS.v.b)
        return true;
    if (xb_method_exchange > 0 && !xb_tn_SHM_HELP_EXCHANGE.v.b)
        return false;                   /* the sender copies from us */
    if (st->ncpu == 0)
        st->ncpu = xb_cpus_usable();
    return xb_shm_help_wanted(xb_shm_seg_ctl(st, 0), st->nlocal, st->me, ep->peer_local,
                              st->ncpu);
}

/* Only chunks the helper is copying right now are left: spin for about
 * the time a chunk takes, and yield only after that (the helper was
 * preempted). A yield at once would hand a CPU we share with a thread
 * of ours that computes (a progress thread's get) a whole time slice. */
static void wait_helper(xb_shm_ctl_t *c, uint32_t nchunks)
{
    uint64_t t0 = 0;
    for (unsigned spins = 0;
         __atomic_load_n(&c->help_done, __ATOMIC_ACQUIRE) != nchunks; spins++) {
        if (spins < SPINS_BEFORE_YIELD) {
            xb_cpu_relax();
            continue;
        }
        uint64_t now = xb_now_ns();
        if (t0 == 0)
            t0 = now;
        if (now - t0 >= HELP_SPIN_NS)
            sched_yield();
    }
}

static int helped_get(xb_ep_t *ep, const struct iovec *local, int local_cnt,
                      uint64_t remote_addr, size_t len)
{
    xb_shm_t *st = ep->st;
    xb_shm_ctl_t *c = st->my_ctl;
    size_t chunk = xb_tn_SHM_HELP_CHUNK.v.size;
    help_rec_t h = {
        .gen = (uint32_t)(__atomic_load_n(&c->help_claim, __ATOMIC_RELAXED) >> 32) + 1,
        .nchunks = (uint32_t)((len + chunk - 1) / chunk),
        .chunk = chunk, .len = len, .src = remote_addr,
        .dst = (uint64_t)(uintptr_t)local[0].iov_base, .pid = (int32_t)getpid(),
    };
    __atomic_store_n(&c->help_done, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&c->help_err, 0, __ATOMIC_RELAXED);
    /* release: the resets above before the new generation a helper claims */
    __atomic_store_n(&c->help_claim, (uint64_t)h.gen << 32, __ATOMIC_RELEASE);
    if (xb_shm_ring_push_kind(&ep->tx, XB_SHM_REC_HELP, 0, &h, sizeof(h), NULL) == XB_OK)
        xb_shm_notify(st, ep->peer_ctl);
    copy_chunks(c, &h, ep->pid, true);
    wait_helper(c, h.nchunks);
    if (__atomic_load_n(&c->help_err, __ATOMIC_RELAXED) != 0) {
        xb_log(XB_LOG_SHM, XB_LOG_INFO, "the sender could not write its part of a "
               "%zu-byte copy: reading it all", len);
        return xb_shm_cma_get(ep->pid, local, local_cnt, remote_addr, len);
    }
    return XB_OK;
}

int xb_shm_help_get(xb_ep_t *ep, const struct iovec *local, int local_cnt,
                    uint64_t remote_addr, size_t len)
{
    /* one helped copy per process at a time: not with lanes, whose gets
     * run at the same time (docs/design/threads.md) */
    if (xb_mt_nlanes != 0 || ep->st->my_ctl == NULL)
        return xb_shm_cma_get(ep->pid, local, local_cnt, remote_addr, len);
    /* working while we copy, also outside a poll (a receive posted after
     * the sender's RTS arrived gets at once) */
    xb_shm_ctl_t *me = ep->st->my_ctl;
    uint32_t was = __atomic_load_n(&me->working, __ATOMIC_RELAXED);
    __atomic_store_n(&me->working, 1, __ATOMIC_RELAXED);
    int rc = can_help(ep, local_cnt, len)
                 ? helped_get(ep, local, local_cnt, remote_addr, len)
                 : xb_shm_cma_get(ep->pid, local, local_cnt, remote_addr, len);
    __atomic_store_n(&me->working, was, __ATOMIC_RELAXED);
    return rc;
}
