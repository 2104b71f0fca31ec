/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tcp_iface.c - which interfaces the tcp method listens on.
 *
 * Automatic choice (XB_TCP_IF empty): every interface that is up, except
 * container and VM bridges (docker*, virbr*, br-*, veth*), whose addresses
 * other hosts cannot route to, and link-local addresses (169.254/16,
 * fe80::/10: they need a scope). IPv4 addresses first, then IPv6 ones,
 * then loopback (127.0.0.1; ::1 only when no IPv4 loopback is up): peers
 * try them in that order. Loopback serves peers on the same node
 * (XB_METHODS=tcp); a peer on another node is never tried through it.
 *
 * Pinning (XB_TCP_IF): a comma-separated list of interface names ("eth1"),
 * CIDR blocks ("10.1.0.0/16", "fd00::/64") or addresses ("192.0.2.7",
 * "::1"); only addresses matching an entry are used. Listeners bind only to the chosen addresses
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

const char *xb_tcp_fmt(const struct sockaddr *sa, char *buf, size_t len)
{
    char ip[INET6_ADDRSTRLEN] = "?";
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &s6->sin6_addr, ip, sizeof(ip));
        snprintf(buf, len, "[%s]:%u", ip, (unsigned)ntohs(s6->sin6_port));
    } else {
        const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &s4->sin_addr, ip, sizeof(ip));
        snprintf(buf, len, "%s:%u", ip, (unsigned)ntohs(s4->sin_port));
    }
    return buf;
}

bool xb_tcp_sa_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET6)
        return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)sa)->sin6_addr);
    return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
}

socklen_t xb_tcp_sa_of(const xb_tcp_addr_t *a, int i, struct sockaddr_storage *ss)
{
    memset(ss, 0, sizeof(*ss));
    if (a->a[i].family == 6) {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
        s6->sin6_family = AF_INET6;
        memcpy(&s6->sin6_addr, a->a[i].ip, 16);
        s6->sin6_port = a->a[i].port;
        return sizeof(*s6);
    }
    struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
    s4->sin_family = AF_INET;
    memcpy(&s4->sin_addr, a->a[i].ip + 12, 4);
    s4->sin_port = a->a[i].port;
    return sizeof(*s4);
}

void xb_tcp_entry_set(xb_tcp_addr_t *a, int i, const struct sockaddr *sa)
{
    memset(&a->a[i], 0, sizeof(a->a[i]));
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;
        memcpy(a->a[i].ip, &s6->sin6_addr, 16);
        a->a[i].port = s6->sin6_port;
        a->a[i].family = 6;
    } else {
        const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;
        a->a[i].ip[10] = a->a[i].ip[11] = 0xff;          /* ::ffff:a.b.c.d */
        memcpy(a->a[i].ip + 12, &s4->sin_addr, 4);
        a->a[i].port = s4->sin_port;
        a->a[i].family = 4;
    }
    a->a[i].loopback = xb_tcp_sa_loopback(sa);
}

static bool is_bridge(const char *name)
{
    static const char *const skip[] = { "docker", "virbr", "br-", "veth" };
    for (size_t i = 0; i < XB_ARRAY_LEN(skip); i++)
        if (strncmp(name, skip[i], strlen(skip[i])) == 0)
            return true;
    return false;
}

/* Do the first `bits` bits of the addresses net and ip (network order) agree? */
static bool prefix_match(const uint8_t *net, const uint8_t *ip, int bits)
{
    int full = bits / 8, rest = bits % 8;
    if (memcmp(net, ip, (size_t)full) != 0)
        return false;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return rest == 0 || (net[full] & mask) == (ip[full] & mask);
}

/* Does one XB_TCP_IF entry (n chars at e) match this interface/address? */
static bool entry_matches(const char *e, size_t n, const char *ifname, const struct sockaddr *sa)
{
    char item[64];
    if (n == 0 || n >= sizeof(item))
        return false;
    memcpy(item, e, n);
    item[n] = '\0';
    char *slash = strchr(item, '/');
    bool v6 = strchr(item, ':') != NULL;
    int bits = v6 ? 128 : 32;
    if (slash != NULL) {
        *slash = '\0';
        bits = atoi(slash + 1);
        if (bits < 0 || bits > (v6 ? 128 : 32))
            return false;
    }
    uint8_t net[16];
    if (inet_pton(v6 ? AF_INET6 : AF_INET, item, net) != 1)
        return slash == NULL && strcmp(item, ifname) == 0;
    if (v6 != (sa->sa_family == AF_INET6))
        return false;
    const uint8_t *ip = v6 ? ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr
                           : (const uint8_t *)&((const struct sockaddr_in *)sa)->sin_addr;
    return prefix_match(net, ip, bits);
}

static bool pinned_ok(const char *pins, const char *ifname, const struct sockaddr *sa)
{
    for (const char *p = pins; *p != '\0';) {
        size_t n = strcspn(p, ", ");
        if (entry_matches(p, n, ifname, sa))
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

/* A listening socket on the address of `at` with port `port` (0: any), or
 * -1 with errno; the bound address in *sa. */
static int listen_on(const struct sockaddr *at, int port, struct sockaddr_storage *sa)
{
    int fam = at->sa_family;
    socklen_t len = fam == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    int fd = socket(fam, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (fam == AF_INET6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    xb_tcp_set_sockopts(fd);        /* buffer sizes are inherited by accept() */
    memset(sa, 0, sizeof(*sa));
    memcpy(sa, at, len);
    if (fam == AF_INET6)
        ((struct sockaddr_in6 *)sa)->sin6_port = htons((uint16_t)port);
    else
        ((struct sockaddr_in *)sa)->sin_port = htons((uint16_t)port);
    socklen_t sl = sizeof(*sa);
    if (bind(fd, (struct sockaddr *)sa, len) != 0 ||
        listen(fd, (int)xb_tn_TCP_BACKLOG.v.i) != 0 ||
        getsockname(fd, (struct sockaddr *)sa, &sl) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Bind and listen on the address; the port from the range (first free) or
 * any. bind() and listen() are tried together for each port: with
 * SO_REUSEADDR two ranks of a node can both bind a port that nobody listens
 * on yet, and the second one then learns at listen() that the port is taken. */
static int open_listener(tcp_listener_t *l, const struct sockaddr *at, int lo, int hi)
{
    struct sockaddr_storage sa;
    int fd = -1, err = 0;
    for (int port = lo; port <= hi && fd < 0; port++) {
        fd = listen_on(at, port, &sa);
        err = fd < 0 ? errno : 0;
    }
    if (fd < 0) {
        char a[80];
        return xb_err_sys(XB_ERR_OTHER, err, "cannot listen on %s (ports %d-%d)",
                          xb_tcp_fmt(at, a, sizeof(a)), lo, hi);
    }
    l->kind = TCP_K_LISTEN;
    l->fd = fd;
    l->sa = sa;
    return XB_OK;
}

static void note_iface(xb_tcp_t *st, const char *name, const tcp_listener_t *l)
{
    char a[80];
    size_t off = strlen(st->ifdesc);
    snprintf(st->ifdesc + off, sizeof(st->ifdesc) - off, "%s%s=%s", off ? ", " : "",
             name, xb_tcp_fmt((const struct sockaddr *)&l->sa, a, sizeof(a)));
}

/* Which pass of xb_tcp_listen takes this address (-1: none): 0 IPv4, 1 IPv6,
 * 2 IPv4 loopback, 3 IPv6 loopback. Link-local, v4-mapped and multicast
 * addresses are never used. */
static int pass_of(const struct sockaddr *sa, unsigned flags)
{
    bool lb = (flags & IFF_LOOPBACK) || xb_tcp_sa_loopback(sa);
    if (sa->sa_family == AF_INET) {
        uint32_t ip = ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr);
        return lb ? 2 : (ip >> 16) == 0xa9fe ? -1 : 0;
    }
    const struct in6_addr *a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
    if (IN6_IS_ADDR_LINKLOCAL(a6) || IN6_IS_ADDR_V4MAPPED(a6) || IN6_IS_ADDR_MULTICAST(a6))
        return -1;
    return lb ? 3 : 1;
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
    /* Four passes: IPv4, IPv6, IPv4 loopback, IPv6 loopback (loopback must
     * not take a place a routable address needs; ::1 only when pinned or
     * when no 127.x listener is up). */
    bool have_lb4 = false;
    for (int pass = 0; pass < 4 && rc == XB_OK; pass++)
        for (struct ifaddrs *i = ifs; i != NULL && st->nlis < XB_TCP_MAX_ADDRS; i = i->ifa_next) {
            if (i->ifa_addr == NULL || !(i->ifa_flags & IFF_UP) ||
                (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6) ||
                pass_of(i->ifa_addr, i->ifa_flags) != pass)
                continue;
            if (*pins != '\0' ? !pinned_ok(pins, i->ifa_name, i->ifa_addr)
                              : is_bridge(i->ifa_name) || (pass == 3 && have_lb4))
                continue;
            rc = open_listener(&st->lis[st->nlis], i->ifa_addr, lo, hi);
            if (rc != XB_OK)
                break;
            have_lb4 = have_lb4 || pass == 2;
            note_iface(st, i->ifa_name, &st->lis[st->nlis]);
            st->nlis++;
        }
    freeifaddrs(ifs);
    if (rc == XB_OK && st->nlis == 0)
        rc = xb_err_set(XB_ERR_OTHER, "no IPv4 or IPv6 interface is up%s%s%s", *pins ? " and "
                        "matches XB_TCP_IF='" : "", pins, *pins ? "'" : "");
    return rc;
}
