/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dpm_connect.c - MPI_Comm_accept, MPI_Comm_connect, MPI_Comm_join and
 * MPI_Comm_disconnect.
 *
 * accept/connect, collective over comm on each side:
 *   1. gather every local process's description at the root;
 *   2. the roots meet: the connector dials the port and writes its header
 *      (the port's tag) and descriptions; the acceptor takes connections
 *      on the port until one carries the right tag, reads, and answers
 *      with its own (a connection with a wrong tag or garbage is closed and
 *      the accept goes on);
 *   3. each root broadcasts the outcome (its status and error text, the
 *      remote header) and the remote descriptions to its side;
 *   4. everyone adds the remote processes to its peer table and src/comm
 *      builds the intercommunicator (context agreed by the two roots over
 *      a temporary intercommunicator, through the new peers).
 * A failure at a root (no such port, the other side failed) fails the call
 * on every process of its side, with the root's message.
 *
 * join: the same with one process per side, over the user's socket; both
 * write, then both read (a few hundred bytes fit in any socket buffer).
 *
 * disconnect: a barrier over the communicator (everything sent on it
 * before was matched, and its data has arrived: messages to one peer keep
 * their order), then it is freed. The peers stay in the peer table (other
 * communicators may reach them) until finalize.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "dpm/dpm.h"
#include "runtime/runtime.h"
#include "comm/comm.h"
#include "coll/coll.h"
#include "datatype/datatype.h"
#include "xb_impl.h"

/* What a root tells its side after meeting the other root. */
typedef struct outcome {
    int32_t      rc;          /* XB_OK or the error of this side            */
    int32_t      pad;
    xb_dpm_hdr_t rh;          /* the remote header                          */
    char         why[256];    /* the root's error detail                    */
} outcome_t;

static xb_datatype_t *bytes_dt(void)
{
    return xb_dt_from_handle(MPI_BYTE);
}

/* Step 1: my description; the root gets all of them (*all_p, malloc'd).
 * A process that cannot describe itself sends a zero job key. */
static int gather_descs(xb_comm_t *comm, int root, xb_peer_desc_t **all_p)
{
    xb_peer_desc_t me;
    size_t len = sizeof(me);
    int rc = xb_peer_self_desc(&me, &len);
    if (rc != XB_OK)
        memset(&me, 0, sizeof(me));
    xb_peer_desc_t *all = NULL;
    if (comm->rank == root) {
        all = malloc((size_t)comm->size * sizeof(*all));
        if (all == NULL)
            return xb_err_set(XB_ERR_NO_MEM, "no memory for %d process descriptions",
                              comm->size);
    }
    int grc = xb_coll_gather(&me, (MPI_Count)sizeof(me), bytes_dt(), all,
                             (MPI_Count)sizeof(me), bytes_dt(), root, comm);
    if (grc != XB_OK) {
        free(all);
        return grc;
    }
    for (int r = 0; all != NULL && r < comm->size && rc == XB_OK; r++)
        if (all[r].id.job == 0)
            rc = xb_err_set(XB_ERR_OTHER, "rank %d of the communicator cannot be "
                            "reached by another job (tcp is off there)", r);
    if (rc != XB_OK) {
        free(all);
        return rc;
    }
    *all_p = all;
    return XB_OK;
}

/* Step 2 at the accepting root. */
static int root_accept(const char *port, xb_dpm_hdr_t *h, const xb_peer_desc_t *descs,
                       xb_dpm_hdr_t *rh, xb_peer_desc_t **rd_p)
{
    uint64_t tag = 0;
    int lfd = xb_dpm_port_fd(port, &tag);
    if (lfd < 0)
        return xb_err_set(XB_DPM_ERR_PORT, "invalid port_name '%.200s': not an open "
                          "port of this process (MPI_Open_port)", port);
    h->tag = tag;
    for (;;) {
        xb_dpm_wait_readable(lfd, "MPI_Comm_accept: waiting for a connect");
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0 && (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED))
            continue;
        if (fd < 0)
            return xb_err_sys(XB_ERR_OTHER, errno, "accept on port '%.200s'", port);
        int rc = xb_dpm_recv_side(fd, rh, rd_p);
        if (rc == XB_OK && rh->tag != tag) {
            free(*rd_p);
            *rd_p = NULL;
            rc = xb_err_set(XB_ERR_OTHER, "a connect with another port's tag");
        }
        if (rc != XB_OK) {
            xb_log(XB_LOG_CORE, XB_LOG_WARN, "MPI_Comm_accept: closed a connection to "
                   "port %.200s: %s", port, xb_err_detail());
            xb_err_clear();
            close(fd);
            continue;
        }
        rc = xb_dpm_send_side(fd, h, descs);
        close(fd);
        if (rc != XB_OK) {
            free(*rd_p);
            *rd_p = NULL;
        }
        return rc;
    }
}

/* Step 2 at the connecting root. */
static int root_connect(const char *port, xb_dpm_hdr_t *h, const xb_peer_desc_t *descs,
                        xb_dpm_hdr_t *rh, xb_peer_desc_t **rd_p)
{
    int fd = -1;
    int rc = xb_dpm_port_dial(port, &h->tag, &fd);
    if (rc != XB_OK)
        return rc;
    rc = xb_dpm_send_side(fd, h, descs);
    if (rc == XB_OK)
        rc = xb_dpm_recv_side(fd, rh, rd_p);
    close(fd);
    return rc;
}

typedef int (*meet_fn)(const char *port, xb_dpm_hdr_t *h, const xb_peer_desc_t *descs,
                       xb_dpm_hdr_t *rh, xb_peer_desc_t **rd_p);

/* Steps 1-3: every process of comm ends with the outcome and, on success,
 * the remote descriptions (*rd_p). */
static int meet(meet_fn fn, const char *port, int root, xb_comm_t *comm,
                outcome_t *o, xb_peer_desc_t **rd_p)
{
    xb_peer_desc_t *descs = NULL, *rd = NULL;
    memset(o, 0, sizeof(*o));
    int rc = gather_descs(comm, root, &descs);
    if (comm->rank == root) {
        xb_dpm_hdr_t h = { .status = rc, .n = comm->size, .root = root };
        int mrc = fn(port, &h, descs, &o->rh, &rd);
        rc = rc != XB_OK ? rc : mrc;
        if (rc == XB_OK && o->rh.status != XB_OK)
            rc = xb_err_set(o->rh.status, "the other side failed (its root reported "
                            "error class %d)", -o->rh.status);
        o->rc = rc;
        if (rc != XB_OK)
            snprintf(o->why, sizeof(o->why), "%s", xb_err_detail());
    }
    free(descs);
    int brc = xb_coll_bcast(o, (MPI_Count)sizeof(*o), bytes_dt(), root, comm);
    if (brc == XB_OK && o->rc == XB_OK && comm->rank != root &&
        (rd = malloc((size_t)o->rh.n * sizeof(*rd))) == NULL)
        brc = xb_err_set(XB_ERR_NO_MEM, "no memory for %d process descriptions",
                         o->rh.n);      /* the bcast below then fails here */
    if (brc == XB_OK && o->rc == XB_OK)
        brc = xb_coll_bcast(rd, (MPI_Count)o->rh.n * (MPI_Count)sizeof(*rd),
                            bytes_dt(), root, comm);
    if (brc == XB_OK && o->rc != XB_OK)
        brc = comm->rank == root ? o->rc
            : xb_err_set(o->rc, "failed at the root (rank %d): %s", root, o->why);
    if (brc != XB_OK) {
        free(rd);
        return brc;
    }
    *rd_p = rd;
    return XB_OK;
}

/* The tag of the roots' context agreement: the same on both sides, and
 * different for concurrent connections of one process (threads), which
 * share the temporary context: FNV-1a of the two roots' ids (in a fixed
 * order) and the port's tag. */
static int agree_tag(xb_comm_t *comm, int root, const xb_dpm_hdr_t *rh,
                     const xb_peer_desc_t *rd)
{
    xb_proc_id_t a = { 0 }, b = rd[rh->root].id;
    xb_peer_id(xb_group_gpid(comm->group, root), &a);
    if (a.job > b.job || (a.job == b.job && a.rank > b.rank)) {
        xb_proc_id_t t = a;
        a = b;
        b = t;
    }
    uint64_t v[5] = { a.job, a.rank, b.job, b.rank, rh->tag }, h = 1469598103934665603ull;
    for (int i = 0; i < 5; i++)
        h = (h ^ v[i]) * 1099511628211ull;
    return (int)(h & ((1u << 29) - 1));
}

/* Step 4: the remote processes into the peer table, then the communicator. */
static int build(xb_comm_t *comm, int root, const xb_dpm_hdr_t *rh,
                 const xb_peer_desc_t *rd, xb_comm_t **out_p)
{
    int *rlist = malloc((size_t)rh->n * sizeof(int));
    if (rlist == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a group of %d", rh->n);
    int rc = XB_OK;
    for (int i = 0; i < rh->n && rc == XB_OK; i++) {
        xb_gpid_t g = 0;
        rc = xb_peer_add_desc(&rd[i], sizeof(rd[i]), &g);
        rlist[i] = (int)xb_gpid_rank(g);
    }
    xb_comm_t *c = NULL;
    if (rc == XB_OK)
        rc = xb_comm_intercomm_connect(comm, root, rh->n, rlist, rh->root,
                                       agree_tag(comm, root, rh, rd), &c);
    free(rlist);
    if (rc == XB_OK)
        *out_p = c;
    return rc;
}

int xb_dpm_connect(bool accept, const char *port, int root, xb_comm_t *comm,
                   xb_comm_t **out_p)
{
    meet_fn fn = accept ? root_accept : root_connect;
    if (xb_comm_is_inter(comm))
        return xb_err_set(XB_ERR_COMM, "invalid argument comm: an intercommunicator "
                          "(an intracommunicator is needed)");
    outcome_t o;
    xb_peer_desc_t *rd = NULL;
    int rc = meet(fn, port, root, comm, &o, &rd);
    if (rc == XB_OK)
        rc = build(comm, root, &o.rh, rd, out_p);
    free(rd);
    return rc;
}

int xb_impl_comm_accept(const char *port_name, xb_info_t *info, int root,
                        xb_comm_t *comm, MPI_Comm *newcomm)
{
    (void)info;
    xb_comm_t *c = NULL;
    int rc = xb_dpm_connect(true, port_name, root, comm, &c);
    if (rc == XB_OK)
        *newcomm = xb_comm_to_handle(c);
    return rc;
}

int xb_impl_comm_connect(const char *port_name, xb_info_t *info, int root,
                         xb_comm_t *comm, MPI_Comm *newcomm)
{
    (void)info;
    xb_comm_t *c = NULL;
    int rc = xb_dpm_connect(false, port_name, root, comm, &c);
    if (rc == XB_OK)
        *newcomm = xb_comm_to_handle(c);
    return rc;
}

int xb_impl_comm_join(int fd, MPI_Comm *intercomm)
{
    int type = 0;
    socklen_t tl = sizeof(type);
    if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) != 0 ||
        type != SOCK_STREAM)
        return xb_err_set(XB_ERR_ARG, "invalid argument fd: %d is not a connected "
                          "stream socket", fd);
    xb_peer_desc_t me;
    size_t len = sizeof(me);
    int rc = xb_peer_self_desc(&me, &len);
    xb_dpm_hdr_t h = { .status = rc, .n = 1, .root = 0 }, rh;
    xb_peer_desc_t *rd = NULL;
    int src = xb_dpm_send_side(fd, &h, &me);
    if (src == XB_OK)
        src = xb_dpm_recv_side(fd, &rh, &rd);
    if (rc == XB_OK)
        rc = src;
    if (rc == XB_OK && (rh.status != XB_OK || rh.n != 1))
        rc = xb_err_set(rh.status != XB_OK ? rh.status : XB_ERR_OTHER, "the process "
                        "at the other end of fd %d failed (error class %d)", fd,
                        -rh.status);
    xb_comm_t *c = NULL;
    if (rc == XB_OK)
        rc = build(xb_comm_self(), 0, &rh, rd, &c);
    if (rc == XB_OK)
        *intercomm = xb_comm_to_handle(c);
    free(rd);
    return rc;
}

int xb_impl_comm_disconnect(MPI_Comm *comm)
{
    xb_comm_t *c = xb_comm_from_handle(*comm);
    if (c == NULL)
        return xb_err_set(XB_ERR_COMM, "invalid communicator %p (MPI_COMM_NULL or "
                          "already freed)", (void *)*comm);
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return xb_err_set(XB_ERR_COMM, "%s cannot be disconnected: it is a predefined "
                          "communicator", *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD"
                          : "MPI_COMM_SELF");
    int rc = xb_coll_barrier(c);
    int frc = xb_impl_comm_free(comm);
    return rc != XB_OK ? rc : frc;
}
