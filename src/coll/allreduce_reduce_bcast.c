/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_reduce_bcast.c - reduce to rank 0, then broadcast from it: the
 * two builders composed into one schedule (binomial reduce for commutative
 * ops, the order-preserving one otherwise; binomial broadcast).
 */
#include "coll/coll_int.h"

int xb_coll_allreduce_reduce_bcast(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_coll_args_t r = *a;
    r.root = 0;
    int rc = a->op->commute ? xb_coll_reduce_binomial(s, &r)
                            : xb_coll_reduce_ordered(s, &r);
    if (rc == XB_OK)
        rc = xb_coll_sched_fence(s);
    if (rc == XB_OK)
        rc = xb_coll_bcast_binomial(s, &r);
    return rc;
}
