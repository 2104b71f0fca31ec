/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * recv_ahead.c - a sender that runs ahead of a blocking receiver.
 *
 * Ranks pair up (2k sends, 2k+1 receives; an odd last rank only joins the
 * barriers). The sender sends NMSG messages of LEN bytes while the
 * receiver sleeps outside MPI, so they wait in the method (the shm ring)
 * or already in the unexpected queue; then the receiver takes them with
 * MPI_Recv, contents, tags and order checked:
 *
 *   1. in order, one tag: a blocking receive takes from the shm ring only
 *      what it needs, so none of these messages goes through the
 *      unexpected queue (the MPI_T counter pt2pt_unexpected_arrived does
 *      not move while the receiver receives; checked when the messages
 *      came through shared memory: the receiver's shm counter moved);
 *   2. the last message first (another tag), then the others: the
 *      receive of the last one must move every earlier one into the
 *      unexpected queue, and they still come out in order, intact;
 *   3. MPI_ANY_SOURCE / MPI_ANY_TAG receives of a run of messages.
 */
#include <unistd.h>
#include "ptest.h"
#include "ct_pvar.h"

enum { NMSG = 40, LEN = 4096 };

static MPI_T_pvar_session ses;
static MPI_T_pvar_handle h_unexp = MPI_T_PVAR_HANDLE_NULL, h_shm = MPI_T_PVAR_HANDLE_NULL;

static void fill(unsigned char *b, int phase, int i)
{
    for (int j = 0; j < LEN; j++)
        b[j] = (unsigned char)(phase * 31 + i * 7 + j * 13);
}

static int same(const unsigned char *b, int phase, int i)
{
    for (int j = 0; j < LEN; j++)
        if (b[j] != (unsigned char)(phase * 31 + i * 7 + j * 13))
            return 0;
    return 1;
}

static void sender(int peer, int phase)
{
    static unsigned char b[LEN];
    for (int i = 0; i < NMSG; i++) {
        fill(b, phase, i);
        int tag = phase == 2 && i == NMSG - 1 ? 99 : phase;
        CHECK_RC(MPI_Send(b, LEN, MPI_BYTE, peer, tag, MPI_COMM_WORLD));
    }
}

/* Receive message i of the phase (source, tag as given) and check it. */
static void take(int peer, int src, int tag, int phase, int i, int want_tag)
{
    static unsigned char b[LEN];
    MPI_Status st;
    memset(b, 0, sizeof b);
    CHECK_RC(MPI_Recv(b, LEN, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
    int n = -1;
    MPI_Get_count(&st, MPI_BYTE, &n);
    CHECK(n == LEN);
    CHECK(st.MPI_SOURCE == peer);
    CHECK(st.MPI_TAG == want_tag);
    if (!same(b, phase, i)) {
        fprintf(stderr, "rank %d: phase %d: message %d has wrong contents\n", pt_rank(),
                phase, i);
        pt_errs++;
    }
}

static void receiver(int peer, int phase)
{
    usleep(30000);                      /* the sender runs ahead meanwhile */
    unsigned long long u0 = ct_pvar_read(ses, h_unexp), s0 = ct_pvar_read(ses, h_shm);
    if (phase == 1) {
        for (int i = 0; i < NMSG; i++)
            take(peer, peer, 1, phase, i, 1);
        unsigned long long du = ct_pvar_read(ses, h_unexp) - u0, ds = ct_pvar_read(ses, h_shm) - s0;
        if (ds > 0 && du != 0) {
            fprintf(stderr, "rank %d: %llu of %d messages went through the unexpected "
                    "queue though every one had a blocking receive waiting\n", pt_rank(),
                    du, NMSG);
            pt_errs++;
        }
    } else if (phase == 2) {
        take(peer, peer, 99, phase, NMSG - 1, 99);
        for (int i = 0; i < NMSG - 1; i++)
            take(peer, peer, 2, phase, i, 2);
    } else {
        for (int i = 0; i < NMSG; i++)
            take(peer, MPI_ANY_SOURCE, MPI_ANY_TAG, phase, i, 3);
    }
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    CHECK_RC(MPI_T_pvar_session_create(&ses));
    h_unexp = ct_pvar_counter(ses, "pt2pt_unexpected_arrived");
    h_shm = ct_pvar_counter(ses, "method_shm_am_received");
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int paired = rank < size - size % 2, peer = rank ^ 1;
    for (int phase = 1; phase <= 3; phase++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (paired && rank % 2 == 0)
            sender(peer, phase);
        else if (paired)
            receiver(peer, phase);
    }
    if (h_unexp != MPI_T_PVAR_HANDLE_NULL)
        CHECK_RC(MPI_T_pvar_handle_free(ses, &h_unexp));
    if (h_shm != MPI_T_PVAR_HANDLE_NULL)
        CHECK_RC(MPI_T_pvar_handle_free(ses, &h_shm));
    CHECK_RC(MPI_T_pvar_session_free(&ses));
    MPI_T_finalize();
    int errs = pt_errs, all = 0;
    MPI_Reduce(&errs, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf(all == 0 ? "No Errors\n" : "Found %d errors\n", all);
    MPI_Finalize();
    return 0;
}
