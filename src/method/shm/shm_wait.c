/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_wait.c - sleeping until a message arrives, and waking a sleeper.
 *
 * Each local rank has, in its ctl block of the segment, a `sleeping` flag
 * (written only by itself) and a `wake` word (a shared futex: the segment is
 * MAP_SHARED memfd memory, so FUTEX_PRIVATE_FLAG must NOT be used).
 *
 * The ordering is Dekker's:
 *
 *   receiver (xb_shm_block)              sender (xb_shm_notify, shm.h)
 *   w = wake                             store record header   (publish)
 *   sleeping = 1                         fence(seq_cst)        (F2)
 *   fence(seq_cst)            (F1)       if (sleeping)
 *   if (any ring non-empty) return           wake += 1; FUTEX_WAKE
 *   FUTEX_WAIT(&wake, w, timeout)
 *   sleeping = 0
 *
 * F1 and F2 are both seq_cst fences, so one of them comes first in their
 * total order: either the receiver's re-poll sees the record, or the sender
 * sees sleeping == 1 and wakes it. A wake that comes between the re-poll and
 * FUTEX_WAIT is not lost: the kernel compares `wake` with w and returns at
 * once when a sender has bumped it. Only a sleeping receiver costs a sender
 * a syscall.
 *
 * Asymmetric fences. A fence on the sender is paid for every message, and it
 * is not cheap: the store it drains is the record header, on a line the
 * receiver is polling, so the fence waits for that line to come back (it
 * halved the rate of 8-byte messages). The receiver goes to sleep rarely
 * (after spinning). So when the kernel offers membarrier(2) with
 * MEMBARRIER_CMD_GLOBAL_EXPEDITED, every rank registers for it at init, F2
 * becomes a compiler barrier, and F1 is followed by that membarrier, which
 * makes every running registered thread execute a full barrier (a thread
 * that is not running has passed one in its context switch). Then either the
 * sender's load of `sleeping` comes after that barrier (it sees 1), or its
 * header store came before it and is visible to our re-poll. The same
 * pairing as liburcu's and folly's "asymmetric" barriers. A rank that could
 * not register keeps the fence (xb_shm_asym_fence is per process: it only
 * decides what this process does as a sender; as a sleeper a rank always
 * issues the membarrier when the kernel has it). XB_SHM_ASYM_FENCE=off
 * forces the symmetric scheme.
 *
 * Waiting for space is the mirror image. A producer that finds a ring full
 * (xb_shm_send_full) raises the ring's tx_waiting, fences (F4), re-reads
 * head and, still full, remembers the endpoint and the head it saw. The
 * consumer, after releasing records, fences (F3, xb_shm_space_released in
 * shm.h) and, when tx_waiting is up, clears it and wakes the producer. In
 * block() the producer's re-check after F1 also looks whether that head has
 * moved: either it sees the release (F3 before F1), or the consumer saw
 * tx_waiting (F4 before F3) and bumps `wake` with a release RMW - before
 * our read of `wake` (then the head re-check sees the release) or after
 * (then FUTEX_WAIT returns at once). The consumer pays a fence and a load per
 * ring and poll that found records, and a syscall only when its producer had
 * found the ring full.
 *
 * Peer death: the sleep is bounded by the caller's timeout (the progress
 * layer uses a short one, so it can look at the job state); a dead sender
 * simply never wakes us and mpiexec ends the job.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include "method/shm/shm.h"
#include "runtime/tunable.h"
#include "util/xb_mt.h"

XB_TUNABLE(SHM_ASYM_FENCE, XB_TT_BOOL, "on", XB_TL_TUNER,
           "Senders skip the memory fence of the wake-up handshake; sleepers "
           "issue membarrier(GLOBAL_EXPEDITED) instead (when the kernel has it)");

bool xb_shm_asym_fence;
static bool can_membarrier;    /* the sleeper's heavy barrier is available */

static long membarrier(int cmd)
{
    return syscall(SYS_membarrier, cmd, 0, 0);
}

void xb_shm_fence_setup(xb_shm_t *st)
{
    xb_shm_asym_fence = false;
    long q = membarrier(MEMBARRIER_CMD_QUERY);
    can_membarrier = q > 0 && (q & MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0;
    if (!can_membarrier) {
        st->fence_why = q < 0 ? "no membarrier(2)" : "no MEMBARRIER_CMD_GLOBAL_EXPEDITED";
        return;
    }
    if (!xb_tn_SHM_ASYM_FENCE.v.b) {
        st->fence_why = "XB_SHM_ASYM_FENCE=off";
        return;
    }
    if (membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) != 0) {
        st->fence_why = "membarrier registration refused";
        return;
    }
    xb_shm_asym_fence = true;
    st->fence_why = NULL;
}

static long futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts)
{
    return syscall(SYS_futex, uaddr, op, val, ts, NULL, 0);
}

void xb_shm_wake(xb_shm_t *st, xb_shm_ctl_t *ctl)
{
    if (__atomic_load_n(&ctl->sleeping, __ATOMIC_RELAXED) == XB_SHM_SLEEP_BELL) {
        xb_shm_node_ring_bell(st->node);     /* asleep in a node barrier */
        return;
    }
    /* release: a sleeper that reads the new value (acquire, in block) also
     * sees what we published before (a record, or a released head). */
    __atomic_fetch_add(&ctl->wake, 1, __ATOMIC_RELEASE);
    futex(&ctl->wake, FUTEX_WAKE, INT_MAX, NULL);
}

/* Several sleepers (lanes under MULTIPLE): one of them owns `sleeping`,
 * so senders bump the word and wake every thread asleep on it; the others
 * sleep on the same word at most 1 ms (a sender that came before the owner
 * set the flag did not wake anybody). */
void xb_shm_block_shared(xb_shm_t *st, int chan, int timeout_ms)
{
    xb_shm_ctl_t *me = st->my_ctl;
    if (me == NULL) {
        struct timespec ts = { 0, 1000000L };
        nanosleep(&ts, NULL);
        return;
    }
    bool bell = chan == 0 && __atomic_load_n(&st->bar_waiting, __ATOMIC_RELAXED);
    uint32_t *word = bell ? &st->node->bell : &me->wake;
    uint32_t w = __atomic_load_n(word, __ATOMIC_ACQUIRE);
    uint32_t zero = 0;
    bool owner = __atomic_compare_exchange_n(&me->sleeping, &zero,
                                             bell ? XB_SHM_SLEEP_BELL : XB_SHM_SLEEP_CTL,
                                             false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    if (!owner && timeout_ms > 1)
        timeout_ms = 1;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);          /* F1, as in xb_shm_block */
    if (owner && can_membarrier && membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0 &&
        timeout_ms > 1)
        timeout_ms = 1;
    bool pending = chan == 0 ? xb_shm_pending(st) : xb_shm_chan_pending(st, chan);
    if (!pending && timeout_ms > 0) {
        struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
        futex(word, FUTEX_WAIT, w, &ts);
    }
    if (owner)
        __atomic_store_n(&me->sleeping, 0, __ATOMIC_RELAXED);
}

void xb_shm_block(xb_shm_t *st, int timeout_ms)
{
    if (XB_UNLIKELY(st->nsets > 1) && xb_mt_on) {
        xb_shm_block_shared(st, 0, timeout_ms);
        return;
    }
    xb_shm_ctl_t *me = st->my_ctl;
    if (me == NULL) {
        /* No node segment (alone on the node): nothing can wake us (so
         * under MPI_THREAD_MULTIPLE, where other threads may complete
         * what we wait for, nap 1 ms at most). */
        if (xb_mt_on && timeout_ms > 1)
            timeout_ms = 1;
        struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
        return;
    }
    /* In a node barrier, sleep on the node's bell: the last one in rings it
     * once for everybody; senders ring it too (xb_shm_wake). */
    bool bell = __atomic_load_n(&st->bar_waiting, __ATOMIC_RELAXED);
    uint32_t *word = bell ? &st->node->bell : &me->wake;
    uint32_t w = __atomic_load_n(word, __ATOMIC_ACQUIRE);
    __atomic_store_n(&me->sleeping, bell ? XB_SHM_SLEEP_BELL : XB_SHM_SLEEP_CTL,
                     __ATOMIC_RELAXED);
    /* F1 seq_cst fence: orders the `sleeping` store before the re-poll's
     * loads of the ring headers (and of `arrived`); pairs with F2. The
     * membarrier stands in for the fence the senders skip (see above). */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (can_membarrier && membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0 &&
        timeout_ms > 1)
        timeout_ms = 1;   /* a wake-up may be missed: sleep in short naps */
    /* Under MPI_THREAD_MULTIPLE block() runs without the lock while other
     * threads send: it only sleeps (the caller's timeout is short while
     * sends wait for room), it does not look at full_ep. */
    xb_ep_t *full = xb_mt_on ? NULL : st->full_ep;
    if (full != NULL &&
        __atomic_load_n(full->tx.head, __ATOMIC_ACQUIRE) != full->full_head) {
        st->full_ep = NULL;       /* space was released: let the caller retry */
    } else if (!xb_shm_pending(st) && timeout_ms > 0) {
        struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
        futex(word, FUTEX_WAIT, w, &ts);          /* EAGAIN/ETIMEDOUT: fine */
    }
    __atomic_store_n(&me->sleeping, 0, __ATOMIC_RELAXED);
}

/*
 * Crowding. When the machine is busy, the scheduler may put two ranks of a
 * job on one CPU; a rank that then spins waiting for the other keeps it
 * from running until the spin budget runs out (100 us per message instead
 * of 1, measured with `taskset -c 0 mpiexec -n 2 bench/latency`). Each
 * waiting rank publishes the CPU it waits on in its ctl line (a relaxed
 * store: a stale value only costs one needless yield or one spin slice) and
 * looks whether a rank that is awake published the same CPU.
 */
bool xb_shm_crowded(xb_shm_t *st)
{
    if (st->my_ctl == NULL)
        return false;
    int cpu = sched_getcpu();
    if (cpu < 0)
        return false;
    __atomic_store_n(&st->my_ctl->cpu, cpu + 1, __ATOMIC_RELAXED);
    for (int i = 0; i < st->nlocal; i++) {
        xb_shm_ctl_t *c = xb_shm_seg_ctl(st, i);
        if (i != st->me && __atomic_load_n(&c->cpu, __ATOMIC_RELAXED) == cpu + 1 &&
            __atomic_load_n(&c->sleeping, __ATOMIC_RELAXED) == 0)
            return true;
    }
    return false;
}

int xb_shm_send_full(xb_ep_t *ep, uint8_t am_id, const void *hdr, size_t hdr_len,
                     const xb_payload_t *pl)
{
    xb_shm_t *st = ep->st;
    if (__atomic_load_n(ep->tx.tx_waiting, __ATOMIC_RELAXED) == 0)
        __atomic_store_n(ep->tx.tx_waiting, 1, __ATOMIC_RELAXED);
    /* F4 seq_cst fence: orders the tx_waiting store before the re-read of
     * head inside the push below; pairs with F3. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    int rc = xb_shm_ring_push(&ep->tx, am_id, hdr, hdr_len, pl);
    if (rc == XB_OK) {
        xb_shm_notify(st, ep->peer_ctl);
    } else if (rc == XB_ERR_AGAIN) {
        ep->full_head = ep->tx.cached_head;    /* just re-read by the push */
        st->full_ep = ep;
    }
    return rc;
}
