/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dpm_port.c - MPI_Open_port and MPI_Close_port, port names, and reaching a
 * port (connect side).
 *
 * A port is a listening TCP socket bound to every interface on a port the
 * kernel picks. Its name lists the addresses the tcp method listens on
 * (XB_TCP_IF decides, as for the job's own connections) with the port's
 * number, and a random tag:
 *     xbport:1:0123456789abcdef:192.0.2.1:40123,127.0.0.1:40123
 * IPv6 addresses are written in brackets. The name is at most
 * MPI_MAX_PORT_NAME - 1 characters (4 addresses fit easily).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>
#include "dpm/dpm.h"
#include "xb_impl.h"

enum { PORT_ADDRS_MAX = 4, PORT_BACKLOG = 16 };
static const char prefix[] = "xbport:1:";

typedef struct port {
    struct port *next;
    int          fd;
    uint64_t     tag;
    char         name[MPI_MAX_PORT_NAME];
} port_t;

static port_t *ports;

static const char *fmt_sa(const struct sockaddr_storage *ss, char *buf, size_t len)
{
    char ip[INET6_ADDRSTRLEN] = "?";
    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *s6 = (const void *)ss;
        inet_ntop(AF_INET6, &s6->sin6_addr, ip, sizeof(ip));
        snprintf(buf, len, "[%s]:%u", ip, ntohs(s6->sin6_port));
    } else {
        const struct sockaddr_in *s4 = (const void *)ss;
        inet_ntop(AF_INET, &s4->sin_addr, ip, sizeof(ip));
        snprintf(buf, len, "%s:%u", ip, ntohs(s4->sin_port));
    }
    return buf;
}

static void set_port(struct sockaddr_storage *ss, uint16_t port)
{
    if (ss->ss_family == AF_INET6)
        ((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
    else
        ((struct sockaddr_in *)ss)->sin_port = htons(port);
}

/* A listening socket on every interface: IPv6 with IPv4 mapped, else IPv4. */
static int listen_any(uint16_t *port_p)
{
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof(ss));
    socklen_t sl = sizeof(struct sockaddr_in6);
    if (fd >= 0) {
        int zero = 0;
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
        ss.ss_family = AF_INET6;
    } else {
        fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        ss.ss_family = AF_INET;
        sl = sizeof(struct sockaddr_in);
    }
    if (fd < 0)
        return xb_err_sys(XB_ERR_OTHER, errno, "socket for a port");
    if (bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, PORT_BACKLOG) != 0 ||
        getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
        int e = errno;
        close(fd);
        return xb_err_sys(XB_ERR_OTHER, e, "bind/listen of a port");
    }
    *port_p = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                       : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    return fd;
}

static int make_name(port_t *p, uint16_t port)
{
    struct sockaddr_storage sa[PORT_ADDRS_MAX];
    int n = xb_method_contact_addrs(sa, PORT_ADDRS_MAX);
    if (n == 0)
        return xb_err_set(XB_ERR_OTHER, "no tcp interface to name in a port (the tcp "
                          "method is off: XB_METHODS, XB_TCP_IF)");
    size_t off = (size_t)snprintf(p->name, sizeof(p->name), "%s%016llx:", prefix,
                                  (unsigned long long)p->tag);
    for (int i = 0; i < n; i++) {
        char a[80];
        set_port(&sa[i], port);
        off += (size_t)snprintf(p->name + off, sizeof(p->name) - off, "%s%s",
                                i ? "," : "", fmt_sa(&sa[i], a, sizeof(a)));
    }
    return XB_OK;
}

int xb_impl_open_port(xb_info_t *info, char *port_name)
{
    (void)info;                       /* no info keys are used */
    port_t *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a port");
    uint16_t port = 0;
    int rc = XB_OK;
    if (getrandom(&p->tag, sizeof(p->tag), 0) != (ssize_t)sizeof(p->tag))
        rc = xb_err_sys(XB_ERR_OTHER, errno, "getrandom for a port tag");
    p->fd = rc == XB_OK ? listen_any(&port) : -1;
    if (p->fd < 0 && rc == XB_OK)
        rc = p->fd;
    if (rc == XB_OK)
        rc = make_name(p, port);
    if (rc != XB_OK) {
        if (p->fd >= 0)
            close(p->fd);
        free(p);
        return rc;
    }
    p->next = ports;
    ports = p;
    snprintf(port_name, MPI_MAX_PORT_NAME, "%s", p->name);
    return XB_OK;
}

int xb_impl_close_port(const char *port_name)
{
    for (port_t **pp = &ports; *pp != NULL; pp = &(*pp)->next)
        if (strcmp((*pp)->name, port_name) == 0) {
            port_t *p = *pp;
            *pp = p->next;
            close(p->fd);
            free(p);
            return XB_OK;
        }
    return xb_err_set(XB_DPM_ERR_PORT, "invalid port_name '%.200s': not a port this "
                      "process opened (or it is closed already)", port_name);
}

void xb_dpm_ports_fini(void)
{
    while (ports != NULL) {
        port_t *p = ports;
        ports = p->next;
        close(p->fd);
        free(p);
    }
}

int xb_dpm_port_fd(const char *name, uint64_t *tag)
{
    for (port_t *p = ports; p != NULL; p = p->next)
        if (strcmp(p->name, name) == 0) {
            *tag = p->tag;
            return p->fd;
        }
    return -1;
}

/* One "a.b.c.d:port" or "[v6]:port" of len characters. */
static int parse_addr(const char *s, size_t len, struct sockaddr_storage *ss)
{
    char buf[80];
    if (len == 0 || len >= sizeof(buf))
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *colon = strrchr(buf, ':');
    if (colon == NULL)
        return -1;
    *colon = '\0';
    char *end;
    unsigned long port = strtoul(colon + 1, &end, 10);
    if (*end != '\0' || port == 0 || port > 65535)
        return -1;
    memset(ss, 0, sizeof(*ss));
    if (buf[0] == '[' && colon > buf + 1 && colon[-1] == ']') {
        colon[-1] = '\0';
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
        s6->sin6_family = AF_INET6;
        s6->sin6_port = htons((uint16_t)port);
        return inet_pton(AF_INET6, buf + 1, &s6->sin6_addr) == 1 ? 0 : -1;
    }
    struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
    s4->sin_family = AF_INET;
    s4->sin_port = htons((uint16_t)port);
    return inet_pton(AF_INET, buf, &s4->sin_addr) == 1 ? 0 : -1;
}

int xb_dpm_port_parse(const char *name, uint64_t *tag, struct sockaddr_storage *sa,
                      int max, int *n_p)
{
    size_t pl = sizeof(prefix) - 1;
    char *end;
    if (strncmp(name, prefix, pl) != 0)
        goto bad;
    unsigned long long t = strtoull(name + pl, &end, 16);
    if (end != name + pl + 16 || *end != ':')
        goto bad;
    int n = 0;
    for (const char *s = end + 1; *s != '\0' && n < max;) {
        size_t len = strcspn(s, ",");
        if (parse_addr(s, len, &sa[n]) != 0)
            goto bad;
        n++;
        s += len;
        if (*s == ',')
            s++;
    }
    if (n == 0)
        goto bad;
    *tag = (uint64_t)t;
    *n_p = n;
    return XB_OK;
bad:
    return xb_err_set(XB_DPM_ERR_PORT, "invalid port_name '%.200s': not a port name "
                      "of MPI_Open_port (xbport:1:<tag>:<address>,...)", name);
}

/* A TCP connection to one address, waiting for it through the progress
 * engine; the fd, or -1 with *why set. */
static int dial_one(const struct sockaddr_storage *ss, const char **why)
{
    int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *why = strerror(errno);
        return -1;
    }
    socklen_t sl = ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                             : sizeof(struct sockaddr_in);
    int err = 0;
    if (connect(fd, (const struct sockaddr *)ss, sl) != 0) {
        err = errno;
        if (err == EINPROGRESS) {
            xb_dpm_wait_fd(fd, POLLOUT, "MPI_Comm_connect: connecting to the port");
            socklen_t el = sizeof(err);
            if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0)
                err = errno;
        }
    }
    if (err != 0) {
        *why = strerror(err);
        close(fd);
        return -1;
    }
    return fd;
}

int xb_dpm_port_dial(const char *name, uint64_t *tag, int *fd_p)
{
    struct sockaddr_storage sa[PORT_ADDRS_MAX];
    int n = 0;
    int rc = xb_dpm_port_parse(name, tag, sa, PORT_ADDRS_MAX, &n);
    if (rc != XB_OK)
        return rc;
    char tried[400] = "";
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        const char *why = "?";
        int fd = dial_one(&sa[i], &why);
        if (fd >= 0) {
            *fd_p = fd;
            return XB_OK;
        }
        char a[80];
        off += (size_t)snprintf(tried + off, sizeof(tried) - off, "%s%s: %s",
                                off ? ", " : "", fmt_sa(&sa[i], a, sizeof(a)), why);
        if (off >= sizeof(tried))
            off = sizeof(tried) - 1;
    }
    return xb_err_set(XB_DPM_ERR_PORT, "no process listens on port '%.200s' (tried "
                      "%s): it was closed, or its process ended", name, tried);
}
