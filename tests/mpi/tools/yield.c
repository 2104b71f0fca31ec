/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * yield.c - a rank that spins on MPI_Test or MPI_Iprobe gives the CPU away
 * on an oversubscribed node, and only there (progress_test_yields).
 *
 * Ranks pair up (0-1, 2-3, ...; an odd last rank only takes part in the
 * barriers). The even rank of a pair loops on MPI_Test for a receive, then
 * on MPI_Iprobe for a second message; the odd rank sleeps 20 ms before each
 * send, so the tests find nothing for a while. The pvar
 * progress_oversubscribed must say what this test computes itself (ranks
 * on this node against the CPUs this rank may run on, or the online CPUs
 * when it may run on one only, capped by its cgroup's CPU quota:
 * runtime/cpus.c, linked in), and progress_test_yields must move on the
 * even ranks exactly when oversubscribed, by no more than their empty
 * tests, and never on the odd ranks (a blocking wait is not a test).
 * Empty tests yield once per slice of XB_TEST_SLICE_US (default 20 us; a
 * program that does work between its tests keeps its CPU that long): no
 * more yields than slices in the time the tests took, plus one; with
 * XB_TEST_SLICE_US=0 every empty poll yields (at least half the tests).
 * With "arg=pin" every rank first restricts itself to two CPUs, so the
 * 4-rank run is oversubscribed on any machine. With "over" the job must be
 * oversubscribed (tests/cgroup/quota.sh runs it in a one-CPU quota).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdbool.h>
#include <unistd.h>
#include "mpit_util.h"
#include "runtime/cpus.h"

static void pin_two(void)
{
    cpu_set_t set, two;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    CPU_ZERO(&two);
    for (int c = 0, n = 0; c < CPU_SETSIZE && n < 2; c++)
        if (CPU_ISSET(c, &set)) {
            CPU_SET(c, &two);
            n++;
        }
    CHECK(sched_setaffinity(0, sizeof two, &two) == 0, "sched_setaffinity failed");
}

int main(int argc, char **argv)
{
    bool want_over = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "pin"))
            pin_two();
        want_over |= !strcmp(argv[i], "over");
    }
    int provided, local;
    ct_init(&argc, &argv);
    const int rank = ct_rank, size = ct_size;
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);

    MPI_T_pvar_session s;
    MPI_T_pvar_handle ho, hy;
    int count;
    CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    int io = pvar_index("progress_oversubscribed", MPI_T_PVAR_CLASS_LEVEL);
    int iy = pvar_index("progress_test_yields", MPI_T_PVAR_CLASS_COUNTER);
    if (io < 0 || iy < 0)
        return ct_finish();
    CHECK_T(MPI_T_pvar_handle_alloc(s, io, NULL, &ho, &count), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_handle_alloc(s, iy, NULL, &hy, &count), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_start(s, hy), MPI_SUCCESS);

    int ncpu = xb_cpus_usable(), over = local > ncpu;
    CHECK(over || !want_over, "%d ranks on this node, %d CPUs: not oversubscribed", local,
          ncpu);
    CHECK(read_pvar(s, ho) == (unsigned long long)over,
          "progress_oversubscribed is %llu; %d ranks on this node, %d CPUs", read_pvar(s, ho),
          local, ncpu);

    unsigned long long before = read_pvar(s, hy), empty = 0;
    int peer = rank ^ 1, buf = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (peer < size && rank % 2 == 0) {
        MPI_Request q;
        int flag = 0;
        double t0 = MPI_Wtime();
        MPI_Irecv(&buf, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &q);
        for (MPI_Test(&q, &flag, MPI_STATUS_IGNORE); !flag; MPI_Test(&q, &flag, MPI_STATUS_IGNORE))
            empty++;
        CHECK(buf == 11, "received %d, expected 11", buf);
        for (MPI_Iprobe(peer, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); !flag;
             MPI_Iprobe(peer, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE))
            empty++;
        MPI_Recv(&buf, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(buf == 12, "received %d, expected 12", buf);
        unsigned long long y = read_pvar(s, hy) - before;
        double us = (MPI_Wtime() - t0) * 1e6;
        const char *sl = getenv("XB_TEST_SLICE_US");
        double slice = sl != NULL ? atof(sl) : 20;
        CHECK(empty > 0, "the tests never came back empty");
        if (over && slice <= 0)     /* (a test whose poll moved another message does not) */
            CHECK(y >= empty / 2 && y <= empty,
                  "%llu yields for %llu empty tests (a yield per empty test)", y, empty);
        else if (over)
            CHECK(y > 0 && y <= us / slice + 1,
                  "%llu yields for %llu empty tests in %.0f us (at most one per %g us)", y,
                  empty, us, slice);
        else
            CHECK(y == 0, "%llu yields on a node that is not oversubscribed", y);
    } else if (peer < size) {
        for (int k = 1; k <= 2; k++) {
            usleep(20000);
            buf = 10 + k;
            MPI_Send(&buf, 1, MPI_INT, peer, k, MPI_COMM_WORLD);
        }
        unsigned long long y = read_pvar(s, hy) - before;
        CHECK(y == 0, "%llu yields on a rank that only sent", y);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    CHECK_T(MPI_T_pvar_handle_free(s, &ho), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_handle_free(s, &hy), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    return ct_finish();
}
