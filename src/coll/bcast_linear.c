/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_linear.c - flat broadcast: the root sends to every other rank at
 * once. One round; good for tiny communicators, a reference for tests.
 */
#include "coll/coll_int.h"

int xb_coll_bcast_linear(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int p = a->comm->size, rc = XB_OK;
    if (a->comm->rank != a->root)
        return xb_coll_sched_recv(s, a->rbuf, a->rcount, a->rdt, a->root);
    for (int i = 0; i < p && rc == XB_OK; i++)
        if (i != a->root)
            rc = xb_coll_sched_send(s, a->rbuf, a->rcount, a->rdt, i);
    return rc;
}
