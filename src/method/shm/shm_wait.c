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
 * once when a sender has bumped it. Senders pay one fence and one load of a
 * line that stays shared while nobody sleeps; only a sleeping receiver costs
 * them a syscall.
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
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "method/shm/shm.h"
#include "util/xb_mt.h"

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

void xb_shm_block(xb_shm_t *st, int timeout_ms)
{
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
     * loads of the ring headers (and of `arrived`); pairs with F2. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
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
