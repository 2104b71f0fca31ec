/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shm_nb.c - the `shm_nb` algorithms: every collective of fixed block size
 * through the communicator's channel of the node's shared memory
 * (node_nb.c): the nonblocking and persistent forms, and the blocking ones
 * where the node algorithms step aside (threads, below). Each
 * rank writes its part into its window once; each reads what it needs from
 * the others' windows when they are published: one scheduling round, where
 * the message algorithms need log2(p) or p - 1 (what a node with more ranks
 * than CPUs pays for), and no barrier: a rank whose reads are done leaves.
 *
 *   collective        writes                      reads
 *   barrier           nothing (its seq)           every window
 *   bcast             root: the buffer            the root's
 *   gather            its block                   root: every window
 *   scatter           root: the p blocks          the root's, its block
 *   allgather(v)      its block                   every window
 *   alltoall          its p blocks                block `me` of every window
 *   reduce            its working vector          root: every window
 *   allreduce         its working vector          every window
 *   reduce_scatter(_block) its working vector     segment `me` of every window
 *   scan / exscan     its working vector          windows 0..me (0..me-1)
 *
 * Reductions combine x_0 op (x_1 op (... x_k)) in rank order: any op, and
 * every rank computes bit-identical results. Windows hold packed bytes
 * (one memcpy for contiguous data) or working vectors of a predefined type.
 * A rank that reads a window checks the bytes its writer wrote (a mismatch
 * of the ranks' counts fails the call with the sizes, as the messages do).
 */
#include <string.h>
#include "coll/coll_int.h"

/* The condition of the shm_nb algorithms (NEED_NBN in coll_select.c): a
 * call started in program order, the communicator has a channel, and what
 * one rank writes fits a window, from what every rank agrees on. Any form:
 * the table puts the blocking node algorithms (node_shm.c, node_flow.c)
 * first, which serve the blocking calls unless some process of the job
 * runs with threads (xb_coll_threads: a node algorithm's shared slots
 * would need every rank's calls on every communicator in one order); then
 * the blocking calls come here, where each communicator has its own
 * channel. */
bool xb_coll_nbn_fits(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    if (a->unordered || xb_coll_nbn_chan(a->comm) < 0)
        return false;
    MPI_Count need, p = a->comm->size;
    switch (kind) {
    case XB_COLL_BARRIER: need = 0; break;
    case XB_COLL_BCAST: need = a->rcount * xb_dt_size(a->rdt); break;
    case XB_COLL_GATHER: case XB_COLL_ALLGATHER: need = xb_coll_block_bytes(kind, a); break;
    case XB_COLL_ALLGATHERV: need = xb_coll_max_count(a->rcounts, (int)p) * xb_dt_size(a->rdt);
        break;
    case XB_COLL_SCATTER: case XB_COLL_ALLTOALL: need = p * xb_coll_block_bytes(kind, a); break;
    case XB_COLL_REDUCE: case XB_COLL_ALLREDUCE: case XB_COLL_SCAN: case XB_COLL_EXSCAN:
        need = xb_coll_red_need(a->rcount, a->rdt, a->op);
        break;
    case XB_COLL_REDUCE_SCATTER_BLOCK: need = xb_coll_red_need(a->rcount * p, a->rdt, a->op); break;
    case XB_COLL_REDUCE_SCATTER: {             /* every rank knows every count */
        MPI_Count total = 0;
        for (int i = 0; i < (int)p; i++)
            total += a->rcounts[i];
        need = xb_coll_red_need(total, a->rdt, a->op);
        break;
    }
    default: return false;
    }
    return need >= 0 && need <= XB_COLL_NBN_DATA;
}

/* This rank's part would not fit its window (its arguments differ from
 * those the ranks agreed on). */
static int too_big(const xb_coll_nbop_t *o, size_t bytes)
{
    if (bytes <= XB_COLL_NBN_DATA)
        return XB_OK;
    return xb_err_set(XB_ERR_TRUNCATE, "the %s: this rank's part of %zu bytes differs from "
                      "what the other ranks' arguments give (at most %d bytes)",
                      xb_coll_kind_name((xb_coll_kind_t)o->kind), bytes, XB_COLL_NBN_DATA);
}

static size_t bytes_of(MPI_Count count, xb_datatype_t *dt)
{
    return (size_t)(count * xb_dt_size(dt));
}

/* Block j of a buffer of blocks of count x dt. */
static char *block(const void *buf, int j, MPI_Count count, xb_datatype_t *dt)
{
    return (char *)buf + (MPI_Aint)j * count * xb_dt_extent(dt);
}

/* Copy the packed block in window `rank` at byte off to (buf, count, dt),
 * after checking that the window holds `want` bytes. */
static int take(const xb_coll_nbop_t *o, int rank, size_t want, size_t off, void *buf,
                MPI_Count count, xb_datatype_t *dt)
{
    int rc = xb_coll_nbn_check(o, rank, want);
    if (rc != XB_OK)
        return rc;
    return xb_coll_flow_copy(buf, count, dt, (char *)xb_coll_nbn_data(o, rank) + off, false);
}

static int write_nothing(xb_coll_nbop_t *o, void *win, size_t *bytes)
{
    (void)o, (void)win;
    *bytes = 0;
    return XB_OK;
}

static int read_nothing(xb_coll_nbop_t *o)
{
    (void)o;
    return XB_OK;
}

/* ---- barrier, bcast ------------------------------------------------------- */
int xb_coll_barrier_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return xb_coll_nbn_op(s, a, XB_COLL_BARRIER, XB_NBN_ALL, write_nothing, read_nothing, NULL);
}

static int bcast_write(xb_coll_nbop_t *o, void *win, size_t *bytes)
{
    *bytes = bytes_of(o->a.rcount, o->a.rdt);
    int rc = too_big(o, *bytes);
    return rc != XB_OK ? rc : xb_coll_flow_copy(o->a.rbuf, o->a.rcount, o->a.rdt, win, true);
}

static int bcast_read(xb_coll_nbop_t *o)
{
    if (o->me == o->root)
        return XB_OK;
    return take(o, o->root, bytes_of(o->a.rcount, o->a.rdt), 0, o->a.rbuf, o->a.rcount,
                o->a.rdt);
}

int xb_coll_bcast_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return xb_coll_nbn_op(s, a, XB_COLL_BCAST, XB_NBN_ROOT,
                          a->comm->rank == a->root ? bcast_write : NULL, bcast_read, NULL);
}

/* ---- gather, scatter, allgather, alltoall -------------------------------- */
static int gather_write(xb_coll_nbop_t *o, void *win, size_t *bytes)
{
    if (o->me == o->root) {             /* the root copies its own block */
        *bytes = 0;
        return XB_OK;
    }
    *bytes = bytes_of(o->a.scount, o->a.sdt);
    int rc = too_big(o, *bytes);
    return rc != XB_OK ? rc
                       : xb_coll_flow_copy((void *)o->a.sbuf, o->a.scount, o->a.sdt, win, true);
}

static int gather_read(xb_coll_nbop_t *o)
{
    const xb_coll_args_t *a = &o->a;
    if (o->me != o->root)
        return XB_OK;
    int rc = XB_OK;
    for (int j = 0; j < o->p && rc == XB_OK; j++)
        if (j != o->me)
            rc = take(o, j, bytes_of(a->rcount, a->rdt), 0, block(a->rbuf, j, a->rcount, a->rdt),
                      a->rcount, a->rdt);
    if (rc == XB_OK && a->sbuf != MPI_IN_PLACE)
        rc = xb_dt_copy(a->sbuf, a->scount, a->sdt, block(a->rbuf, o->me, a->rcount, a->rdt),
                        a->rcount, a->rdt);
    return rc;
}

int xb_coll_gather_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return xb_coll_nbn_op(s, a, XB_COLL_GATHER, XB_NBN_AT_ROOT, gather_write, gather_read, NULL);
}

/* Pack the p blocks of count x dt at src into the window, block j at byte
 * j x (its packed size); block `skip` is left out (-1: none). */
static int write_blocks(xb_coll_nbop_t *o, const void *src, MPI_Count count, xb_datatype_t *dt,
                        int skip, void *win, size_t *bytes)
{
    size_t b = bytes_of(count, dt);
    *bytes = (size_t)o->p * b;
    int rc = too_big(o, *bytes);
    for (int j = 0; j < o->p && rc == XB_OK; j++)
        if (j != skip)
            rc = xb_coll_flow_copy(block(src, j, count, dt), count, dt,
                                   (char *)win + (size_t)j * b, true);
    return rc;
}

/* The root's p blocks; its own is left out (it copies it itself). */
static int scatter_write(xb_coll_nbop_t *o, void *win, size_t *bytes)
{
    return write_blocks(o, o->a.sbuf, o->a.scount, o->a.sdt, o->me, win, bytes);
}

static int scatter_read(xb_coll_nbop_t *o)
{
    const xb_coll_args_t *a = &o->a;
    if (o->me != o->root) {
        size_t b = bytes_of(a->rcount, a->rdt);
        return take(o, o->root, (size_t)o->p * b, (size_t)o->me * b, a->rbuf, a->rcount, a->rdt);
    }
    if (a->rbuf == MPI_IN_PLACE)
        return XB_OK;
    return xb_dt_copy(block(a->sbuf, o->me, a->scount, a->sdt), a->scount, a->sdt, a->rbuf,
                      a->rcount, a->rdt);
}

int xb_coll_scatter_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return xb_coll_nbn_op(s, a, XB_COLL_SCATTER, XB_NBN_ROOT,
                          a->comm->rank == a->root ? scatter_write : NULL, scatter_read, NULL);
}

/* Allgather(v): block j is rcounts[j] elements at rdispls[j] (allgatherv,
 * whose arrays are copied at the call: the caller's may go when it
 * returns), or rcount elements at j * rcount (allgather: no arrays). */
static MPI_Count v_count(const xb_coll_args_t *a, int j)
{
    return a->rcounts != NULL ? a->rcounts[j] : a->rcount;
}

static char *v_block(const xb_coll_args_t *a, int j)
{
    MPI_Count d = a->rdispls != NULL ? a->rdispls[j] : (MPI_Count)j * a->rcount;
    return (char *)a->rbuf + d * xb_dt_extent(a->rdt);
}

static int allgather_write(xb_coll_nbop_t *o, void *win, size_t *bytes)
{
    const xb_coll_args_t *a = &o->a;
    bool in_place = a->sbuf == MPI_IN_PLACE;
    MPI_Count count = in_place ? v_count(a, o->me) : a->scount;
    xb_datatype_t *dt = in_place ? a->rdt : a->sdt;
    void *src = in_place ? v_block(a, o->me) : (void *)a->sbuf;
    *bytes = bytes_of(count, dt);
    int rc = too_big(o, *bytes);
    return rc != XB_OK ? rc : xb_coll_flow_copy(src, count, dt, win, true);
}

static int allgather_read(xb_coll_nbop_t *o)
{
    const xb_coll_args_t *a = &o->a;
    int rc = XB_OK;
    for (int j = 0; j < o->p && rc == XB_OK; j++)
        if (j != o->me || a->sbuf != MPI_IN_PLACE)
            rc = take(o, j, bytes_of(v_count(a, j), a->rdt), 0, v_block(a, j), v_count(a, j),
                      a->rdt);
    return rc;
}

int xb_coll_allgather_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return xb_coll_nbn_op(s, a, XB_COLL_ALLGATHER, XB_NBN_ALL, allgather_write, allgather_read, NULL);
}

int xb_coll_allgatherv_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    xb_datatype_t *cnt = xb_dt_from_handle(MPI_COUNT);
    int p = a->comm->size;
    MPI_Count *counts = xb_coll_sched_tmp(s, 2 * (MPI_Count)p, cnt);
    xb_coll_nbop_t *o;
    if (counts == NULL)
        return XB_ERR_NO_MEM;
    memcpy(counts, a->rcounts, (size_t)p * sizeof(MPI_Count));
    memcpy(counts + p, a->rdispls, (size_t)p * sizeof(MPI_Count));
    int rc = xb_coll_nbn_op(s, a, XB_COLL_ALLGATHERV, XB_NBN_ALL, allgather_write,
                            allgather_read, &o);
    if (rc == XB_OK) {
        o->a.rcounts = counts;
        o->a.rdispls = counts + p;
    }
    return rc;
}

static int alltoall_write(xb_coll_nbop_t *o, void *win, size_t *bytes)
{
    const xb_coll_args_t *a = &o->a;
    bool in_place = a->sbuf == MPI_IN_PLACE;
    return write_blocks(o, in_place ? a->rbuf : a->sbuf, in_place ? a->rcount : a->scount,
                        in_place ? a->rdt : a->sdt, -1, win, bytes);
}

static int alltoall_read(xb_coll_nbop_t *o)
{
    const xb_coll_args_t *a = &o->a;
    size_t b = bytes_of(a->rcount, a->rdt);
    int rc = XB_OK;
    for (int j = 0; j < o->p && rc == XB_OK; j++)
        rc = take(o, j, (size_t)o->p * b, (size_t)o->me * b, block(a->rbuf, j, a->rcount, a->rdt),
                  a->rcount, a->rdt);
    return rc;
}

int xb_coll_alltoall_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return xb_coll_nbn_op(s, a, XB_COLL_ALLTOALL, XB_NBN_ALL, alltoall_write, alltoall_read, NULL);
}

/* ---- reductions ------------------------------------------------------------ */
static int red_write(xb_coll_nbop_t *o, void *win, size_t *bytes)
{
    const xb_coll_args_t *a = &o->a;
    *bytes = xb_coll_flow_wbytes(&o->red);
    int rc = too_big(o, *bytes);
    return rc != XB_OK ? rc
         : xb_coll_flow_wcopy(&o->red, (void *)(a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf),
                              win, true);
}

/* x_lo op (x_lo+1 op (... op x_hi-1)) of red's elements at byte off of the
 * windows into the user's buffer (red->count x red->dt), through o->acc
 * when that is not the working vector itself. */
static int combine(xb_coll_nbop_t *o, const xb_coll_red_t *red, int lo, int hi, size_t off)
{
    size_t whole = xb_coll_flow_wbytes(&o->red);
    int rc = XB_OK;
    for (int i = lo; i < hi && rc == XB_OK; i++)
        rc = xb_coll_nbn_check(o, i, whole);
    if (rc != XB_OK || hi <= lo || red->wcount == 0)
        return rc;
    bool direct = red->dt == red->wdt && xb_dt_is_contig(red->dt, red->count);
    void *acc = direct ? (char *)o->a.rbuf + xb_dt_true_lb(red->dt) : o->acc;
    xb_op_kernel_t k = xb_op_kernel(red->op, red->wdt);
    memcpy(acc, (const char *)xb_coll_nbn_data(o, hi - 1) + off, xb_coll_flow_wbytes(red));
    for (int i = hi - 2; i >= lo && rc == XB_OK; i--)
        rc = xb_coll_flow_apply_k(red, k, (const char *)xb_coll_nbn_data(o, i) + off, acc);
    if (rc == XB_OK && !direct)
        rc = xb_coll_flow_wcopy(red, o->a.rbuf, acc, false);
    return rc;
}

static int reduce_read(xb_coll_nbop_t *o)
{
    return o->me == o->root ? combine(o, &o->red, 0, o->p, 0) : XB_OK;
}

static int allreduce_read(xb_coll_nbop_t *o) { return combine(o, &o->red, 0, o->p, 0); }
static int scan_read(xb_coll_nbop_t *o) { return combine(o, &o->red, 0, o->me + 1, 0); }
static int exscan_read(xb_coll_nbop_t *o) { return combine(o, &o->red, 0, o->me, 0); }

static int rs_read(xb_coll_nbop_t *o) { return combine(o, &o->bred, 0, o->p, o->off); }

/* A reduction over count x dt per rank; result of rcount x rdt (block). */
static int red_op(xb_coll_sched_t *s, const xb_coll_args_t *a, int kind, int reads,
                  xb_coll_nbn_read_fn read)
{
    int p = a->comm->size, me = a->comm->rank;
    MPI_Count count = a->rcount, before = 0, mine = a->rcount;   /* elements of rdt */
    if (kind == XB_COLL_REDUCE_SCATTER_BLOCK) {
        count = a->rcount * p;
        before = a->rcount * me;
    } else if (kind == XB_COLL_REDUCE_SCATTER) {
        count = 0;
        for (int i = 0; i < p; i++) {
            before += i < me ? a->rcounts[i] : 0;
            count += a->rcounts[i];
        }
        mine = a->rcounts[me];
    }
    int rc = xb_coll_sched_red(s, count, a->rdt, a->op);
    if (rc != XB_OK)
        return rc;
    xb_coll_nbop_t *o;
    rc = xb_coll_nbn_op(s, a, kind, reads, red_write, read, &o);
    if (rc != XB_OK)
        return rc;
    o->red = s->red;
    o->bred = s->red;
    if (kind == XB_COLL_REDUCE_SCATTER_BLOCK || kind == XB_COLL_REDUCE_SCATTER) {
        MPI_Count per = count > 0 ? s->red.wcount / count : 0;   /* working per element */
        o->bred.count = mine;
        o->bred.wcount = mine * per;
        o->off = (size_t)(before * per * xb_dt_extent(s->red.wdt));
    }
    const xb_coll_red_t *out = &o->bred;      /* what lands in the user's buffer */
    if (out->dt != out->wdt || !xb_dt_is_contig(out->dt, out->count)) {
        o->acc = xb_coll_sched_wtmp(s, out->wcount);
        if (o->acc == NULL)
            return XB_ERR_NO_MEM;
    }
    return XB_OK;
}

int xb_coll_reduce_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return red_op(s, a, XB_COLL_REDUCE, XB_NBN_AT_ROOT, reduce_read);
}

int xb_coll_allreduce_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return red_op(s, a, XB_COLL_ALLREDUCE, XB_NBN_ALL, allreduce_read);
}

int xb_coll_reduce_scatter_block_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return red_op(s, a, XB_COLL_REDUCE_SCATTER_BLOCK, XB_NBN_ALL, rs_read);
}

int xb_coll_reduce_scatter_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return red_op(s, a, XB_COLL_REDUCE_SCATTER, XB_NBN_ALL, rs_read);
}

int xb_coll_scan_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return red_op(s, a, XB_COLL_SCAN, XB_NBN_PREFIX, scan_read);
}

int xb_coll_exscan_shm_nb(xb_coll_sched_t *s, const xb_coll_args_t *a)
{
    return red_op(s, a, XB_COLL_EXSCAN, XB_NBN_BEFORE, exscan_read);
}
