/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_int.h - what the algorithm files of src/coll share: the argument
 * block every algorithm takes, the tags, point-to-point helpers on the
 * collective context, temporary buffers, and reduction working buffers.
 */
#ifndef XB_COLL_INT_H
#define XB_COLL_INT_H

#include "coll/coll.h"

typedef enum xb_coll_kind {
    XB_COLL_BARRIER, XB_COLL_BCAST, XB_COLL_REDUCE, XB_COLL_ALLREDUCE,
    XB_COLL_GATHER, XB_COLL_SCATTER, XB_COLL_ALLGATHER, XB_COLL_ALLTOALL,
    XB_COLL_NKINDS
} xb_coll_kind_t;

/* One tag per collective (on the collective context). */
enum { XB_COLL_TAG_BASE = 1 };
#define XB_COLL_TAG(kind) (XB_COLL_TAG_BASE + (int)(kind))

/* Arguments of any collective; unused fields are zero. For one-buffer
 * collectives (bcast) the buffer is rbuf/rcount/rdt. */
typedef struct xb_coll_args {
    const void    *sbuf;
    MPI_Count      scount;
    xb_datatype_t *sdt;
    void          *rbuf;
    MPI_Count      rcount;
    xb_datatype_t *rdt;
    xb_op_t       *op;
    int            root;
    xb_comm_t     *comm;
} xb_coll_args_t;

typedef int (*xb_coll_fn_t)(const xb_coll_args_t *a);

/* selection (coll_select.c) */
xb_coll_fn_t xb_coll_select(xb_coll_kind_t kind, const xb_coll_args_t *a);

/* algorithms, one per file */
int xb_coll_barrier_dissemination(const xb_coll_args_t *a);
int xb_coll_bcast_binomial(const xb_coll_args_t *a);
int xb_coll_bcast_linear(const xb_coll_args_t *a);
int xb_coll_reduce_binomial(const xb_coll_args_t *a);
int xb_coll_reduce_ordered(const xb_coll_args_t *a);
int xb_coll_allreduce_recdbl(const xb_coll_args_t *a);
int xb_coll_allreduce_reduce_bcast(const xb_coll_args_t *a);
int xb_coll_gather_linear(const xb_coll_args_t *a);
int xb_coll_scatter_linear(const xb_coll_args_t *a);
int xb_coll_allgather_ring(const xb_coll_args_t *a);
int xb_coll_alltoall_pairwise(const xb_coll_args_t *a);

/* ---- point-to-point on the collective context (coll_util.c) ------------ */
int xb_coll_send(const void *buf, MPI_Count count, xb_datatype_t *dt, int dest,
                 int tag, xb_comm_t *comm);
int xb_coll_recv(void *buf, MPI_Count count, xb_datatype_t *dt, int src,
                 int tag, xb_comm_t *comm);
int xb_coll_sendrecv(const void *sbuf, MPI_Count scount, xb_datatype_t *sdt,
                     int dest, void *rbuf, MPI_Count rcount,
                     xb_datatype_t *rdt, int src, int tag, xb_comm_t *comm);
/* Wait for n requests (NULL entries skipped), release them all; returns the
 * first error. */
struct xb_request;
int xb_coll_waitall(int n, struct xb_request **reqs);

/* Address of block i of a buffer of blocks of `count` elements of dt. */
static inline void *xb_coll_block(const void *buf, MPI_Count i, MPI_Count count,
                                  const xb_datatype_t *dt)
{
    return (char *)buf + i * count * xb_dt_extent(dt);
}

/* Temporary buffer for count elements of dt (true-extent sized, shifted so
 * that the returned pointer is the buffer address MPI would use). Free it
 * with xb_coll_tmp_free. NULL (detail recorded) on no memory. */
void *xb_coll_tmp_alloc(MPI_Count count, const xb_datatype_t *dt);
void  xb_coll_tmp_free(void *p, const xb_datatype_t *dt);

/* ---- reduction working buffers (coll_util.c) ----------------------------
 * A predefined op works on a derived type as on its basic elements: the
 * working representation is then (wcount, wdt) = (count * n, basic type) in
 * native layout, converted with xb_dt_copy. A user op works on the user's
 * type itself. `direct` is true when the working type IS the user's type
 * (then user buffers can be used as working buffers). */
typedef struct xb_coll_red {
    xb_op_t       *op;
    xb_datatype_t *dt;       /* the user's */
    MPI_Count      count;
    xb_datatype_t *wdt;      /* working type */
    MPI_Count      wcount;
    bool           direct;
} xb_coll_red_t;

int   xb_coll_red_init(xb_coll_red_t *r, MPI_Count count, xb_datatype_t *dt,
                       xb_op_t *op);
void *xb_coll_red_alloc(const xb_coll_red_t *r);
void  xb_coll_red_free(const xb_coll_red_t *r, void *w);
int   xb_coll_red_import(const xb_coll_red_t *r, const void *ubuf, void *w);
int   xb_coll_red_export(const xb_coll_red_t *r, const void *w, void *ubuf);
int   xb_coll_red_copy(const xb_coll_red_t *r, const void *src, void *dst);
/* inout = in op inout, on working buffers */
int   xb_coll_red_combine(const xb_coll_red_t *r, const void *in, void *inout);

#endif
