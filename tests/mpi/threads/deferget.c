/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* A nonblocking receive whose rendezvous message is already here, with the
 * progress thread on (XB_ASYNC_PROGRESS=1 in the testlist): MPI_Irecv must
 * return without the data (the copy is left to the progress thread), and
 * the data must then arrive while the caller computes without calling MPI
 * (pt2pt/recv.c, xb_pt2pt_recv_unexp). Before, the whole copy ran inside
 * MPI_Irecv. MPI_Probe first makes sure the message has arrived.
 *
 * Also through that path: the status of an MPI_ANY_SOURCE/MPI_ANY_TAG
 * receive, MPI_Imrecv after MPI_Mprobe, truncation (MPI_ERR_TRUNCATE, the
 * bytes that fit delivered, nothing past them), a strided datatype, three
 * deferred receives completed by one Waitall in the order they matched,
 * MPI_Cancel of a deferred receive (too late: it completes normally), and
 * MPI_Request_free of one (the data still lands).
 *
 * The test reads the receive buffer while the receive is pending, which
 * MPI does not promise to allow: it watches what this implementation does.
 * Two ranks. */
#include <stdbool.h>
#include "mt_util.h"
#define CHECK_RC(call) MT_RC(call)
#include "ct_pvar.h"

#define N (1 << 22)                 /* ints: 16 MiB, a rendezvous on any method */
/* ThreadSanitizer sees the progress thread's process_vm_readv write the
 * buffer these reads watch (a race MPI does not allow, made on purpose):
 * under it the test checks only what MPI defines (the data after the
 * wait), and the library's own accesses. */
#if defined(__SANITIZE_THREAD__)
#define WATCH 0
#else
#define WATCH 1
#endif
#define WAIT_S 30.0                 /* a time limit, not a speed */

static int *sbuf, *rbuf;
static MPI_T_pvar_session ses;
static MPI_T_pvar_handle h_deferred;

/* Gets left to the progress thread so far. */
static unsigned long long deferred(void) { return ct_pvar_read(ses, h_deferred); }

static int val(int round, int i) { return round * 1000003 + i; }

/* Wait, without MPI calls, until rbuf[idx] holds want; false after WAIT_S. */
static bool watch(long idx, int want)
{
    if (!WATCH)
        return true;
    volatile int *p = rbuf;
    double t0 = MPI_Wtime();
    while (p[idx] != want)
        if (MPI_Wtime() - t0 > WAIT_S)
            return false;
    return true;
}

static void send_round(int round, int count, int tag)
{
    for (int i = 0; i < count; i++)
        sbuf[i] = val(round, i);
    MT_RC(MPI_Send(sbuf, count, MPI_INT, 1, tag, MPI_COMM_WORLD));
}

/* Probe (the message is here), Irecv, check it left the get to the
 * progress thread, then watch its last element arrive. */
static MPI_Request recv_deferred(int round, int count, int src, int tag, int ptag)
{
    MPI_Request r;
    MT_RC(MPI_Probe(0, ptag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        rbuf[i] = -1;
    unsigned long long d0 = deferred();
    MT_RC(MPI_Irecv(rbuf, count, MPI_INT, src, tag, MPI_COMM_WORLD, &r));
    MT_CHECK(deferred() == d0 + 1, "round %d: MPI_Irecv did not leave the get to the "
             "progress thread (deferred %llu, was %llu)", round, deferred(), d0);
    MT_CHECK(watch(count - 1, val(round, count - 1)),
             "round %d: the data did not arrive within %.0f s while computing", round, WAIT_S);
    return r;
}

static void check_data(int round, int count, int stride)
{
    int bad = 0;
    for (int i = 0; i < count && bad < 3; i++)
        if (rbuf[(long)i * stride] != val(round, i)) {
            MT_CHECK(0, "round %d: element %d is %d, expected %d", round, i,
                     rbuf[(long)i * stride], val(round, i));
            bad++;
        }
}

static void check_status(const MPI_Status *st, int round, int tag, int count)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    MT_CHECK(st->MPI_SOURCE == 0 && st->MPI_TAG == tag && n == count,
             "round %d: status source %d tag %d count %d, expected 0, %d, %d", round,
             st->MPI_SOURCE, st->MPI_TAG, n, tag, count);
}

static void receiver(void)
{
    MPI_Request r, rs[3];
    MPI_Status st, sts[3];

    /* 1: a plain receive; 2: MPI_ANY_SOURCE / MPI_ANY_TAG */
    r = recv_deferred(1, N, 0, 11, 11);
    MT_RC(MPI_Wait(&r, &st));
    check_status(&st, 1, 11, N);
    check_data(1, N, 1);
    r = recv_deferred(2, N, MPI_ANY_SOURCE, MPI_ANY_TAG, 12);
    MT_RC(MPI_Wait(&r, &st));
    check_status(&st, 2, 12, N);
    check_data(2, N, 1);

    /* 3: MPI_Imrecv of a message taken by MPI_Mprobe */
    MPI_Message msg;
    MT_RC(MPI_Mprobe(0, 13, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        rbuf[i] = -1;
    unsigned long long d0 = deferred();
    MT_RC(MPI_Imrecv(rbuf, N, MPI_INT, &msg, &r));
    MT_CHECK(deferred() == d0 + 1, "round 3: MPI_Imrecv did not leave the get to the "
             "progress thread");
    MT_CHECK(watch(N - 1, val(3, N - 1)), "round 3: the data did not arrive");
    MT_RC(MPI_Wait(&r, &st));
    check_status(&st, 3, 13, N);
    check_data(3, N, 1);

    /* 4: truncation: half the buffer; nothing past it is written */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    r = recv_deferred(4, N / 2, 0, 14, 14);
    int rc = MPI_Wait(&r, &st);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    MT_CHECK(cls == MPI_ERR_TRUNCATE, "round 4: MPI_Wait gave class %d, expected "
             "MPI_ERR_TRUNCATE (%d)", cls, MPI_ERR_TRUNCATE);
    check_data(4, N / 2, 1);
    MT_CHECK(rbuf[N / 2] == -1, "round 4: element %d past the buffer was written", N / 2);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* 5: every other int (a vector type) */
    MPI_Datatype vec;
    MPI_Type_vector(N / 2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MT_RC(MPI_Probe(0, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        rbuf[i] = -1;
    d0 = deferred();
    MT_RC(MPI_Irecv(rbuf, 1, vec, 0, 15, MPI_COMM_WORLD, &r));
    MT_CHECK(deferred() == d0 + 1, "round 5: MPI_Irecv did not leave the get to the "
             "progress thread");
    MT_CHECK(watch(N - 2, val(5, N / 2 - 1)), "round 5: the data did not arrive");
    MT_RC(MPI_Wait(&r, &st));
    check_data(5, N / 2, 2);
    MT_CHECK(rbuf[1] == -1 && rbuf[N - 1] == -1, "round 5: a gap of the vector was written");
    MPI_Type_free(&vec);

    /* 6: three at once (tags 16, 17, 18 of N/4 ints each, into thirds of
     * rbuf), then one Waitall */
    int q = N / 4;
    MT_RC(MPI_Probe(0, 18, MPI_COMM_WORLD, MPI_STATUS_IGNORE));   /* the last one is here */
    for (int i = 0; i < N; i++)
        rbuf[i] = -1;
    d0 = deferred();
    for (int k = 0; k < 3; k++)
        MT_RC(MPI_Irecv(rbuf + k * q, q, MPI_INT, 0, 16 + k, MPI_COMM_WORLD, &rs[k]));
    MT_CHECK(deferred() == d0 + 3, "round 6: %llu of 3 gets left to the progress thread",
             deferred() - d0);
    MT_CHECK(watch(3L * q - 1, val(8, q - 1)), "round 6: the last of three did not arrive");
    MT_RC(MPI_Waitall(3, rs, sts));
    for (int k = 0; k < 3; k++) {
        check_status(&sts[k], 6 + k, 16 + k, q);
        for (int i = 0; i < q; i++)
            if (rbuf[k * q + i] != val(6 + k, i)) {
                MT_CHECK(0, "round 6: message %d element %d is %d", k, i, rbuf[k * q + i]);
                break;
            }
    }

    /* 7: MPI_Cancel of a matched receive fails: it completes with the data */
    r = recv_deferred(9, N, 0, 19, 19);
    MT_RC(MPI_Cancel(&r));
    MT_RC(MPI_Wait(&r, &st));
    int cancelled = 1;
    MPI_Test_cancelled(&st, &cancelled);
    MT_CHECK(!cancelled, "round 7: a matched receive was cancelled");
    check_data(9, N, 1);

    /* 8: MPI_Request_free: the data still lands */
    r = recv_deferred(10, N, 0, 20, 20);
    MT_RC(MPI_Request_free(&r));
    MT_CHECK(r == MPI_REQUEST_NULL, "round 8: MPI_Request_free left the handle");
    if (WATCH)                      /* else nothing tells when it is there */
        check_data(10, N, 1);
}

static void sender(void)
{
    send_round(1, N, 11);
    send_round(2, N, 12);
    send_round(3, N, 13);
    send_round(4, N, 14);
    send_round(5, N / 2, 15);
    MPI_Request rs[3];
    int q = N / 4;
    int *bufs[3];
    for (int k = 0; k < 3; k++) {
        bufs[k] = malloc((size_t)q * sizeof(int));
        for (int i = 0; i < q; i++)
            bufs[k][i] = val(6 + k, i);
        MT_RC(MPI_Isend(bufs[k], q, MPI_INT, 1, 16 + k, MPI_COMM_WORLD, &rs[k]));
    }
    MT_RC(MPI_Waitall(3, rs, MPI_STATUSES_IGNORE));
    for (int k = 0; k < 3; k++)
        free(bufs[k]);
    send_round(9, N, 19);
    send_round(10, N, 20);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (mt_size != 2) {
        if (mt_rank == 0)
            printf("deferget needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    sbuf = malloc((size_t)N * sizeof(int));
    rbuf = malloc((size_t)N * sizeof(int));
    int prov;
    MT_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &prov));
    MT_RC(MPI_T_pvar_session_create(&ses));
    h_deferred = ct_pvar_counter(ses, "pt2pt_rendezvous_gets_deferred");
    MT_CHECK(h_deferred != MPI_T_PVAR_HANDLE_NULL, "no pvar pt2pt_rendezvous_gets_deferred");
    if (mt_rank == 0)
        sender();
    else
        receiver();
    MPI_Barrier(MPI_COMM_WORLD);
    MT_RC(MPI_T_pvar_handle_free(ses, &h_deferred));
    MT_RC(MPI_T_pvar_session_free(&ses));
    MT_RC(MPI_T_finalize());
    free(sbuf);
    free(rbuf);
    return mt_finish();
}
