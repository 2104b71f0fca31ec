/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_ring.c - the cold half of the per-pair ring (the hot half is inline in
 * shm_inl.h): binding private cursors to a ring of the segment, and the
 * size arithmetic the segment layout and the capabilities use, and the
 * prefault of a producer's ring.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include "method/shm/shm_inl.h"
#include "runtime/tunable.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23        /* Linux 5.14; older kernels say EINVAL */
#endif

/* On by default: streaming 1-byte messages at 2 ranks (bench/bw.c), the
 * first lap of a 256 KiB ring took one write fault per 4 KiB page (64
 * records of 64 bytes) on the sender, which halved the message rate of the
 * first 64 windows (8.3 -> 16 MB/s with the prefault, 2026-11-29). */
XB_TUNABLE(SHM_PREFAULT, XB_TT_BOOL, "on", XB_TL_TUNER,
           "A sender faults in the pages of its ring to a peer when it opens "
           "the endpoint (first send), instead of one page fault per page "
           "during the ring's first lap");

void xb_shm_tx_init(xb_shm_tx_t *tx, xb_shm_ring_t *ring, size_t size)
{
    tx->data = ring->data;
    tx->head = &ring->head;
    tx->tx_waiting = &ring->tx_waiting;
    /* The producer starts where the consumer is: a segment is fresh (all
     * zero) when a job starts, so both start at 0. */
    tx->tail = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
    tx->cached_head = tx->tail;
    tx->mask = size - 1;
}

void xb_shm_rx_init(xb_shm_rx_t *rx, xb_shm_ring_t *ring, size_t size)
{
    rx->data = ring->data;
    rx->head_sh = &ring->head;
    rx->tx_waiting = &ring->tx_waiting;
    rx->head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
    rx->mask = size - 1;
}

/*
 * The pages of a memfd segment are allocated and mapped on first touch, so
 * the first lap of a ring costs the producer a page fault (allocate, zero,
 * map) every 4 KiB it writes. Fault them all in at once, before the first
 * record: MADV_POPULATE_WRITE (Linux 5.14) does it without touching the
 * contents; where the kernel does not know it, an atomic add of 0 to one word
 * per page does the same (the consumer never writes the data area, and the
 * producer is the caller, so the words keep their values). The range is
 * widened to whole pages (a neighbouring ring's bytes are not changed).
 */
void xb_shm_tx_prefault(xb_shm_tx_t *tx)
{
    static int no_populate;           /* the kernel refused MADV_POPULATE_WRITE */
    if (!xb_tn_SHM_PREFAULT.v.b)
        return;
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t page = pg > 0 ? (uintptr_t)pg : 4096;
    uintptr_t lo = (uintptr_t)tx->data & ~(page - 1);
    uintptr_t hi = ((uintptr_t)tx->data + tx->mask + 1 + page - 1) & ~(page - 1);
    if (!__atomic_load_n(&no_populate, __ATOMIC_RELAXED)) {
        /* Any failure but "unknown advice" (no memory, a signal): the pages
         * fault in lazily, as without the prefault. */
        if (madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) == 0 || errno != EINVAL)
            return;
        __atomic_store_n(&no_populate, 1, __ATOMIC_RELAXED);
    }
    for (uintptr_t a = (uintptr_t)tx->data; a < (uintptr_t)tx->data + tx->mask + 1;
         a = (a & ~(page - 1)) + page)
        __atomic_fetch_add((uint64_t *)(void *)(a & ~(uintptr_t)7), 0, __ATOMIC_RELAXED);
}

size_t xb_shm_ring_payload_max(size_t size)
{
    /* A record is at most half the ring (see shm_inl.h). */
    return (size / 2 - XB_SHM_REC_HDR - XB_AM_HDR_MAX) & ~(size_t)7;
}

size_t xb_shm_ring_stride(size_t size)
{
    return sizeof(xb_shm_ring_t) + size;
}
