/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tcp_iface.c - which interfaces the tcp method listens on.
 *
 * Automatic choice (XB_TCP_IF empty): every IPv4 interface that is up,
 * except container and VM bridges (docker*, virbr*, br-*, veth*), whose
 * addresses other hosts cannot route to, and link-local 169.254/16.
 * Loopback is kept: it serves peers on the same node (XB_METHODS=tcp); a
 * peer on another node is never tried through a loopback address.
 *
 * Pinning (XB_TCP_IF): a comma-separated list of interface names ("eth1"),
 * CIDR blocks ("10.1.0.0/16") or addresses ("192.0.2.7"); only addresses
 * matching an entry are used. Listeners bind only to the chosen addresses
 * (never INADDR_ANY). XB_TCP_PORT_RANGE "lo-hi" restricts the ports (for
 * firewalls); empty lets the kernel choose.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "method/tcp/tcp.h"
#include "runtime/tunable.h"

XB_TUNABLE(TCP_IF, XB_TT_STRING, "", XB_TL_USER,
           "Interfaces the tcp method uses: comma-separated names (eth1), CIDR "
           "blocks (10.1.0.0/16) or addresses; empty: every interface that is "
           "up except docker/virbr/veth bridges");
XB_TUNABLE(TCP_PORT_RANGE, XB_TT_STRING, "", XB_TL_USER,
           "Ports the tcp method listens on, as lo-hi (e.g. 40000-40100); "
           "empty: any port the kernel gives");
XB_TUNABLE(TCP_BACKLOG, XB_TT_INT, "128", XB_TL_DEV,
           "listen() backlog of the tcp method's listeners");

double xb_tcp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *xb_tcp_fmt(uint32_t ip_be, uint16_t port_be, char *buf, size_t len)
{
    char ip[INET_ADDRSTRLEN];
    struct in_addr a = { .s_addr = ip_be };
    inet_ntop(AF_INET, &a, ip, sizeof(ip));
    snprintf(buf, len, "%s:%u", ip, (unsigned)ntohs(port_be));
    return buf;
}

static bool is_bridge(const char *name)
{
    static const char *const skip[] = { "docker", "virbr", "br-", "veth" };
    for (size_t i = 0; i < XB_ARRAY_LEN(skip); i++)
        if (strncmp(name, skip[i], strlen(skip[i])) == 0)
            return true;
    return false;
}

/* Does one XB_TCP_IF entry (n chars at e) match this interface/address? */
static bool entry_matches(const char *e, size_t n, const char *ifname, uint32_t ip_be)
{
    char item[64];
    if (n == 0 || n >= sizeof(item))
        return false;
    memcpy(item, e, n);
    item[n] = '\0';
    char *slash = strchr(item, '/');
    int bits = 32;
    if (slash != NULL) {
        *slash = '\0';
        bits = atoi(slash + 1);
        if (bits < 0 || bits > 32)
            return false;
    }
    struct in_addr net;
    if (inet_pton(AF_INET, item, &net) != 1)
        return slash == NULL && strcmp(item, ifname) == 0;
    uint32_t mask = bits == 0 ? 0 : 0xffffffffu << (32 - bits);
    return (ntohl(net.s_addr) & mask) == (ntohl(ip_be) & mask);
}

static bool pinned_ok(const char *pins, const char *ifname, uint32_t ip_be)
{
    for (const char *p = pins; *p != '\0';) {
        size_t n = strcspn(p, ", ");
        if (entry_matches(p, n, ifname, ip_be))
            return true;
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return false;
}

static int parse_ports(int *lo, int *hi)
{
    const char *s = xb_tn_TCP_PORT_RANGE.v.s;
    *lo = *hi = 0;
    if (s == NULL || *s == '\0')
        return XB_OK;
    if (sscanf(s, "%d-%d", lo, hi) != 2 || *lo < 1 || *hi > 65535 || *lo > *hi)
        return xb_err_set(XB_ERR_ARG, "XB_TCP_PORT_RANGE='%s' is not a port range "
                          "lo-hi with 1 <= lo <= hi <= 65535", s);
    return XB_OK;
}

/* A listening socket on ip:port (port 0: any), or -1 with errno. */
static int listen_on(uint32_t ip_be, int port, struct sockaddr_in *sa)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    xb_tcp_set_sockopts(fd);        /* buffer sizes are inherited by accept() */
    *sa = (struct sockaddr_in){ .sin_family = AF_INET, .sin_addr.s_addr = ip_be,
                                .sin_port = htons((uint16_t)port) };
    socklen_t sl = sizeof(*sa);
    if (bind(fd, (struct sockaddr *)sa, sizeof(*sa)) != 0 ||
        listen(fd, (int)xb_tn_TCP_BACKLOG.v.i) != 0 ||
        getsockname(fd, (struct sockaddr *)sa, &sl) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Bind and listen on ip; the port from the range (first free) or any.
 * bind() and listen() are tried together for each port: with SO_REUSEADDR
 * two ranks of a node can both bind a port that nobody listens on yet, and
 * the second one then learns at listen() that the port is taken. */
static int open_listener(tcp_listener_t *l, uint32_t ip_be, int lo, int hi)
{
    struct sockaddr_in sa;
    int fd = -1, err = 0;
    for (int port = lo; port <= hi && fd < 0; port++) {
        fd = listen_on(ip_be, port, &sa);
        err = fd < 0 ? errno : 0;
    }
    if (fd < 0) {
        char a[64];
        return xb_err_sys(XB_ERR_OTHER, err, "cannot listen on %s (ports %d-%d)",
                          xb_tcp_fmt(ip_be, 0, a, sizeof(a)), lo, hi);
    }
    l->kind = TCP_K_LISTEN;
    l->fd = fd;
    l->sa = sa;
    return XB_OK;
}

static void note_iface(xb_tcp_t *st, const char *name, const tcp_listener_t *l)
{
    char a[64];
    size_t off = strlen(st->ifdesc);
    snprintf(st->ifdesc + off, sizeof(st->ifdesc) - off, "%s%s=%s", off ? ", " : "",
             name, xb_tcp_fmt(l->sa.sin_addr.s_addr, l->sa.sin_port, a, sizeof(a)));
}

int xb_tcp_listen(xb_tcp_t *st)
{
    const char *pins = xb_tn_TCP_IF.v.s != NULL ? xb_tn_TCP_IF.v.s : "";
    int lo, hi, rc = parse_ports(&lo, &hi);
    if (rc != XB_OK)
        return rc;
    struct ifaddrs *ifs;
    if (getifaddrs(&ifs) != 0)
        return xb_err_sys(XB_ERR_OTHER, errno, "getifaddrs");
    st->ifdesc[0] = '\0';
    /* Two passes: other interfaces first, loopback last (it must not take a
     * place a routable address needs). */
    for (int pass = 0; pass < 2 && rc == XB_OK; pass++)
        for (struct ifaddrs *i = ifs; i != NULL && st->nlis < XB_TCP_MAX_ADDRS; i = i->ifa_next) {
            if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET ||
                !(i->ifa_flags & IFF_UP))
                continue;
            uint32_t ip = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr;
            bool lb = (i->ifa_flags & IFF_LOOPBACK) || xb_tcp_is_loopback(ip);
            if (lb != (pass == 1))
                continue;
            if (*pins != '\0' ? !pinned_ok(pins, i->ifa_name, ip)
                              : (is_bridge(i->ifa_name) || (ntohl(ip) >> 16) == 0xa9fe))
                continue;
            rc = open_listener(&st->lis[st->nlis], ip, lo, hi);
            if (rc != XB_OK)
                break;
            note_iface(st, i->ifa_name, &st->lis[st->nlis]);
            st->nlis++;
        }
    freeifaddrs(ifs);
    if (rc == XB_OK && st->nlis == 0)
        rc = xb_err_set(XB_ERR_OTHER, "no IPv4 interface is up%s%s%s", *pins ? " and "
                        "matches XB_TCP_IF='" : "", pins, *pins ? "'" : "");
    return rc;
}
