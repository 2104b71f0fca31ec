/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * threads.c - MPI_T under MPI_THREAD_MULTIPLE: one thread exchanges ROUNDS
 * messages with the neighbour ranks while another reads the counters
 * through its own session (and writes a live cvar) the whole time. The
 * reads never go backwards, and at the end the counters show exactly the
 * messages sent and received. The reader pauses 20 us between reads, as a
 * sampling tool would. Not for the lock (it is fair: a sleeper waits for
 * at most XB_MUTEX_PASSES acquisitions, docs/design/threads.md; the tight
 * loop is tests/mpi/threads/starve), but for the CPU: with 3 ranks on 2
 * CPUs a reader that never sleeps takes a CPU from the communicating
 * threads, and 2000 rounds took about 30 s instead of 0.1 s (with the old
 * lock as with the fair one), which is not what this test is about.
 */
#include <pthread.h>
#include <unistd.h>
#include "mpit_util.h"

enum { ROUNDS = 2000 };

static volatile int done;
static int reader_errors;

static void *reader(void *arg)
{
    (void)arg;
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    int count, ci = -1;
    unsigned long long last = 0, v = 0;
    if (MPI_T_pvar_session_create(&s) != MPI_SUCCESS ||
        MPI_T_pvar_get_index("pt2pt_messages_sent", MPI_T_PVAR_CLASS_COUNTER, &ci) != MPI_SUCCESS ||
        MPI_T_pvar_handle_alloc(s, ci, NULL, &h, &count) != MPI_SUCCESS ||
        MPI_T_pvar_start(s, h) != MPI_SUCCESS) {
        reader_errors++;
        return NULL;
    }
    MPI_T_cvar_handle c = MPI_T_CVAR_HANDLE_NULL;
    int pci = -1, on = 1;
    if (MPI_T_cvar_get_index("XB_PARAM_CHECK", &pci) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(pci, NULL, &c, &count) != MPI_SUCCESS)
        reader_errors++;
    while (!done) {
        usleep(20);
        if (MPI_T_pvar_read(s, h, &v) != MPI_SUCCESS || v < last)
            reader_errors++;
        last = v;
        if (c != MPI_T_CVAR_HANDLE_NULL && MPI_T_cvar_write(c, &on) != MPI_SUCCESS)
            reader_errors++;
    }
    MPI_T_cvar_handle_free(&c);
    MPI_T_pvar_session_free(&s);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, tprov, count;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &ct_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ct_size);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tprov));
    MPI_T_pvar_session s;
    MPI_T_pvar_handle sent, recvd;
    CHECK_RC(MPI_T_pvar_session_create(&s));
    CHECK_RC(MPI_T_pvar_handle_alloc(s, pvar_index("pt2pt_messages_sent",
             MPI_T_PVAR_CLASS_COUNTER), NULL, &sent, &count));
    CHECK_RC(MPI_T_pvar_handle_alloc(s, pvar_index("pt2pt_messages_received",
             MPI_T_PVAR_CLASS_COUNTER), NULL, &recvd, &count));
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    CHECK_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    for (int i = 0; i < ROUNDS; i++) {
        int out = i, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, right, 7, &in, 1, MPI_INT, left, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        CHECK(in == i, "round %d got %d", i, in);
    }
    CHECK_RC(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    done = 1;
    pthread_join(t, NULL);
    CHECK(reader_errors == 0, "%d errors in the reading thread", reader_errors);
    CHECK(read_pvar(s, sent) == ROUNDS && read_pvar(s, recvd) == ROUNDS,
          "sent %llu received %llu, want %d", read_pvar(s, sent), read_pvar(s, recvd), ROUNDS);
    CHECK_RC(MPI_T_pvar_session_free(&s));
    CHECK_RC(MPI_T_finalize());
    return ct_finish();
}
