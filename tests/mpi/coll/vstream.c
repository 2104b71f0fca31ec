/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * vstream.c - MPI_Gatherv and MPI_Scatterv with blocks of every size in one
 * call (src/coll/stream_gather.c, the table's choice on one node at 3+
 * ranks: each block goes through its writer's flow cell, its ring or a
 * message, as its size says, and the reader follows the writer's
 * descriptor): blocks from 0 bytes to beyond a slot (1.2 MB), every root,
 * MPI_IN_PLACE at the root, the root's side a type with holes (an int
 * resized to 8 bytes) or contiguous, reverse-order displacements with gaps
 * that must stay untouched, back to back with a napping rank (the cells
 * and rings wrap and the writers wait for room), mixed with a slot
 * collective and a flow bcast (the stream's node barrier on each switch).
 * Then counts that differ between the root and rank 1 (a cell's, a ring's
 * and a message's size, longer and shorter), under MPI_ERRORS_RETURN: the
 * reader gets MPI_ERR_TRUNCATE, the others succeed, nobody hangs, and a
 * correct call follows. With arg "counted" (where the table picks the
 * stream algorithms): the messages each rank sends in a call
 * (pt2pt_messages_sent) are exactly its blocks beyond 128 KiB, or beyond
 * 32 KiB where p - 1 of them pass 1 MiB (gatherv; at 2 ranks beyond
 * 32 KiB), or beyond 64 KiB (scatterv).
 */
#include <stdbool.h>
#include <time.h>
#include "ctest.h"
#include "ct_pvar.h"

enum { ITERS = 240, GAP = -7, BIG = 300000 /* ints: beyond a 960 KiB slot */,
       SV_RING = 16384 /* ints: scatterv's largest block through the root's ring */,
       GV_PAIR_RING = 8192 /* ints: gatherv's largest block through a ring at 2 ranks */,
       GV_RING = 32768 /* ints: from 3 ranks, its largest block through a ring ... */,
       GV_RING_SMALL = 8192 /* ... or this, where p - 1 such blocks pass 1 MiB */ };
static const int sizes[] = { 0, 1, 2, 30, 127, 128, 129, 200, 1000, 16384, 16385, 70000 };
enum { NS = sizeof sizes / sizeof sizes[0] };

static bool counted;
static MPI_T_pvar_session sess;
static MPI_T_pvar_handle sent_h;

/* unsigned arithmetic: wraps, never overflows (the mismatch cases pass a
 * count as `it`) */
static int val(int it, int src, int k)
{
    return (int)((unsigned)it * 100003u + (unsigned)src * 7919u + (unsigned)k);
}

static int cnt(int it, int rank)
{
    if (it % 40 == 7 && rank == (it / 40) % ct_size)
        return BIG;
    return sizes[(it * 3 + rank * 5) % NS];
}

static unsigned long long sent_now(void)
{
    return counted ? ct_pvar_read(sess, sent_h) : 0;
}

static void nap_ms(int ms)
{
    struct timespec ts = { 0, ms * 1000000L };
    nanosleep(&ts, NULL);
}

/* Reverse-order displacements with a one-element gap after each block;
 * the elements the root's buffer needs. */
static int rev_displs(const int *counts, int *displs)
{
    int off = 0;
    for (int i = ct_size - 1; i >= 0; i--) {
        displs[i] = off;
        off += counts[i] + 1;
    }
    return off;
}

/* The root's buffer: n elements of its type (holey: every other int). */
static int *root_buf(int n, bool holey)
{
    size_t ints = (size_t)n * (holey ? 2 : 1);
    int *b = ct_malloc(ints * sizeof(int));
    for (size_t x = 0; x < ints; x++)
        b[x] = GAP;
    return b;
}

static int *elem(int *b, int e, bool holey) { return &b[(size_t)e * (holey ? 2 : 1)]; }

/* Every element of the root's buffer: block i's values where it lies, GAP
 * everywhere else (gaps and holes). */
static void check_root(const char *what, int it, int *b, int n, bool holey, const int *counts,
                       const int *displs, int skip)
{
    int bad = 0;
    char *want = calloc((size_t)n * 2 + 1, 1);
    for (int i = 0; i < ct_size; i++)
        for (int k = 0; k < counts[i]; k++) {
            want[(size_t)(displs[i] + k) * (holey ? 2 : 1)] = 1;
            if (i != skip && *elem(b, displs[i] + k, holey) != val(it, i, k) && bad++ < 3)
                CHECK(0, "%s it %d: block %d[%d] = %d, want %d", what, it, i, k,
                      *elem(b, displs[i] + k, holey), val(it, i, k));
        }
    for (size_t x = 0; x < (size_t)n * (holey ? 2 : 1); x++)
        if (!want[x] && b[x] != GAP && bad++ < 3)
            CHECK(0, "%s it %d: int %zu outside every block overwritten (%d)", what, it, x,
                  b[x]);
    free(want);
}

static void gatherv(int it, int root, bool holey, bool inplace, MPI_Datatype hole)
{
    int counts[64], displs[64], me = ct_rank, c = cnt(it, me);
    for (int i = 0; i < ct_size; i++)
        counts[i] = cnt(it, i);
    int n = rev_displs(counts, displs);
    int *r = me == root ? root_buf(n, holey) : NULL, *s = ct_malloc((size_t)c * sizeof(int));
    for (int k = 0; k < c; k++)
        s[k] = val(it, me, k);
    const void *sb = s;
    if (me == root && inplace) {
        for (int k = 0; k < c; k++)
            *elem(r, displs[me] + k, holey) = val(it, me, k);
        sb = MPI_IN_PLACE;
    }
    unsigned long long before = sent_now();
    CHECK_RC(MPI_Gatherv(sb, c, MPI_INT, r, counts, displs, holey ? hole : MPI_INT, root,
                         MPI_COMM_WORLD));
    /* a message: at two ranks beyond 32 KiB; from 3, beyond 128 KiB, or
     * beyond 32 KiB where p - 1 blocks of its size pass 1 MiB */
    bool msg = ct_size == 2 ? c > GV_PAIR_RING
             : c > GV_RING || (c > GV_RING_SMALL && (long long)(ct_size - 1) * c * 4 > 1 << 20);
    if (counted)
        CHECK(sent_now() - before == (unsigned long long)(me != root && msg),
              "gatherv it %d: %llu messages sent for a block of %d ints", it,
              sent_now() - before, c);
    if (me == root)
        check_root("gatherv", it, r, n, holey, counts, displs, -1);
    free(r);
    free(s);
}

static void scatterv(int it, int root, bool holey, bool inplace, MPI_Datatype hole)
{
    int counts[64], displs[64], me = ct_rank, c = cnt(it, me), big = 0;
    for (int i = 0; i < ct_size; i++) {
        counts[i] = cnt(it, i);
        big += i != root && counts[i] > SV_RING;
    }
    int n = rev_displs(counts, displs);
    int *s = me == root ? root_buf(n, holey) : NULL, *r = ct_malloc((size_t)(c + 1) * sizeof(int));
    if (me == root)
        for (int i = 0; i < ct_size; i++)
            for (int k = 0; k < counts[i]; k++)
                *elem(s, displs[i] + k, holey) = val(it, i, k);
    for (int k = 0; k <= c; k++)
        r[k] = GAP;
    void *rb = me == root && inplace ? MPI_IN_PLACE : (void *)r;
    unsigned long long before = sent_now();
    CHECK_RC(MPI_Scatterv(s, counts, displs, holey ? hole : MPI_INT, rb, c, MPI_INT, root,
                          MPI_COMM_WORLD));
    if (counted)
        CHECK(sent_now() - before == (unsigned long long)(me == root ? big : 0),
              "scatterv it %d: %llu messages sent, want %d", it, sent_now() - before,
              me == root ? big : 0);
    if (rb != MPI_IN_PLACE) {
        int bad = 0;
        for (int k = 0; k < c; k++)
            if (r[k] != val(it, me, k) && bad++ < 3)
                CHECK(0, "scatterv it %d root %d: [%d] = %d, want %d", it, root, k, r[k],
                      val(it, me, k));
        CHECK(r[c] == GAP, "scatterv it %d: the int after the block was overwritten", it);
    } else {
        check_root("scatterv (the root's send buffer)", it, s, n, holey, counts, displs, -1);
    }
    free(s);
    free(r);
}

/* Something between the stream calls: a slot collective (allreduce of 8 KB
 * through the node slots) and a flow cell bcast. */
static void between(int it)
{
    int x[2000], y[2000], b[8];
    for (int k = 0; k < 2000; k++)
        x[k] = val(it, ct_rank, k) % 1000;
    CHECK_RC(MPI_Allreduce(x, y, 2000, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int k = 0; k < 2000; k += 199) {
        int want = 0;
        for (int i = 0; i < ct_size; i++)
            want += val(it, i, k) % 1000;
        CHECK(y[k] == want, "allreduce it %d: [%d] = %d, want %d", it, k, y[k], want);
    }
    for (int k = 0; k < 8; k++)
        b[k] = ct_rank == it % ct_size ? val(it, 0, k) : 0;
    CHECK_RC(MPI_Bcast(b, 8, MPI_INT, it % ct_size, MPI_COMM_WORLD));
    CHECK(b[7] == val(it, 0, 7), "bcast it %d: %d", it, b[7]);
}

/* Counts that differ: the root's count for rank 1 is n, rank 1's n + d. */
static void mismatch(MPI_Comm comm, int n, int d)
{
    int p = ct_size, me = ct_rank, counts[64], displs[64];
    for (int i = 0; i < p; i++) {
        counts[i] = n;
        displs[i] = i * (n + 8);
    }
    size_t tot = (size_t)p * (size_t)(n + 8);
    int mine = me == 1 ? n + d : n;
    int *big = ct_malloc(tot * sizeof(int)), *one = ct_malloc((size_t)(n + 8) * sizeof(int));
    for (size_t x = 0; x < tot; x++)
        big[x] = 1;
    for (int k = 0; k < n + 8; k++)
        one[k] = 2;
    int rc = MPI_Gatherv(one, mine, MPI_INT, big, counts, displs, MPI_INT, 0, comm);
    if (me == 0)
        CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "gatherv of %d ints from rank 1 where the "
              "root expects %d: error class %d, want MPI_ERR_TRUNCATE", n + d, n, ct_class(rc));
    else
        CHECK(rc == MPI_SUCCESS, "gatherv (mismatch %d/%d) on rank %d: %d", n + d, n, me, rc);
    rc = MPI_Scatterv(big, counts, displs, MPI_INT, one, mine, MPI_INT, 0, comm);
    if (me == 1)
        CHECK(ct_class(rc) == MPI_ERR_TRUNCATE, "scatterv of %d ints to rank 1 where it "
              "expects %d: error class %d, want MPI_ERR_TRUNCATE", n, n + d, ct_class(rc));
    else
        CHECK(rc == MPI_SUCCESS, "scatterv (mismatch %d/%d) on rank %d: %d", n, n + d, me, rc);
    /* the communicator still works: a correct gatherv */
    for (int k = 0; k < n; k++)
        one[k] = val(n, me, k);
    CHECK_RC(MPI_Gatherv(one, n, MPI_INT, big, counts, displs, MPI_INT, 0, comm));
    if (me == 0)
        for (int i = 0; i < p; i++)
            CHECK(n == 0 || (big[displs[i]] == val(n, i, 0) &&
                             big[displs[i] + n - 1] == val(n, i, n - 1)),
                  "gatherv after a mismatch: block %d wrong", i);
    free(big);
    free(one);
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
    MPI_Datatype hole;
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &hole);
    MPI_Type_commit(&hole);
    for (int it = 0; it < ITERS; it++) {
        int root = (it / 2) % ct_size;
        bool holey = it % 4 >= 2, inplace = it % 6 == 1 || it % 6 == 4;
        if (ct_rank == (it / 60) % ct_size && it % 17 == 0)
            nap_ms(2);
        if (it % 2 == 0)
            gatherv(it, root, holey, inplace, hole);
        else
            scatterv(it, root, holey, inplace, hole);
        if (it % 10 == 9)
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
        static const int ns[] = { 10, 125, 127, 130, 1000, 50000, BIG };   /* 127 + 3, 130 - 3: across a 512-byte cell */
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            mismatch(comm, ns[i], 3);
            mismatch(comm, ns[i], -3);
        }
        MPI_Comm_free(&comm);
    }
    return ct_finish();
}
