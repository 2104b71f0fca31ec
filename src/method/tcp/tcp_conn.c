/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tcp_conn.c - connections of the tcp method: opening one on first use,
 * accepting, the job-secret handshake and the simultaneous-connect rule.
 *
 * Handshake. The connector writes a tcp_hello_t (magic, its rank, our rank,
 * job size, the job secret) as soon as connect() completes, and sends no
 * frame before the 8-byte verdict. The acceptor reads exactly the hello and
 * nothing else; a wrong magic closes the socket as soon as 8 bytes are in,
 * a wrong secret, rank or size when the hello is complete, a hello that does
 * not arrive within XB_TCP_HELLO_TIMEOUT_MS too. Each such close is logged
 * (method subsystem, warning) and counted; the job goes on.
 *
 * Simultaneous connects. A valid hello from rank p while our own connection
 * to p is still in its handshake: the connection initiated by the lower
 * rank wins. If p < me we adopt p's connection and close ours; otherwise we
 * answer "no" and p, reading the verdict, waits for ours. Both ends apply
 * the same rule, so exactly one connection survives and no frame was sent
 * on the other (frames wait for the verdict).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "method/tcp/tcp.h"
#include "runtime/tunable.h"

XB_TUNABLE(TCP_SNDBUF, XB_TT_SIZE, "0", XB_TL_TUNER,
           "SO_SNDBUF of tcp connections (0: the kernel's automatic sizing)");
XB_TUNABLE(TCP_RCVBUF, XB_TT_SIZE, "0", XB_TL_TUNER,
           "SO_RCVBUF of tcp connections (0: the kernel's automatic sizing)");
XB_TUNABLE_LIVE(TCP_HELLO_TIMEOUT_MS, XB_TT_INT, "10000", XB_TL_DEV,
           "An accepted connection that does not prove it belongs to the job "
           "within this time is closed", NULL);

static const char hello_magic[8] = "XBTCP01";
static const char verdict_magic[4] = { 'X', 'B', 'o', 'k' };

void xb_tcp_set_sockopts(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (xb_tn_TCP_SNDBUF.v.size > 0) {
        int v = (int)xb_tn_TCP_SNDBUF.v.size;
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
    }
    if (xb_tn_TCP_RCVBUF.v.size > 0) {
        int v = (int)xb_tn_TCP_RCVBUF.v.size;
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
    }
}

void xb_tcp_set_bufsize(int fd, int bytes)
{
    if (bytes > 0) {
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes));
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
    }
}

int xb_tcp_epoll(xb_tcp_t *st, int op, int fd, void *ptr, bool out)
{
    struct epoll_event ev = { .events = EPOLLIN | (out ? EPOLLOUT : 0), .data.ptr = ptr };
    if (epoll_ctl(st->epfd, op, fd, &ev) != 0)
        return xb_err_sys(XB_ERR_OTHER, errno, "epoll_ctl");
    return XB_OK;
}

tcp_peer_t *xb_tcp_peer(xb_tcp_t *st, int rank)
{
    if (rank < 0 || rank >= st->npeers)
        return NULL;
    tcp_peer_t *p = st->peers[rank];
    if (p != NULL)
        return p;
    p = calloc(1, sizeof(*p));
    if (p == NULL)
        return NULL;
    p->kind = TCP_K_PEER;
    p->rank = rank;
    p->fd = -1;
    p->state = TCP_IDLE;
    st->peers[rank] = p;
    return p;
}

int xb_tcp_peer_addr(xb_tcp_t *st, tcp_peer_t *p)
{
    (void)st;
    if (p->addr_ok)
        return XB_OK;
    size_t len = sizeof(p->addr);
    int rc = xb_rt_peer_addr(p->rank, "tcp", &p->addr, &len);
    if (rc != XB_OK)
        return rc;
    if (len != sizeof(p->addr) || p->addr.version != TCP_ADDR_VERSION ||
        p->addr.naddr > XB_TCP_MAX_ADDRS)
        return xb_err_set(XB_ERR_OTHER, "rank %d published a tcp address of another "
                          "version (%zu bytes)", p->rank, len);
    p->addr.host[XB_TCP_HOST_LEN - 1] = '\0';
    p->addr_ok = true;
    return XB_OK;
}

/* Index into p->addr.a of the k-th address to try, or -1: on the same node
 * loopback first, then the others; to another node never loopback. */
static int candidate(xb_tcp_t *st, tcp_peer_t *p, int k)
{
    bool same = !p->foreign && st->rt->node_of[p->rank] == st->rt->my_node;
    int n = 0;
    if (p->foreign) {           /* anywhere: other addresses, then loopback */
        for (int pass = 1; pass >= 0; pass--)
            for (uint32_t i = 0; i < p->addr.naddr; i++)
                if ((p->addr.a[i].loopback != 0) == (pass == 0) && n++ == k)
                    return (int)i;
        return -1;
    }
    for (int pass = same ? 0 : 1; pass < 2; pass++)
        for (uint32_t i = 0; i < p->addr.naddr; i++)
            if ((p->addr.a[i].loopback != 0) == (pass == 0) && n++ == k)
                return (int)i;
    return -1;
}

static void note_try(tcp_peer_t *p, int i, const char *why)
{
    char a[80];
    struct sockaddr_storage ss;
    xb_tcp_sa_of(&p->addr, i, &ss);
    size_t off = strlen(p->tried);
    snprintf(p->tried + off, sizeof(p->tried) - off, "%s%s (%s)", off ? ", " : "",
             xb_tcp_fmt((struct sockaddr *)&ss, a, sizeof(a)), why);
}

static XB_NOINLINE void unreachable(xb_tcp_t *st, tcp_peer_t *p)
{
    xb_rt_fatal("no interface reaches rank %d on host %s from rank %d on host %s: "
                "tried %s; check XB_TCP_IF, XB_TCP_PORT_RANGE and firewalls",
                p->rank, p->addr.host, st->rt->rank, st->rt->host,
                p->tried[0] ? p->tried : "no address (the peer published none "
                "usable from another node)");
}

static void close_fd(xb_tcp_t *st, tcp_peer_t *p)
{
    (void)st;
    if (p->fd >= 0)
        close(p->fd);           /* also leaves the epoll set */
    p->fd = -1;
    p->want_out = false;
}

/* Connected: write the hello (a fresh socket takes 56 bytes at once). */
static void send_hello(xb_tcp_t *st, tcp_peer_t *p)
{
    tcp_hello_t h;
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, hello_magic, sizeof(h.magic));
    h.src = (uint32_t)st->rt->rank;
    h.dst = (uint32_t)p->rank;
    h.size = (uint32_t)st->rt->size;
    memcpy(h.secret, st->secret, sizeof(h.secret));
    if (p->foreign) {
        memcpy(h.magic, xb_tcp_hello_magic_x, sizeof(h.magic));
        h.dst = p->fid.rank;
        h.size = (uint32_t)st->job_key;
        h.pad = (uint32_t)(st->job_key >> 32);
        memcpy(h.secret, p->addr.secret, sizeof(h.secret));
    }
    ssize_t n = send(p->fd, &h, sizeof(h), MSG_NOSIGNAL);
    if (n != (ssize_t)sizeof(h)) {
        note_try(p, candidate(st, p, p->next_try - 1), n < 0 ? strerror(errno) :
                 "short write of the hello");
        close_fd(st, p);
        xb_tcp_connect(st, p);
        return;
    }
    p->state = TCP_HELLO;
    p->hs_got = 0;
    xb_tcp_epoll(st, EPOLL_CTL_MOD, p->fd, p, false);
    p->want_out = false;
}

int xb_tcp_connect(xb_tcp_t *st, tcp_peer_t *p)
{
    int rc = xb_tcp_peer_addr(st, p);
    if (rc != XB_OK)
        return rc;
    for (;;) {
        int i = candidate(st, p, p->next_try++);
        if (i < 0)
            unreachable(st, p);
        struct sockaddr_storage sa;
        socklen_t sl = xb_tcp_sa_of(&p->addr, i, &sa);
        int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0 && errno == EAFNOSUPPORT) {
            note_try(p, i, strerror(errno));   /* no IPv6 here: the next address */
            continue;
        }
        if (fd < 0)
            return xb_err_sys(XB_ERR_OTHER, errno, "socket for a connection to rank %d",
                              p->rank);
        xb_tcp_set_sockopts(fd);
        xb_tcp_set_bufsize(fd, p->bufsize);
        int r = connect(fd, (struct sockaddr *)&sa, sl);
        if (r != 0 && errno != EINPROGRESS) {
            note_try(p, i, strerror(errno));
            close(fd);
            continue;
        }
        p->fd = fd;
        p->initiator = true;
        p->state = TCP_CONNECTING;
        rc = xb_tcp_epoll(st, EPOLL_CTL_ADD, fd, p, true);
        if (rc != XB_OK)
            return rc;
        p->want_out = true;
        if (r == 0)
            send_hello(st, p);
        return XB_OK;
    }
}

void xb_tcp_connect_ready(xb_tcp_t *st, tcp_peer_t *p)
{
    int err = 0;
    socklen_t len = sizeof(err);
    if (getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
        err = errno;
    if (err == EINPROGRESS || err == EALREADY)
        return;
    if (err != 0) {
        note_try(p, candidate(st, p, p->next_try - 1), strerror(err));
        close_fd(st, p);
        xb_tcp_connect(st, p);
        return;
    }
    send_hello(st, p);
}

static void now_up(xb_tcp_t *st, tcp_peer_t *p, const char *how)
{
    p->state = TCP_UP;
    st->nopen++;
    xb_tcp_direct_add(st, p);
    xb_log(XB_LOG_METHOD, XB_LOG_INFO, "tcp: connected to %s %d (host %s, node %u), "
           "%s", p->foreign ? "process of another job, here" : "rank", p->rank,
           p->addr_ok ? p->addr.host : "?",
           p->foreign ? XB_PEER_NODE_FOREIGN : st->rt->node_of[p->rank], how);
    xb_tcp_update_out(st, p);
    if (p->q_head != NULL)
        xb_tcp_flush(st, p);
}

int xb_tcp_verdict_readable(xb_tcp_t *st, tcp_peer_t *p)
{
    ssize_t n = recv(p->fd, (char *)&p->verdict + p->hs_got,
                     sizeof(p->verdict) - p->hs_got, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    if (n > 0)
        p->hs_got += (size_t)n;
    if (n > 0 && p->hs_got < sizeof(p->verdict))
        return 0;
    bool yes = n > 0 && memcmp(p->verdict.magic, verdict_magic, 4) == 0 &&
               p->verdict.accept == 1;
    if (!yes) {
        /* "no", or closed: the peer's own connection to us wins. */
        xb_log(XB_LOG_METHOD, XB_LOG_DEBUG, "tcp: rank %d keeps its own connection "
               "to us", p->rank);
        close_fd(st, p);
        p->state = TCP_WAITING;
        return 0;
    }
    char a[80] = "?";
    int i = candidate(st, p, p->next_try - 1);
    char how[112];
    struct sockaddr_storage ss;
    if (i >= 0) {
        xb_tcp_sa_of(&p->addr, i, &ss);
        xb_tcp_fmt((struct sockaddr *)&ss, a, sizeof(a));
    }
    snprintf(how, sizeof(how), "our connection to %s", a);
    now_up(st, p, how);
    return 1;
}

void xb_tcp_accept_ready(xb_tcp_t *st, tcp_listener_t *l)
{
    for (;;) {
        struct sockaddr_storage sa;
        socklen_t sl = sizeof(sa);
        int fd = accept4(l->fd, (struct sockaddr *)&sa, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;                     /* EAGAIN, or a transient error */
        tcp_accept_t *a = calloc(1, sizeof(*a));
        if (a == NULL) {
            close(fd);
            continue;
        }
        a->kind = TCP_K_ACCEPT;
        a->fd = fd;
        a->deadline = xb_tcp_now() + (double)xb_tn_TCP_HELLO_TIMEOUT_MS.v.i / 1000.0;
        xb_tcp_fmt((struct sockaddr *)&sa, a->from, sizeof(a->from));
        xb_tcp_set_sockopts(fd);
        if (xb_tcp_epoll(st, EPOLL_CTL_ADD, fd, a, false) != XB_OK) {
            close(fd);
            free(a);
            continue;
        }
        a->next = st->accepts;
        st->accepts = a;
    }
}

static void unlink_accept(xb_tcp_t *st, tcp_accept_t *a)
{
    for (tcp_accept_t **pp = &st->accepts; *pp != NULL; pp = &(*pp)->next)
        if (*pp == a) {
            *pp = a->next;
            return;
        }
}

void xb_tcp_accept_close(xb_tcp_t *st, tcp_accept_t *a, const char *why)
{
    if (why != NULL) {
        st->rejected++;
        xb_log(XB_LOG_METHOD, XB_LOG_WARN, "tcp: closed a connection from %s to rank "
               "%d: %s", a->from, st->rt->rank, why);
    }
    unlink_accept(st, a);
    close(a->fd);
    free(a);
}

bool xb_tcp_secret_ok(const uint8_t *a, const uint8_t *b)
{
    uint8_t d = 0;                       /* constant time */
    for (int i = 0; i < XB_TCP_SECRET_LEN; i++)
        d |= (uint8_t)(a[i] ^ b[i]);
    return d == 0;
}

/* Does the connection initiated by p win over ours (simultaneous connects)?
 * The lower rank's; across jobs the lower (job key, rank). */
static bool theirs_wins(xb_tcp_t *st, const tcp_peer_t *p)
{
    if (!p->foreign)
        return p->rank < st->rt->rank;
    return p->fid.job != st->job_key ? p->fid.job < st->job_key
                                     : p->fid.rank < (uint32_t)st->rt->rank;
}

/* The hello is complete and genuine, from peer `rank`: adopt the socket or
 * answer "no". */
void xb_tcp_hello_valid(xb_tcp_t *st, tcp_accept_t *a, int rank)
{
    tcp_peer_t *p = xb_tcp_peer(st, rank);
    bool ours_in_flight = p != NULL &&
                          (p->state == TCP_CONNECTING || p->state == TCP_HELLO);
    bool adopt = p != NULL && (p->state == TCP_IDLE || p->state == TCP_WAITING ||
                               (ours_in_flight && theirs_wins(st, p)));
    if (adopt && xb_tcp_peer_addr(st, p) != XB_OK) {
        xb_log(XB_LOG_METHOD, XB_LOG_WARN, "tcp: rank %d connected but its address "
               "is unknown: %s", p->rank, xb_err_detail());
        xb_err_clear();
        adopt = false;
    }
    xb_log(XB_LOG_METHOD, XB_LOG_DEBUG, "tcp: hello from rank %d (our state %d): %s",
           rank, p != NULL ? p->state : -1, adopt ? "adopt" : "refuse");
    tcp_verdict_t v;
    memcpy(v.magic, verdict_magic, 4);
    v.accept = adopt ? 1 : 0;
    ssize_t n = send(a->fd, &v, sizeof(v), MSG_NOSIGNAL);
    if (!adopt || n != (ssize_t)sizeof(v)) {
        xb_tcp_accept_close(st, a, NULL);
        return;
    }
    if (ours_in_flight)
        close_fd(st, p);
    p->fd = a->fd;
    xb_tcp_set_bufsize(p->fd, p->bufsize);
    p->initiator = false;
    p->want_out = false;
    if (xb_tcp_epoll(st, EPOLL_CTL_MOD, p->fd, p, false) != XB_OK) {
        close_fd(st, p);
        p->state = TCP_IDLE;
        a->fd = -1;
    }
    unlink_accept(st, a);
    free(a);
    if (p->fd >= 0) {
        char how[96];
        snprintf(how, sizeof(how), "its connection from %.60s", p->addr.host);
        now_up(st, p, how);
    }
}

void xb_tcp_hello_readable(xb_tcp_t *st, tcp_accept_t *a)
{
    ssize_t n = recv(a->fd, (char *)&a->hello + a->got, sizeof(a->hello) - a->got, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        if (a->got > 0)
            xb_tcp_accept_close(st, a, "closed in the middle of its hello");
        else
            xb_tcp_accept_close(st, a, NULL);   /* e.g. a losing simultaneous connect */
        return;
    }
    a->got += (size_t)n;
    if (a->got >= sizeof(hello_magic) &&
        memcmp(a->hello.magic, hello_magic, sizeof(hello_magic)) != 0 &&
        memcmp(a->hello.magic, xb_tcp_hello_magic_x, sizeof(hello_magic)) != 0) {
        xb_tcp_accept_close(st, a, "garbage instead of a Crossbar hello");
        return;
    }
    if (a->got < sizeof(a->hello))
        return;
    const tcp_hello_t *h = &a->hello;
    if (memcmp(h->magic, xb_tcp_hello_magic_x, sizeof(hello_magic)) == 0)
        xb_tcp_hello_foreign(st, a);
    else if (!xb_tcp_secret_ok(h->secret, st->secret))
        xb_tcp_accept_close(st, a, "wrong job secret");
    else if (h->dst != (uint32_t)st->rt->rank || h->size != (uint32_t)st->rt->size ||
             h->src >= h->size || h->src == h->dst)
        xb_tcp_accept_close(st, a, "a hello for another rank or job shape");
    else
        xb_tcp_hello_valid(st, a, (int)h->src);
}

void xb_tcp_accept_expire(xb_tcp_t *st)
{
    double now = xb_tcp_now();
    tcp_accept_t *a = st->accepts;
    while (a != NULL) {
        tcp_accept_t *next = a->next;
        if (now > a->deadline)
            xb_tcp_accept_close(st, a, "no hello in time");
        a = next;
    }
}

/* The communicator hint "xb_tcp_buffer_size" (bytes, "256k" style): the
 * connection to this peer gets SO_SNDBUF and SO_RCVBUF of that size (fixed:
 * the kernel's automatic sizing stops), now if it is open, else when it
 * opens. Connections are per pair, shared by every communicator: the
 * largest size asked for wins. The I-WAY paper's per-communicator TCP
 * buffer attribute. */
int xb_tcp_peer_hint(xb_method_t *m, xb_gpid_t peer, const char *key, const char *value)
{
    (void)m;
    if (strcmp(key, "xb_tcp_buffer_size") != 0)
        return XB_OK;
    char *end;
    unsigned long long v = strtoull(value, &end, 10);
    int shift = *end == 'k' || *end == 'K' ? 10 : *end == 'm' || *end == 'M' ? 20
              : *end == 'g' || *end == 'G' ? 30 : 0;
    if (shift)
        end++;
    if (end == value || *end != '\0' || v > (1ull << 30) || (v << shift) < 1024 ||
        (v << shift) > (1ull << 30))
        return xb_err_set(XB_ERR_ARG, "info key xb_tcp_buffer_size='%s' is not a size "
                          "between 1k and 1g (bytes, or with k, m, g)", value);
    size_t bytes = (size_t)(v << shift);
    xb_tcp_t *st = &xb_tcp;
    tcp_peer_t *p = xb_tcp_peer(st, (int)xb_gpid_rank(peer));
    if (p == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory for the tcp peer of rank %u",
                          xb_gpid_rank(peer));
    if ((int)bytes > p->bufsize) {
        p->bufsize = (int)bytes;
        if (p->fd >= 0)
            xb_tcp_set_bufsize(p->fd, p->bufsize);
    }
    return XB_OK;
}
