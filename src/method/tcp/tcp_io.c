/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tcp_io.c - frames out and in on an established tcp connection.
 *
 * Out. send_am with an empty queue on an UP connection tries one sendmsg()
 * of [frame head + AM header | payload iovec | pad]; what the socket did not
 * take goes on the per-peer queue with a cursor (iov index + in-place
 * advance). A payload the caller lets us reference (a done callback, an
 * iovec, more than XB_TCP_COPY_MAX bytes) is not copied: send_am answers
 * XB_INPROGRESS and calls done->cb when its last byte left. Everything else
 * is copied; a queued copy is still answered XB_INPROGRESS when the caller
 * gave a done callback, so a send completes only once its bytes are in the
 * kernel (a rank that then sits in a PMI fence, in MPI_Finalize, or
 * computes without calling MPI must not hold its peer's message in our
 * queue); without a callback (pt2pt's CTS/SYNC_ACK) it is XB_OK. When the queue holds XB_TCP_SENDQ_MAX bytes
 * send_am answers XB_ERR_AGAIN (back-pressure; pt2pt retries).
 *
 * In. One receive buffer per connection, grown to the largest frame seen;
 * each read() takes what the socket has, complete frames are dispatched from
 * the buffer (payload pointer inside it, valid during the handler call) and
 * the partial tail moves to the front. With XB_TCP_PLACE_MIN set (off by
 * default, see there), a frame whose payload is at least that large and
 * whose owner says where it goes (xb_am_place: a rendezvous fragment into
 * a contiguous receive buffer) is read there directly once its header is
 * in: one copy (kernel to user) instead of two.
 *
 * Loss. An error, or end of file with a frame half read or bytes still to
 * send, ends the job with a sentence naming the peer (xb_rt_fatal): a
 * message must never be reported as delivered and then dropped. End of file
 * on a quiet connection is the peer finalizing: the peer is marked CLOSED.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "method/tcp/tcp.h"
#include "runtime/tunable.h"

XB_TUNABLE_LIVE(TCP_SENDQ_MAX, XB_TT_SIZE, "4m", XB_TL_TUNER,
           "Bytes queued per tcp connection before sends are refused for a while "
           "(back-pressure)", NULL);
XB_TUNABLE_LIVE(TCP_COPY_MAX, XB_TT_SIZE, "32k", XB_TL_TUNER,
           "Largest payload the tcp method copies when the socket cannot take it "
           "at once; larger ones are sent from the caller's memory", NULL);

/* Off by default: over loopback reading 512 KiB fragments in place made a
 * 4 MiB transfer slower, not faster: best of 7 transfers 647-1525 us
 * against 487-697 us through the connection's buffer, 8 of 8 interleaved
 * runs (bench/threads.c -k overlap -v, 2 CPUs under load, 2026-11-24). The
 * copy into a buffer that stays in cache and the user-space copy out of it
 * beat one kernel copy into cold memory here; a real network, slower than
 * the copies, may differ (64k there: the rendezvous fragments, not the
 * eager messages, whose handler copies an unexpected one anyway). */
XB_TUNABLE(TCP_PLACE_MIN, XB_TT_SIZE, "0", XB_TL_TUNER,
           "Smallest tcp payload read straight into the receive buffer when its "
           "owner gives one (0: never)");

/* SMALL_FRAME: frames up to this size are assembled on the stack and go
 * out with one send(): a 56-byte frame as sendmsg of 2 iovecs took 6.2-7.8
 * us with its loopback delivery, copied and sent with send() 5.8-7.1 us
 * (2026-11-24); and a payload given by a pack callback need not be queued
 * first. */
enum { RBUF_MIN = 65536, SEND_IOV_MAX = 64, READS_PER_CALL = 4, SMALL_FRAME = 512 };

static const uint8_t zeros[8];

static inline size_t a8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Frame head + AM header padded; returns its length. */
static size_t build_head(uint8_t *head, uint8_t am_id, const void *hdr, size_t hdr_len,
                         size_t len)
{
    tcp_frame_t f = { .len = (uint32_t)len, .am_id = am_id, .hdr_len = (uint8_t)hdr_len,
                      .magic = TCP_FRAME_MAGIC };
    memcpy(head, &f, sizeof(f));
    size_t hl = a8(hdr_len);
    if (hdr_len > 0)
        memcpy(head + sizeof(f), hdr, hdr_len);
    memset(head + sizeof(f) + hdr_len, 0, hl - hdr_len);
    return sizeof(f) + hl;
}

static void advance(struct iovec *iov, int *cur, int niov, size_t n)
{
    while (n > 0 && *cur < niov) {
        if (n >= iov[*cur].iov_len) {
            n -= iov[*cur].iov_len;
            (*cur)++;
        } else {
            iov[*cur].iov_base = (char *)iov[*cur].iov_base + n;
            iov[*cur].iov_len -= n;
            n = 0;
        }
    }
    while (*cur < niov && iov[*cur].iov_len == 0)
        (*cur)++;
}

static int copy_payload(const xb_payload_t *pl, uint8_t *dst)
{
    if (pl->iov != NULL) {
        size_t off = 0;
        for (int i = 0; i < pl->iovcnt && off < pl->len; i++) {
            size_t n = pl->iov[i].iov_len < pl->len - off ? pl->iov[i].iov_len
                                                           : pl->len - off;
            memcpy(dst + off, pl->iov[i].iov_base, n);
            off += n;
        }
        return XB_OK;
    }
    for (size_t off = 0; off < pl->len;) {
        size_t n = pl->pack(pl->pack_arg, pl->offset + off, dst + off, pl->len - off);
        if (n == 0)
            return xb_err_set(XB_ERR_INTERN, "pack callback stopped at byte %zu of %zu",
                              off, pl->len);
        off += n;
    }
    return XB_OK;
}

static void enqueue(tcp_peer_t *p, tcp_msg_t *m)
{
    m->next = NULL;
    if (p->q_tail != NULL)
        p->q_tail->next = m;
    else
        p->q_head = m;
    p->q_tail = m;
    p->q_bytes += m->bytes;
}

/* A copy of the whole frame, `skip` bytes of it already sent. */
static int queue_copy(tcp_peer_t *p, const uint8_t *head, size_t hlen,
                      const xb_payload_t *pl, size_t skip, xb_am_done_t *done)
{
    size_t len = pl != NULL ? pl->len : 0, total = hlen + a8(len);
    tcp_msg_t *m = malloc(sizeof(*m) + sizeof(struct iovec) + total);
    if (m == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory to queue %zu bytes for rank %d",
                          total, p->rank);
    uint8_t *data = (uint8_t *)(m + 1) + sizeof(struct iovec);
    memcpy(data, head, hlen);
    if (len > 0 && copy_payload(pl, data + hlen) != XB_OK) {
        free(m);
        return XB_ERR_INTERN;
    }
    memset(data + hlen + len, 0, a8(len) - len);
    m->iov = (struct iovec *)(m + 1);
    m->iov[0].iov_base = data + skip;
    m->iov[0].iov_len = total - skip;
    m->niov = 1;
    m->cur = 0;
    m->left = total - skip;
    m->bytes = total;
    m->done = done;
    enqueue(p, m);
    return done != NULL ? XB_INPROGRESS : XB_OK;
}

/* Reference the caller's iovec: the rest of iov[cur..n) from the stack copy. */
static int queue_ref(tcp_peer_t *p, struct iovec *iov, int cur, int n, size_t left,
                     const uint8_t *head, size_t hlen, xb_am_done_t *done)
{
    tcp_msg_t *m = malloc(sizeof(*m) + (size_t)n * sizeof(struct iovec) + hlen);
    if (m == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory to queue a message for rank %d",
                          p->rank);
    m->iov = (struct iovec *)(m + 1);
    uint8_t *hcopy = (uint8_t *)(m->iov + n);
    memcpy(hcopy, head, hlen);
    memcpy(m->iov, iov, (size_t)n * sizeof(*iov));
    if (cur == 0) {                 /* the head entry still points at the stack */
        size_t sent = hlen - iov[0].iov_len;
        m->iov[0].iov_base = hcopy + sent;
    }
    m->cur = cur;
    m->niov = n;
    m->left = left;
    m->bytes = left;
    m->done = done;
    enqueue(p, m);
    return XB_INPROGRESS;
}

static size_t gather(struct iovec *iov, const uint8_t *head, size_t hlen,
                     const xb_payload_t *pl, int *n_p)
{
    int n = 0;
    size_t total = hlen;
    iov[n++] = (struct iovec){ (void *)head, hlen };
    size_t len = pl != NULL ? pl->len : 0, off = 0;
    for (int i = 0; pl != NULL && i < pl->iovcnt && off < len; i++) {
        size_t k = pl->iov[i].iov_len < len - off ? pl->iov[i].iov_len : len - off;
        if (k > 0)
            iov[n++] = (struct iovec){ pl->iov[i].iov_base, k };
        off += k;
    }
    if (a8(len) > len)
        iov[n++] = (struct iovec){ (void *)zeros, a8(len) - len };
    *n_p = n;
    return total + a8(len);
}

static ssize_t send_iov(int fd, struct iovec *iov, int n)
{
    struct msghdr mh = { .msg_iov = iov, .msg_iovlen = (size_t)(n < IOV_MAX ? n : IOV_MAX) };
    ssize_t w;
    do {
        w = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
    } while (w < 0 && errno == EINTR);
    return w;
}

static ssize_t send_buf(int fd, const void *buf, size_t len)
{
    ssize_t w;
    do {
        w = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    } while (w < 0 && errno == EINTR);
    return w;
}

/* A small frame on an open connection with nothing queued: assembled in one
 * buffer, one send(); what the socket does not take is queued (a copy). */
static int send_small(xb_tcp_t *st, tcp_peer_t *p, const uint8_t *head, size_t hlen,
                      const xb_payload_t *pl, xb_am_done_t *done)
{
    uint8_t buf[SMALL_FRAME];
    size_t len = pl != NULL ? pl->len : 0, total = hlen + a8(len);
    memcpy(buf, head, hlen);
    if (len > 0 && copy_payload(pl, buf + hlen) != XB_OK)
        return XB_ERR_INTERN;
    memset(buf + hlen + len, 0, a8(len) - len);
    ssize_t w = send_buf(p->fd, buf, total);
    if (w < 0 && errno != EAGAIN) {
        xb_tcp_peer_lost(st, p, strerror(errno));
        return xb_err_set(XB_ERR_OTHER, "lost the connection to rank %d", p->rank);
    }
    size_t sent = w > 0 ? (size_t)w : 0;
    if (sent == total)
        return XB_OK;
    int rc = queue_copy(p, head, hlen, pl, sent, done);
    xb_tcp_update_out(st, p);
    return rc;
}

int xb_tcp_send(tcp_peer_t *p, uint8_t am_id, const void *hdr, size_t hdr_len,
                const xb_payload_t *pl, xb_am_done_t *done)
{
    xb_tcp_t *st = &xb_tcp;
    size_t len = pl != NULL ? pl->len : 0;
    if (XB_UNLIKELY(hdr_len > XB_AM_HDR_MAX || len > st->m->caps.frag_max))
        return xb_err_set(XB_ERR_INTERN, "tcp message too large: header %zu bytes (max "
                          "%d), payload %zu bytes (max %zu)", hdr_len, XB_AM_HDR_MAX, len,
                          st->m->caps.frag_max);
    if (XB_UNLIKELY(p->state == TCP_CLOSED))
        return xb_err_set(XB_ERR_OTHER, "rank %d (host %s) closed its connection: it "
                          "has finalized or exited", p->rank, p->addr.host);
    if (p->q_head != NULL && p->q_bytes >= xb_tn_TCP_SENDQ_MAX.v.size)
        return XB_ERR_AGAIN;
    xb_method_costly_active();          /* an answer may come: poll soon */
    uint8_t head[sizeof(tcp_frame_t) + XB_AM_HDR_MAX];
    size_t hlen = build_head(head, am_id, hdr, hdr_len, len);
    if (p->state == TCP_UP && p->q_head == NULL && hlen + a8(len) <= SMALL_FRAME)
        return send_small(st, p, head, hlen, pl, done);
    bool by_iov = pl == NULL || (pl->iov != NULL && pl->iovcnt <= SEND_IOV_MAX - 2);
    if (p->state == TCP_UP && p->q_head == NULL && by_iov) {
        struct iovec iov[SEND_IOV_MAX];
        int n, cur = 0;
        size_t total = gather(iov, head, hlen, pl, &n);
        ssize_t w = send_iov(p->fd, iov, n);
        if (w < 0 && errno != EAGAIN) {
            xb_tcp_peer_lost(st, p, strerror(errno));
            return xb_err_set(XB_ERR_OTHER, "lost the connection to rank %d", p->rank);
        }
        size_t sent = w > 0 ? (size_t)w : 0;
        if (sent == total)
            return XB_OK;
        int rc;
        if (done != NULL && len > xb_tn_TCP_COPY_MAX.v.size) {
            advance(iov, &cur, n, sent);
            rc = queue_ref(p, iov, cur, n, total - sent, head, hlen, done);
        } else {
            rc = queue_copy(p, head, hlen, pl, sent, done);
        }
        xb_tcp_update_out(st, p);
        return rc;
    }
    int rc;
    if (by_iov && pl != NULL && done != NULL && len > xb_tn_TCP_COPY_MAX.v.size) {
        struct iovec iov[SEND_IOV_MAX];
        int n;
        size_t total = gather(iov, head, hlen, pl, &n);
        rc = queue_ref(p, iov, 0, n, total, head, hlen, done);
    } else {
        rc = queue_copy(p, head, hlen, pl, 0, done);
    }
    if (rc < 0)
        return rc;
    if (p->state == TCP_IDLE) {
        int crc = xb_tcp_connect(st, p);
        if (crc != XB_OK)
            return crc;
    }
    xb_tcp_update_out(st, p);
    return rc;
}

void xb_tcp_update_out(xb_tcp_t *st, tcp_peer_t *p)
{
    if (p->fd < 0 || p->state == TCP_HELLO)
        return;
    bool want = p->state == TCP_CONNECTING || (p->state == TCP_UP && p->q_head != NULL);
    if (want != p->want_out && xb_tcp_epoll(st, EPOLL_CTL_MOD, p->fd, p, want) == XB_OK)
        p->want_out = want;
}

int xb_tcp_flush(xb_tcp_t *st, tcp_peer_t *p)
{
    int n = 0;
    while (p->q_head != NULL && p->state == TCP_UP) {
        tcp_msg_t *m = p->q_head;
        ssize_t w = send_iov(p->fd, m->iov + m->cur, m->niov - m->cur);
        if (w < 0) {
            if (errno == EAGAIN)
                break;
            xb_tcp_peer_lost(st, p, strerror(errno));
            return XB_ERR_OTHER;
        }
        advance(m->iov, &m->cur, m->niov, (size_t)w);
        m->left -= (size_t)w;
        if (m->left > 0)
            continue;
        p->q_head = m->next;
        if (p->q_head == NULL)
            p->q_tail = NULL;
        p->q_bytes -= m->bytes;
        xb_am_done_t *done = m->done;
        free(m);
        n++;
        if (done != NULL)
            done->cb(done, XB_OK);
    }
    xb_tcp_update_out(st, p);
    return n;
}

void xb_tcp_free_queue(tcp_peer_t *p, int status)
{
    while (p->q_head != NULL) {
        tcp_msg_t *m = p->q_head;
        p->q_head = m->next;
        if (m->done != NULL && status != XB_OK)
            m->done->cb(m->done, status);
        free(m);
    }
    p->q_tail = NULL;
    p->q_bytes = 0;
}

void xb_tcp_peer_lost(xb_tcp_t *st, tcp_peer_t *p, const char *why)
{
    bool quiet = p->q_head == NULL && p->rlen == 0;
    if (p->fd >= 0)
        close(p->fd);
    p->fd = -1;
    p->want_out = false;
    if (p->state == TCP_UP) {
        st->nopen--;
        xb_tcp_direct_remove(st, p);
    }
    p->state = TCP_CLOSED;
    if (st->finalizing || (quiet && why == NULL)) {
        xb_log(XB_LOG_METHOD, XB_LOG_DEBUG, "tcp: rank %d closed its connection", p->rank);
        return;
    }
    xb_rt_fatal("lost the tcp connection to rank %d on host %s (%s) with %zu bytes "
                "still to send and %zu received bytes of an unfinished message; the "
                "peer process probably died (see the launcher's message about it)",
                p->rank, p->addr.host, why != NULL ? why : "closed by the peer",
                p->q_bytes, p->rlen);
}

/* Dispatch the complete frames in rbuf; returns how many. */
static int parse(xb_tcp_t *st, tcp_peer_t *p)
{
    size_t off = 0;
    int n = 0;
    while (p->rlen - off >= sizeof(tcp_frame_t)) {
        tcp_frame_t f;
        memcpy(&f, p->rbuf + off, sizeof(f));
        if (XB_UNLIKELY(f.magic != TCP_FRAME_MAGIC || f.hdr_len > XB_AM_HDR_MAX ||
                        f.len > st->m->caps.frag_max))
            xb_rt_fatal("the tcp connection from rank %d (host %s) carries a corrupt "
                        "frame (magic %#x, header %u bytes, payload %u bytes)", p->rank,
                        p->addr.host, f.magic, f.hdr_len, f.len);
        size_t hl = a8(f.hdr_len), total = sizeof(f) + hl + a8(f.len);
        if (p->rlen - off < total)
            break;
        const uint8_t *h = p->rbuf + off + sizeof(f);
        if (!st->finalizing)
            xb_am_dispatch_from(XB_METHOD_TCP, f.am_id, xb_gpid_make(0, (uint32_t)p->rank),
                                h, f.hdr_len, h + hl, f.len);
        off += total;
        n++;
    }
    if (off > 0) {
        memmove(p->rbuf, p->rbuf + off, p->rlen - off);
        p->rlen -= off;
    }
    return n;
}

/* Room for the whole frame whose head is at the front of rbuf. */
static int make_room(tcp_peer_t *p)
{
    size_t need = RBUF_MIN;
    if (p->rlen >= sizeof(tcp_frame_t)) {
        tcp_frame_t f;
        memcpy(&f, p->rbuf, sizeof(f));
        size_t total = sizeof(f) + a8(f.hdr_len) + a8(f.len);
        if (total > need)
            need = total;
    }
    if (p->rcap >= need && p->rcap > p->rlen)
        return XB_OK;
    if (need <= p->rcap)
        need = p->rcap * 2;
    uint8_t *b = realloc(p->rbuf, need);
    if (b == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a %zu-byte receive buffer", need);
    p->rbuf = b;
    p->rcap = need;
    return XB_OK;
}

/* The frame at the front of rbuf has its head and header but not all its
 * payload: if it is large and its owner gives a place, move the payload
 * bytes already here there and read the rest straight into it. */
static void try_place(tcp_peer_t *p)
{
    size_t min = xb_tn_TCP_PLACE_MIN.v.size;
    if (min == 0 || p->rlen < sizeof(tcp_frame_t))
        return;
    tcp_frame_t f;
    memcpy(&f, p->rbuf, sizeof(f));
    size_t head = sizeof(f) + a8(f.hdr_len);
    if (f.len < min || p->rlen < head || p->rlen - head >= f.len)
        return;
    uint8_t *dst = xb_am_place(f.am_id, xb_gpid_make(0, (uint32_t)p->rank),
                               p->rbuf + sizeof(f), f.hdr_len, f.len);
    if (dst == NULL)
        return;
    p->pgot = p->rlen - head;
    memcpy(dst, p->rbuf + head, p->pgot);
    p->plen = f.len;
    p->pdst = dst;
    p->rlen = head;
}

/* A read error or end of file; true when the caller should stop reading. */
static bool read_failed(xb_tcp_t *st, tcp_peer_t *p, ssize_t r)
{
    if (r == 0) {
        xb_tcp_peer_lost(st, p, p->rlen || p->q_head ? "end of file" : NULL);
        return true;
    }
    if (errno == EINTR)
        return false;
    if (errno != EAGAIN)             /* a reset of a quiet connection: finalized */
        xb_tcp_peer_lost(st, p, errno == ECONNRESET && p->rlen == 0 &&
                         p->q_head == NULL ? NULL : strerror(errno));
    return true;
}

/* Read the placed payload; dispatch its frame when it is whole. Returns
 * -1 to stop reading (drained, error), else the frames handled. */
static int read_placed(xb_tcp_t *st, tcp_peer_t *p)
{
    size_t want = p->plen - p->pgot;
    ssize_t r = recv(p->fd, p->pdst + p->pgot, want, MSG_DONTWAIT);
    if (r <= 0)
        return read_failed(st, p, r) ? -1 : 0;
    p->pgot += (size_t)r;
    if (p->pgot < p->plen)
        return -1;                      /* the socket is drained */
    tcp_frame_t f;
    memcpy(&f, p->rbuf, sizeof(f));
    uint8_t *dst = p->pdst;
    p->pdst = NULL;
    p->skip = a8(f.len) - f.len;
    if (!st->finalizing)
        xb_am_dispatch_from(XB_METHOD_TCP, f.am_id, xb_gpid_make(0, (uint32_t)p->rank),
                            p->rbuf + sizeof(f), f.hdr_len, dst, f.len);
    p->rlen = 0;
    return 1;
}

/* The padding after a placed payload, at the front of what was read. */
static void drop_skip(tcp_peer_t *p)
{
    size_t d = p->skip < p->rlen ? p->skip : p->rlen;
    memmove(p->rbuf, p->rbuf + d, p->rlen - d);
    p->rlen -= d;
    p->skip -= d;
}

int xb_tcp_readable(xb_tcp_t *st, tcp_peer_t *p)
{
    int n = 0;
    for (int k = 0; k < READS_PER_CALL && p->state == TCP_UP; k++) {
        if (p->pdst != NULL) {
            int m = read_placed(st, p);
            if (m < 0)
                break;
            n += m;
            continue;
        }
        if (make_room(p) != XB_OK)
            xb_rt_fatal("%s", xb_err_detail());
        size_t space = p->rcap - p->rlen;
        ssize_t r = recv(p->fd, p->rbuf + p->rlen, space, MSG_DONTWAIT);
        if (r <= 0) {
            if (read_failed(st, p, r))
                break;
            continue;
        }
        p->rlen += (size_t)r;
        if (XB_UNLIKELY(p->skip > 0))
            drop_skip(p);
        n += parse(st, p);
        try_place(p);
        if ((size_t)r < space)
            break;                      /* the socket is drained */
    }
    return n;
}
