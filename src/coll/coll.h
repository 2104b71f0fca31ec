/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll.h - collective operations over point-to-point: blocking, nonblocking
 * and persistent forms of every collective on intracommunicators.
 *
 * What it is. Each algorithm lives in its own file (barrier_dissemination.c,
 * bcast_binomial.c, ...) as a function that builds a schedule
 * (coll_sched.h), which then runs blocking, nonblocking or persistent.
 * Which algorithm runs is data: the rule table in coll_select.c maps
 * (collective, communicator size, bytes, op commutativity) to an algorithm
 * name; the tunable XB_COLL_ALGO ("bcast=binomial,allreduce=reduce_bcast")
 * forces one by name. Every message goes through xb_pt2pt_* with coll = 1,
 * i.e. on the communicator's collective context (ctx + 1), so collective
 * traffic never matches a user receive; each collective has its own tag.
 * All ranks call collectives in the same order and pt2pt is non-overtaking,
 * so consecutive collectives on one communicator cannot mix their messages.
 *
 * Lifecycle. xb_coll_init() (MPI_Init step 7, after COMM_WORLD exists)
 * resolves the selection table against XB_COLL_ALGO; xb_coll_fini() undoes
 * it. xb_coll_barrier(xb_comm_world()) is the first step of MPI_Finalize.
 *
 * Buffers. The caller's buffers are used in place while the collective runs;
 * temporary buffers belong to the schedule (freed with it: at the end of a
 * blocking call, when a nonblocking/persistent request is freed).
 *
 * Arguments. The xb_coll_* entry points below trust their arguments (the
 * binding and coll_api.c check user calls: root range, op/type, in-place
 * rules). The comm layer calls them directly (context-id agreement, split).
 *
 * Threading: one thread at a time (the progress lock).
 *
 * Returns: XB_OK or a negative XB_ERR_* with detail recorded.
 */
#ifndef XB_COLL_H
#define XB_COLL_H

#include <stdio.h>
#include "util/xb_common.h"
#include "core/core.h"
#include "core/op.h"
#include "datatype/datatype.h"

int  xb_coll_init(void);
void xb_coll_fini(void);
/* Collective calls this process made through a node channel (the shm_nb
 * algorithms, node_nb.c): the MPI_T pvar coll_node_nb_calls. */
extern uint64_t xb_coll_node_nb_calls;
/* Once the thread level is set (MPI_Init, after xb_progress_threads):
 * whether any process of the job runs with threads (this one: threads),
 * agreed by an allreduce over COMM_WORLD. The node and two-stage
 * algorithms are off on every rank when one runs with threads, since the
 * ranks of a communicator must pick the same algorithm and processes may
 * ask for different thread levels. Until then they are off. The same
 * call agrees whether broadcasts across nodes use multicast (XB_MCAST,
 * coll_agree.c). */
int  xb_coll_agree(bool threads);
/* The selection table and the forced algorithms, for crossbar-info. */
void xb_coll_print_table(FILE *f);

/* Internal blocking collectives (the comm layer calls these directly). */
int xb_coll_barrier(xb_comm_t *comm);
int xb_coll_bcast(void *buf, MPI_Count count, xb_datatype_t *dt, int root,
                  xb_comm_t *comm);
int xb_coll_reduce(const void *sbuf, void *rbuf, MPI_Count count,
                   xb_datatype_t *dt, xb_op_t *op, int root, xb_comm_t *comm);
int xb_coll_allreduce(const void *sbuf, void *rbuf, MPI_Count count,
                      xb_datatype_t *dt, xb_op_t *op, xb_comm_t *comm);
int xb_coll_gather(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                   void *rbuf, MPI_Count rcount, xb_datatype_t *rdt, int root,
                   xb_comm_t *comm);
int xb_coll_scatter(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                    void *rbuf, MPI_Count rcount, xb_datatype_t *rdt, int root,
                    xb_comm_t *comm);
int xb_coll_allgather(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                      void *rbuf, MPI_Count rcount, xb_datatype_t *rdt,
                      xb_comm_t *comm);
int xb_coll_alltoall(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                     void *rbuf, MPI_Count rcount, xb_datatype_t *rdt,
                     xb_comm_t *comm);

#endif
