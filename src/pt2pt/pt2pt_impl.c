/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pt2pt_impl.c - the send and receive calls of the MPI API (binding
 * convention: xb_impl_*; the generated binding has checked the arguments).
 */
#include <stdlib.h>
#include "pt2pt/proto.h"
#include "core/grequest.h"
#include "xb_impl.h"

static int blocking_send(const void *buf, MPI_Count count, xb_datatype_t *dt, int dest,
                         int tag, xb_comm_t *comm, int mode, const char *fn)
{
    xb_request_t *r;
    if (mode == XB_MODE_STANDARD) {
        int rc = xb_pt2pt_send_eager_now(buf, count, dt, dest, tag, comm, 0);
        if (rc != XB_ERR_AGAIN)
            return rc;
    }
    int rc = xb_pt2pt_isend_mode(buf, count, dt, dest, tag, comm, 0, mode, &r);
    if (rc != XB_OK)
        return rc;
    r->fn = fn;
    rc = xb_progress_wait(xb_progress_default(), r);
    xb_request_free(r);
    return rc;
}

int xb_impl_send(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                 int tag, xb_comm_t *comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, XB_MODE_STANDARD, "MPI_Send");
}

int xb_impl_bsend(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                  int tag, xb_comm_t *comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, XB_MODE_BUFFERED, "MPI_Bsend");
}

int xb_impl_ssend(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                  int tag, xb_comm_t *comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, XB_MODE_SYNC, "MPI_Ssend");
}

int xb_impl_rsend(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                  int tag, xb_comm_t *comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, XB_MODE_READY, "MPI_Rsend");
}

static int nb_send(const void *buf, MPI_Count count, xb_datatype_t *dt, int dest, int tag,
                   xb_comm_t *comm, int mode, MPI_Request *request)
{
    xb_request_t *r;
    int rc = xb_pt2pt_isend_mode(buf, count, dt, dest, tag, comm, 0, mode, &r);
    if (rc == XB_OK)
        *request = xb_request_to_handle(r);
    return rc;
}

int xb_impl_isend(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                  int tag, xb_comm_t *comm, MPI_Request *request)
{
    return nb_send(buf, count, datatype, dest, tag, comm, XB_MODE_STANDARD, request);
}

int xb_impl_ibsend(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                   int tag, xb_comm_t *comm, MPI_Request *request)
{
    return nb_send(buf, count, datatype, dest, tag, comm, XB_MODE_BUFFERED, request);
}

int xb_impl_issend(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                   int tag, xb_comm_t *comm, MPI_Request *request)
{
    return nb_send(buf, count, datatype, dest, tag, comm, XB_MODE_SYNC, request);
}

int xb_impl_irsend(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                   int tag, xb_comm_t *comm, MPI_Request *request)
{
    return nb_send(buf, count, datatype, dest, tag, comm, XB_MODE_READY, request);
}

/* ---- persistent ------------------------------------------------------------ */

static int persistent(xb_req_kind_t kind, const void *buf, MPI_Count count,
                      xb_datatype_t *dt, int peer, int tag, xb_comm_t *comm, int mode,
                      MPI_Request *request)
{
    xb_request_t *r = xb_pt2pt_op_new(kind, buf, count, dt, peer, tag, comm, 0);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    r->mode = (uint8_t)mode;
    *request = xb_request_to_handle(r);
    return XB_OK;
}

int xb_impl_send_init(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                      int tag, xb_comm_t *comm, MPI_Request *request)
{
    return persistent(XB_REQ_PSEND, buf, count, datatype, dest, tag, comm, XB_MODE_STANDARD,
                      request);
}

int xb_impl_bsend_init(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                       int tag, xb_comm_t *comm, MPI_Request *request)
{
    return persistent(XB_REQ_PSEND, buf, count, datatype, dest, tag, comm, XB_MODE_BUFFERED,
                      request);
}

int xb_impl_ssend_init(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                       int tag, xb_comm_t *comm, MPI_Request *request)
{
    return persistent(XB_REQ_PSEND, buf, count, datatype, dest, tag, comm, XB_MODE_SYNC,
                      request);
}

int xb_impl_rsend_init(const void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                       int tag, xb_comm_t *comm, MPI_Request *request)
{
    return persistent(XB_REQ_PSEND, buf, count, datatype, dest, tag, comm, XB_MODE_READY,
                      request);
}

int xb_impl_recv_init(void *buf, MPI_Count count, xb_datatype_t *datatype, int source,
                      int tag, xb_comm_t *comm, MPI_Request *request)
{
    return persistent(XB_REQ_PRECV, buf, count, datatype, source, tag, comm, XB_MODE_STANDARD,
                      request);
}

static int start_one(MPI_Request h, int idx)
{
    xb_request_t *r = xb_request_from_handle(h);
    if (r == NULL)
        return xb_err_set(XB_ERR_REQUEST, "invalid request handle at index %d", idx);
    if (!r->persistent)
        return xb_err_set(XB_ERR_REQUEST, "request at index %d is not persistent", idx);
    if (xb_request_active(r) || xb_request_is_done(r))
        return xb_err_set(XB_ERR_REQUEST, "request at index %d is already active", idx);
    if (r->ops != NULL && r->ops->start != NULL)
        return r->ops->start(r);        /* persistent collective (issue 5) */
    return xb_pt2pt_start(r);
}

int xb_impl_start(MPI_Request *request)
{
    return start_one(*request, 0);
}

int xb_impl_startall(int count, MPI_Request array_of_requests[])
{
    for (int i = 0; i < count; i++) {
        int rc = start_one(array_of_requests[i], i);
        if (rc != XB_OK)
            return rc;
    }
    return XB_OK;
}

/* ---- receives ------------------------------------------------------------- */

int xb_impl_recv(void *buf, MPI_Count count, xb_datatype_t *datatype, int source, int tag,
                 xb_comm_t *comm, MPI_Status *status)
{
    return xb_pt2pt_recv(buf, count, datatype, source, tag, comm, 0, status);
}

int xb_impl_irecv(void *buf, MPI_Count count, xb_datatype_t *datatype, int source, int tag,
                  xb_comm_t *comm, MPI_Request *request)
{
    xb_request_t *r;
    int rc = xb_pt2pt_irecv(buf, count, datatype, source, tag, comm, 0, &r);
    if (rc == XB_OK)
        *request = xb_request_to_handle(r);
    return rc;
}

int xb_impl_sendrecv(const void *sendbuf, MPI_Count sendcount, xb_datatype_t *sendtype,
                     int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                     xb_datatype_t *recvtype, int source, int recvtag, xb_comm_t *comm,
                     MPI_Status *status)
{
    xb_request_t *rr, *sr;
    int rc = xb_pt2pt_irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, 0, &rr);
    if (rc != XB_OK)
        return rc;
    rr->fn = "MPI_Sendrecv";
    rc = xb_pt2pt_isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, 0, &sr);
    if (rc != XB_OK) {
        xb_pt2pt_cancel(rr);
        xb_progress_wait(xb_progress_default(), rr);
        xb_request_free(rr);
        return rc;
    }
    sr->fn = "MPI_Sendrecv";
    int src = xb_progress_wait(xb_progress_default(), sr);
    int rrc = xb_progress_wait(xb_progress_default(), rr);
    xb_status_to_mpi(&rr->status, status, false);       /* MPI_ERROR: the caller's */
    xb_request_free(sr);
    xb_request_free(rr);
    return rrc != XB_OK ? rrc : src;
}

int xb_pt2pt_packed_copy(const void *buf, MPI_Count count, xb_datatype_t *dt, void **tmp_p,
                         size_t *bytes_p)
{
    size_t bytes = (size_t)(count * xb_dt_size(dt)), done = 0;
    void *tmp = malloc(bytes ? bytes : 1);
    if (tmp == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for a %zu-byte copy of the message",
                          bytes);
    int rc = xb_dt_pack(buf, count, dt, 0, tmp, bytes, &done);
    if (rc != XB_OK) {
        free(tmp);
        return rc;
    }
    *tmp_p = tmp;
    *bytes_p = bytes;
    return XB_OK;
}

int xb_impl_sendrecv_replace(void *buf, MPI_Count count, xb_datatype_t *datatype, int dest,
                             int sendtag, int source, int recvtag, xb_comm_t *comm,
                             MPI_Status *status)
{
    void *tmp;
    size_t bytes;
    int rc = xb_pt2pt_packed_copy(buf, count, datatype, &tmp, &bytes);
    if (rc != XB_OK)
        return rc;
    rc = xb_impl_sendrecv(tmp, (MPI_Count)bytes, xb_dt_from_handle(MPI_BYTE), dest, sendtag,
                          buf, count, datatype, source, recvtag, comm, status);
    free(tmp);
    return rc;
}

/* ---- counts and cancel ------------------------------------------------------ */

int xb_impl_get_count(const MPI_Status *status, xb_datatype_t *datatype, MPI_Count *count)
{
    MPI_Count bytes = xb_mpi_status_get_count(status);
    MPI_Count size = xb_dt_size(datatype);
    if (size == 0)
        *count = 0;
    else if (bytes % size != 0)
        *count = MPI_UNDEFINED;
    else
        *count = bytes / size;
    return XB_OK;
}

int xb_impl_get_elements(const MPI_Status *status, xb_datatype_t *datatype, MPI_Count *count)
{
    *count = xb_dt_elements(datatype, xb_mpi_status_get_count(status));
    return XB_OK;
}

int xb_impl_test_cancelled(const MPI_Status *status, int *flag)
{
    *flag = xb_mpi_status_get_cancelled(status) ? 1 : 0;
    return XB_OK;
}

int xb_impl_cancel(MPI_Request *request)
{
    xb_request_t *r = xb_request_from_handle(*request);
    if (r == NULL)
        return xb_err_set(XB_ERR_REQUEST, "invalid request handle %p", (void *)*request);
    if (xb_greq_is(r))
        return xb_greq_cancel(r);
    return xb_pt2pt_cancel(r);
}
