/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * ctxid.c - context-id agreement. Every process keeps a mask of its free
 * context slots (src/core/comm.c: XB_CTX_SLOTS slots, slot s = contexts 2s
 * and 2s + 1). Creating a communicator ANDs the masks of every member and
 * takes the lowest slot free on all of them. Processes that will not be
 * members (split with MPI_UNDEFINED) contribute an all-ones mask, so they
 * restrict nothing.
 *
 * Because a process belongs to at most one communicator per context id,
 * disjoint communicators made by one split may share an id: their members
 * never talk to each other on it. Ids return to the pool on free.
 *
 * Three shapes (comm_int.h): over a parent (one allreduce on its collective
 * context); over a group alone (binomial reduce and broadcast on the
 * bootstrap communicator, addressed by world rank, separated by tag); over
 * two groups joined by leaders (each side reduces, the leaders swap and
 * AND, each side broadcasts).
 */
#include <stdlib.h>
#include <string.h>
#include "comm/comm_int.h"
#include "coll/coll.h"
#include "pt2pt/pt2pt.h"

typedef uint64_t mask_t[XB_CTX_MASK_WORDS];

static int lowest(const uint64_t *mask, uint32_t *ctx_p)
{
    for (int w = 0; w < XB_CTX_MASK_WORDS; w++) {
        if (mask[w] != 0) {
            *ctx_p = 2u * (uint32_t)(w * 64 + __builtin_ctzll(mask[w]));
            return XB_OK;
        }
    }
    return xb_err_set(XB_ERR_OTHER, "no free context id left: %d communicators "
                      "exist on some member process; free some first",
                      XB_CTX_SLOTS);
}

static int reduce_mask(xb_comm_t *parent, bool member, uint64_t *mask)
{
    if (member)
        memcpy(mask, xb_ctx_mask(), sizeof(mask_t));
    else
        memset(mask, 0xff, sizeof(mask_t));
    xb_datatype_t *u64 = xb_dt_from_handle(MPI_UINT64_T);
    xb_op_t *band = xb_op_from_handle(MPI_BAND);
    return xb_coll_allreduce(MPI_IN_PLACE, mask, XB_CTX_MASK_WORDS, u64, band,
                             parent);
}

int xb_comm_ctx_agree(xb_comm_t *parent, bool member, uint32_t *ctx_p)
{
    static mask_t mask;
    int rc = reduce_mask(parent, member, mask);
    return rc == XB_OK ? lowest(mask, ctx_p) : rc;
}

/* ---- over a group, on the bootstrap communicator ------------------------ */
static int boot_send(const xb_group_t *g, int to, int tag, const void *buf,
                     size_t bytes)
{
    return xb_pt2pt_send(buf, (MPI_Count)bytes, xb_dt_from_handle(MPI_BYTE),
                         (int)xb_group_gpid(g, to), tag, xb_comm_boot(), 0);
}

static int boot_recv(const xb_group_t *g, int from, int tag, void *buf,
                     size_t bytes)
{
    return xb_pt2pt_recv(buf, (MPI_Count)bytes, xb_dt_from_handle(MPI_BYTE),
                         (int)xb_group_gpid(g, from), tag, xb_comm_boot(), 0,
                         NULL);
}

int xb_comm_group_bcast(const xb_group_t *g, int root, int tag, void *buf,
                        size_t bytes)
{
    int p = g->size, me = (g->rank - root + p) % p, m = 1, rc = XB_OK;
    while (m < p) {
        if (me & m) {
            rc = boot_recv(g, (me - m + root) % p, tag, buf, bytes);
            break;
        }
        m <<= 1;
    }
    for (m >>= 1; m > 0 && rc == XB_OK; m >>= 1)
        if (me + m < p)
            rc = boot_send(g, (me + m + root) % p, tag, buf, bytes);
    return rc;
}

/* Binomial AND-reduce of the masks to group rank 0, then broadcast. */
static int group_band(const xb_group_t *g, int tag, uint64_t *mask)
{
    static mask_t tmp;
    int p = g->size, me = g->rank, rc = XB_OK;
    for (int m = 1; m < p && rc == XB_OK; m <<= 1) {
        if (me & m) {
            rc = boot_send(g, me - m, tag, mask, sizeof(mask_t));
            break;
        }
        if (me + m < p) {
            rc = boot_recv(g, me + m, tag, tmp, sizeof(mask_t));
            for (int w = 0; w < XB_CTX_MASK_WORDS; w++)
                mask[w] &= tmp[w];
        }
    }
    return rc == XB_OK ? xb_comm_group_bcast(g, 0, tag, mask, sizeof(mask_t)) : rc;
}

int xb_comm_ctx_agree_group(const xb_group_t *g, int tag, uint32_t *ctx_p)
{
    static mask_t mask;
    memcpy(mask, xb_ctx_mask(), sizeof(mask_t));
    int rc = group_band(g, tag, mask);
    return rc == XB_OK ? lowest(mask, ctx_p) : rc;
}

/* ---- two groups joined by leaders ------------------------------------------ */
int xb_comm_exchange(xb_comm_t *peer, int rank, int tag, const void *sbuf,
                     size_t sbytes, void *rbuf, size_t rbytes)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    xb_request_t *req;
    int rc = xb_pt2pt_isend(sbuf, (MPI_Count)sbytes, byte, rank, XB_COMM_TAG(tag),
                            peer, 1, &req);
    if (rc != XB_OK)
        return rc;
    int rrc = xb_pt2pt_recv(rbuf, (MPI_Count)rbytes, byte, rank, XB_COMM_TAG(tag),
                            peer, 1, NULL);
    rc = xb_request_wait(req, NULL);
    xb_request_release(req);
    return rrc != XB_OK ? rrc : rc;
}

int xb_comm_ctx_agree_inter(xb_comm_t *local, int leader, xb_comm_t *peer,
                            int peer_rank, int tag, uint32_t *ctx_p)
{
    return xb_comm_ctx_agree_inter2(local, true, leader, peer, peer_rank, tag, ctx_p);
}

int xb_comm_ctx_agree_inter2(xb_comm_t *local, bool member, int leader,
                             xb_comm_t *peer, int peer_rank, int tag,
                             uint32_t *ctx_p)
{
    static mask_t mask, theirs;
    int rc = reduce_mask(local, member, mask);
    if (rc == XB_OK && local->rank == leader) {
        rc = xb_comm_exchange(peer, peer_rank, tag, mask, sizeof(mask_t), theirs,
                              sizeof(mask_t));
        for (int w = 0; w < XB_CTX_MASK_WORDS; w++)
            mask[w] &= theirs[w];
    }
    if (rc == XB_OK)
        rc = xb_coll_bcast(mask, XB_CTX_MASK_WORDS, xb_dt_from_handle(MPI_UINT64_T),
                           leader, local);
    return rc == XB_OK ? lowest(mask, ctx_p) : rc;
}
