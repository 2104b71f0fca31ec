/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dpm_wire.c - the roots' socket: whole writes and reads that wait through
 * the progress engine (the lock is dropped under MPI_THREAD_MULTIPLE, other
 * communication keeps moving; the sleeps watch the socket), and the
 * exchange of the two sides' descriptions. The user's socket of
 * MPI_Comm_join may be blocking: every call here asks for one non-blocking
 * operation (MSG_DONTWAIT) and polls.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "dpm/dpm.h"
#include "progress/progress.h"

static const char hdr_magic[8] = "XBDPM01";

typedef struct fd_wait {
    int   fd;
    short events;
} fd_wait_t;

static bool fd_ready(void *arg)
{
    fd_wait_t *w = arg;
    struct pollfd p = { .fd = w->fd, .events = w->events };
    return poll(&p, 1, 0) > 0;
}

/* A wait on a socket is a net wait: its sleeps watch the socket (POLLIN;
 * a POLLOUT wait naps 1 ms at a time), so the answer of the other side is
 * seen at once. In the method's sleep (20 ms, XB_SLEEP_MS) nothing woke it:
 * each step of a spawn's handshake then waited for the end of a nap, and a
 * spawn took 25 ms instead of 5 (bench/spawn.c, 2026-11-29). */
void xb_dpm_wait_fd(int fd, short events, const char *what)
{
    fd_wait_t w = { fd, events };
    xb_progress_wait_net(xb_progress_default(), fd_ready, &w, what,
                         (events & POLLIN) ? fd : -1);
}

int xb_dpm_wait_readable(int fd, const char *what)
{
    xb_dpm_wait_fd(fd, POLLIN, what);
    return XB_OK;
}

int xb_dpm_send_all(int fd, const void *buf, size_t len, const char *what)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            xb_dpm_wait_fd(fd, POLLOUT, what);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return xb_err_sys(XB_ERR_OTHER, errno, "%s: send on the connection "
                              "between the roots", what);
        p += n;
        len -= (size_t)n;
    }
    return XB_OK;
}

int xb_dpm_recv_all(int fd, void *buf, size_t len, const char *what)
{
    char *p = buf;
    while (len > 0) {
        ssize_t n = recv(fd, p, len, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            xb_dpm_wait_fd(fd, POLLIN, what);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0)
            return xb_err_set(XB_ERR_OTHER, "%s: the other side closed the connection "
                              "between the roots (%zu bytes missing)", what, len);
        if (n < 0)
            return xb_err_sys(XB_ERR_OTHER, errno, "%s: recv on the connection "
                              "between the roots", what);
        p += n;
        len -= (size_t)n;
    }
    return XB_OK;
}

int xb_dpm_send_side(int fd, const xb_dpm_hdr_t *mine, const xb_peer_desc_t *descs)
{
    xb_dpm_hdr_t h = *mine;
    memcpy(h.magic, hdr_magic, sizeof(h.magic));
    if (h.status != XB_OK)
        h.n = 0;
    int rc = xb_dpm_send_all(fd, &h, sizeof(h), "exchange of process descriptions");
    if (rc == XB_OK && h.n > 0)
        rc = xb_dpm_send_all(fd, descs, (size_t)h.n * sizeof(*descs),
                             "exchange of process descriptions");
    return rc;
}

int xb_dpm_recv_side(int fd, xb_dpm_hdr_t *rh, xb_peer_desc_t **rdesc_p)
{
    *rdesc_p = NULL;
    int rc = xb_dpm_recv_all(fd, rh, sizeof(*rh), "exchange of process descriptions");
    if (rc != XB_OK)
        return rc;
    if (memcmp(rh->magic, hdr_magic, sizeof(hdr_magic)) != 0 || rh->n < 0 ||
        rh->n > (1 << 24) || (rh->status == XB_OK && rh->n == 0) ||
        (rh->status == XB_OK && (rh->root < 0 || rh->root >= rh->n)))
        return xb_err_set(XB_ERR_OTHER, "the other side of the connection is not a "
                          "Crossbar process of this version (bad header)");
    if (rh->status != XB_OK)
        return XB_OK;
    xb_peer_desc_t *rd = malloc((size_t)rh->n * sizeof(*rd));
    if (rd == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for %d process descriptions",
                          rh->n);
    rc = xb_dpm_recv_all(fd, rd, (size_t)rh->n * sizeof(*rd),
                         "exchange of process descriptions");
    if (rc != XB_OK) {
        free(rd);
        return rc;
    }
    *rdesc_p = rd;
    return XB_OK;
}
