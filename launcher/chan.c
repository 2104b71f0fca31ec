/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * chan.c - the framed channel between mpiexec and a host's proxy: the
 * stdin/stdout of the remote-start command (ssh, or --launcher-exec).
 *
 * A frame is LX_FRAME_HDR bytes - payload length (u32), type (u32), rank
 * (i32), all in network byte order - followed by the payload. Frames are
 * queued in an output buffer and written when the fd is writable, so a
 * slow channel never blocks the poll loop; received bytes are parsed into
 * whole frames. The frame types are listed in launcher.h and described in
 * docs/design/launcher.md.
 */
#include "launcher.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LX_CHAN_READ 65536

void lx_chan_init(lx_chan_t *c, int rfd, int wfd)
{
    memset(c, 0, sizeof *c);
    c->rfd = rfd;
    c->wfd = wfd;
}

static int reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : LX_CHAN_READ;
    while (n < need)
        n *= 2;
    char *nb = realloc(*buf, n);
    if (!nb)
        return -1;
    *buf = nb;
    *cap = n;
    return 0;
}

int lx_chan_send(lx_chan_t *c, int type, int rank, const void *buf, size_t len)
{
    if (c->wfd < 0)
        return -1;                      /* the peer is gone: drop */
    if (len > LX_FRAME_MAX || reserve(&c->out, &c->outcap, c->outlen + LX_FRAME_HDR + len))
        return -1;
    uint32_t h[3] = { htonl((uint32_t)len), htonl((uint32_t)type), htonl((uint32_t)rank) };
    memcpy(c->out + c->outlen, h, sizeof h);
    if (len)
        memcpy(c->out + c->outlen + LX_FRAME_HDR, buf, len);
    c->outlen += LX_FRAME_HDR + len;
    return 0;
}

int lx_chan_sendf(lx_chan_t *c, int type, int rank, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    return lx_chan_send(c, type, rank, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

int lx_chan_flush(lx_chan_t *c)
{
    size_t off = 0;
    while (c->wfd >= 0 && off < c->outlen) {
        ssize_t n = write(c->wfd, c->out + off, c->outlen - off);
        if (n > 0) {
            off += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            break;
        close(c->wfd);                   /* EPIPE: the reader is gone */
        c->wfd = -1;
        c->outlen = off = 0;
        return -1;
    }
    memmove(c->out, c->out + off, c->outlen - off);
    c->outlen -= off;
    return 0;
}

void lx_chan_drain_out(lx_chan_t *c, int ms)
{
    double until = lx_now() + ms / 1000.0;
    while (c->wfd >= 0 && c->outlen > 0 && lx_chan_flush(c) == 0 && c->outlen > 0) {
        double left = until - lx_now();
        if (left <= 0)
            break;
        struct pollfd p = { .fd = c->wfd, .events = POLLOUT };
        (void)poll(&p, 1, (int)(left * 1000.0) + 1);
    }
}

long lx_chan_fill(lx_chan_t *c)
{
    if (c->rfd < 0 || c->eof)
        return -1;
    if (c->inoff > 0) {                  /* compact: parsed frames are gone */
        memmove(c->in, c->in + c->inoff, c->inlen - c->inoff);
        c->inlen -= c->inoff;
        c->inoff = 0;
    }
    if (reserve(&c->in, &c->incap, c->inlen + LX_CHAN_READ))
        return -1;
    ssize_t n = read(c->rfd, c->in + c->inlen, c->incap - c->inlen);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n <= 0) {
        c->eof = true;
        return -1;
    }
    c->inlen += (size_t)n;
    return n;
}

/* The frame handed out by the previous call is consumed by this one. */
int lx_chan_next(lx_chan_t *c, int *type, int *rank, const char **p, size_t *len)
{
    c->inoff += c->taken;
    c->taken = 0;
    if (c->inoff == c->inlen)
        c->inoff = c->inlen = 0;
    if (c->inlen - c->inoff < LX_FRAME_HDR)
        return 0;
    uint32_t h[3];
    memcpy(h, c->in + c->inoff, sizeof h);
    size_t plen = ntohl(h[0]);
    if (plen > LX_FRAME_MAX)
        return -1;
    if (c->inlen - c->inoff < LX_FRAME_HDR + plen)
        return 0;
    *type = (int)ntohl(h[1]);
    *rank = (int)(int32_t)ntohl(h[2]);
    *p = c->in + c->inoff + LX_FRAME_HDR;
    *len = plen;
    c->taken = LX_FRAME_HDR + plen;
    return 1;
}

void lx_chan_close(lx_chan_t *c)
{
    if (c->rfd >= 0)
        close(c->rfd);
    if (c->wfd >= 0 && c->wfd != c->rfd)
        close(c->wfd);
    c->rfd = c->wfd = -1;
    c->eof = true;
    free(c->in);
    free(c->out);
    c->in = c->out = NULL;
    c->inlen = c->inoff = c->taken = c->incap = c->outlen = c->outcap = 0;
}
