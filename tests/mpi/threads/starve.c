/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Starvation on the big lock: per rank, one thread calls cheap MPI
 * functions in a tight loop, without pausing (Iprobe on a communicator
 * nobody sends on, Comm_rank, Test of a receive that never completes, and
 * an MPI_T performance variable read), until the main thread, which does a
 * fixed amount of real communication (ring ping-pong and Allreduce with
 * the other ranks), tells it to stop. Under an unfair lock the main thread
 * may lose the race for the lock to the looping thread every time it
 * wakes; with the hand-off of src/util/xb_mt.c a sleeper gets the lock
 * within XB_MUTEX_PASSES re-acquisitions (tests/unit/test_mutex.c measures
 * that bound directly). With arg "nopoll" the loop makes only calls that
 * never poll (Comm_rank, the pvar read), so only the main thread moves its
 * messages, and both threads of a rank share one CPU. The time limits of
 * the testlist are the check; on this kernel (EEVDF) the run time is set
 * by the CPU the looping threads take from the communicating ones (a
 * round waits for time slices), not by the lock: the old lock did not
 * time out here either (docs/design/threads.md). Every call must succeed
 * and return what it must. */
#include <sched.h>
#include <unistd.h>
#include "mt_util.h"

enum { ROUNDS = 300, TAG = 5 };

static atomic_int stop, started;
static int polling = 1;          /* arg "nopoll": only calls that never poll
                                    progress, both threads on one CPU */
static MPI_Comm quiet;           /* nobody sends here */
static long spins;

static void loop_once(MPI_T_pvar_session s, MPI_T_pvar_handle h, MPI_Request *never,
                      unsigned long long *last)
{
    int flag = -1, rank = -1;
    if (polling) {
        MT_RC(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, quiet, &flag, MPI_STATUS_IGNORE));
        MT_CHECK(flag == 0, "Iprobe found a message on a silent communicator");
        flag = -1;
        MT_RC(MPI_Test(never, &flag, MPI_STATUS_IGNORE));
        MT_CHECK(flag == 0, "a receive nobody matches completed");
    }
    MT_RC(MPI_Comm_rank(quiet, &rank));
    MT_CHECK(rank == mt_rank, "Comm_rank %d, want %d", rank, mt_rank);
    unsigned long long v = 0;
    MT_RC(MPI_T_pvar_read(s, h, &v));
    MT_CHECK(v >= *last, "pt2pt_messages_sent went back from %llu to %llu", *last, v);
    *last = v;
}

static void *looper(void *arg)
{
    (void)arg;
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    int idx = -1, count = 0;
    MT_RC(MPI_T_pvar_session_create(&s));
    MT_RC(MPI_T_pvar_get_index("pt2pt_messages_sent", MPI_T_PVAR_CLASS_COUNTER, &idx));
    MT_RC(MPI_T_pvar_handle_alloc(s, idx, NULL, &h, &count));
    MT_RC(MPI_T_pvar_start(s, h));
    int buf = 0;
    MPI_Request never;
    MT_RC(MPI_Irecv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, TAG, quiet, &never));
    unsigned long long last = 0;
    while (!atomic_load(&stop)) {
        loop_once(s, h, &never, &last);
        spins++;
        atomic_store(&started, 1);
    }
    MT_RC(MPI_Cancel(&never));
    MPI_Status st;
    MT_RC(MPI_Wait(&never, &st));
    int cancelled = 0;
    MT_RC(MPI_Test_cancelled(&st, &cancelled));
    MT_CHECK(cancelled, "the never-matched receive was not cancelled");
    MT_RC(MPI_T_pvar_session_free(&s));
    return NULL;
}

/* Both threads of this rank on one CPU of those we may use (rank modulo
 * their number), as a launcher that binds each rank to a core does: the
 * looping thread then holds the lock whenever it is preempted, and the
 * main thread gets the CPU, and a chance at the lock, once a time slice. */
static void bind_to_one_cpu(void)
{
    cpu_set_t all, one;
    if (sched_getaffinity(0, sizeof(all), &all) != 0)
        return;
    int n = CPU_COUNT(&all), want = mt_rank % n;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (CPU_ISSET(c, &all) && want-- == 0) {
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            MT_CHECK(sched_setaffinity(0, sizeof(one), &one) == 0, "sched_setaffinity %d", c);
            return;
        }
    }
}

/* The main thread's fixed work: each round one ring exchange (a blocking
 * Sendrecv to the right, from the left) and one Allreduce. */
static void communicate(void)
{
    int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
    for (int i = 0; i < ROUNDS; i++) {
        int out = mt_rank * 100000 + i, in = -1;
        MT_RC(MPI_Sendrecv(&out, 1, MPI_INT, right, TAG, &in, 1, MPI_INT, left, TAG,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(in == left * 100000 + i, "round %d: got %d from rank %d", i, in, left);
        int sum = 0;
        MT_RC(MPI_Allreduce(&i, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK(sum == i * mt_size, "round %d: Allreduce %d, want %d", i, sum, i * mt_size);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    polling = !(argc > 1 && strcmp(argv[1], "nopoll") == 0);
    if (!polling)
        bind_to_one_cpu();
    int tprov = -1;
    MT_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tprov));
    MT_RC(MPI_Comm_dup(MPI_COMM_WORLD, &quiet));
    pthread_t t;
    if (pthread_create(&t, NULL, looper, NULL) != 0) {
        printf("rank %d: pthread_create failed\n", mt_rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    while (!atomic_load(&started))      /* the loop runs before the work starts */
        usleep(100);
    communicate();
    atomic_store(&stop, 1);
    pthread_join(t, NULL);
    MT_CHECK(spins > 0, "the looping thread never ran a round");
    MT_RC(MPI_Comm_free(&quiet));
    MT_RC(MPI_T_finalize());
    return mt_finish();
}
