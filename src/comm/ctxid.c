/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * ctxid.c - context-id agreement. Every process keeps a mask of its free
 * context slots (src/core/comm.c: XB_CTX_SLOTS slots, slot s = contexts 2s
 * and 2s + 1). Creating a communicator allreduces the masks with MPI_BAND
 * over the parent's collective context and takes the lowest slot free on
 * every member. Processes that will not be members (split with
 * MPI_UNDEFINED) contribute an all-ones mask, so they restrict nothing.
 *
 * Because a process belongs to at most one communicator per context id,
 * disjoint communicators made by one split may share an id: their members
 * never talk to each other on it. Ids return to the pool on free.
 */
#include <string.h>
#include "comm/comm_int.h"
#include "coll/coll.h"

int xb_comm_ctx_agree(xb_comm_t *parent, bool member, uint32_t *ctx_p)
{
    static uint64_t mask[XB_CTX_MASK_WORDS];
    if (member)
        memcpy(mask, xb_ctx_mask(), sizeof(mask));
    else
        memset(mask, 0xff, sizeof(mask));
    xb_datatype_t *u64 = xb_dt_from_handle(MPI_UINT64_T);
    xb_op_t *band = xb_op_from_handle(MPI_BAND);
    int rc = xb_coll_allreduce(MPI_IN_PLACE, mask, XB_CTX_MASK_WORDS, u64, band,
                               parent);
    if (rc != XB_OK)
        return rc;
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
