/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * nbmulti.c - many nonblocking collectives outstanding at once on several
 * communicators (world, a duplicate, even/odd halves), mixed with
 * point-to-point traffic, completed in reverse order with MPI_Waitall or
 * driven by an MPI_Test loop; and persistent collectives restarted 100
 * times with new input each time (MPI_Start and MPI_Startall).
 */
#include "ctest_forms.h"

enum { N = 257, ROUNDS = 20, RESTARTS = 100 };

static void outstanding(MPI_Comm dup, MPI_Comm half, int round)
{
    int p = ct_size, me = ct_rank, hp, hme;
    MPI_Comm_size(half, &hp);
    MPI_Comm_rank(half, &hme);
    int bc[N], ar_in[N], ar[N], ag_in = me * 7 + round, *ag = ct_malloc(sizeof(int) * (size_t)hp);
    int *a2a_s = ct_malloc(sizeof(int) * (size_t)p), *a2a_r = ct_malloc(sizeof(int) * (size_t)p);
    int ptp_s = me + round, ptp_r = -1;
    int root = round % p;
    for (int k = 0; k < N; k++) {
        bc[k] = me == root ? round * 1000 + k : -1;
        ar_in[k] = me + k + round;
    }
    for (int j = 0; j < p; j++)
        a2a_s[j] = me * 100 + j;
    MPI_Request rq[7];
    CHECK_RC(MPI_Ibcast(bc, N, MPI_INT, root, MPI_COMM_WORLD, &rq[0]));
    CHECK_RC(MPI_Irecv(&ptp_r, 1, MPI_INT, (me - 1 + p) % p, 77, MPI_COMM_WORLD, &rq[1]));
    CHECK_RC(MPI_Iallreduce(ar_in, ar, N, MPI_INT, MPI_SUM, dup, &rq[2]));
    CHECK_RC(MPI_Iallgather(&ag_in, 1, MPI_INT, ag, 1, MPI_INT, half, &rq[3]));
    CHECK_RC(MPI_Isend(&ptp_s, 1, MPI_INT, (me + 1) % p, 77, MPI_COMM_WORLD, &rq[4]));
    CHECK_RC(MPI_Ialltoall(a2a_s, 1, MPI_INT, a2a_r, 1, MPI_INT, MPI_COMM_WORLD, &rq[5]));
    CHECK_RC(MPI_Ibarrier(dup, &rq[6]));
    if (round % 2 == 0) {
        MPI_Request rev[7];
        for (int i = 0; i < 7; i++)
            rev[i] = rq[6 - i];
        CHECK_RC(MPI_Waitall(7, rev, MPI_STATUSES_IGNORE));
    } else {
        int done = 0;
        long spins = 0;
        while (!done) {
            CHECK_RC(MPI_Testall(7, rq, &done, MPI_STATUSES_IGNORE));
            spins++;                      /* "computation" between tests */
        }
        CHECK(spins > 0, "no test loop");
    }
    for (int k = 0; k < N; k++) {
        int want = 0;
        for (int r = 0; r < p; r++)
            want += r + k + round;
        CHECK(bc[k] == round * 1000 + k, "round %d: ibcast [%d] = %d", round, k, bc[k]);
        CHECK(ar[k] == want, "round %d: iallreduce [%d] = %d, want %d", round, k, ar[k], want);
    }
    for (int j = 0; j < hp; j++) {
        int world = 2 * j + me % 2;       /* halves: even/odd world ranks */
        CHECK(ag[j] == world * 7 + round, "round %d: iallgather [%d] = %d", round, j, ag[j]);
    }
    for (int j = 0; j < p; j++)
        CHECK(a2a_r[j] == j * 100 + me, "round %d: ialltoall [%d] = %d", round, j, a2a_r[j]);
    CHECK(ptp_r == (me - 1 + p) % p + round, "round %d: point-to-point got %d", round, ptp_r);
    (void)hme;
    free(ag);
    free(a2a_s);
    free(a2a_r);
}

static void persistent(void)
{
    int p = ct_size, me = ct_rank;
    int in[N] = { 0 }, out[N], bc[N] = { 0 }, sc_in = 0, sc_out;
    MPI_Request rq[3];
    CHECK_RC(MPI_Allreduce_init(in, out, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]));
    CHECK_RC(MPI_Bcast_init(bc, N, MPI_INT, p - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]));
    CHECK_RC(MPI_Scan_init(&sc_in, &sc_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[2]));
    for (int it = 0; it < RESTARTS; it++) {
        for (int k = 0; k < N; k++) {
            in[k] = (me * 31 + k * 7 + it) % 101;
            bc[k] = me == p - 1 ? it * 3 + k : -1;
            out[k] = -1;
        }
        sc_in = me + it;
        if (it % 2 == 0) {
            CHECK_RC(MPI_Startall(3, rq));
        } else {
            for (int i = 0; i < 3; i++)
                CHECK_RC(MPI_Start(&rq[i]));
        }
        CHECK_RC(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
        for (int k = 0; k < N; k++) {
            int want = 0;
            for (int r = 0; r < p; r++)
                if ((r * 31 + k * 7 + it) % 101 > want)
                    want = (r * 31 + k * 7 + it) % 101;
            if (out[k] != want || bc[k] != it * 3 + k) {
                CHECK(0, "restart %d: allreduce [%d] = %d (want %d), bcast %d", it, k,
                      out[k], want, bc[k]);
                break;
            }
        }
        CHECK(sc_out == me * (me + 1) / 2 + (me + 1) * it, "restart %d: scan %d", it, sc_out);
    }
    for (int i = 0; i < 3; i++) {
        CHECK(rq[i] != MPI_REQUEST_NULL, "persistent request %d vanished", i);
        CHECK_RC(MPI_Request_free(&rq[i]));
    }
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, ct_rank % 2, ct_rank, &half);
    for (int round = 0; round < ROUNDS; round++)
        outstanding(dup, half, round);
    persistent();
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    return ct_finish();
}
