/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * bsend_api.c - the MPI functions of attached buffers (MPI 4.1):
 * MPI_Buffer_attach/_detach/_flush/_iflush (the process's buffer),
 * MPI_Comm_attach_buffer/_detach_buffer/_flush_buffer/_iflush_buffer and
 * the MPI_Session_ ones. MPI_BUFFER_AUTOMATIC may be attached in place of
 * a buffer (its size is ignored). The engine is bsend.c.
 */
#include "pt2pt/proto.h"
#include "core/session.h"
#include "xb_impl.h"

static int attach(xb_bbuf_t *s, void *buffer, MPI_Count size, const char *owner)
{
    if (buffer != MPI_BUFFER_AUTOMATIC && size < 0)
        return xb_err_set(XB_ERR_ARG, "invalid size %lld (it must not be negative)",
                          (long long)size);
    return xb_pt2pt_bbuf_attach(s, buffer, (size_t)(buffer == MPI_BUFFER_AUTOMATIC ? 0 : size),
                                owner);
}

static int detach(xb_bbuf_t *s, void *buffer_addr, MPI_Count *size, const char *what)
{
    void *b = NULL;
    size_t n = 0;
    int rc = s != NULL ? xb_pt2pt_bbuf_detach(s, &b, &n, what) : XB_OK;
    if (rc != XB_OK)
        return rc;
    *(void **)buffer_addr = b;
    *size = (MPI_Count)n;
    return XB_OK;
}

/* The communicator's slot, made on first attach. */
static int comm_slot(xb_comm_t *comm, xb_bbuf_t **s)
{
    if (comm->bbuf == NULL && (comm->bbuf = xb_bbuf_new()) == NULL)
        return XB_ERR_NO_MEM;
    *s = comm->bbuf;
    return XB_OK;
}

int xb_impl_buffer_attach(void *buffer, MPI_Count size)
{
    return attach(xb_pt2pt_proc_bbuf(), buffer, size, "the process");
}

int xb_impl_buffer_detach(void *buffer_addr, MPI_Count *size)
{
    return detach(xb_pt2pt_proc_bbuf(), buffer_addr, size,
                  "MPI_Buffer_detach(waiting for buffered sends)");
}

int xb_impl_buffer_flush(void)
{
    return xb_pt2pt_bbuf_flush(xb_pt2pt_proc_bbuf(), "MPI_Buffer_flush");
}

int xb_impl_buffer_iflush(MPI_Request *request)
{
    return xb_pt2pt_bbuf_iflush(xb_pt2pt_proc_bbuf(), request);
}

int xb_impl_comm_attach_buffer(xb_comm_t *comm, void *buffer, MPI_Count size)
{
    xb_bbuf_t *s;
    int rc = comm_slot(comm, &s);
    return rc != XB_OK ? rc : attach(s, buffer, size, "the communicator");
}

int xb_impl_comm_detach_buffer(xb_comm_t *comm, void *buffer_addr, MPI_Count *size)
{
    return detach(comm->bbuf, buffer_addr, size,
                  "MPI_Comm_detach_buffer(waiting for buffered sends)");
}

int xb_impl_comm_flush_buffer(xb_comm_t *comm)
{
    return comm->bbuf != NULL ? xb_pt2pt_bbuf_flush(comm->bbuf, "MPI_Comm_flush_buffer")
                              : XB_OK;
}

int xb_impl_comm_iflush_buffer(xb_comm_t *comm, MPI_Request *request)
{
    xb_bbuf_t *s;
    int rc = comm_slot(comm, &s);
    return rc != XB_OK ? rc : xb_pt2pt_bbuf_iflush(s, request);
}

int xb_impl_session_attach_buffer(xb_session_t *session, void *buffer, MPI_Count size)
{
    return attach(session->bbuf, buffer, size, "the session");
}

int xb_impl_session_detach_buffer(xb_session_t *session, void *buffer_addr, MPI_Count *size)
{
    return detach(session->bbuf, buffer_addr, size,
                  "MPI_Session_detach_buffer(waiting for buffered sends)");
}

int xb_impl_session_flush_buffer(xb_session_t *session)
{
    return xb_pt2pt_bbuf_flush(session->bbuf, "MPI_Session_flush_buffer");
}

int xb_impl_session_iflush_buffer(xb_session_t *session, MPI_Request *request)
{
    return xb_pt2pt_bbuf_iflush(session->bbuf, request);
}
