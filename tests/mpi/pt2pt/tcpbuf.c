/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tcpbuf.c - the communicator hint xb_tcp_buffer_size sets the socket
 * buffers of the tcp connections to the communicator's members. Run with
 * XB_METHODS=tcp (the testlist does). A communicator made with the hint
 * 6144 carries 512 KiB between every pair; then every connected TCP
 * socket of this process (found through /proc/self/fd) must report
 * SO_SNDBUF and SO_RCVBUF of 12288 (Linux doubles the value set and no
 * longer sizes the buffer itself; without the hint the kernel grows it far
 * beyond that under such traffic). MPI_Comm_set_info with a bad size must
 * fail with MPI_ERR_ARG (the communicator's errhandler returns it).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ptest.h"

enum { LEN = 256 << 10, ROUNDS = 2 };

/* Connected stream sockets of this process (not listeners); their buffer
 * sizes must be `want`. Returns how many there were. */
static int check_sockets(int want)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;
    CHECK(d != NULL);
    while (d != NULL && (e = readdir(d)) != NULL) {
        int fd = atoi(e->d_name), type = 0, lis = 0;
        socklen_t sl = sizeof(int);
        struct sockaddr_storage peer;
        socklen_t pl = sizeof(peer);
        if (e->d_name[0] == '.' || fd == dirfd(d) ||
            getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &sl) != 0 || type != SOCK_STREAM ||
            getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &lis, &sl) != 0 || lis ||
            getpeername(fd, (struct sockaddr *)&peer, &pl) != 0 ||
            (peer.ss_family != AF_INET && peer.ss_family != AF_INET6))
            continue;                       /* not a tcp connection (PMI is unix) */
        int snd = 0, rcv = 0;
        getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &snd, &sl);
        getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, &sl);
        if (snd != want || rcv != want)
            fprintf(stderr, "rank %d: fd %d: SO_SNDBUF %d SO_RCVBUF %d, want %d\n", pt_rank(),
                    fd, snd, rcv, want);
        CHECK(snd == want && rcv == want);
        n++;
    }
    if (d != NULL)
        closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Info info;
    MPI_Comm comm;
    MPI_Info_create(&info);
    MPI_Info_set(info, "xb_tcp_buffer_size", "6144");
    CHECK_RC(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm));
    unsigned char *sbuf = malloc(LEN), *rbuf = malloc(LEN);
    pt_fill(sbuf, LEN, rank);
    for (int k = 0; k < ROUNDS; k++)
        for (int d = 1; d < size; d++) {
            int to = (rank + d) % size, from = (rank - d + size) % size;
            CHECK_RC(MPI_Sendrecv(sbuf, LEN, MPI_BYTE, to, k, rbuf, LEN, MPI_BYTE, from, k,
                                  comm, MPI_STATUS_IGNORE));
            CHECK(pt_verify(rbuf, LEN, from) == 0);
        }
    int n = check_sockets(2 * 6144);
    CHECK(n == size - 1);                   /* one connection per peer */
    /* a size the method cannot use is an error, not ignored */
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Info_set(info, "xb_tcp_buffer_size", "lots");
    int rc = MPI_Comm_set_info(comm, info), cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_ARG);
    MPI_Info_free(&info);
    MPI_Comm_free(&comm);
    free(sbuf);
    free(rbuf);
    return pt_finish();
}
