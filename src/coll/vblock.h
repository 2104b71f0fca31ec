/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * vblock.h - blocks of the v and w collectives through the node's shared
 * memory, where only the writer of a block knows its size for sure (the
 * reader knows what it expects): the writer decides where the block goes
 * and says so in a descriptor, one 64-bit word, that the reader follows.
 *
 *   inline   the bytes in shared memory the reader can see: the writer's
 *            flow cell, ring or slot (`where`: an offset, or a ring
 *            position modulo the ring's two slots)
 *   ring     the bytes in the writer's ring (node_stream.c)
 *   message  one message on the collective context
 *
 * The descriptor holds the block's byte count too, which the reader
 * compares with its own: counts that differ (an erroneous program) fail on
 * the reader with MPI_ERR_TRUNCATE (coll_check.c) instead of a short or
 * long copy. A message is received by xb_coll_recv_exact whatever the
 * reader expected, so its writer is never left waiting. Used by
 * stream_gather.c (gatherv, scatterv) and alltoall_shm_v.c (alltoallv,
 * alltoallw). Header only.
 */
#ifndef XB_COLL_VBLOCK_H
#define XB_COLL_VBLOCK_H

#include "coll/alltoall_blocks.h"

enum { XB_VB_INLINE = 1, XB_VB_RING = 2, XB_VB_MSG = 3 };
#define XB_VB_LEN_MAX ((UINT64_C(1) << 30) - 1)

/* how (2 bits) | bytes (30 bits: a message's may be larger, kept only as
 * far as it fits) | where (32 bits) */
static inline uint64_t xb_vb_desc(int how, MPI_Count bytes, uint64_t where)
{
    uint64_t len = (uint64_t)bytes > XB_VB_LEN_MAX ? XB_VB_LEN_MAX : (uint64_t)bytes;
    return (uint64_t)how << 62 | len << 32 | (where & UINT32_MAX);
}

/* A block whose writer failed before it went anywhere (no message will
 * come): the reader fails too, on its count (unless it expects exactly
 * XB_VB_LEN_MAX bytes). */
#define XB_VB_FAILED xb_vb_desc(XB_VB_INLINE, XB_VB_LEN_MAX, 0)

static inline int xb_vb_how(uint64_t d) { return (int)(d >> 62); }
static inline uint64_t xb_vb_where(uint64_t d) { return d & UINT32_MAX; }

/* Read the block from comm rank `from` described by d into dst: its bytes
 * at src (inline and ring: the caller resolves where), or its message. */
static inline int xb_vb_read(const xb_coll_args_t *a, xb_coll_kind_t kind, int from, uint64_t d,
                             const void *src, xb_a2a_blk_t dst, int tag)
{
    uint64_t len = d >> 32 & XB_VB_LEN_MAX;
    MPI_Count want = dst.n * xb_dt_size(dst.dt);
    if (xb_vb_how(d) == XB_VB_MSG)
        return xb_coll_recv_exact(dst.buf, dst.n, dst.dt, from, tag, a->comm, -1, (int)kind,
                                  NULL);
    if ((MPI_Count)len != want)
        return xb_coll_mismatch((int)kind, -1, from, (size_t)len, want, dst.n, dst.dt);
    if (len == 0)
        return XB_OK;
    return xb_coll_flow_copy(dst.buf, dst.n, dst.dt, (void *)src, false);
}

/* Copy block b inline at base + *used when it fits the `room` bytes there
 * (*used grows, 8-byte aligned) and is at most `most` bytes: its
 * descriptor, else 0 (the caller puts it elsewhere). *rc: the copy's. */
static inline uint64_t xb_vb_inline(xb_a2a_blk_t b, char *base, size_t *used, size_t room,
                                    size_t most, int *rc)
{
    size_t bytes = (size_t)(b.n * xb_dt_size(b.dt));
    if (bytes > most || bytes > room - *used)
        return 0;
    size_t at = *used;
    *used += (bytes + 7) & ~(size_t)7;
    *rc = xb_coll_flow_copy(b.buf, b.n, b.dt, base + at, true);
    return xb_vb_desc(XB_VB_INLINE, (MPI_Count)bytes, at);
}

static inline int xb_vb_keep(int rc, int r) { return rc != XB_OK ? rc : r; }

#endif
