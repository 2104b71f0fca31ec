/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * barrier_shm.c - the node barrier through the shared segment, for a
 * communicator made of exactly the ranks of one node (COMM_WORLD of a
 * one-host job and its duplicates): every rank counts itself in on one
 * shared line and sleeps; the last one wakes them (method/shm/shm_node.c).
 * 8 ranks on 2 cores then cost one arrival and at most one wake-up each,
 * where a message-based barrier costs log2(p) sends and as many sleeps.
 * Any other communicator (a subset of the node, several nodes, an
 * intercommunicator), or a job without a node barrier, takes another
 * algorithm (the selection's NEED_NODE, xb_coll_node_fits).
 *
 * Valid while one thread at a time calls MPI in every process of the job
 * (not with xb_coll_threads: the channel barrier, shm_nb, serves them):
 * blocking barriers on node-complete communicators are then totally
 * ordered, so they share the one barrier line of the node. Nonblocking
 * barriers may be started in different orders on different communicators,
 * so the selection uses this one only for the blocking form. The wait is a
 * schedule step (XB_CS_NODE_BARRIER, coll_sched.c).
 */
#include "coll/coll_int.h"

int xb_coll_barrier_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    (void)a;
    return xb_coll_sched_node_barrier(s);
}
