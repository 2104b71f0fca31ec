/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_rt.c - the runtime's start-up as a singleton (src/runtime/rt.c,
 * rt_kvs.c): job shape, host name, KVS, peer address decoding, and the
 * launcher's job segment (a memfd made here the way mpiexec makes it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>
#include "runtime/runtime.h"
#include "runtime/jobseg.h"

#include "unit_check.h"

static void clean_env(void)
{
    static const char *const vars[] = { "PMI_FD", "PMI_PORT", "PMI_RANK", "PMI_SIZE",
                                        "PMI_ID", XB_JOBSEG_ENV, "XB_HOST", NULL };
    for (int i = 0; vars[i] != NULL; i++)
        unsetenv(vars[i]);
}

static bool fcntl_closed(int fd)
{
    return fcntl(fd, F_GETFD) < 0;
}

static void test_singleton(void)
{
    clean_env();
    setenv("XB_HOST", "unit-host", 1);
    CHECK(xb_rt_init() == XB_OK, "init: %s", xb_err_detail());
    const xb_rt_info_t *rt = xb_rt();
    CHECK(rt->rank == 0 && rt->size == 1 && rt->singleton, "rank %d size %d", rt->rank, rt->size);
    CHECK(rt->nnodes == 1 && rt->my_node == 0 && rt->node_of[0] == 0, "nodes %d", rt->nnodes);
    CHECK(rt->local_rank == 0 && rt->local_size == 1 && rt->local_ranks[0] == 0, "local");
    CHECK(strcmp(rt->host, "unit-host") == 0, "host '%s'", rt->host);
    CHECK(rt->jobseg_fd == -1, "no job segment");
    xb_rt_set_waiting("nothing");      /* no segment: a no-op */

    char val[64];
    CHECK(xb_rt_kvs_put("k1", "v1") == XB_OK && xb_rt_fence() == XB_OK, "put");
    CHECK(xb_rt_kvs_get(0, "k1", val, sizeof(val)) == XB_OK && strcmp(val, "v1") == 0,
          "get '%s'", val);

    unsigned char buf[8];
    size_t len = sizeof(buf);
    CHECK(xb_rt_kvs_put("xb-addr-0", "self:,shm:0a0BfF,tcp:zz") == XB_OK, "put addr");
    CHECK(xb_rt_peer_addr(0, "shm", buf, &len) == XB_OK && len == 3 && buf[0] == 0x0a &&
          buf[1] == 0x0b && buf[2] == 0xff, "shm blob (len %zu)", len);
    len = sizeof(buf);
    CHECK(xb_rt_peer_addr(0, "self", buf, &len) == XB_OK && len == 0, "empty blob");
    len = sizeof(buf);
    CHECK(xb_rt_peer_addr(0, "tcp", buf, &len) < 0, "bad hex accepted");
    len = sizeof(buf);
    CHECK(xb_rt_peer_addr(0, "sh", buf, &len) < 0, "prefix of a method name matched");
    CHECK(strstr(xb_err_detail(), "no address for the sh method") != NULL, "%s", xb_err_detail());
    len = 2;
    CHECK(xb_rt_peer_addr(0, "shm", buf, &len) < 0 && len == 2, "too small a buffer");
    len = sizeof(buf);
    CHECK(xb_rt_peer_addr(1, "shm", buf, &len) < 0, "rank out of range");
    xb_rt_fini();
}

static void test_jobseg(void)
{
    size_t seglen = 4096;
    int fd = memfd_create("unit-jobseg", 0);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)seglen) == 0, "memfd");
    if (fd < 0)
        return;
    char *seg = mmap(NULL, seglen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    xb_jobseg_hdr_t *hdr = (xb_jobseg_hdr_t *)seg;
    hdr->magic = XB_JOBSEG_MAGIC;
    hdr->nlocal = 2;
    hdr->status_off = 256;
    hdr->method_off = 4096;
    xb_jobseg_status_t *slots = (xb_jobseg_status_t *)(seg + 256);
    slots[0].world_rank = 5;          /* someone else */
    slots[1].world_rank = 0;          /* us */

    char num[16];
    snprintf(num, sizeof(num), "%d", fd);
    clean_env();
    setenv(XB_JOBSEG_ENV, num, 1);
    CHECK(xb_rt_init() == XB_OK, "init with a segment: %s", xb_err_detail());
    CHECK(xb_rt()->jobseg_fd == fd, "jobseg fd %d", xb_rt()->jobseg_fd);
    CHECK(slots[1].pid == (int32_t)getpid() && slots[0].pid == 0, "pid in slot");
    xb_rt_set_waiting("MPI_Recv(source=1, tag=5, comm=MPI_COMM_WORLD)");
    CHECK(strcmp(slots[1].waiting, "MPI_Recv(source=1, tag=5, comm=MPI_COMM_WORLD)") == 0,
          "waiting '%s'", slots[1].waiting);
    char longtext[600];
    memset(longtext, 'w', sizeof(longtext) - 1);
    longtext[sizeof(longtext) - 1] = '\0';
    xb_rt_set_waiting(longtext);
    CHECK(strlen(slots[1].waiting) == sizeof(slots[1].waiting) - 1, "truncated");
    xb_rt_set_waiting("");
    CHECK(slots[1].waiting[0] == '\0', "cleared");
    xb_rt_fini();
    CHECK(fcntl_closed(fd), "the segment fd is closed by finalize");

    /* a segment with a bad header is an error that says so */
    int fd2 = memfd_create("unit-bad", 0);
    CHECK(fd2 >= 0 && ftruncate(fd2, 4096) == 0, "memfd 2");
    snprintf(num, sizeof(num), "%d", fd2);
    setenv(XB_JOBSEG_ENV, num, 1);
    xb_err_clear();
    CHECK(xb_rt_init() < 0, "a bad header accepted");
    CHECK(strstr(xb_err_detail(), "no valid header") != NULL, "detail: %s", xb_err_detail());
    xb_rt_fini();                      /* undoes a partial init too */
    setenv(XB_JOBSEG_ENV, "notanumber", 1);
    CHECK(xb_rt_init() < 0 && strstr(xb_err_detail(), XB_JOBSEG_ENV) != NULL,
          "a bad fd: %s", xb_err_detail());
    xb_rt_fini();
    unsetenv(XB_JOBSEG_ENV);
    munmap(seg, seglen);
    close(fd2);
}

int main(void)
{
    test_singleton();
    test_jobseg();
    if (failures != 0) {
        fprintf(stderr, "test_rt: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_rt: all passed\n");
    return 0;
}
