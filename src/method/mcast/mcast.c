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
#include <poll.h>
#include <stdio.h>
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

enum { IP_UDP_HEAD = 28, SEND_BATCH = 64 };

xb_mcast_stats_t xb_mcast_stats;

static struct {
    int                fd;
    bool               receiver;
    struct sockaddr_in group;
    struct in_addr     ifaddr;
    size_t             frame;
    size_t             rcvbuf;
    uint64_t           job;
    uint64_t           nread;       /* for XB_MCAST_DROP */
    char               desc[96];
} mc = { .fd = -1 };

bool xb_mcast_is_open(void) { return mc.fd >= 0; }
size_t xb_mcast_frame(void) { return mc.frame; }
void xb_mcast_set_frame(size_t frame) { mc.frame = frame; }
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
    }
    char g[INET_ADDRSTRLEN], i[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &mc.group.sin_addr, g, sizeof g);
    inet_ntop(AF_INET, &mc.ifaddr, i, sizeof i);
    snprintf(mc.desc, sizeof mc.desc, "%s:%u on %s, %zu-byte frames", g,
             (unsigned)ntohs(mc.group.sin_port), i, mc.frame);
    return XB_OK;
}

void xb_mcast_close(void)
{
    if (mc.fd >= 0)
        close(mc.fd);              /* also leaves the group */
    mc.fd = -1;
    mc.receiver = false;
}

int xb_mcast_send(uint32_t ctx, uint32_t tag, const void *msg, size_t len,
                  uint32_t first, uint32_t n)
{
    xb_mcast_hdr_t hdr[SEND_BATCH];
    struct iovec iov[SEND_BATCH][2];
    struct mmsghdr mm[SEND_BATCH];
    const char *base = msg;
    while (n > 0) {
        uint32_t k = n < SEND_BATCH ? n : SEND_BATCH;
        for (uint32_t j = 0; j < k; j++) {
            size_t off = (size_t)(first + j) * mc.frame;
            size_t fl = len - off < mc.frame ? len - off : mc.frame;
            hdr[j] = (xb_mcast_hdr_t){ .job = mc.job, .ctx = ctx, .tag = tag,
                                       .index = first + j, .len = (uint32_t)fl };
            iov[j][0] = (struct iovec){ &hdr[j], sizeof hdr[j] };
            iov[j][1] = (struct iovec){ (void *)(base + off), fl };
            memset(&mm[j], 0, sizeof mm[j]);
            mm[j].msg_hdr.msg_name = &mc.group;
            mm[j].msg_hdr.msg_namelen = sizeof mc.group;
            mm[j].msg_hdr.msg_iov = iov[j];
            mm[j].msg_hdr.msg_iovlen = 2;
        }
        int got = sendmmsg(mc.fd, mm, k, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            /* ENOBUFS, a full queue, a route gone: this frame is lost */
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

int xb_mcast_recv(xb_mcast_hdr_t *h, void *buf, size_t cap)
{
    for (;;) {
        struct iovec iov[2] = { { h, sizeof *h }, { buf, cap } };
        struct msghdr m = { .msg_iov = iov, .msg_iovlen = 2 };
        ssize_t got = recvmsg(mc.fd, &m, MSG_DONTWAIT);
        if (got < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 0;
            if (errno == EINTR)
                continue;
            return xb_err_sys(XB_ERR_OTHER, errno, "multicast: recvmsg");
        }
        if ((size_t)got < sizeof *h || h->job != mc.job || (m.msg_flags & MSG_TRUNC) ||
            h->len != (size_t)got - sizeof *h)
            continue;                       /* another job's, or damaged */
        long drop = xb_tn_MCAST_DROP.v.i;
        if (drop > 0 && ++mc.nread % (uint64_t)drop == 0) {
            xb_mcast_stats.dropped++;
            continue;
        }
        xb_mcast_stats.received++;
        return 1;
    }
}

bool xb_mcast_wait(int timeout_ms)
{
    struct pollfd p = { .fd = mc.fd, .events = POLLIN };
    return mc.fd >= 0 && poll(&p, 1, timeout_ms) > 0 && (p.revents & POLLIN);
}
