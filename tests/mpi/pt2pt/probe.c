/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * probe.c - Probe, Iprobe, Mprobe, Improbe, Mrecv, Imrecv (eager and
 * rendezvous messages), MPI_PROC_NULL and MPI_MESSAGE_NO_PROC.
 */
#include "ptest.h"

enum { BIG = 200000 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char *sb = malloc(BIG), *rb = malloc(BIG);
    pt_fill(sb, BIG, rank);
    MPI_Request sr[3];
    CHECK_RC(MPI_Isend(sb, 10, MPI_BYTE, right, 1, MPI_COMM_WORLD, &sr[0]));
    CHECK_RC(MPI_Isend(sb, BIG, MPI_BYTE, right, 2, MPI_COMM_WORLD, &sr[1]));
    CHECK_RC(MPI_Isend(sb, 20, MPI_BYTE, right, 3, MPI_COMM_WORLD, &sr[2]));

    MPI_Status st;
    int cnt;
    /* Probe with ANY_TAG sees the first message; it stays there */
    CHECK_RC(MPI_Probe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_TAG == 1 && st.MPI_SOURCE == left);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == 10);
    CHECK_RC(MPI_Probe(MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_TAG == 1);
    /* Mprobe takes the rendezvous message; a later Probe with ANY_TAG no longer sees it */
    MPI_Message m;
    CHECK_RC(MPI_Mprobe(left, 2, MPI_COMM_WORLD, &m, &st));
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == BIG && m != MPI_MESSAGE_NULL);
    int flag = 0;
    do {
        CHECK_RC(MPI_Iprobe(left, 3, MPI_COMM_WORLD, &flag, &st));
    } while (!flag);
    CHECK(st.MPI_TAG == 3);
    CHECK_RC(MPI_Mrecv(rb, BIG, MPI_BYTE, &m, &st));
    CHECK(m == MPI_MESSAGE_NULL && st.MPI_TAG == 2 && pt_verify(rb, BIG, left) == 0);
    /* Improbe + Imrecv for tag 1 and 3 */
    MPI_Message m1;
    flag = 0;
    while (!flag)
        CHECK_RC(MPI_Improbe(left, 1, MPI_COMM_WORLD, &flag, &m1, &st));
    MPI_Request rr;
    memset(rb, 0, 10);
    CHECK_RC(MPI_Imrecv(rb, 10, MPI_BYTE, &m1, &rr));
    CHECK_RC(MPI_Wait(&rr, &st));
    CHECK(pt_verify(rb, 10, left) == 0 && st.MPI_TAG == 1);
    CHECK_RC(MPI_Recv(rb, 20, MPI_BYTE, left, 3, MPI_COMM_WORLD, &st));
    CHECK(pt_verify(rb, 20, left) == 0);
    CHECK_RC(MPI_Waitall(3, sr, MPI_STATUSES_IGNORE));
    CHECK_RC(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK(!flag);

    /* PROC_NULL */
    CHECK_RC(MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
    CHECK_RC(MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &st));
    CHECK(flag && st.MPI_SOURCE == MPI_PROC_NULL);
    CHECK_RC(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &st));
    CHECK(m == MPI_MESSAGE_NO_PROC);
    CHECK_RC(MPI_Mrecv(rb, 10, MPI_BYTE, &m, &st));
    CHECK(m == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    free(sb);
    free(rb);
    return pt_finish();
}
