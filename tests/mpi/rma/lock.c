/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* lock.c - passive target: exclusive read-modify-write under MPI_Win_lock
 * (no increment lost), shared locks with Get, a fetch-and-op counter from
 * every rank into rank 0 under lock_all with flushes, compare-and-swap as
 * a mutex around a non-atomic update, MPI_MODE_NOCHECK, request-based
 * operations completed by MPI_Wait/Waitall/Test, and a target that sits in
 * MPI_Barrier while the others lock it (passive progress). */
#include "../common/ctest.h"

enum { ITER = 20 };

static void exclusive_rmw(void)
{
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    *mem = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < ITER; k++) {
        int v;
        CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        v++;
        MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        CHECK_RC(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int v = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);
    CHECK(v == ITER * ct_size, "exclusive increments: %d want %d", v, ITER * ct_size);
    MPI_Win_free(&win);
}

static void counter(void)
{
    long *mem;
    MPI_Win win;
    MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    *mem = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    long one = 1, prev = -1, old;
    int ok = 1;
    for (int k = 0; k < ITER; k++) {
        MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        ok &= old > prev;
        prev = old;
    }
    MPI_Win_unlock_all(win);
    CHECK(ok, "fetched values of one rank not increasing");
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        CHECK(*mem == (long)ITER * ct_size, "counter %ld want %d", *mem, ITER * ct_size);
    MPI_Win_free(&win);
}

/* mem[0] is the mutex (0 free, rank+1 held), mem[1] the protected count */
static void cas_mutex(void)
{
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                     &win);
    mem[0] = mem[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    int me = ct_rank + 1, zero = 0, got;
    for (int k = 0; k < ITER; k++) {
        do {
            MPI_Compare_and_swap(&me, &zero, &got, MPI_INT, 0, 0, win);
            MPI_Win_flush(0, win);
        } while (got != 0);
        int c;
        MPI_Get(&c, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        c++;
        MPI_Put(&c, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        MPI_Compare_and_swap(&zero, &me, &got, MPI_INT, 0, 0, win);
        MPI_Win_flush(0, win);
        CHECK(got == me, "mutex held by %d while I (%d) released it", got, me);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        CHECK(mem[1] == ITER * ct_size && mem[0] == 0, "mutex count %d (want %d), "
              "mutex %d", mem[1], ITER * ct_size, mem[0]);
    MPI_Win_free(&win);
}

static void requests(void)
{
    enum { M = 64 };
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(M * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                     &win);
    for (int i = 0; i < M; i++)
        mem[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    int src[M], got[M], fetched[M];
    for (int i = 0; i < M; i++)
        src[i] = ct_rank * 100 + i;
    MPI_Win_lock_all(0, win);
    MPI_Request rq[3];
    CHECK_RC(MPI_Rput(src, M, MPI_INT, right, 0, M, MPI_INT, win, &rq[0]));
    CHECK_RC(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    CHECK(rq[0] == MPI_REQUEST_NULL, "Wait did not free the Rput request");
    CHECK_RC(MPI_Rget(got, M, MPI_INT, right, 0, M, MPI_INT, win, &rq[0]));
    CHECK_RC(MPI_Raccumulate(src, M, MPI_INT, right, 0, M, MPI_INT, MPI_SUM, win, &rq[1]));
    CHECK_RC(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < M; i++)
        CHECK(got[i] == src[i], "rget: %d want %d", got[i], src[i]);
    CHECK_RC(MPI_Rget_accumulate(src, M, MPI_INT, fetched, M, MPI_INT, right, 0, M,
                                 MPI_INT, MPI_SUM, win, &rq[2]));
    int flag = 0;
    while (!flag)
        MPI_Test(&rq[2], &flag, MPI_STATUS_IGNORE);
    for (int i = 0; i < M; i++)
        CHECK(fetched[i] == 2 * src[i], "rget_accumulate: %d want %d", fetched[i],
              2 * src[i]);
    CHECK_RC(MPI_Rput(src, M, MPI_INT, MPI_PROC_NULL, 0, M, MPI_INT, win, &rq[0]));
    CHECK_RC(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < M; i++)
        CHECK(mem[i] == 3 * (left * 100 + i), "requests: mem[%d] = %d", i, mem[i]);
    MPI_Win_free(&win);
}

/* rank 0 sits in MPI_Barrier while the others lock it and put */
static void passive_progress(void)
{
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(ct_size * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &mem, &win);
    for (int i = 0; i < ct_size; i++)
        mem[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank != 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&ct_rank, 1, MPI_INT, 0, ct_rank, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        for (int i = 1; i < ct_size; i++)
            CHECK(mem[i] == i, "passive put from %d: %d", i, mem[i]);
    MPI_Win_free(&win);
}

/* Right after creation (no fence, no barrier), every rank locks every
 * rank in turn: a lock request may reach a rank still inside
 * MPI_Win_create. */
static void lock_each(void)
{
    for (int rep = 0; rep < 5; rep++) {
        int mem[2] = { 0, 0 };
        MPI_Win win;
        MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        for (int t = 0; t < ct_size; t++) {
            int one = 1;
            CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
            MPI_Accumulate(&one, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_SUM, win);
            CHECK_RC(MPI_Win_unlock(t, win));
        }
        MPI_Win_free(&win);
        CHECK(mem[0] == ct_size, "lock_each: %d accumulates arrived, want %d", mem[0],
              ct_size);
    }
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    lock_each();
    exclusive_rmw();
    counter();
    cas_mutex();
    requests();
    passive_progress();
    return ct_finish();
}
