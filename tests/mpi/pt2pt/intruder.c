/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * intruder.c - strangers connecting to the ranks' tcp ports do not disturb
 * the job. Run with XB_METHODS=tcp, XB_TCP_IF=127.0.0.0/8 and a
 * XB_TCP_PORT_RANGE (the testlist gives them): rank 0 connects to every
 * port of the range on 127.0.0.1 that accepts and sends either bytes that
 * are not a Crossbar hello or a well-formed hello with a wrong job secret.
 * Then every rank exchanges messages around a ring (its connections are
 * opened after the attack, so a rank accepts strangers and peers at the
 * same time), and each stranger's socket must be closed by the rank behind
 * it (end of file or reset) while the job keeps going. The range lies below
 * the kernel's ephemeral ports (32768-60999 by default), so no other
 * program's listener can be in it by chance. Rank 0 keeps MPI
 * progressing (MPI_Iprobe) while it waits, so its own port is judged too.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "ptest.h"

enum { MAXFD = 256, ROUNDS = 20, LEN = 100000 };

static int connect_local(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                              .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

static int attack(int lo, int hi, int *fds)
{
    int n = 0;
    for (int port = lo; port <= hi && n < MAXFD; port++) {
        int fd = connect_local(port);
        if (fd < 0)
            continue;
        unsigned char junk[56];
        if (n % 2 == 0) {
            for (size_t k = 0; k < sizeof(junk); k++)
                junk[k] = (unsigned char)(k * 29 + 3);
        } else {
            memset(junk, 0, sizeof(junk));
            memcpy(junk, "XBTCP01", 8);       /* the magic, then a wrong secret */
            memset(junk + 24, 0x77, 32);
        }
        CHECK(write(fd, junk, sizeof(junk)) == (ssize_t)sizeof(junk));
        fds[n++] = fd;
    }
    return n;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wait (keeping MPI progressing) until every stranger's socket is closed. */
static int wait_closed(int *fds, int n)
{
    int open_left = n;
    double end = now() + 30;
    while (open_left > 0 && now() < end) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; i++) {
            if (fds[i] < 0)
                continue;
            struct pollfd p = { .fd = fds[i], .events = POLLIN };
            char c[64];
            if (poll(&p, 1, 0) <= 0)
                continue;
            ssize_t r = read(fds[i], c, sizeof(c));
            CHECK(r <= 0);                 /* a stranger gets no answer */
            if (r == 0 || (r < 0 && errno == ECONNRESET)) {
                close(fds[i]);
                fds[i] = -1;
                open_left--;
            }
        }
        usleep(1000);
    }
    return open_left;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, lo = 0, hi = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *range = getenv("XB_TCP_PORT_RANGE");
    CHECK(range != NULL && sscanf(range, "%d-%d", &lo, &hi) == 2);
    int fds[MAXFD], n = 0;
    if (rank == 0) {
        n = attack(lo, hi, fds);
        CHECK(n >= size);                  /* at least one port per rank */
    }
    unsigned char *sb = malloc(LEN), *rb = malloc(LEN);
    for (int k = 0; k < ROUNDS; k++) {
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        pt_fill(sb, LEN, rank * 100 + k);
        CHECK_RC(MPI_Sendrecv(sb, LEN, MPI_BYTE, to, k, rb, LEN, MPI_BYTE, from, k,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(pt_verify(rb, LEN, from * 100 + k) == 0);
    }
    if (rank == 0) {
        int left = wait_closed(fds, n);
        CHECK(left == 0);
        if (left != 0)
            fprintf(stderr, "rank 0: %d of %d foreign connections still open\n", left, n);
    }
    free(sb);
    free(rb);
    return pt_finish();
}
