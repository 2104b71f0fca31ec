/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* shared.c - MPI_Win_allocate_shared over the ranks of a node (made by
 * MPI_Comm_split_type): parts of different sizes (rank r has r+1 blocks,
 * rank 1 none), MPI_Win_shared_query sizes, displacement units and base
 * pointers (NULL for a part of size 0, as the MPICH suite's
 * win_shared_noncontig_put asserts; contiguous by default, page aligned with
 * alloc_shared_noncontig, MPI_PROC_NULL), direct stores seen by the others
 * after MPI_Win_sync + barrier, and Put/Accumulate into the shared window
 * seen by loads. */
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>
#include "../common/ctest.h"

static int part(int r)
{
    return r == 1 ? 0 : (r + 1) * 8;     /* ints */
}

static void run(MPI_Comm node, int nrank, int nsize, bool noncontig)
{
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    int *mine;
    MPI_Win win;
    CHECK_RC(MPI_Win_allocate_shared(part(nrank) * sizeof(int), sizeof(int), info, node,
                                     &mine, &win));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    int *flav, flag;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flav, &flag);
    CHECK(flag && *flav == MPI_WIN_FLAVOR_SHARED, "flavor %d", *flav);
    int *base[64];
    long page = sysconf(_SC_PAGESIZE);
    for (int r = 0; r < nsize; r++) {
        MPI_Aint sz;
        int du;
        CHECK_RC(MPI_Win_shared_query(win, r, &sz, &du, &base[r]));
        CHECK(sz == (MPI_Aint)(part(r) * sizeof(int)) && du == (int)sizeof(int),
              "query %d: size %lld du %d", r, (long long)sz, du);
        if (r == nrank)
            CHECK(base[r] == mine, "query of myself: %p, allocate gave %p",
                  (void *)base[r], (void *)mine);
        if (part(r) == 0) {     /* no memory there: NULL, as MPICH and Open MPI */
            CHECK(base[r] == NULL, "query of rank %d (size 0): %p", r, (void *)base[r]);
            if (r == nrank)
                CHECK(mine == NULL, "allocate of size 0 gave %p", (void *)mine);
            continue;
        }
        int p = r - 1;
        while (p >= 0 && part(p) == 0)
            p--;
        if (p >= 0 && !noncontig)
            CHECK(base[r] == base[p] + part(p), "rank %d's part is not "
                  "contiguous with rank %d's", r, p);
        if (noncontig)
            CHECK((uintptr_t)base[r] % (uintptr_t)page == 0, "noncontig part %d not "
                  "page aligned", r);
    }
    MPI_Aint sz;
    int du, *b0;
    MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &b0);
    CHECK(b0 == base[0] && sz == part(0) * (MPI_Aint)sizeof(int), "PROC_NULL query");
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < part(nrank); i++)
        mine[i] = nrank * 1000 + i;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    for (int r = 0; r < nsize; r++)
        for (int i = 0; i < part(r); i++)
            CHECK(base[r][i] == r * 1000 + i, "load of rank %d [%d] = %d", r, i,
                  base[r][i]);
    MPI_Barrier(node);
    /* everyone adds 1 to element 0 of rank 0 with Accumulate, and puts its
     * rank into rank 0's element 1 + nrank */
    int one = 1;
    MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    if (1 + nrank < part(0))
        MPI_Put(&nrank, 1, MPI_INT, 0, 1 + nrank, 1, MPI_INT, win);
    MPI_Win_flush_all(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    CHECK(base[0][0] == nsize, "accumulated %d want %d", base[0][0], nsize);
    for (int r = 0; r < nsize && 1 + r < part(0); r++)
        CHECK(base[0][1 + r] == r, "put by %d seen as %d", r, base[0][1 + r]);
    MPI_Win_unlock_all(win);
    CHECK_RC(MPI_Win_free(&win));
}

/* rank 0 spins on its own memory with MPI_Win_sync until the last rank's
 * Put lands: the sync must let rank 0 apply it */
static void spin(MPI_Comm node, int nrank, int nsize)
{
    int *p, *flag0, du;
    MPI_Aint sz;
    MPI_Win w;
    MPI_Win_allocate_shared(nrank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
                            node, &p, &w);
    MPI_Win_shared_query(w, 0, &sz, &du, &flag0);
    if (nrank == 0)
        *flag0 = 0;
    MPI_Win_lock_all(0, w);
    MPI_Barrier(node);
    if (nrank == nsize - 1) {
        int one = 1;
        MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, w);
        MPI_Win_flush(0, w);
    }
    if (nrank == 0) {
        long spins = 0;
        while (*(volatile int *)flag0 == 0 && spins++ < 100000000L)
            MPI_Win_sync(w);
        CHECK(*flag0 == 1, "the put never reached a rank spinning in MPI_Win_sync");
    }
    MPI_Win_unlock_all(w);
    MPI_Win_free(&w);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int nrank, nsize;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    run(node, nrank, nsize, false);
    run(node, nrank, nsize, true);
    spin(node, nrank, nsize);
    /* shared_query on a window that is not shared: no memory to share */
    int buf[2];
    MPI_Win win;
    MPI_Win_create(buf, sizeof(buf), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Aint sz = -1;
    int du, *p = buf;
    MPI_Win_shared_query(win, 0, &sz, &du, &p);
    CHECK(sz == 0 && p == NULL, "shared_query on a created window: %lld %p",
          (long long)sz, (void *)p);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    return ct_finish();
}
