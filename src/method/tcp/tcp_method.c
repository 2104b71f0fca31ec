/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tcp_method.c - the `tcp` method: ranks on different nodes (or any ranks,
 * with XB_METHODS=tcp) talk over one TCP connection per pair. This file is
 * the ops table, the job secret, the address blob and the epoll loop;
 * tcp_iface.c picks the interfaces, tcp_conn.c opens and authenticates
 * connections, tcp_io.c moves frames.
 *
 * Capabilities: eager_max = XB_TCP_EAGER_MAX, frag_max = XB_TCP_FRAG_MAX
 * (pt2pt streams larger messages as a pipelined rendezvous of fragments of
 * that size, flow-controlled by XB_ERR_AGAIN), no get(), SLEEP (epoll_wait),
 * POLL_COSTLY (a syscall per poll: the registry polls it less often than
 * shared memory, see method.c).
 *
 * The job secret: 32 bytes, hex in XB_JOB_SECRET, made by our mpiexec for
 * each job. Under another launcher (no XB_JOB_SECRET) rank 0 makes one and
 * publishes it in its address blob: the KVS is readable only by the job.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>
#include "method/tcp/tcp.h"
#include "runtime/tunable.h"
#include "util/xb_mt.h"

XB_TUNABLE_DECL(TCP_IF);
static int tcp_eager_changed(xb_tunable_t *t);
XB_TUNABLE_LIVE(TCP_EAGER_MAX, XB_TT_SIZE, "64k", XB_TL_TUNER,
           "Largest message sent eagerly over tcp (above: pipelined rendezvous)", tcp_eager_changed);
XB_TUNABLE(TCP_FRAG_MAX, XB_TT_SIZE, "512k", XB_TL_TUNER,
           "Fragment size of the pipelined rendezvous over tcp (largest frame)");
XB_TUNABLE_LIVE(TCP_FINI_DRAIN_MS, XB_TT_INT, "10000", XB_TL_DEV,
           "At finalize, how long the tcp method waits for its queued bytes to "
           "leave before it closes the connections", NULL);

/* Polling the connections with a recv() each instead of epoll_wait: when a
 * message is there, one syscall instead of two (epoll_wait, then recv):
 * 8-byte ping-pong over loopback 5.0 -> 4.5 us (2026-11-24). But an empty
 * recv() costs more than an empty epoll_wait (0.7 against 0.3-0.4 us here:
 * it takes the socket lock), so only for 1 connection by default, and only
 * in jobs whose other peers are not on shared memory (there the sockets
 * are polled every Nth call, and an empty poll should be cheap). */
XB_TUNABLE(TCP_POLL_DIRECT, XB_TT_INT, "1", XB_TL_TUNER,
           "In a job without shared-memory peers, while at most this many tcp connections "
           "are open and nothing waits to be sent, a poll reads each socket directly "
           "instead of asking epoll (0: always epoll; at most 4)");

#define SECRET_ENV "XB_JOB_SECRET"
/* FULL_EVERY: direct polls between two epoll_waits, which see the listeners
 * (new connections, strangers) and handshakes; a poll costs ~0.3 us, so a
 * connection being set up waits a few microseconds more. */
enum { EVENTS_MAX = 64, FULL_EVERY = 16 };

xb_tcp_t xb_tcp;
static char tcp_why[256];

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
           c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int secret_from_env(xb_tcp_t *st)
{
    const char *s = getenv(SECRET_ENV);
    if (s == NULL || *s == '\0')
        return XB_OK;
    if (strlen(s) != 2 * XB_TCP_SECRET_LEN)
        return xb_err_set(XB_ERR_OTHER, "%s has %zu characters, not %d hex digits",
                          SECRET_ENV, strlen(s), 2 * XB_TCP_SECRET_LEN);
    for (int i = 0; i < XB_TCP_SECRET_LEN; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return xb_err_set(XB_ERR_OTHER, "%s is not hexadecimal", SECRET_ENV);
        st->secret[i] = (uint8_t)(hi << 4 | lo);
    }
    st->have_secret = true;
    return XB_OK;
}

static int fail_why(const char **why)
{
    snprintf(tcp_why, sizeof(tcp_why), "%s", xb_err_detail());
    *why = tcp_why;
    return XB_ERR_OTHER;
}

static void close_listeners(xb_tcp_t *st)
{
    for (int i = 0; i < st->nlis; i++)
        close(st->lis[i].fd);
    st->nlis = 0;
}

/* XB_TCP_EAGER_MAX written through MPI_T: the next send uses it (capped
 * at the fragment size, as at init). */
static int tcp_eager_changed(xb_tunable_t *t)
{
    xb_method_t *m = xb_method_get(XB_METHOD_TCP);
    if (m != NULL && m->enabled)
        m->caps.eager_max = t->v.size < m->caps.frag_max ? t->v.size : m->caps.frag_max;
    return XB_OK;
}

static int tcp_init(xb_method_t *m, const xb_rt_info_t *rt, const char **why)
{
    xb_tcp_t *st = &xb_tcp;
    memset(st, 0, sizeof(*st));
    st->m = m;
    st->rt = rt;
    st->epfd = -1;
    st->wakefd = -1;
    m->caps.eager_max = xb_tn_TCP_EAGER_MAX.v.size;
    m->caps.frag_max = xb_tn_TCP_FRAG_MAX.v.size < 4096 ? 4096 : xb_tn_TCP_FRAG_MAX.v.size;
    if (m->caps.frag_max > (1u << 30))
        m->caps.frag_max = 1u << 30;
    if (m->caps.eager_max > m->caps.frag_max)
        m->caps.eager_max = m->caps.frag_max;
    m->caps.get_min = 0;
    m->caps.flags = XB_METHOD_CAP_SLEEP | XB_METHOD_CAP_POLL_COSTLY | XB_METHOD_CAP_QUEUES;
    int rc = secret_from_env(st);
    if (rc == XB_OK && !st->have_secret && rt->rank == 0 &&
        getrandom(st->secret, sizeof(st->secret), 0) != (ssize_t)sizeof(st->secret))
        rc = xb_err_sys(XB_ERR_OTHER, errno, "getrandom for the job secret");
    if (rc != XB_OK)
        return fail_why(why);
    st->peers = calloc((size_t)rt->size, sizeof(*st->peers));
    st->npeers = rt->size;
    st->epfd = epoll_create1(EPOLL_CLOEXEC);
    st->wake_kind = TCP_K_WAKE;
    st->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (st->peers == NULL || st->epfd < 0 || st->wakefd < 0) {
        xb_err_sys(XB_ERR_OTHER, errno, "epoll_create1/eventfd");
        goto err_free;
    }
    if (xb_tcp_epoll(st, EPOLL_CTL_ADD, st->wakefd, &st->wake_kind, false) != XB_OK)
        goto err_free;
    if (xb_tcp_listen(st) != XB_OK)
        goto err_free;
    for (int i = 0; i < st->nlis; i++)
        if (xb_tcp_epoll(st, EPOLL_CTL_ADD, st->lis[i].fd, &st->lis[i], false) != XB_OK)
            goto err_free;
    m->priv = st;
    return XB_OK;

err_free:
    fail_why(why);
    close_listeners(st);
    if (st->epfd >= 0)
        close(st->epfd);
    if (st->wakefd >= 0)
        close(st->wakefd);
    free(st->peers);
    st->peers = NULL;
    st->epfd = -1;
    return XB_ERR_OTHER;
}

static int tcp_addr_pack(xb_method_t *m, void *buf, size_t *len_p)
{
    xb_tcp_t *st = m->priv;
    xb_tcp_addr_t a;
    memset(&a, 0, sizeof(a));
    a.version = TCP_ADDR_VERSION;
    a.naddr = (uint32_t)st->nlis;
    for (int i = 0; i < st->nlis; i++)
        xb_tcp_entry_set(&a, i, (const struct sockaddr *)&st->lis[i].sa);
    if (!st->have_secret && st->rt->rank == 0) {
        a.has_secret = 1;
        memcpy(a.secret, st->secret, sizeof(a.secret));
    }
    snprintf(a.host, sizeof(a.host), "%.*s", XB_TCP_HOST_LEN - 1, st->rt->host);
    if (*len_p < sizeof(a))
        return xb_err_set(XB_ERR_INTERN, "tcp address needs %zu bytes", sizeof(a));
    memcpy(buf, &a, sizeof(a));
    *len_p = sizeof(a);
    return XB_OK;
}

static int tcp_ready(xb_method_t *m)
{
    xb_tcp_t *st = m->priv;
    if (st->have_secret || st->rt->rank == 0) {
        xb_tcp_job_key_set(st);
        return XB_OK;
    }
    tcp_peer_t *p0 = xb_tcp_peer(st, 0);
    if (p0 == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a tcp peer");
    int rc = xb_tcp_peer_addr(st, p0);
    if (rc != XB_OK)
        return rc;
    if (!p0->addr.has_secret)
        return xb_err_set(XB_ERR_OTHER, "rank 0 has a job secret from the launcher "
                          "(%s) but this rank has none: the ranks were started "
                          "with different environments", SECRET_ENV);
    memcpy(st->secret, p0->addr.secret, sizeof(st->secret));
    xb_tcp_job_key_set(st);
    return XB_OK;
}

static void drain_for_fini(xb_tcp_t *st)
{
    double end = xb_tcp_now() + (double)xb_tn_TCP_FINI_DRAIN_MS.v.i / 1000.0;
    for (;;) {
        bool busy = false;
        for (int r = 0; r < st->npeers; r++) {
            tcp_peer_t *p = st->peers[r];
            if (p != NULL && p->q_head != NULL &&
                (p->state == TCP_UP || p->state == TCP_CONNECTING ||
                 p->state == TCP_HELLO || p->state == TCP_WAITING))
                busy = true;
        }
        if (!busy || xb_tcp_now() > end)
            break;
        st->m->ops->block(st->m, 50);
    }
}

static void tcp_fini(xb_method_t *m)
{
    xb_tcp_t *st = m->priv;
    if (st == NULL)
        return;
    st->finalizing = true;
    drain_for_fini(st);
    for (int r = 0; r < st->npeers; r++) {
        tcp_peer_t *p = st->peers[r];
        if (p == NULL)
            continue;
        if (p->q_head != NULL)
            xb_log(XB_LOG_METHOD, XB_LOG_WARN, "tcp: %zu bytes to rank %d were not "
                   "sent before finalize", p->q_bytes, r);
        if (p->fd >= 0) {
            shutdown(p->fd, SHUT_WR);
            close(p->fd);
        }
        xb_tcp_free_queue(p, XB_OK);
        free(p->rbuf);
        free(p);
    }
    while (st->accepts != NULL)
        xb_tcp_accept_close(st, st->accepts, NULL);
    close_listeners(st);
    close(st->epfd);
    close(st->wakefd);
    free(st->peers);
    st->peers = NULL;
    st->epfd = -1;
    st->wakefd = -1;
    m->priv = NULL;
}

static bool tcp_reachable(xb_method_t *m, xb_gpid_t peer)
{
    xb_tcp_t *st = m->priv;
    uint32_t r = xb_gpid_rank(peer);
    if (st == NULL || xb_gpid_job(peer) != 0 || r >= (uint32_t)st->npeers ||
        (int)r == st->rt->rank)
        return false;
    if (r >= (uint32_t)st->rt->size)        /* another job's: tcp_foreign.c */
        return st->peers[r] != NULL && st->peers[r]->addr.naddr > 0;
    tcp_peer_t *p = xb_tcp_peer(st, (int)r);
    if (p == NULL || xb_tcp_peer_addr(st, p) != XB_OK) {
        xb_err_clear();
        return false;
    }
    if (st->rt->node_of[r] == st->rt->my_node)
        return p->addr.naddr > 0;
    for (uint32_t i = 0; i < p->addr.naddr; i++)
        if (!p->addr.a[i].loopback)
            return true;
    return false;
}

static int tcp_ep_open(xb_method_t *m, xb_gpid_t peer, xb_ep_t **ep_p)
{
    xb_tcp_t *st = m->priv;
    tcp_peer_t *p = xb_tcp_peer(st, (int)xb_gpid_rank(peer));
    if (p == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a tcp peer");
    int rc = xb_tcp_peer_addr(st, p);
    if (rc != XB_OK)
        return rc;
    *ep_p = p;
    return XB_OK;
}

static void tcp_ep_close(xb_ep_t *ep)
{
    (void)ep;                   /* fini closes every connection */
}

static int tcp_send_am(xb_ep_t *ep, uint8_t am_id, const void *hdr, size_t hdr_len,
                       const xb_payload_t *pl, xb_am_done_t *done)
{
    return xb_tcp_send(ep, am_id, hdr, hdr_len, pl, done);
}

static int handle(xb_tcp_t *st, const struct epoll_event *ev)
{
    int kind = *(const int *)ev->data.ptr;
    if (kind == TCP_K_WAKE) {
        uint64_t v;
        ssize_t r = read(st->wakefd, &v, sizeof(v));
        (void)r;
        return 0;
    }
    if (kind == TCP_K_LISTEN) {
        xb_tcp_accept_ready(st, ev->data.ptr);
        return 0;
    }
    if (kind == TCP_K_ACCEPT) {
        xb_tcp_hello_readable(st, ev->data.ptr);
        return 0;
    }
    tcp_peer_t *p = ev->data.ptr;
    switch (p->state) {
    case TCP_CONNECTING:
        xb_tcp_connect_ready(st, p);
        return 0;
    case TCP_HELLO:
        return xb_tcp_verdict_readable(st, p);
    case TCP_UP: {
        int n = 0;
        if (ev->events & (EPOLLIN | EPOLLERR | EPOLLHUP))
            n += xb_tcp_readable(st, p);
        if ((ev->events & EPOLLOUT) && p->state == TCP_UP)
            n += xb_tcp_flush(st, p);
        return n;
    }
    default:
        return 0;
    }
}

static int poll_events(xb_tcp_t *st, int timeout_ms)
{
    if (st->in_progress)
        return 0;                 /* a handler polled again */
    struct epoll_event ev[EVENTS_MAX];
    st->in_progress = true;
    int k = epoll_wait(st->epfd, ev, EVENTS_MAX, timeout_ms), n = 0;
    for (int i = 0; i < k; i++)
        n += handle(st, &ev[i]);
    if (XB_UNLIKELY(st->accepts != NULL))
        xb_tcp_accept_expire(st);
    st->in_progress = false;
    return n;
}

/* ---- direct polling ------------------------------------------------------ */

void xb_tcp_direct_add(xb_tcp_t *st, tcp_peer_t *p)
{
    if (st->ndirect < TCP_DIRECT_MAX && st->ndirect < xb_tn_TCP_POLL_DIRECT.v.i)
        st->direct[st->ndirect++] = p;
}

void xb_tcp_direct_remove(xb_tcp_t *st, tcp_peer_t *p)
{
    int k = 0;
    for (int i = 0; i < st->ndirect; i++)
        if (st->direct[i] != p)
            st->direct[k++] = st->direct[i];
    st->ndirect = k;
    if (st->ndirect == st->nopen || st->peers == NULL)
        return;
    /* some connection did not fit in the list: refill it (rare) */
    st->ndirect = 0;
    for (int r = 0; r < st->npeers; r++)
        if (st->peers[r] != NULL && st->peers[r]->state == TCP_UP && st->peers[r] != p)
            xb_tcp_direct_add(st, st->peers[r]);
}

/* A job without shm peers, every open connection is in the list, nothing is queued to send (that
 * needs EPOLLOUT), no accepted socket waits for its hello, and this is not
 * the FULL_EVERY-th poll. */
static bool direct_ok(xb_tcp_t *st)
{
    if (st->ndirect == 0 || st->ndirect != st->nopen || st->accepts != NULL ||
        xb_peer_count(XB_METHOD_SHM) > 0)
        return false;
    if (--st->full_countdown <= 0) {
        st->full_countdown = FULL_EVERY;
        return false;
    }
    for (int i = 0; i < st->ndirect; i++)
        if (st->direct[i]->q_head != NULL)
            return false;
    return true;
}

static int poll_direct(xb_tcp_t *st)
{
    tcp_peer_t *list[TCP_DIRECT_MAX];     /* a handler may change st->direct */
    int k = st->ndirect, n = 0;
    memcpy(list, st->direct, (size_t)k * sizeof(list[0]));
    st->in_progress = true;
    for (int i = 0; i < k; i++)
        if (list[i]->state == TCP_UP)
            n += xb_tcp_readable(st, list[i]);
    st->in_progress = false;
    return n;
}

/* A poll: a recv() on each open connection while there are few (direct_ok),
 * else epoll_wait without waiting. */
static int tcp_progress(xb_method_t *m)
{
    xb_tcp_t *st = m->priv;
    if (st->in_progress)
        return 0;                 /* a handler polled again */
    if (direct_ok(st))
        return poll_direct(st);
    return poll_events(st, 0);
}

static void tcp_block(xb_method_t *m, int timeout_ms)
{
    xb_tcp_t *st = m->priv;
    if (xb_mt_on) {
        /* MPI_THREAD_MULTIPLE: called without the lock, so only wait for an
         * event (level-triggered: the next poll, under the lock, handles it),
         * or for the wake-up eventfd (tcp_wake). */
        struct epoll_event ev[1];
        if (epoll_wait(st->epfd, ev, 1, timeout_ms > 1000 ? 1000 : timeout_ms) == 1 &&
            ev[0].data.ptr == &st->wake_kind) {
            uint64_t v;
            ssize_t r = read(st->wakefd, &v, sizeof(v));
            (void)r;
        }
        return;
    }
    if (st->accepts != NULL && timeout_ms > 1000)
        timeout_ms = 1000;        /* look at hello deadlines now and then */
    poll_events(st, timeout_ms);
}

int xb_tcp_probe(const char **why)
{
    xb_tcp_t tmp;
    memset(&tmp, 0, sizeof(tmp));
    int rc = xb_tcp_listen(&tmp);
    close_listeners(&tmp);
    if (rc != XB_OK) {
        fail_why(why);
        xb_err_clear();
        return XB_ERR_OTHER;
    }
    /* the ports of a probe mean nothing: "eth0=192.0.2.2, lo=127.0.0.1" */
    size_t o = 0;
    for (const char *c = tmp.ifdesc; *c != '\0' && o + 1 < sizeof(tcp_why); c++) {
        size_t d = *c == ':' ? strspn(c + 1, "0123456789") : 0;
        if (d > 0 && (c[1 + d] == ',' || c[1 + d] == '\0'))
            c += d;                   /* ":port" at the end of an entry */
        else
            tcp_why[o++] = *c;
    }
    tcp_why[o] = '\0';
    *why = NULL;
    return XB_OK;
}

int xb_tcp_describe(xb_method_t *m, char *buf, size_t len)
{
    size_t off = strlen(buf);
    xb_tcp_t *st = m->priv;
    const char *pins = xb_tn_TCP_IF.v.s != NULL && *xb_tn_TCP_IF.v.s ? xb_tn_TCP_IF.v.s
                                                                    : "auto";
    if (st != NULL && m->enabled)
        off = xb_method_bprintf(buf, len, off, "XB_TCP_IF=%s, listening on %s; %d "
                                "connection%s open, %lu foreign connection%s rejected",
                                pins, st->ifdesc, st->nopen, st->nopen == 1 ? "" : "s",
                                st->rejected, st->rejected == 1 ? "" : "s");
    else
        off = xb_method_bprintf(buf, len, off, "XB_TCP_IF=%s, would listen on %s",
                                pins, tcp_why);
    return (int)off;
}

int xb_tcp_peer_describe(int rank, char *buf, size_t len)
{
    xb_tcp_t *st = &xb_tcp;
    tcp_peer_t *p = st->peers != NULL ? st->peers[rank] : NULL;
    static const char *const names[] = { "not opened", "connecting", "handshake",
                                         "waiting for the peer's connection", "open",
                                         "closed by the peer" };
    if (p == NULL || !p->addr_ok) {
        snprintf(buf, len, "host ?, not opened");
        return XB_OK;
    }
    char a[80] = "";
    if (p->state == TCP_UP && p->fd >= 0) {
        struct sockaddr_storage sa;
        socklen_t sl = sizeof(sa);
        if (getpeername(p->fd, (struct sockaddr *)&sa, &sl) == 0)
            xb_tcp_fmt((struct sockaddr *)&sa, a, sizeof(a));
    }
    snprintf(buf, len, "host %s%s%s, %s", p->addr.host, a[0] ? " via " : "", a,
             names[p->state]);
    return XB_OK;
}

unsigned long xb_tcp_rejected(void)
{
    return xb_tcp.rejected;
}

/* Another thread wakes a block() (MPI_THREAD_MULTIPLE). */
static void tcp_wake(xb_method_t *m)
{
    xb_tcp_t *st = m->priv;
    uint64_t one = 1;
    ssize_t r = write(st->wakefd, &one, sizeof(one));
    (void)r;
}

const xb_method_ops_t xb_tcp_ops = {
    .name = "tcp",
    .init = tcp_init,
    .fini = tcp_fini,
    .addr_pack = tcp_addr_pack,
    .ready = tcp_ready,
    .reachable = tcp_reachable,
    .ep_open = tcp_ep_open,
    .ep_close = tcp_ep_close,
    .send_am = tcp_send_am,
    .get = NULL,
    .progress = tcp_progress,
    .block = tcp_block,
    .peer_hint = xb_tcp_peer_hint,
    .wake = tcp_wake,
};
