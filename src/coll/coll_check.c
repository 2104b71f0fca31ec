/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * coll_check.c - receivers whose buffer does not match what was sent: the
 * sentence of the error, and the blocking receive of the direct algorithms
 * that reports a message longer or shorter than its buffer
 * (docs/design/coll.md, "Checks"). The schedules check their receives in
 * coll_sched.c; the node cells and rings compare the byte count the writer
 * stores in the cell's seq word (node_flow.c).
 */
#include <stdlib.h>
#include "coll/coll_int.h"
#include "progress/progress.h"
#include "pt2pt/pt2pt.h"

int xb_coll_bcast_mismatch(int root, size_t sent, MPI_Count count, xb_datatype_t *dt)
{
    return xb_coll_mismatch(XB_COLL_BCAST, root, root, sent,
                            count * xb_dt_size(dt), count, dt);
}

int xb_coll_mismatch(int kind, int root, int from, size_t got, MPI_Count want,
                     MPI_Count count, xb_datatype_t *dt)
{
    MPI_Count mine = dt != NULL ? count * xb_dt_size(dt) : want;
    if (from < 0)
        return xb_err_set(XB_ERR_TRUNCATE, "this rank's own block of the %s holds %zu bytes "
                          "where its place in the receive buffer holds %lld: its send and "
                          "receive counts or types do not match",
                          kind >= 0 ? xb_coll_kind_name((xb_coll_kind_t)kind) : "collective",
                          got, (long long)want);
    if (root >= 0 && from == root && want == mine)
        return xb_err_set(XB_ERR_TRUNCATE, "the root (rank %d) broadcast %zu bytes; this "
                          "rank's buffer holds %lld bytes (count %lld of %s)", root, got,
                          (long long)mine, (long long)count, xb_dt_name(dt));
    if (root >= 0)
        return xb_err_set(XB_ERR_TRUNCATE, "the broadcast from the root (rank %d) does not "
                          "match this rank's buffer of %lld bytes (count %lld of %s): a "
                          "message from rank %d held %zu bytes where %lld were expected (the "
                          "root's count differs from this rank's, or from that of a rank "
                          "that passed it on)", root, (long long)mine, (long long)count,
                          xb_dt_name(dt), from, got, (long long)want);
    return xb_err_set(XB_ERR_TRUNCATE, "a message of the %s from rank %d held %zu bytes where "
                      "this rank expected %lld: the ranks' counts or types do not match (or "
                      "a rank that found a mismatch passed it on)",
                      kind >= 0 ? xb_coll_kind_name((xb_coll_kind_t)kind) : "collective",
                      from, got, (long long)want);
}

int xb_coll_recv_exact(void *buf, MPI_Count count, xb_datatype_t *dt, int peer, int tag,
                       xb_comm_t *comm, int root, int kind, size_t *len)
{
    size_t got = 0;
    MPI_Count want = count * xb_dt_size(dt);
    int rc = xb_pt2pt_recv_len(buf, count, dt, peer, tag, comm, 1, NULL, &got);
    if (len != NULL)
        *len = got;
    if (XB_LIKELY(rc == XB_OK && (MPI_Count)got == want))
        return XB_OK;
    if (rc != XB_OK && rc != XB_ERR_TRUNCATE && rc != XB_ERR_TYPE)   /* TYPE: short, ends */
        return rc;                                                      /* inside an element */
    return xb_coll_mismatch(kind, root, peer, got, want, count, dt);
}

int xb_coll_send_blocking(const void *buf, MPI_Count count, xb_datatype_t *dt, int peer,
                          int tag, xb_comm_t *comm)
{
    int rc = xb_pt2pt_send_eager_now(buf, count, dt, peer, tag, comm, 1);
    if (rc != XB_ERR_AGAIN)
        return rc;
    xb_request_t *req;
    rc = xb_pt2pt_isend(buf, count, dt, peer, tag, comm, 1, &req);
    if (rc != XB_OK)
        return rc;
    rc = xb_progress_wait(xb_progress_default(), req);
    xb_request_free(req);
    return rc;
}

int xb_coll_send_mismatch(size_t bytes, int peer, int tag, xb_comm_t *comm)
{
    char *junk = calloc(1, bytes + 1);
    if (junk == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for the %zu bytes that pass a "
                          "mismatch on", bytes + 1);
    int rc = xb_coll_send_blocking(junk, (MPI_Count)bytes + 1, xb_dt_from_handle(MPI_BYTE),
                                   peer, tag, comm);
    free(junk);
    return rc;
}
