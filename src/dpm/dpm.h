/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dpm.h - dynamic process management, shared by the files of src/dpm.
 * Design: docs/design/dpm.md.
 *
 * Lifecycle. A port (MPI_Open_port) is a listening TCP socket of this
 * process, named "xbport:1:<tag>:<addr>[,<addr>...]": the tcp method's
 * interfaces with the port's own number, and a random 64-bit tag that an
 * accept checks, so a connect never lands on another (or a reopened) port.
 * It lives until MPI_Close_port or finalize (dpm_port.c).
 *
 * A connection (accept/connect/join, dpm_connect.c): the roots meet on a
 * socket (the port's, or the user's for join) and exchange a header and the
 * descriptions of their sides' processes (xb_peer_desc_t: job key, rank,
 * tcp address with the job secret; gathered from the local communicator
 * first); each root broadcasts the result to its side; every process adds
 * the remote processes to its peer table (src/method/peer.c), and
 * src/comm builds the intercommunicator (xb_comm_intercomm_connect).
 * The root socket is closed before the call returns; later traffic goes
 * through the peer table like any other (tcp).
 *
 * Threading: under the progress lock (the binding takes it); every wait
 * on a socket goes through xb_progress_wait_until, which drops the lock
 * under MPI_THREAD_MULTIPLE and keeps other communication moving.
 *
 * Return codes: XB_OK or a negative XB_ERR_* with the detail recorded
 * (xb_err_set): XB_ERR_PORT for a port name that does not parse or a port
 * nobody listens on.
 */
#ifndef XB_DPM_H
#define XB_DPM_H

#include "core/core.h"
#include "method/method.h"

enum {
    XB_DPM_ERR_PORT = -MPI_ERR_PORT,       XB_DPM_ERR_SPAWN = -MPI_ERR_SPAWN,
    XB_DPM_ERR_NAME = -MPI_ERR_NAME,       XB_DPM_ERR_SERVICE = -MPI_ERR_SERVICE,
};

/* The first bytes each root writes on the root socket. */
typedef struct xb_dpm_hdr {
    char     magic[8];   /* "XBDPM01" */
    uint64_t tag;        /* the port's tag (0 for join)                */
    int32_t  status;     /* XB_OK, or the error that failed this side  */
    int32_t  n;          /* processes described after the header       */
    int32_t  root;       /* the root's rank in its side                */
    int32_t  pad;
} xb_dpm_hdr_t;

/* dpm_port.c */
/* Parse a port name: its tag and addresses (at most max). */
int  xb_dpm_port_parse(const char *name, uint64_t *tag, struct sockaddr_storage *sa,
                       int max, int *n_p);
/* The listening socket of an open port of this process, or -1. */
int  xb_dpm_port_fd(const char *name, uint64_t *tag);
/* Connect to a port (waits for the TCP connection, not for an accept). */
int  xb_dpm_port_dial(const char *name, uint64_t *tag, int *fd_p);
/* Close the ports left open (finalize). */
void xb_dpm_ports_fini(void);

/* dpm_wire.c: whole reads and writes on a socket, waiting through the
 * progress engine; `what` names the wait for errors and --timeout. */
int  xb_dpm_send_all(int fd, const void *buf, size_t len, const char *what);
int  xb_dpm_recv_all(int fd, void *buf, size_t len, const char *what);
/* Wait until poll() reports one of events on fd. */
void xb_dpm_wait_fd(int fd, short events, const char *what);
/* Wait until fd is readable (accept on a listening socket). */
int  xb_dpm_wait_readable(int fd, const char *what);
/* The roots' exchange, one direction each: write our header (magic set
 * here) and, when its status is XB_OK, its n descriptions; read theirs
 * (*rdesc_p malloc'd with rh->n entries, NULL when rh->status is an error). */
int  xb_dpm_send_side(int fd, const xb_dpm_hdr_t *mine, const xb_peer_desc_t *descs);
int  xb_dpm_recv_side(int fd, xb_dpm_hdr_t *rh, xb_peer_desc_t **rdesc_p);

/* dpm_init.c: the parent intercommunicator (a reference is kept). */
void xb_dpm_set_parent(xb_comm_t *c);
/* dpm_spawn.c: in a spawned job, connect to the parents (MPI_Init). */
int  xb_dpm_spawn_child_init(void);
/* dpm_connect.c: accept/connect of `comm` (an intracommunicator); accept
 * when `accept`, else connect. */
int  xb_dpm_connect(bool accept, const char *port, int root, xb_comm_t *comm,
                    xb_comm_t **out_p);

#endif
