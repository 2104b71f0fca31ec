/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * vexchange.c - MPI_Alltoallv and MPI_Alltoallw with blocks of every size
 * in one call (src/coll/alltoall_shm_v.c, the table's choice on one node
 * at 3+ ranks: each block through its writer's slot up to 16 KiB, beyond
 * as a message, and the reader follows the writer's descriptor): blocks
 * from 0 bytes to 400 KB, counts that differ per pair, reverse-order
 * displacements with gaps that must stay untouched, MPI_IN_PLACE
 * (symmetric counts), the receive side an int resized to 8 bytes (holes),
 * Alltoallw with a strided type for odd peers on the send side and byte
 * displacements, back to back with a napping rank, mixed with the other
 * node collectives (a slot allreduce, a flow bcast, a stream gatherv: the
 * slots' parities and the stream's barriers). Then counts that differ
 * between rank 1 and rank 0 (both sides of the 16 KiB cut, longer and
 * shorter), under MPI_ERRORS_RETURN: rank 0 gets MPI_ERR_TRUNCATE, the
 * others succeed, nobody hangs, and a correct call follows. With arg
 * "counted" (where the table picks `shm`): the messages each rank sends
 * in a call (pt2pt_messages_sent) are exactly its blocks beyond 16 KiB.
 */
#include <stdbool.h>
#include <time.h>
#include "ctest.h"
#include "ct_pvar.h"

enum { ITERS = 160, GAP = -7, CUT = 4096 /* ints: 16 KiB, the slot's largest block */ };
static const int sizes[] = { 0, 1, 3, 100, 1000, 4096, 4097, 20000 };
enum { NS = sizeof sizes / sizeof sizes[0] };

static bool counted;
static MPI_T_pvar_session sess;
static MPI_T_pvar_handle sent_h;

/* unsigned arithmetic: wraps, never overflows (the mismatch cases pass a
 * count as `it`) */
static int val(int it, int src, int dst, int k)
{
    return (int)((unsigned)it * 1000003u + (unsigned)src * 7919u + (unsigned)dst * 101u +
                 (unsigned)k);
}

/* Elements src sends dst in iteration it (symmetric when `sym`). */
static int cnt(int it, int src, int dst, bool sym)
{
    if (sym && src > dst) {
        int t = src;
        src = dst;
        dst = t;
    }
    if (it % 25 == 11 && src == (it / 25) % ct_size && dst == (src + 1) % ct_size)
        return 100000;
    return sizes[(it * 3 + src * 5 + dst * 7) % NS];
}

static unsigned long long sent_now(void)
{
    return counted ? ct_pvar_read(sess, sent_h) : 0;
}

/* Reverse-order displacements (in elements) with a one-element gap after
 * each block; the elements the buffer needs. */
static int rev_displs(const int *counts, int *displs)
{
    int off = 0;
    for (int i = ct_size - 1; i >= 0; i--) {
        displs[i] = off;
        off += counts[i] + 1;
    }
    return off;
}

static int *filled(size_t ints)
{
    int *b = ct_malloc(ints * sizeof(int));
    for (size_t x = 0; x < ints; x++)
        b[x] = GAP;
    return b;
}

/* One Alltoallv (w: Alltoallw) of iteration it. */
static void exchange(int it, bool w, bool holey, bool in_place, MPI_Datatype hole)
{
    int p = ct_size, me = ct_rank, sc[64], rc[64], sd[64], rd[64], big = 0;
    for (int j = 0; j < p; j++) {
        sc[j] = cnt(it, me, j, in_place);
        rc[j] = cnt(it, j, me, in_place);
        big += j != me && sc[j] > CUT;
    }
    int rn = rev_displs(rc, rd), sn = rev_displs(sc, sd), step = holey ? 2 : 1;
    int *r = filled((size_t)rn * (size_t)step), *s = filled((size_t)sn * 2);
    /* send side: block j at sd[j]; odd peers of Alltoallw take every other int */
    for (int j = 0; j < p; j++)
        for (int k = 0; k < sc[j]; k++) {
            int sstep = w && j % 2 == 1 ? 2 : 1;
            s[(size_t)sd[j] * (w ? 2 : 1) + (size_t)k * sstep] = val(it, me, j, k);
        }
    if (in_place)
        for (int j = 0; j < p; j++)
            for (int k = 0; k < rc[j]; k++)
                r[(size_t)(rd[j] + k) * step] = val(it, me, j, k);
    MPI_Datatype rt = holey ? hole : MPI_INT;
    const void *sb = in_place ? MPI_IN_PLACE : (const void *)s;
    unsigned long long before = sent_now();
    if (!w) {
        CHECK_RC(MPI_Alltoallv(sb, sc, sd, MPI_INT, r, rc, rd, rt, MPI_COMM_WORLD));
    } else {
        int sdb[64], rdb[64];
        MPI_Datatype sts[64], rts[64];
        for (int j = 0; j < p; j++) {
            sdb[j] = sd[j] * 2 * (int)sizeof(int);
            rdb[j] = rd[j] * step * (int)sizeof(int);
            sts[j] = j % 2 == 1 ? hole : MPI_INT;
            rts[j] = rt;
        }
        if (in_place)
            CHECK_RC(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, r, rc, rdb, rts,
                                   MPI_COMM_WORLD));
        else
            CHECK_RC(MPI_Alltoallw(s, sc, sdb, sts, r, rc, rdb, rts, MPI_COMM_WORLD));
    }
    if (counted)
        CHECK(sent_now() - before == (unsigned long long)big, "%s it %d: %llu messages "
              "sent, want %d (blocks beyond 16 KiB)", w ? "alltoallw" : "alltoallv", it,
              sent_now() - before, big);
    int bad = 0;
    char *want = calloc((size_t)rn * (size_t)step + 1, 1);
    for (int i = 0; i < p; i++)
        for (int k = 0; k < rc[i]; k++) {
            size_t x = (size_t)(rd[i] + k) * (size_t)step;
            want[x] = 1;
            if (r[x] != val(it, i, me, k) && bad++ < 3)
                CHECK(0, "%s it %d%s: block from %d [%d] = %d, want %d",
                      w ? "alltoallw" : "alltoallv", it, in_place ? " in place" : "", i, k,
                      r[x], val(it, i, me, k));
        }
    for (size_t x = 0; x < (size_t)rn * (size_t)step; x++)
        if (!want[x] && r[x] != GAP && bad++ < 3)
            CHECK(0, "it %d: int %zu outside every block overwritten (%d)", it, x, r[x]);
    free(want);
    free(r);
    free(s);
}

/* The other node collectives between the exchanges. */
static void between(int it)
{
    int x[1500], y[1500], b[4], g[64], counts[64], displs[64], me = ct_rank;
    for (int k = 0; k < 1500; k++)
        x[k] = (it + me + k) % 100;
    CHECK_RC(MPI_Allreduce(x, y, 1500, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    int want = 0;
    for (int i = 0; i < ct_size; i++)
        want += (it + i + 1499) % 100;
    CHECK(y[1499] == want, "allreduce it %d: %d, want %d", it, y[1499], want);
    for (int k = 0; k < 4; k++)
        b[k] = me == 0 ? it + k : -1;
    CHECK_RC(MPI_Bcast(b, 4, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(b[3] == it + 3, "bcast it %d: %d", it, b[3]);
    for (int i = 0; i < ct_size; i++) {
        counts[i] = 1;
        displs[i] = ct_size - 1 - i;
    }
    int mine = it * 10 + me;
    CHECK_RC(MPI_Gatherv(&mine, 1, MPI_INT, g, counts, displs, MPI_INT, it % ct_size,
                         MPI_COMM_WORLD));
    if (me == it % ct_size)
        for (int i = 0; i < ct_size; i++)
            CHECK(g[ct_size - 1 - i] == it * 10 + i, "gatherv it %d: from %d %d", it, i,
                  g[ct_size - 1 - i]);
}

/* Rank 1 sends rank 0 n + d ints where rank 0 expects n (every other
 * block n ints); then a correct exchange. */
static void mismatch(MPI_Comm comm, int n, int d, bool w)
{
    int p = ct_size, me = ct_rank, sc[64], rc[64], sd[64], rd[64];
    MPI_Datatype ty[64];
    for (int j = 0; j < p; j++) {
        sc[j] = rc[j] = n;
        sd[j] = rd[j] = j * (n + 8);
        ty[j] = MPI_INT;
    }
    if (me == 1)
        sc[0] = n + d;
    size_t tot = (size_t)p * (size_t)(n + 8);
    int *s = filled(tot), *r = filled(tot);
    int sdb[64], rdb[64];       /* Alltoallw: bytes */
    for (int j = 0; j < p; j++) {
        sdb[j] = sd[j] * (int)sizeof(int);
        rdb[j] = rd[j] * (int)sizeof(int);
    }
    int rc_ = w ? MPI_Alltoallw(s, sc, sdb, ty, r, rc, rdb, ty, comm)
                : MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, comm);
    if (me == 0)
        CHECK(ct_class(rc_) == MPI_ERR_TRUNCATE, "%s: %d ints from rank 1 where rank 0 "
              "expects %d: error class %d, want MPI_ERR_TRUNCATE", w ? "alltoallw" : "alltoallv",
              n + d, n, ct_class(rc_));
    else
        CHECK(rc_ == MPI_SUCCESS, "%s (mismatch %d/%d) on rank %d: %d",
              w ? "alltoallw" : "alltoallv", n + d, n, me, rc_);
    sc[0] = n;
    for (int j = 0; j < p; j++)
        for (int k = 0; k < n; k++)
            s[(size_t)sd[j] + (size_t)k] = val(n, me, j, k);
    CHECK_RC(MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, comm));
    for (int i = 0; i < p; i++)
        CHECK(n == 0 || (r[rd[i]] == val(n, i, me, 0) && r[rd[i] + n - 1] == val(n, i, me, n - 1)),
              "alltoallv after a mismatch: block from %d wrong", i);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    counted = argc > 1 && strcmp(argv[1], "counted") == 0;
    if (counted) {
        int prov;
        CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &prov));
        CHECK_RC(MPI_T_pvar_session_create(&sess));
        sent_h = ct_pvar_counter(sess, "pt2pt_messages_sent");
        CHECK(sent_h != MPI_T_PVAR_HANDLE_NULL, "no pt2pt_messages_sent counter");
    }
    MPI_Datatype hole;          /* every other int: holey receive sides, and the
                                   send side of odd peers in Alltoallw */
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &hole);
    MPI_Type_commit(&hole);
    for (int it = 0; it < ITERS; it++) {
        if (ct_rank == (it / 40) % ct_size && it % 13 == 0) {
            struct timespec ts = { 0, 2000000L };
            nanosleep(&ts, NULL);
        }
        exchange(it, it % 2 == 1, it % 4 >= 2, it % 5 == 3, hole);
        if (it % 8 == 7)
            between(it);
    }
    MPI_Type_free(&hole);
    if (counted) {
        CHECK_RC(MPI_T_pvar_handle_free(sess, &sent_h));
        CHECK_RC(MPI_T_pvar_session_free(&sess));
        CHECK_RC(MPI_T_finalize());
    }
    if (ct_size > 1) {
        MPI_Comm comm;
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        static const int ns[][2] = { { 10, 3 }, { 10, -3 }, { 4000, 3 }, { 4095, 3 },
                                     { 4098, -3 }, { 6000, 3 }, { 6000, -3 } };
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            mismatch(comm, ns[i][0], ns[i][1], i % 2 == 1);
        MPI_Comm_free(&comm);
    }
    return ct_finish();
}
