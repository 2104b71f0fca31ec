/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_inl.h - the hot inline helpers of the shm method: the per-pair ring.
 *
 * One ring per ordered pair (sender, receiver) of the ranks of a node: a
 * single-producer single-consumer byte ring of variable-size records, in the
 * shared segment. Its memory is valid when all-zero (no initialisation).
 *
 *   shared:   xb_shm_ring_t { head (consumer's line) } + data[size]
 *   producer: xb_shm_tx_t   { tail, cached head }     private memory
 *   consumer: xb_shm_rx_t   { head }                  private memory
 *
 * A record is an 8-byte header word, the protocol header padded to 8 bytes
 * and the payload padded to 8 bytes; records never wrap (a PAD record fills
 * the end of the buffer instead). The header word is never zero, and the
 * word at the producer's tail is always zero: before it publishes a record
 * the producer zeroes the word just after it. So the consumer needs no tail
 * index: it polls the header word at its own head, which shares the cache
 * line with the start of the data - one cache miss for a small message
 * instead of two (tail line, then data line).
 *
 * Flow control: the producer may use the bytes [tail, head + size); it keeps
 * a private copy of head and reloads the shared one only when the copy says
 * the ring is full. A record needs its own size, a possible PAD and the
 * 8 bytes of the next (zeroed) header word. A record is at most size / 2, so
 * an empty ring always has room for it whatever the wrap position.
 *
 * Threading: one producer thread and one consumer thread per ring (the
 * progress lock of each process); no lock, no syscall, no allocation here.
 */
#ifndef XB_SHM_INL_H
#define XB_SHM_INL_H

#include <string.h>
#include "method/method.h"

/* header word: bits 0..31 payload bytes, 32..39 am_id, 40..47 hdr_len,
 * 48..55 kind (never 0, so a published header is never 0). */
/* MSG: an active message for the upper layers; PAD: the rest of the buffer
 * is unused; HELP: the method's own request to help with a copy (shm_help.c). */
enum { XB_SHM_REC_MSG = 1, XB_SHM_REC_PAD = 2, XB_SHM_REC_HELP = 3 };
#define XB_SHM_W_LEN(w)    ((uint32_t)(w))
#define XB_SHM_W_AM(w)     ((uint8_t)((w) >> 32))
#define XB_SHM_W_HLEN(w)   ((uint8_t)((w) >> 40))
#define XB_SHM_W_KIND(w)   ((uint8_t)((w) >> 48))
#define XB_SHM_REC_HDR     8u

typedef struct xb_shm_ring {
    XB_ALIGNED(XB_CACHELINE) uint64_t head;   /* written by the consumer only */
    uint8_t pad0[XB_CACHELINE - sizeof(uint64_t)];
    /* Set by a producer that found the ring full; the consumer clears it and
     * wakes the producer after releasing space (see shm_wait.c). */
    XB_ALIGNED(XB_CACHELINE) uint32_t tx_waiting;
    uint8_t pad1[XB_CACHELINE - sizeof(uint32_t)];
    XB_ALIGNED(XB_CACHELINE) uint8_t data[];  /* size bytes */
} xb_shm_ring_t;
_Static_assert(sizeof(xb_shm_ring_t) == 2 * XB_CACHELINE, "ring header is two lines");

typedef struct xb_shm_tx {
    uint8_t  *data;
    uint64_t *head;         /* shared: consumer's progress                 */
    uint32_t *tx_waiting;   /* shared: "I found you full"                  */
    uint64_t  tail;         /* bytes ever reserved by this producer         */
    uint64_t  cached_head;  /* last value read from *head                   */
    uint64_t  mask;         /* size - 1 (size is a power of two)            */
} xb_shm_tx_t;

typedef struct xb_shm_rx {
    uint8_t  *data;
    uint64_t *head_sh;      /* shared copy of head, for the producer       */
    uint32_t *tx_waiting;   /* shared: the producer waits for space         */
    uint64_t  head;         /* bytes ever consumed                          */
    uint64_t  mask;
} xb_shm_rx_t;

static inline size_t xb_shm_a8(size_t x) { return (x + 7) & ~(size_t)7; }

/* Bytes one record of this shape takes in the ring. */
static inline size_t xb_shm_rec_size(size_t hdr_len, size_t len)
{
    return XB_SHM_REC_HDR + xb_shm_a8(hdr_len) + xb_shm_a8(len);
}

/* n <= 16 bytes without a call: two overlapping loads and stores (the
 * libc memcpy call was ~25 of the ~190 instructions of an 8-byte send). */
static inline void xb_shm_copy16(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* A header of XB_AM_HDR_INLINE_MIN..XB_AM_HDR_MAX (32..64) bytes without a
 * call: two overlapping 32-byte copies. It was an exact 48, pt2pt's header
 * until it grew to 56 bytes (the channel): every message then paid a libc
 * memcpy call again (MPI_Isend of 1 byte: 544 -> 526 instructions, bench/bw.c
 * under callgrind, 2026-11-29). */
static inline void xb_shm_copy_hdr(uint8_t *d, const void *hdr, size_t n)
{
    typedef uint64_t v16_t __attribute__((vector_size(16)));   /* registers */
    const uint8_t *s = hdr;
    v16_t a0, a1, b0, b1;
    memcpy(&a0, s, 16);
    memcpy(&a1, s + 16, 16);
    memcpy(&b0, s + n - 32, 16);
    memcpy(&b1, s + n - 16, 16);
    memcpy(d, &a0, 16);
    memcpy(d + 16, &a1, 16);
    memcpy(d + n - 32, &b0, 16);
    memcpy(d + n - 16, &b1, 16);
}

/* Copy the payload into the ring (the one copy of the eager path). */
static inline int xb_shm_copy_payload(uint8_t *dst, const xb_payload_t *pl)
{
    if (XB_LIKELY(pl->iov != NULL)) {
        if (pl->iovcnt == 1 && pl->len <= 16 && pl->iov[0].iov_len >= pl->len) {
            xb_shm_copy16(dst, pl->iov[0].iov_base, pl->len);
            return XB_OK;
        }
        size_t left = pl->len;
        for (int i = 0; i < pl->iovcnt && left > 0; i++) {
            size_t n = pl->iov[i].iov_len < left ? pl->iov[i].iov_len : left;
            memcpy(dst, pl->iov[i].iov_base, n);
            dst += n;
            left -= n;
        }
        return left == 0 ? XB_OK : XB_ERR_INTERN;
    }
    for (size_t off = 0; off < pl->len;) {
        size_t n = pl->pack(pl->pack_arg, pl->offset + off, dst + off, pl->len - off);
        if (XB_UNLIKELY(n == 0))
            return XB_ERR_INTERN;
        off += n;
    }
    return XB_OK;
}

/*
 * Append one record. XB_OK: published (the consumer may see it at once);
 * XB_ERR_AGAIN: the ring is full, nothing was written. The caller checked
 * hdr_len <= XB_AM_HDR_MAX and rec_size <= size / 2.
 */
static inline int xb_shm_ring_push_kind(xb_shm_tx_t *tx, uint8_t kind, uint8_t am_id,
                                        const void *hdr, size_t hdr_len,
                                        const xb_payload_t *pl)
{
    size_t len = pl != NULL ? pl->len : 0;
    size_t rec = xb_shm_rec_size(hdr_len, len);
    uint64_t size = tx->mask + 1;
    uint64_t pos = tx->tail & tx->mask;
    uint64_t pad = size - pos < rec ? size - pos : 0;
    uint64_t need = pad + rec + XB_SHM_REC_HDR;   /* + next header word */

    if (XB_UNLIKELY(tx->tail + need - tx->cached_head > size)) {
        /* acquire: pairs with the consumer's release store of head, so its
         * reads of the records it released are done before we overwrite. */
        tx->cached_head = __atomic_load_n(tx->head, __ATOMIC_ACQUIRE);
        if (tx->tail + need - tx->cached_head > size)
            return XB_ERR_AGAIN;
    }
    uint64_t start = pad != 0 ? 0 : pos;
    uint8_t *p = tx->data + start;
    if (XB_LIKELY(hdr_len >= XB_AM_HDR_INLINE_MIN))   /* pt2pt's: no call */
        xb_shm_copy_hdr(p + XB_SHM_REC_HDR, hdr, hdr_len);
    else if (hdr_len > 0)
        memcpy(p + XB_SHM_REC_HDR, hdr, hdr_len);
    if (len > 0 && XB_UNLIKELY(xb_shm_copy_payload(p + XB_SHM_REC_HDR +
                                                   xb_shm_a8(hdr_len), pl) != XB_OK))
        return XB_ERR_INTERN;
    /* The word after the record must read 0 until its record is published;
     * the release store below orders this zero before the header. */
    __atomic_store_n((uint64_t *)(tx->data + ((start + rec) & tx->mask)), 0,
                     __ATOMIC_RELAXED);
    uint64_t w = (uint64_t)len | (uint64_t)am_id << 32 | (uint64_t)hdr_len << 40 |
                 (uint64_t)kind << 48;
    /* release: orders the header/payload copies and the zeroed next word
     * before the header word the consumer polls. */
    __atomic_store_n((uint64_t *)p, w, __ATOMIC_RELEASE);
    if (pad != 0) {
        /* release: orders the record header at offset 0 before the PAD word
         * at pos, which is where the consumer is polling. */
        __atomic_store_n((uint64_t *)(tx->data + pos),
                         (uint64_t)XB_SHM_REC_PAD << 48, __ATOMIC_RELEASE);
    }
    tx->tail += pad + rec;
    return XB_OK;
}

static inline int xb_shm_ring_push(xb_shm_tx_t *tx, uint8_t am_id, const void *hdr,
                                   size_t hdr_len, const xb_payload_t *pl)
{
    return xb_shm_ring_push_kind(tx, XB_SHM_REC_MSG, am_id, hdr, hdr_len, pl);
}

/* The header word at the consumer's head: 0 when nothing has arrived. */
static inline uint64_t xb_shm_ring_peek(const xb_shm_rx_t *rx)
{
    /* acquire: pairs with the producer's release store of this word, so the
     * record's header and payload are visible once the word is. */
    return __atomic_load_n((const uint64_t *)(rx->data + (rx->head & rx->mask)),
                           __ATOMIC_ACQUIRE);
}

static inline const uint8_t *xb_shm_ring_rec(const xb_shm_rx_t *rx)
{
    return rx->data + (rx->head & rx->mask);
}

/* Skip a PAD record (the rest of the buffer). */
static inline void xb_shm_ring_skip_pad(xb_shm_rx_t *rx)
{
    rx->head += rx->mask + 1 - (rx->head & rx->mask);
}

/* Give the record at head (header word w) back to the producer. */
static inline void xb_shm_ring_release(xb_shm_rx_t *rx, uint64_t w)
{
    rx->head += xb_shm_rec_size(XB_SHM_W_HLEN(w), XB_SHM_W_LEN(w));
    /* release: orders our reads of the record (the handler's) before the
     * producer, which acquires head, may overwrite its bytes. */
    __atomic_store_n(rx->head_sh, rx->head, __ATOMIC_RELEASE);
}

/* Out of line (shm_ring.c). ring points at an xb_shm_ring_t of `size` data
 * bytes (a power of two >= 4096); the ring memory is valid when all-zero. */
void   xb_shm_tx_init(xb_shm_tx_t *tx, xb_shm_ring_t *ring, size_t size);
void   xb_shm_rx_init(xb_shm_rx_t *rx, xb_shm_ring_t *ring, size_t size);
/* Fault in the producer's pages of the ring now (XB_SHM_PREFAULT): called
 * when the endpoint opens, before the first record. */
void   xb_shm_tx_prefault(xb_shm_tx_t *tx);
/* Largest payload one record carries with a header of XB_AM_HDR_MAX bytes. */
size_t xb_shm_ring_payload_max(size_t size);
/* Bytes of segment per ring (header line + data). */
size_t xb_shm_ring_stride(size_t size);

#endif
