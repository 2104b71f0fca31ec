/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bcast_shm.c - broadcast through the node's shared memory: the root fills
 * the collective area chunk by chunk, the others copy out after each node
 * barrier (xb_coll_node_bcast, node_shm.c). Blocking form, node-complete
 * communicators; a non-contiguous buffer must fit the area.
 */
#include "coll/coll_int.h"

int xb_coll_bcast_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return xb_coll_node_bcast(s, a->comm, a->root, a->rbuf, a->rcount, a->rdt);
}
