/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mcast.c - MPI_Bcast across "hosts" with XB_MCAST=1 (bcast_mcast.c):
 * sizes from 0 to 4 MiB plus odd ones (a last frame that is short, several
 * windows), every root kind (first, last, middle), on COMM_WORLD, on a
 * duplicate, on a reversed communicator (its node heads are not the
 * processes that joined the group) and on halves that are not node-whole
 * (the fallback), with a strided layout at the root against contiguous
 * bytes elsewhere. Calls on two communicators alternate, so datagrams of
 * another communicator and of earlier calls reach the receivers, and a
 * communicator freed and made again repeats context id, tags and lengths
 * with other bytes.
 *
 * Then it checks, summed over the job, what MPI_T says the library did,
 * as XB_TEST_MCAST asks:
 *   sent    datagrams were multicast and received, and the bytes that
 *           came by point-to-point instead (losses) are a small part
 *   repair  the same, and (XB_MCAST_DROP) some frames were dropped and
 *           repaired by point-to-point
 *   none    no datagram (multicast off or refused: the job fell back)
 * A machine whose loopback does not carry multicast makes the job go
 * without (method_mcast_active 0): the test then says so and checks the
 * broadcasts only.
 */
#include <stdlib.h>
#include <string.h>
#include "ctest.h"
#include "ct_pvar.h"

static unsigned char val(size_t i, int call) { return (unsigned char)(i * 7 + (size_t)call * 13 + 1); }

static void contig(MPI_Comm comm, size_t n, int root, int call)
{
    int r;
    MPI_Comm_rank(comm, &r);
    unsigned char *b = ct_malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        b[i] = r == root ? val(i, call) : 0;
    CHECK_RC(MPI_Bcast(b, (int)n, MPI_BYTE, root, comm));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += b[i] != val(i, call);
    CHECK(bad == 0, "bcast call %d of %zu bytes from %d: %zu wrong", call, n, root, bad);
    free(b);
}

/* The root sends every other int of 2n; the others receive n ints. */
static void strided(MPI_Comm comm, int n, int root, int call)
{
    int r;
    MPI_Comm_rank(comm, &r);
    int *b = ct_malloc((size_t)(2 * n + 1) * sizeof(int));
    MPI_Datatype vec;
    CHECK_RC(MPI_Type_vector(n, 1, 2, MPI_INT, &vec));
    CHECK_RC(MPI_Type_commit(&vec));
    for (int i = 0; i < 2 * n; i++)
        b[i] = r == root ? (i % 2 ? -7 : i / 2 * 3 + call) : -1;
    if (r == root)
        CHECK_RC(MPI_Bcast(b, 1, vec, root, comm));
    else
        CHECK_RC(MPI_Bcast(b, n, MPI_INT, root, comm));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += r == root ? b[2 * i] != i * 3 + call || b[2 * i + 1] != -7 : b[i] != i * 3 + call;
    CHECK(bad == 0, "strided bcast call %d of %d ints from %d: %d wrong", call, n, root, bad);
    MPI_Type_free(&vec);
    free(b);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int provided;
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_T_pvar_session ses;
    CHECK_RC(MPI_T_pvar_session_create(&ses));
    MPI_T_pvar_handle h[5] = {
        ct_pvar_counter(ses, "method_mcast_datagrams_sent"),
        ct_pvar_counter(ses, "method_mcast_datagrams_received"),
        ct_pvar_counter(ses, "method_mcast_repaired_bytes"),
        ct_pvar_counter(ses, "method_mcast_datagrams_dropped"),
        ct_pvar_counter(ses, "method_mcast_bytes_sent"),
    };

    int idx = -1, count;
    unsigned long long active = 0;
    MPI_T_pvar_handle ah = MPI_T_PVAR_HANDLE_NULL;
    CHECK_RC(MPI_T_pvar_get_index("method_mcast_active", MPI_T_PVAR_CLASS_LEVEL, &idx));
    CHECK_RC(MPI_T_pvar_handle_alloc(ses, idx, NULL, &ah, &count));
    CHECK_RC(MPI_T_pvar_read(ses, ah, &active));
    CHECK_RC(MPI_T_pvar_handle_free(ses, &ah));

    MPI_Comm dup, rev, half;
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, 0, ct_size - ct_rank, &rev));
    CHECK_RC(MPI_Comm_split(MPI_COMM_WORLD, ct_rank % 2, ct_rank, &half));
    static const size_t sizes[] = { 0, 1, 8191, 8192, 100000, 1000003, 4194304 };
    int roots[3] = { 0, ct_size - 1, ct_size / 2 }, call = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int k = 0; k < 3; k++) {
            contig(MPI_COMM_WORLD, sizes[s], roots[k], call++);
            contig(k == 1 ? rev : dup, sizes[s], roots[(k + 1) % 3], call++);
        }
    int hsize;
    MPI_Comm_size(half, &hsize);
    contig(half, 300000, hsize - 1, call++);
    strided(MPI_COMM_WORLD, 250000, ct_size - 1, call++);
    strided(rev, 3000, 0, call++);
    for (int i = 0; i < 50; i++)                 /* back to back, roots moving */
        contig(i % 2 ? dup : MPI_COMM_WORLD, 20000 + (size_t)i * 997, i % ct_size, call++);
    /* a communicator freed and made again gets its context id back and
     * starts its calls over: the same id, tag and length, other bytes,
     * while frames of the earlier ones may still sit in a socket */
    for (int i = 0; i < 8; i++) {
        MPI_Comm again;
        CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &again));
        contig(again, 200000, i % 2 ? 0 : ct_size - 1, call++);
        contig(again, 200000, i % 3, call++);
        CHECK_RC(MPI_Comm_free(&again));
    }

    unsigned long long mine[5], sum[5];
    for (int i = 0; i < 5; i++)
        mine[i] = ct_pvar_read(ses, h[i]);
    CHECK_RC(MPI_Allreduce(mine, sum, 5, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
    const char *want = getenv("XB_TEST_MCAST");
    want = want != NULL ? want : "sent";
    if (ct_rank == 0)
        printf("mcast: %llu datagrams sent, %llu received, %llu dropped, %llu bytes "
               "repaired (expected: %s)\n", sum[0], sum[1], sum[3], sum[2], want);
    if (strcmp(want, "none") != 0 && !active) {
        if (ct_rank == 0)
            printf("mcast: multicast does not work here (the job went without it); "
                   "only the broadcasts were checked\n");
    } else if (strcmp(want, "none") == 0) {
        CHECK(sum[0] == 0 && sum[1] == 0, "multicast should be off, but %llu datagrams "
              "were sent and %llu received", sum[0], sum[1]);
    } else {
        CHECK(sum[0] > 0 && sum[1] > 0, "no multicast: %llu datagrams sent, %llu received",
              sum[0], sum[1]);
        if (strcmp(want, "repair") == 0)
            CHECK(sum[3] > 0 && sum[2] > 0, "drops should have been repaired: %llu dropped, "
                  "%llu bytes repaired", sum[3], sum[2]);
        else
            CHECK(sum[2] * 4 < sum[4], "%llu bytes were repaired, of %llu multicast, with "
                  "no loss asked for", sum[2], sum[4]);
    }
    for (int i = 0; i < 5; i++)
        if (h[i] != MPI_T_PVAR_HANDLE_NULL)
            MPI_T_pvar_handle_free(ses, &h[i]);
    MPI_T_pvar_session_free(&ses);
    MPI_T_finalize();
    MPI_Comm_free(&dup);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    return ct_finish();
}
