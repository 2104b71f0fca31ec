/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * probe.c - MPI_Probe/Iprobe, matched probes (Mprobe/Improbe) and the
 * receives of a matched message (Mrecv/Imrecv); MPI_Message handles.
 *
 * A probe looks at the unexpected queue of the communicator's context; a
 * matched probe takes the message out of it, so no other receive can match
 * it, and hands it to the user as an MPI_Message (the xb_message_t is the
 * unexpected record itself).
 */
#include <stdio.h>
#include "pt2pt/proto.h"
#include "xb_impl.h"

xb_message_t *xb_message_from_handle(MPI_Message h)
{
    if (h == MPI_MESSAGE_NULL || xb_handle_is_predef((const void *)h))
        return NULL;
    xb_message_t *m = (xb_message_t *)h;
    return m->magic == XB_MAGIC_MSG ? m : NULL;
}

MPI_Message xb_message_to_handle(xb_message_t *m)
{
    return m == NULL ? MPI_MESSAGE_NULL : (MPI_Message)m;
}

static void envelope_status(const xb_unexp_t *u, MPI_Status *st)
{
    xb_status_t s = {
        .source = u->hdr.src, .tag = u->hdr.tag, .error = MPI_SUCCESS,
        .cancelled = false, .count = (MPI_Count)u->hdr.len,
    };
    xb_status_to_mpi(&s, st, false);
}

static void proc_null_status(MPI_Status *st)
{
    xb_status_t e;
    xb_status_set_proc_null(&e);
    xb_status_to_mpi(&e, st, false);
}

typedef struct probe_arg {
    xb_match_ctx_t *c;
    int             src, tag;
} probe_arg_t;

static bool found(void *arg)
{
    probe_arg_t *p = arg;
    return xb_match_unexp_find(p->c, p->src, p->tag, false) != NULL;
}

/* Find (blocking or not) and optionally take the first matching message. */
static int probe_common(int source, int tag, xb_comm_t *comm, bool block, bool take,
                        const char *fn, xb_unexp_t **u_p)
{
    xb_match_ctx_t *c = xb_match_ctx(&xb_pt2pt_st(comm->chan)->table, comm->ctx);
    if (c == NULL)
        return XB_ERR_NO_MEM;
    probe_arg_t a = { c, source, tag };
    if (!found(&a)) {
        if (block) {
            char what[200];
            snprintf(what, sizeof(what), "%s(source=%d, tag=%d, comm=%s)", fn, source, tag,
                     comm->name);
            xb_progress_wait_until(xb_progress_default(), found, &a, what);
        } else {
            xb_progress_poll_test(xb_progress_default());
        }
    }
    *u_p = (xb_unexp_t *)xb_match_unexp_find(c, source, tag, take);
    if (*u_p != NULL && take) {
        (*u_p)->comm = comm;        /* held until MPI_Mrecv takes the message */
        xb_comm_retain(comm);
    }
    return XB_OK;
}

int xb_impl_probe(int source, int tag, xb_comm_t *comm, MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        proc_null_status(status);
        return XB_OK;
    }
    xb_unexp_t *u;
    int rc = probe_common(source, tag, comm, true, false, "MPI_Probe", &u);
    if (rc == XB_OK)
        envelope_status(u, status);
    return rc;
}

int xb_impl_iprobe(int source, int tag, xb_comm_t *comm, int *flag, MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        proc_null_status(status);
        return XB_OK;
    }
    xb_unexp_t *u;
    int rc = probe_common(source, tag, comm, false, false, "MPI_Iprobe", &u);
    if (rc != XB_OK)
        return rc;
    *flag = u != NULL;
    if (u != NULL)
        envelope_status(u, status);
    return XB_OK;
}

int xb_impl_mprobe(int source, int tag, xb_comm_t *comm, MPI_Message *message,
                   MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        proc_null_status(status);
        return XB_OK;
    }
    xb_unexp_t *u;
    int rc = probe_common(source, tag, comm, true, true, "MPI_Mprobe", &u);
    if (rc != XB_OK)
        return rc;
    envelope_status(u, status);
    *message = xb_message_to_handle(u);
    return XB_OK;
}

int xb_impl_improbe(int source, int tag, xb_comm_t *comm, int *flag, MPI_Message *message,
                    MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        proc_null_status(status);
        return XB_OK;
    }
    xb_unexp_t *u;
    int rc = probe_common(source, tag, comm, false, true, "MPI_Improbe", &u);
    if (rc != XB_OK)
        return rc;
    *flag = u != NULL;
    if (u != NULL) {
        envelope_status(u, status);
        *message = xb_message_to_handle(u);
    }
    return XB_OK;
}

/* Start the receive of a matched message; *req_p is NULL for NO_PROC. */
static int mrecv_start(void *buf, MPI_Count count, xb_datatype_t *dt, MPI_Message *message,
                       bool blocking, xb_request_t **req_p)
{
    if (*message == MPI_MESSAGE_NO_PROC) {
        *message = MPI_MESSAGE_NULL;
        xb_request_t *r = xb_request_alloc(XB_REQ_RECV);
        if (r == NULL)
            return XB_ERR_NO_MEM;
        xb_status_set_proc_null(&r->status);
        xb_request_complete(r);
        *req_p = r;
        return XB_OK;
    }
    xb_message_t *u = xb_message_from_handle(*message);
    if (u == NULL)
        return xb_err_set(XB_ERR_REQUEST, "invalid message handle %p (MPI_MESSAGE_NULL, or "
                          "already received)", (void *)*message);
    xb_request_t *r = xb_pt2pt_op_new(XB_REQ_RECV, buf, count, dt, u->hdr.src, u->hdr.tag,
                                      u->comm, 0);
    if (r == NULL)
        return XB_ERR_NO_MEM;
    r->ctx = u->hdr.ctx;
    xb_request_set_active(r, 1);
    if (blocking)
        r->flags |= XB_REQ_F_WAITED;
    xb_comm_t *held = u->comm;      /* the request holds its own reference now */
    xb_pt2pt_recv_unexp(r, u);
    xb_comm_release(held);
    *message = MPI_MESSAGE_NULL;
    *req_p = r;
    return XB_OK;
}

int xb_impl_mrecv(void *buf, MPI_Count count, xb_datatype_t *datatype, MPI_Message *message,
                  MPI_Status *status)
{
    xb_request_t *r;
    int rc = mrecv_start(buf, count, datatype, message, true, &r);
    if (rc != XB_OK)
        return rc;
    r->fn = "MPI_Mrecv";
    rc = xb_progress_wait(xb_progress_default(), r);
    if (rc < 0)                  /* raised on the message's communicator */
        xb_errh_note_comm(r->comm);
    xb_status_to_mpi(&r->status, status, false);        /* MPI_ERROR: the caller's */
    xb_request_free(r);
    return rc;
}

int xb_impl_imrecv(void *buf, MPI_Count count, xb_datatype_t *datatype, MPI_Message *message,
                   MPI_Request *request)
{
    xb_request_t *r;
    int rc = mrecv_start(buf, count, datatype, message, false, &r);
    if (rc == XB_OK)
        *request = xb_request_to_handle(r);
    return rc;
}
