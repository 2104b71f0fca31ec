/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * stream_faults.c - a stream of small messages, as bench/bw.c sends them
 * (windows of WINDOW Irecv/Isend, then a 1-byte acknowledgement), must not
 * page-fault on the sender.
 *
 * Rank 0 streams NWIN windows of 1-byte messages to rank 1 after one warm-up
 * window. Through shared memory each message is a 64-byte record of the
 * ring to rank 1, so the stream writes NWIN * WINDOW * 64 bytes (192 KiB)
 * of ring it has not written before: without the prefault of the ring when
 * the endpoint opens (XB_SHM_PREFAULT, src/method/shm/shm_ring.c) the sender
 * takes one minor fault per 4 KiB page, NWIN of them, which halved the
 * message rate of bench/bw.c at 1 and 8 bytes. The check is a count
 * (getrusage), made only when the messages came through shm (the MPI_T
 * counter method_shm_am_received moved on rank 1). Every message is also
 * checked: contents, order (a distinct tag per message position would not
 * show reordering within a tag, so the byte is the sequence number) and the
 * completion of every request.
 */
#include <sys/resource.h>
#include "ptest.h"
#include "ct_pvar.h"

enum { WINDOW = 64, NWIN = 48 };

static long minflt(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* One window; `seq` numbers the messages so order is checked. */
static void window(int rank, int w)
{
    unsigned char sbuf[WINDOW], rbuf[WINDOW];
    MPI_Request req[WINDOW];
    char ack = 0;
    if (rank == 1) {
        memset(rbuf, 0xff, sizeof rbuf);
        for (int i = 0; i < WINDOW; i++)
            CHECK_RC(MPI_Irecv(&rbuf[i], 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req[i]));
    } else {
        for (int i = 0; i < WINDOW; i++) {
            sbuf[i] = (unsigned char)(w * 7 + i);
            CHECK_RC(MPI_Isend(&sbuf[i], 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &req[i]));
        }
    }
    CHECK_RC(MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < WINDOW; i++)
        CHECK(req[i] == MPI_REQUEST_NULL);
    if (rank == 1) {
        for (int i = 0; i < WINDOW; i++)
            if (rbuf[i] != (unsigned char)(w * 7 + i)) {
                fprintf(stderr, "rank 1: window %d: message %d is %u, want %u\n", w, i,
                        rbuf[i], (unsigned char)(w * 7 + i));
                pt_errs++;
                break;
            }
        CHECK_RC(MPI_Send(&ack, 1, MPI_BYTE, 0, 3, MPI_COMM_WORLD));
    } else {
        CHECK_RC(MPI_Recv(&ack, 1, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "stream_faults: needs exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session ses;
    CHECK_RC(MPI_T_pvar_session_create(&ses));
    MPI_T_pvar_handle h_shm = ct_pvar_counter(ses, "method_shm_am_received");

    window(rank, 0);                            /* opens the endpoints, warms up */
    unsigned long long s0 = ct_pvar_read(ses, h_shm);
    long f0 = minflt();
    for (int w = 1; w <= NWIN; w++)
        window(rank, w);
    long faults = minflt() - f0;
    unsigned long long shm = ct_pvar_read(ses, h_shm) - s0;

    /* rank 1 says whether the stream came through shared memory */
    int via_shm = rank == 1 && shm >= (unsigned long long)NWIN * WINDOW;
    MPI_Bcast(&via_shm, 1, MPI_INT, 1, MPI_COMM_WORLD);
    if (rank == 0 && getenv("VERBOSE"))
        printf("sender: %ld minor faults over %d windows (shm: %d)\n", faults, NWIN,
               via_shm);
    /* NWIN faults without the prefault; a few are allowed for anything else
     * the library or libc may touch for the first time. */
    if (rank == 0 && via_shm && faults >= NWIN / 2) {
        fprintf(stderr, "rank 0: %ld minor page faults while streaming %d windows of "
                "small messages through shared memory (the ring was not prefaulted?)\n",
                faults, NWIN);
        pt_errs++;
    }
    if (h_shm != MPI_T_PVAR_HANDLE_NULL)
        CHECK_RC(MPI_T_pvar_handle_free(ses, &h_shm));
    CHECK_RC(MPI_T_pvar_session_free(&ses));
    MPI_T_finalize();
    return pt_finish();
}
