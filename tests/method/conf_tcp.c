/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * conf_tcp.c - see conf_tcp.h. Rank 0 plays a stranger on the network: it
 * opens raw sockets to rank 1's published tcp address and sends (1) bytes
 * that are not a Crossbar hello, (2) a well-formed hello with a wrong job
 * secret, (3) nothing at all. Rank 1 keeps making progress. Each socket
 * must be closed by rank 1 (rank 0 reads end of file or a reset), rank 1
 * must count three rejected connections, and a message each way over the
 * job's own connection must still arrive. Runs with XB_TCP_HELLO_TIMEOUT_MS
 * small (the ctest cases set 1000) so (3) is judged quickly.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "conf_tcp.h"
#include "fake_rt.h"
#include "method/tcp/tcp.h"

enum { AM_INTRUDERS_DONE = 9, AM_INTRUDERS_ACK = 10, NBAD = 3 };

static int fails;
#define TCHECK(c, ...) do { if (!(c)) { fails++; fprintf(stderr, "FAIL [tcp] %s:%d: ", \
    __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static volatile int done_flag, ack_flag;
static void on_done(xb_gpid_t s, const void *h, size_t hl, const void *p, size_t l)
{
    (void)s; (void)h; (void)hl; (void)p; (void)l;
    done_flag = 1;
}
static void on_ack(xb_gpid_t s, const void *h, size_t hl, const void *p, size_t l)
{
    (void)s; (void)h; (void)hl; (void)p; (void)l;
    ack_flag = 1;
}

static double tnow(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bool wait_flag(volatile int *flag, double limit)
{
    double end = tnow() + limit;
    while (!*flag && tnow() < end)
        if (xb_method_progress_all() == 0)
            xb_method_block(10);
    return *flag != 0;
}

static int send_to(int r, uint8_t am)
{
    double end = tnow() + 20;
    int rc;
    while ((rc = xb_method_send(xb_gpid_make(0, (uint32_t)r), am, NULL, 0, NULL, NULL)) ==
           XB_ERR_AGAIN && tnow() < end)
        xb_method_progress_all();
    return rc;
}

static int raw_connect(const xb_tcp_addr_t *a)
{
    struct sockaddr_storage sa;
    socklen_t sl = xb_tcp_sa_of(a, 0, &sa);
    int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sl) != 0) {
        TCHECK(0, "raw connect to rank 1: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* Wait until the peer closes fd: end of file or a reset. */
static bool closed_by_peer(int fd, double limit)
{
    double end = tnow() + limit;
    char buf[64];
    while (tnow() < end) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n == 0 || (n < 0 && errno == ECONNRESET))
            return true;
        if (n > 0)
            return false;         /* it answered a stranger: wrong */
    }
    return false;
}

static void attack(int np)
{
    xb_tcp_addr_t a;
    size_t len = sizeof(a);
    int rc = xb_rt_peer_addr(1, "tcp", &a, &len);
    TCHECK(rc == XB_OK && a.naddr > 0, "rank 1 has no tcp address");
    if (rc != XB_OK || a.naddr == 0)
        return;
    int fd[NBAD];
    for (int i = 0; i < NBAD; i++)
        fd[i] = raw_connect(&a);
    char garbage[64];
    for (size_t k = 0; k < sizeof(garbage); k++)
        garbage[k] = (char)(k * 37 + 11);
    tcp_hello_t h;
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, "XBTCP01", 8);
    h.src = 0;
    h.dst = 1;
    h.size = (uint32_t)np;
    memset(h.secret, 0x5a, sizeof(h.secret));          /* not the job's */
    if (fd[0] >= 0)
        TCHECK(write(fd[0], garbage, sizeof(garbage)) == (ssize_t)sizeof(garbage), "write");
    if (fd[1] >= 0)
        TCHECK(write(fd[1], &h, sizeof(h)) == (ssize_t)sizeof(h), "write");
    static const char *const what[NBAD] = { "garbage", "wrong secret", "silence" };
    for (int i = 0; i < NBAD; i++)
        if (fd[i] >= 0) {
            TCHECK(closed_by_peer(fd[i], 15), "rank 1 did not close the connection that "
                   "sent %s", what[i]);
            close(fd[i]);
        }
}

int test_tcp_intruders(int me, int np)
{
    fails = 0;
    xb_method_t *m = np >= 2 && me <= 1 ? xb_peer_method(xb_gpid_make(0, (uint32_t)(me ^ 1)))
                                        : NULL;
    bool run = m != NULL && strcmp(m->ops->name, "tcp") == 0;
    xb_am_register(AM_INTRUDERS_DONE, on_done);
    xb_am_register(AM_INTRUDERS_ACK, on_ack);
    xb_rt_fence();
    if (run && me == 0) {
        attack(np);
        TCHECK(send_to(1, AM_INTRUDERS_DONE) == XB_OK, "message to rank 1 after the "
               "attack: %s", xb_err_detail());
        TCHECK(wait_flag(&ack_flag, 20), "no answer from rank 1 after the attack");
    } else if (run && me == 1) {
        unsigned long before = xb_tcp_rejected();
        TCHECK(wait_flag(&done_flag, 40), "the job's message after the attack did not "
               "arrive");
        TCHECK(xb_tcp_rejected() - before == NBAD, "rank 1 rejected %lu connections, "
               "expected %d", xb_tcp_rejected() - before, NBAD);
        TCHECK(send_to(0, AM_INTRUDERS_ACK) == XB_OK, "answer to rank 0: %s",
               xb_err_detail());
        char buf[2048] = "";
        xb_method_describe_all(buf, sizeof(buf));
        TCHECK(strstr(buf, "3 foreign connections rejected") != NULL,
               "describe does not report the rejected connections: %s", buf);
    }
    xb_rt_fence();
    return fails;
}
