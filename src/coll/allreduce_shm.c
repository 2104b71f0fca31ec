/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allreduce_shm.c - allreduce through the node's shared memory: every rank
 * copies its vector into its slot, one node barrier, then every rank
 * reduces all slots itself in rank order (xb_coll_node_reduce, node_shm.c).
 * Blocking form, node-complete communicators, vectors that fit a slot.
 *
 * The blocking call runs directly (xb_coll_allreduce_shm_direct): the same
 * steps without a schedule, combining straight into the receive buffer
 * when the user's type is the working type. At 8 ranks on 2 cores every
 * rank's instructions count four times (each CPU runs four ranks per
 * call): the schedule (build, p + 3 steps, destroy) was most of a call.
 */
#include <stdlib.h>
#include <string.h>
#include "coll/coll_int.h"
#include "method/method.h"
#include "progress/progress.h"

int xb_coll_allreduce_shm(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    int rc = xb_coll_sched_red(s, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    return xb_coll_node_reduce(s, a->comm, NULL, 0, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf,
                               true, a->rbuf, NULL);
}

static bool released(void *arg)
{
    return xb_method_node_released(*(const uint32_t *)arg);
}

/* The node barrier of a direct node collective. */
void xb_coll_node_barrier_now(const char *what)
{
    uint32_t ticket = xb_method_node_arrive(true);
    if (!xb_method_node_released(ticket))
        xb_progress_wait_until(xb_progress_default(), released, &ticket, what);
}

/* x_0 op (x_1 op (... op x_p-1)) of the slots into acc. */
static int combine(const xb_coll_red_t *red, const xb_comm_t *comm, int par, void *acc)
{
    int p = comm->size, rc = XB_OK;
    char *const *t = xb_coll_node_slots(comm, par);
#define SLOT(i) (t != NULL ? t[i] : xb_coll_node_slot(comm, par, (i)))
    memcpy(acc, SLOT(p - 1), xb_coll_flow_wbytes(red));
    for (int i = p - 2; i >= 0 && rc == XB_OK; i--)
        rc = xb_coll_flow_apply(red, SLOT(i), acc);
#undef SLOT
    return rc;
}

int xb_coll_allreduce_shm_direct(const xb_coll_args_t *a, int tag)
{
    (void)tag;
    xb_coll_red_t red;
    int rc = xb_coll_flow_red(&red, a->rcount, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    int par = xb_coll_node_parity();
    MPI_Count bytes = (MPI_Count)xb_coll_flow_wbytes(&red);
    xb_coll_node_sign(a->comm, par, bytes, bytes);
    rc = xb_coll_flow_wcopy(&red, (void *)(a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf),
                            xb_coll_node_slot(a->comm, par, a->comm->rank), true);
    xb_coll_node_barrier_now("MPI_Allreduce (the node barrier)");   /* even after an error */
    if (rc == XB_OK)
        rc = xb_coll_node_check(a->comm, par, XB_COLL_ALLREDUCE, NULL, NULL);
    if (rc != XB_OK || bytes == 0)   /* a count of 0 takes the barrier too: others may not */
        return rc;
    if (red.dt == red.wdt && xb_dt_is_contig(red.dt, red.count))
        return combine(&red, a->comm, par, (char *)a->rbuf + xb_dt_true_lb(red.dt));
    void *acc = malloc(xb_coll_flow_wbytes(&red) + 1);
    if (acc == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a %zu-byte allreduce buffer",
                          xb_coll_flow_wbytes(&red));
    rc = combine(&red, a->comm, par, acc);
    if (rc == XB_OK)
        rc = xb_coll_flow_wcopy(&red, a->rbuf, acc, false);
    free(acc);
    return rc;
}
