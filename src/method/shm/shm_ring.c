/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_ring.c - the cold half of the per-pair ring (the hot half is inline in
 * shm_inl.h): binding private cursors to a ring of the segment, and the
 * size arithmetic the segment layout and the capabilities use.
 */
#include "method/shm/shm_inl.h"

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

size_t xb_shm_ring_payload_max(size_t size)
{
    /* A record is at most half the ring (see shm_inl.h). */
    return (size / 2 - XB_SHM_REC_HDR - XB_AM_HDR_MAX) & ~(size_t)7;
}

size_t xb_shm_ring_stride(size_t size)
{
    return sizeof(xb_shm_ring_t) + size;
}
