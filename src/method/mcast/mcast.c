/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mcast.c - the UDP multicast socket (mcast.h): opening it on the right
 * interface, frames out with sendmmsg, datagrams in without waiting.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "method/mcast/mcast.h"
#include "method/method_int.h"
#include "runtime/tunable.h"
#include "util/xb_common.h"

XB_TUNABLE(MCAST_GROUP, XB_TT_STRING, "", XB_TL_USER,
           "Multicast group of the job as a.b.c.d:port; empty: 239.255.x.y and "
           "a port derived from the job");
XB_TUNABLE(MCAST_IF, XB_TT_STRING, "", XB_TL_USER,
           "IPv4 address of the interface multicast uses; empty: the one tcp "
           "listens on");
XB_TUNABLE(MCAST_FRAME_MAX, XB_TT_SIZE, "9000", XB_TL_TUNER,
           "Largest datagram multicast sends, IP head included (the "
           "interface's MTU if smaller)");
XB_TUNABLE(MCAST_RCVBUF, XB_TT_SIZE, "8m", XB_TL_TUNER,
           "Receive buffer a multicast receiver asks the kernel for (more "
           "than net.core.rmem_max needs CAP_NET_ADMIN)");
XB_TUNABLE(MCAST_DROP, XB_TT_INT, "0", XB_TL_DEV,
           "Tests: a multicast receiver discards every N-th datagram, as if "
           "lost (0: none)");

enum { IP_UDP_HEAD = 28, SEND_BATCH = 64, BATCH_BYTES = 65536 };

xb_mcast_stats_t xb_mcast_stats;

static struct {
    int                fd;
    bool               receiver;
    struct sockaddr_in group;
    struct in_addr     ifaddr;
    size_t             frame;
    size_t             rcvbuf;
    uint64_t           job;
    uint32_t           me;          /* world rank, in every head we send */
    uint64_t           nread;       /* for XB_MCAST_DROP */
    bool               gso;         /* the kernel cuts our sends (UDP_SEGMENT) */
    char              *batch;       /* a receiver's datagrams, GRO-merged    */
    size_t             blen, boff, bseg;
    char               desc[96];
} mc = { .fd = -1 };

bool xb_mcast_is_open(void) { return mc.fd >= 0; }
int xb_mcast_fd(void) { return mc.fd; }
size_t xb_mcast_frame(void) { return mc.frame; }
/* mc.desc: group, interface and frame. */
static void describe(void)
{
    char g[INET_ADDRSTRLEN], i[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &mc.group.sin_addr, g, sizeof g);
    inet_ntop(AF_INET, &mc.ifaddr, i, sizeof i);
    snprintf(mc.desc, sizeof mc.desc, "%s:%u on %s, %zu-byte frames", g,
             (unsigned)ntohs(mc.group.sin_port), i, mc.frame);
}

void xb_mcast_set_frame(size_t frame)
{
    mc.frame = frame;
    describe();
}

size_t xb_mcast_rcvbuf(void) { return mc.rcvbuf; }
const char *xb_mcast_describe(void) { return mc.desc; }

/* The group from XB_MCAST_GROUP, or from the job key. */
static int group_of(uint64_t job, struct sockaddr_in *g, const char **why)
{
    const char *s = xb_tn_MCAST_GROUP.v.s;
    memset(g, 0, sizeof *g);
    g->sin_family = AF_INET;
    if (s == NULL || *s == '\0') {
        uint32_t h = (uint32_t)(job ^ (job >> 32));
        g->sin_addr.s_addr = htonl(0xefff0000u | ((h >> 8) & 0xffffu));  /* 239.255.x.y */
        if ((ntohl(g->sin_addr.s_addr) & 0xffu) == 0)
            g->sin_addr.s_addr = htonl(ntohl(g->sin_addr.s_addr) | 1u);
        g->sin_port = htons((uint16_t)(20000 + h % 20000));
        return XB_OK;
    }
    char ip[32];
    unsigned port;
    const char *colon = strrchr(s, ':');
    size_t n = colon != NULL ? (size_t)(colon - s) : 0;
    if (colon == NULL || n == 0 || n >= sizeof ip || sscanf(colon + 1, "%u", &port) != 1 ||
        port == 0 || port > 65535) {
        *why = "XB_MCAST_GROUP is not a.b.c.d:port";
        return xb_err_set(XB_ERR_ARG, "XB_MCAST_GROUP=\"%s\" is not a.b.c.d:port", s);
    }
    memcpy(ip, s, n);
    ip[n] = '\0';
    if (inet_pton(AF_INET, ip, &g->sin_addr) != 1 || !IN_MULTICAST(ntohl(g->sin_addr.s_addr))) {
        *why = "XB_MCAST_GROUP is not an IPv4 multicast address";
        return xb_err_set(XB_ERR_ARG, "XB_MCAST_GROUP=\"%s\": %s is not an IPv4 "
                          "multicast address (224.0.0.0/4)", s, ip);
    }
    g->sin_port = htons((uint16_t)port);
    return XB_OK;
}

/* The MTU of the interface that has addr (1500 when it cannot be found). */
static size_t mtu_of(struct in_addr addr)
{
    struct ifaddrs *ifs = NULL, *i;
    size_t mtu = 1500;
    if (getifaddrs(&ifs) != 0)
        return mtu;
    for (i = ifs; i != NULL; i = i->ifa_next) {
        if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET ||
            ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr != addr.s_addr)
            continue;
        struct ifreq ifr;
        memset(&ifr, 0, sizeof ifr);
        snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", i->ifa_name);
        int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (s >= 0 && ioctl(s, SIOCGIFMTU, &ifr) == 0 && ifr.ifr_mtu > 0)
            mtu = (size_t)ifr.ifr_mtu;
        if (s >= 0)
            close(s);
        break;
    }
    freeifaddrs(ifs);
    return mtu;
}

static int fail(const char **why, const char *what, int err)
{
    *why = what;
    int rc = xb_err_sys(XB_ERR_OTHER, err, "multicast: %s", what);
    xb_mcast_close();
    return rc;
}

int xb_mcast_open(bool receiver, const char **why)
{
    *why = NULL;
    if (mc.fd >= 0)
        return XB_OK;
    mc.job = xb_tcp_job_key();
    mc.me = (uint32_t)xb_method_rt()->rank;
    int rc = group_of(mc.job, &mc.group, why);
    if (rc != XB_OK)
        return rc;
    const char *ifs = xb_tn_MCAST_IF.v.s;
    if (ifs != NULL && *ifs != '\0') {
        if (inet_pton(AF_INET, ifs, &mc.ifaddr) != 1) {
            *why = "XB_MCAST_IF is not an IPv4 address";
            return xb_err_set(XB_ERR_ARG, "XB_MCAST_IF=\"%s\" is not an IPv4 address", ifs);
        }
    } else if ((rc = xb_tcp_mcast_if(&mc.ifaddr)) != XB_OK) {
        *why = "no IPv4 interface (tcp)";
        return rc;
    }
    size_t mtu = mtu_of(mc.ifaddr), cap = xb_tn_MCAST_FRAME_MAX.v.size;
    if (cap < mtu)
        mtu = cap;
    if (mtu < 576)
        mtu = 576;
    if (mtu > 65535)                  /* an IPv4 datagram's limit (loopback) */
        mtu = 65535;
    mc.frame = mtu - IP_UDP_HEAD - sizeof(xb_mcast_hdr_t);

    mc.fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (mc.fd < 0)
        return fail(why, "socket", errno);
    unsigned char ttl = 1, loop = 1;
    if (setsockopt(mc.fd, IPPROTO_IP, IP_MULTICAST_IF, &mc.ifaddr, sizeof mc.ifaddr) != 0)
        return fail(why, "IP_MULTICAST_IF", errno);
    if (setsockopt(mc.fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl) != 0 ||
        setsockopt(mc.fd, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof loop) != 0)
        return fail(why, "IP_MULTICAST_TTL/LOOP", errno);
    mc.receiver = receiver;
    mc.rcvbuf = 0;
    mc.gso = true;                    /* until a send says otherwise */
    mc.blen = mc.boff = 0;
    if (receiver) {
        int one = 1, got = 0;
        int want = xb_tn_MCAST_RCVBUF.v.size < INT_MAX / 2 ? (int)xb_tn_MCAST_RCVBUF.v.size : INT_MAX / 2;
        socklen_t gl = sizeof got;
        if (setsockopt(mc.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0)
            return fail(why, "SO_REUSEADDR", errno);
        if (setsockopt(mc.fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof want) != 0)
            (void)setsockopt(mc.fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof want);
        if (getsockopt(mc.fd, SOL_SOCKET, SO_RCVBUF, &got, &gl) == 0 && got > 0)
            mc.rcvbuf = (size_t)got;
        if (bind(mc.fd, (struct sockaddr *)&mc.group, sizeof mc.group) != 0)
            return fail(why, "bind to the group", errno);
        struct ip_mreq mr = { .imr_multiaddr = mc.group.sin_addr, .imr_interface = mc.ifaddr };
        if (setsockopt(mc.fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof mr) != 0)
            return fail(why, "IP_ADD_MEMBERSHIP", errno);
        /* take runs of datagrams as one (without: one recvmsg each) */
        (void)setsockopt(mc.fd, SOL_UDP, UDP_GRO, &one, sizeof one);
        if ((mc.batch = malloc(BATCH_BYTES)) == NULL)
            return fail(why, "no memory for the receive batch", ENOMEM);
    }
    describe();
    return XB_OK;
}

void xb_mcast_close(void)
{
    if (mc.fd >= 0)
        close(mc.fd);              /* also leaves the group */
    mc.fd = -1;
    free(mc.batch);
    mc.batch = NULL;
    mc.blen = mc.boff = 0;
    mc.receiver = false;
}

/* One sendmsg of k frames from `first` as UDP GSO segments of one size
 * (head + frame; only the last may be shorter): the kernel cuts them, so
 * 44 frames of an Ethernet MTU cross the stack and the bridge as one
 * packet. Returns the frames sent, 0 when the kernel refused them (lost),
 * or -1 when it does not do UDP GSO here. */
static int send_gso(xb_mcast_hdr_t *hdr, struct iovec *iov, uint32_t k)
{
    union { char buf[CMSG_SPACE(sizeof(uint16_t))]; struct cmsghdr align; } c;
    struct msghdr m = { .msg_name = &mc.group, .msg_namelen = sizeof mc.group,
                        .msg_iov = iov, .msg_iovlen = 2 * k,
                        .msg_control = c.buf, .msg_controllen = sizeof c.buf };
    struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
    cm->cmsg_level = SOL_UDP;
    cm->cmsg_type = UDP_SEGMENT;
    cm->cmsg_len = CMSG_LEN(sizeof(uint16_t));
    uint16_t seg = (uint16_t)(sizeof *hdr + mc.frame);
    memcpy(CMSG_DATA(cm), &seg, sizeof seg);
    for (;;) {
        if (sendmsg(mc.fd, &m, 0) >= 0)
            return (int)k;
        if (errno == EINTR)
            continue;
        if (errno == EINVAL || errno == EIO || errno == EOPNOTSUPP || errno == ENOPROTOOPT ||
            errno == EMSGSIZE)
            return -1;
        return 0;
    }
}

int xb_mcast_send(uint32_t call, const void *msg, size_t len, uint32_t first, uint32_t n)
{
    xb_mcast_hdr_t hdr[SEND_BATCH];
    struct iovec iov[2 * SEND_BATCH];
    struct mmsghdr mm[SEND_BATCH];
    const char *base = msg;
    /* frames per GSO send: at most 64 KiB of datagram payload */
    uint32_t per = mc.gso ? (uint32_t)((65507 - 8) / (sizeof(xb_mcast_hdr_t) + mc.frame))
                          : SEND_BATCH;
    per = per > SEND_BATCH ? SEND_BATCH : per < 1 ? 1 : per;
    while (n > 0) {
        uint32_t k = n < per ? n : per;
        for (uint32_t j = 0; j < k; j++) {
            size_t off = (size_t)(first + j) * mc.frame;
            size_t fl = len - off < mc.frame ? len - off : mc.frame;
            hdr[j] = (xb_mcast_hdr_t){ .job = mc.job, .sender = mc.me, .call = call,
                                       .index = first + j, .len = (uint32_t)fl };
            iov[2 * j] = (struct iovec){ &hdr[j], sizeof hdr[j] };
            iov[2 * j + 1] = (struct iovec){ (void *)(base + off), fl };
        }
        int got;
        if (mc.gso && k > 1) {
            if ((got = send_gso(hdr, iov, k)) < 0) {
                mc.gso = false;         /* not here: a datagram each from now on */
                per = SEND_BATCH;
                continue;
            }
        } else {
            for (uint32_t j = 0; j < k; j++) {
                memset(&mm[j], 0, sizeof mm[j]);
                mm[j].msg_hdr = (struct msghdr){ .msg_name = &mc.group,
                    .msg_namelen = sizeof mc.group, .msg_iov = &iov[2 * j], .msg_iovlen = 2 };
            }
            if ((got = sendmmsg(mc.fd, mm, k, 0)) < 0 && errno == EINTR)
                continue;
            got = got < 0 ? 0 : got;
        }
        if (got == 0) {             /* ENOBUFS, a full queue, a route gone: lost */
            xb_mcast_stats.send_refused++;
            got = 1;
        } else {
            for (int j = 0; j < got; j++) {
                xb_mcast_stats.sent++;
                xb_mcast_stats.sent_bytes += hdr[j].len;
            }
        }
        first += (uint32_t)got;
        n -= (uint32_t)got;
    }
    return XB_OK;
}

/* The next frame of the GRO batch in hand: XB_OK, or XB_ERR_AGAIN when
 * the batch is used up. */
static int next_in_batch(xb_mcast_hdr_t *h, const void **payload)
{
    while (mc.boff < mc.blen) {
        size_t seg = mc.bseg != 0 ? mc.bseg : mc.blen;
        size_t n = mc.blen - mc.boff < seg ? mc.blen - mc.boff : seg;
        const char *p = mc.batch + mc.boff;
        mc.boff += n;
        if (n < sizeof *h)
            continue;
        memcpy(h, p, sizeof *h);
        if (h->job != mc.job || h->len != n - sizeof *h)
            continue;                       /* another job's, or damaged */
        long drop = xb_tn_MCAST_DROP.v.i;
        if (drop > 0 && ++mc.nread % (uint64_t)drop == 0) {
            xb_mcast_stats.dropped++;
            continue;
        }
        xb_mcast_stats.received++;
        *payload = p + sizeof *h;
        return XB_OK;
    }
    return XB_ERR_AGAIN;
}

int xb_mcast_next(xb_mcast_hdr_t *h, const void **payload)
{
    for (;;) {
        if (next_in_batch(h, payload) == XB_OK)
            return 1;
        union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } c;
        struct iovec iov = { mc.batch, BATCH_BYTES };
        struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
                            .msg_control = c.buf, .msg_controllen = sizeof c.buf };
        ssize_t got = recvmsg(mc.fd, &m, MSG_DONTWAIT);
        if (got < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 0;
            if (errno == EINTR)
                continue;
            return xb_err_sys(XB_ERR_OTHER, errno, "multicast: recvmsg");
        }
        mc.blen = (m.msg_flags & MSG_TRUNC) ? 0 : (size_t)got;
        mc.boff = 0;
        mc.bseg = 0;            /* one datagram, unless GRO says how it cut them */
        for (struct cmsghdr *cm = CMSG_FIRSTHDR(&m); cm != NULL; cm = CMSG_NXTHDR(&m, cm))
            if (cm->cmsg_level == SOL_UDP && cm->cmsg_type == UDP_GRO) {
                int seg;
                memcpy(&seg, CMSG_DATA(cm), sizeof seg);
                mc.bseg = seg > 0 ? (size_t)seg : 0;
            }
    }
}

bool xb_mcast_wait(int timeout_ms)
{
    struct pollfd p = { .fd = mc.fd, .events = POLLIN };
    return mc.fd >= 0 && poll(&p, 1, timeout_ms) > 0 && (p.revents & POLLIN);
}
