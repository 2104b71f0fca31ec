/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * sock.c - the physical limit of TCP on this machine, without MPI: two
 * processes (fork) over one TCP connection with TCP_NODELAY, the same sizes
 * and output format as latency.c and bw.c, so bench/run_tcp.sh can put MPI
 * over TCP side by side with it.
 *   ./sock -l [-q] [-m MAXSIZE] [-a ADDR]   ping-pong: one-way time, us
 *   ./sock -s [-q] [-m MAXSIZE] [-a ADDR]   stream: 64 messages, then a
 *                                           1-byte ack; MB/s (10^6 B/s)
 * ADDR: the server's IPv4 address (default 127.0.0.1).
 *   -n NS_CLIENT,NS_SERVER   run the two processes in these network
 *        namespaces (ip netns; bench/run_netns.sh: two "hosts" joined by
 *        veth pairs and a bridge); ADDR is then the server's address
 *   -b   bind the two processes to the first two CPUs this one may use
 *        (what mpiexec does for 2 ranks on a machine with 2+ CPUs)
 *   -c N largest send()/recv() call, bytes (default: the whole message);
 *        on loopback, smaller calls release the socket lock more often
 *   -p   poll: receive with nonblocking recv() in a loop instead of
 *        sleeping in a blocking one (what an MPI library that spins does;
 *        on an idle machine it saves the wake-up of the receiver)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { WINDOW = 64, MAXB = 64 };

static const long sizes[] = { 0, 1, 8, 64, 512, 4096, 32768, 262144, 1L << 20, 4L << 20 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int poll_mode;
static long chunk;

static long piece(long left) { return chunk > 0 && left > chunk ? chunk : left; }

static void xfer(int fd, char *buf, long n, int out)
{
    for (long off = 0; off < n;) {
        ssize_t k = out ? send(fd, buf + off, (size_t)piece(n - off), 0)
                        : recv(fd, buf + off, (size_t)piece(n - off),
                               poll_mode ? MSG_DONTWAIT : 0);
        if (k < 0 && !out && poll_mode && errno == EAGAIN)
            continue;
        if (k <= 0) {
            perror(out ? "sock: send" : "sock: recv");
            exit(1);
        }
        off += k;
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(long size, double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], cmp);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    printf("%ld %.4f %.4f %.4f %d\n", size, med, v[0], v[n - 1], n);
    fflush(stdout);
}

/* One batch, from the client's side (the server mirrors it). */
static double batch(int fd, char *buf, long n, int k, int stream, int client)
{
    char ack = 0;
    double t0 = now();
    for (int i = 0; i < k; i++) {
        if (stream) {
            for (int w = 0; w < WINDOW; w++)
                xfer(fd, buf, n, client);
            xfer(fd, &ack, 1, !client);
        } else {
            xfer(fd, buf, n, client);
            xfer(fd, buf, n, !client);
        }
    }
    double t = (now() - t0) / k;
    return stream ? (double)n * WINDOW / t / 1e6 : t / 2 * 1e6;
}

static void run(int fd, int client, int stream, int quick, long maxsize)
{
    char *buf = calloc(1, (size_t)maxsize + 1);
    int nb = quick ? 3 : 31;
    double v[MAXB];
    if (client)
        printf(stream ? "# bw MB/s higher\n" : "# latency us lower\n");
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0] && sizes[si] <= maxsize; si++) {
        long n = sizes[si];
        if (n == 0)
            continue;                   /* TCP has no empty message */
        /* batch length: both sides compute it from the same probe rule
         * (client measures, sends it) */
        int k = 1;
        batch(fd, buf, n, 2, stream, client);
        if (client) {
            double one = batch(fd, buf, n, 2, stream, client);
            double per = stream ? (double)n * WINDOW / (one * 1e6) : one * 2e-6;
            k = per > 0 ? (int)((quick ? 2e-3 : 5e-3) / per) : 1000;
            k = k < 1 ? 1 : k > 1000 ? 1000 : k;
            xfer(fd, (char *)&k, sizeof k, 1);
        } else {
            batch(fd, buf, n, 2, stream, client);
            xfer(fd, (char *)&k, sizeof k, 0);
        }
        for (int b = 0; b < nb; b++)
            v[b] = batch(fd, buf, n, k, stream, client);
        if (client)
            report(n, v, nb);
    }
    free(buf);
}

/* Enter the network namespace /run/netns/NAME (ip netns add NAME). */
static int enter_ns(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "/run/netns/%s", name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
        perror(path);
        return -1;
    }
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    int stream = 0, quick = 0, one = 1, pin = 0;
    long maxsize = 4L << 20;
    const char *addr = "127.0.0.1";
    char *ns[2] = { NULL, NULL };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-s"))
            stream = 1;
        else if (!strcmp(argv[i], "-l"))
            stream = 0;
        else if (!strcmp(argv[i], "-q"))
            quick = 1;
        else if (!strcmp(argv[i], "-b"))
            pin = 1;
        else if (!strcmp(argv[i], "-c") && i + 1 < argc)
            chunk = atol(argv[++i]);
        else if (!strcmp(argv[i], "-p"))
            poll_mode = 1;
        else if (!strcmp(argv[i], "-m") && i + 1 < argc)
            maxsize = atol(argv[++i]);
        else if (!strcmp(argv[i], "-a") && i + 1 < argc)
            addr = argv[++i];
        else if (!strcmp(argv[i], "-n") && i + 1 < argc && strchr(argv[i + 1], ',')) {
            ns[0] = argv[++i];
            ns[1] = strchr(ns[0], ',') + 1;
            ns[1][-1] = '\0';
        } else {
            fprintf(stderr, "usage: sock [-l|-s] [-q] [-b] [-p] [-c CHUNK] [-m MAXSIZE] "
                    "[-a ADDR] [-n NS_CLIENT,NS_SERVER]\n");
            return 2;
        }
    }
    struct sockaddr_in sa = { .sin_family = AF_INET };
    socklen_t sl = sizeof sa;
    if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
        fprintf(stderr, "sock: %s is not an IPv4 address\n", addr);
        return 2;
    }
    int cpu[2] = { -1, -1 }, pfd[2];
    cpu_set_t set;
    if (pin && sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0, k = 0; c < CPU_SETSIZE && k < 2; c++)
            if (CPU_ISSET(c, &set))
                cpu[k++] = c;
    if (pipe(pfd) != 0) {
        perror("sock: pipe");
        return 1;
    }
    /* the server (child) listens in its namespace and passes the port */
    pid_t pid = fork();
    int fd;
    if (cpu[1] >= 0) {
        CPU_ZERO(&set);
        CPU_SET(cpu[pid == 0], &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    if (ns[pid == 0] != NULL && enter_ns(ns[pid == 0]) != 0)
        return 1;
    if (pid == 0) {
        int lis = socket(AF_INET, SOCK_STREAM, 0);
        if (lis < 0 || bind(lis, (struct sockaddr *)&sa, sizeof sa) || listen(lis, 1) ||
            getsockname(lis, (struct sockaddr *)&sa, &sl)) {
            perror("sock: listen");
            return 1;
        }
        if (write(pfd[1], &sa, sizeof sa) != (ssize_t)sizeof sa)
            return 1;
        fd = accept(lis, NULL, NULL);
        close(lis);
    } else {
        close(pfd[1]);
        if (read(pfd[0], &sa, sizeof sa) != (ssize_t)sizeof sa) {
            fprintf(stderr, "sock: the server did not start\n");
            return 1;
        }
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa)) {
            perror("sock: connect");
            return 1;
        }
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    run(fd, pid != 0, stream, quick, maxsize);
    close(fd);
    if (pid != 0) {
        int st;
        waitpid(pid, &st, 0);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    }
    return 0;
}
