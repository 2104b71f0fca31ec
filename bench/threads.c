/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * threads.c - multithreaded MPI (plain MPI + pthreads; builds with any mpicc:
 * `mpicc -O2 -pthread -o threads threads.c`). Two ranks.
 *
 *   -k lat -T N     ping-pong of 8-byte messages by N threads per rank at
 *                   once, each pair on its own communicator and tag: the
 *                   one-way time seen by a thread, in microseconds
 *   -k rate -T N    message rate: N threads per rank each stream windows of
 *                   64 8-byte messages to their partner (own communicator,
 *                   own tag): aggregate millions of messages per second
 *   -k overlap      4 MiB Isend/Irecv, then compute (no MPI calls) for as
 *                   long as the transfer alone takes, then Wait: the
 *                   fraction of the transfer hidden behind the computation
 *                   (1 = fully hidden). Run it with and without a progress
 *                   thread (XB_ASYNC_PROGRESS=1, MPIR_CVAR_ASYNC_PROGRESS=1).
 *                   Both ranks compute: with two processes on two CPUs no
 *                   CPU is left for a progress thread to copy with.
 *   -k overlap-recv the same, but only the receiver computes while the
 *                   sender waits in MPI_Wait: the receiver's progress
 *                   thread has the sender's CPU, as it has a spare core on
 *                   a node with more cores than ranks. The transfer needs
 *                   the receiver (it answers the request to send), so
 *                   without a progress thread nothing moves until it waits.
 *   -k self         one rank sends 8 bytes to itself (Irecv, Send, Wait):
 *                   the software cost of a message, without a second
 *                   process to wait for, so a loaded machine blurs it
 *                   least; with and without -s it is the cost of MULTIPLE
 *   -k self-test    the same with MPI_Test (it must find the message
 *                   there): the cost of a Test on a completed request
 *   -k spin -T 2    lat by thread 0, while thread 1 of each rank loops on
 *                   MPI_Test of MPI_REQUEST_NULL and of an inactive
 *                   persistent request and MPI_Comm_rank until it ends:
 *                   what calls that need no lock cost a messaging thread
 *   -k spin-pending -T 2  the same, but thread 1 loops on MPI_Test of a
 *                   receive that stays pending (a server thread watching
 *                   for requests): each Test must make progress, which
 *                   thread 0's own waits are making already
 *   -s              ask for MPI_THREAD_SINGLE instead of MULTIPLE (lat and
 *                   rate with -T 1: the cost of MULTIPLE)
 *   -n K            lat, rate, self: one batch of exactly K iterations, no
 *                   probing (for instruction counts under callgrind: run
 *                   two K and take the difference per iteration)
 *   -v              overlap: one line per transfer on stderr (rank 1, the
 *                   receiver): the transfer alone, the total, and when the
 *                   receive buffer's first and last bytes changed while it
 *                   computed (the sender marks them; -1: not during the
 *                   computation), in microseconds from the Irecv: where
 *                   the time goes (the start of the copy, the copy itself);
 *                   and the CPU time (all threads, both ranks) a transfer
 *                   alone took: with XB_SPIN_US=0 (waits sleep at once),
 *                   the work the transfer needs, whose ratio to its wall
 *                   time bounds the hidden fraction on a machine without
 *                   a spare CPU (docs/design/threads.md). -v reads the
 *                   receive buffer while the receive is pending, which
 *                   MPI does not promise to allow: a diagnostic only
 *   -H              make thread t's communicator with MPI_Comm_dup_with_info
 *                   and the hint xb_progress_context = t + 1 (Crossbar, with
 *                   XB_PROGRESS_CONTEXTS >= T: each thread on a progress
 *                   context of its own; other MPIs ignore the key)
 * Output: bench.h's format (one line, the size column is the message size).
 * Two ranks (one for -k self).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include "bench.h"

enum { MAXT = 16, WINDOW = 64 };

static int rank, nthreads = 1, kind_rate, nb, recv_only, fixed_k, hint, verbose, self_test;
static int kind_spin;
static atomic_int spin_stop;
static MPI_Comm comms[MAXT];
static double results[MAXT][64];

static double lat_batch(MPI_Comm c, int tag, int k)
{
    char buf[8] = { 0 };
    int peer = 1 - rank;
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++) {
        if (rank == 0) {
            MPI_Send(buf, 8, MPI_BYTE, peer, tag, c);
            MPI_Recv(buf, 8, MPI_BYTE, peer, tag, c, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, 8, MPI_BYTE, peer, tag, c, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_BYTE, peer, tag, c);
        }
    }
    return (MPI_Wtime() - t0) / k / 2 * 1e6;
}

/* k windows of WINDOW messages and an acknowledgement; returns seconds. */
static double rate_batch(MPI_Comm c, int tag, int k)
{
    char buf[WINDOW][8], ack = 0;
    MPI_Request r[WINDOW];
    int peer = 1 - rank;
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++) {
        for (int w = 0; w < WINDOW; w++) {
            if (rank == 0)
                MPI_Isend(buf[w], 8, MPI_BYTE, peer, tag, c, &r[w]);
            else
                MPI_Irecv(buf[w], 8, MPI_BYTE, peer, tag, c, &r[w]);
        }
        MPI_Waitall(WINDOW, r, MPI_STATUSES_IGNORE);
        if (rank == 0)
            MPI_Recv(&ack, 1, MPI_BYTE, peer, tag + 1000, c, MPI_STATUS_IGNORE);
        else
            MPI_Send(&ack, 1, MPI_BYTE, peer, tag + 1000, c);
    }
    return MPI_Wtime() - t0;
}

static pthread_barrier_t start;

/* -k spin: thread 1 calls what a polling application thread calls while
 * thread 0 ping-pongs (they need no lock once the calls are lock-free). */
static void spin(MPI_Comm c)
{
    MPI_Request nul = MPI_REQUEST_NULL, pers, pend;
    char b[8], p[8];
    int flag, r;
    if (kind_spin == 2) {
        MPI_Irecv(p, 8, MPI_BYTE, MPI_ANY_SOURCE, 5, c, &pend);
        while (!atomic_load(&spin_stop))
            MPI_Test(&pend, &flag, MPI_STATUS_IGNORE);
        MPI_Cancel(&pend);
        MPI_Wait(&pend, MPI_STATUS_IGNORE);
        return;
    }
    MPI_Recv_init(b, 8, MPI_BYTE, 0, 5, MPI_COMM_SELF, &pers);
    while (!atomic_load(&spin_stop)) {
        MPI_Test(&nul, &flag, MPI_STATUS_IGNORE);
        MPI_Test(&pers, &flag, MPI_STATUS_IGNORE);
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    }
    MPI_Request_free(&pers);
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    MPI_Comm c = comms[t];
    /* batch length from the fastest of a few probes (bench/latency.c) */
    double one = 1e30;
    for (int p = 0; p < 5 && fixed_k == 0; p++) {
        double x = kind_rate ? rate_batch(c, t, 2) / 2 : lat_batch(c, t, 4) * 2e-6;
        one = x < one ? x : one;
    }
    int k = (int)(1e-3 / one);      /* short batches (see self_msgs) */
    k = fixed_k > 0 ? fixed_k : k < 1 ? 1 : k > 2000 ? 2000 : k;
    MPI_Bcast(&k, 1, MPI_INT, 0, c);   /* the same on both ranks */
    if (kind_spin && t == 1) {
        spin(c);
        return NULL;
    }
    for (int b = 0; b < nb; b++) {
        pthread_barrier_wait(&start);
        results[t][b] = kind_rate ? rate_batch(c, t, k) / ((double)k * WINDOW) : lat_batch(c, t, k);
    }
    if (kind_spin)
        atomic_store(&spin_stop, 1);
    return NULL;
}

static void threaded(void)
{
    pthread_t th[MAXT];
    pthread_barrier_init(&start, NULL, (unsigned)(nthreads - (kind_spin != 0)));
    if (nthreads == 1) {
        worker(NULL);              /* the main thread: valid at THREAD_SINGLE */
    } else {
        for (long t = 0; t < nthreads; t++)
            pthread_create(&th[t], NULL, worker, (void *)t);
        for (int t = 0; t < nthreads; t++)
            pthread_join(th[t], NULL);
    }
    double v[64];
    for (int b = 0; b < nb; b++) {
        double sum = 0;            /* lat: mean over threads; rate: aggregate */
        for (int t = 0; t < nthreads; t++)
            if (!(kind_spin && t == 1))
                sum += kind_rate ? 1.0 / results[t][b] : results[t][b];
        v[b] = kind_rate ? sum / 1e6 : sum / (nthreads - (kind_spin != 0));
    }
    if (rank == 0) {
        printf(kind_rate ? "# msgrate Mmsg/s higher\n" : "# latency us lower\n");
        bench_report(8, v, nb);
    }
}

static double self_batch(int k)
{
    char a[8] = { 0 }, b[8];
    MPI_Request r;
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; i++) {
        MPI_Irecv(b, 8, MPI_BYTE, 0, 3, MPI_COMM_SELF, &r);
        MPI_Send(a, 8, MPI_BYTE, 0, 3, MPI_COMM_SELF);
        if (self_test) {
            int flag = 0;
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            if (!flag)
                MPI_Abort(MPI_COMM_WORLD, 1);
        } else {
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }
    return (MPI_Wtime() - t0) / k * 1e6;
}

static void self_msgs(void)
{
    double v[64], one = 1e30;
    if (fixed_k > 0) {              /* callgrind: one batch, no report */
        self_batch(fixed_k);
        return;
    }
    for (int p = 0; p < 5; p++) {
        double x = self_batch(100) * 1e-6;
        one = x < one ? x : one;
    }
    /* short batches, many of them: on a loaded machine most 1 ms batches
     * run without being preempted, so the median is the unloaded cost */
    int k = (int)(1e-3 / one), n = 61;
    k = k < 1 ? 1 : k > 100000 ? 100000 : k;
    for (int b = 0; b < n; b++)
        v[b] = self_batch(k);
    if (rank == 0) {
        printf("# self-msg us lower\n");
        bench_report(8, v, n);
    }
}

static volatile double sink;

/* -v: when the receive buffer's watched bytes took the sender's mark */
typedef struct {
    const volatile char *buf;
    long n;
    char mark;
    double t0, first, last;
} watch_t;

static void compute(double seconds, watch_t *w)
{
    double t0 = MPI_Wtime(), x = 1.0;
    for (double now = t0; now - t0 < seconds; now = MPI_Wtime()) {
        for (int i = 0; i < 200; i++)
            x = x * 1.000001 + 1e-9;
        if (w == NULL)
            continue;
        if (w->first < 0 && w->buf[0] == w->mark)
            w->first = now - w->t0;
        if (w->last < 0 && w->buf[w->n - 1] == w->mark)
            w->last = now - w->t0;
    }
    sink = x;
}

static double xfer(char *buf, long n, double work, int b)
{
    MPI_Request r;
    watch_t w = { buf, n, (char)(b + 1), 0, -1, -1 }, *wp = NULL;
    if (verbose && rank == 0)
        buf[0] = buf[n - 1] = w.mark;
    if (verbose && rank == 1)
        buf[0] = buf[n - 1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == 0)
        MPI_Isend(buf, (int)n, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &r);
    else
        MPI_Irecv(buf, (int)n, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &r);
    w.t0 = t0;
    if (verbose && rank == 1 && work > 0)
        wp = &w;
    if (work > 0 && (rank == 1 || !recv_only))
        compute(work, wp);
    double tw = MPI_Wtime();
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    double t = MPI_Wtime() - t0, tl = t;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (wp != NULL)
        fprintf(stderr, "xfer %2d: alone %6.0f total %6.0f (this rank %6.0f, its wait "
                "%6.0f) first byte %6.0f last byte %6.0f us\n", b, work * 1e6, t * 1e6,
                tl * 1e6, (t0 + tl - tw) * 1e6, w.first < 0 ? -1 : w.first * 1e6,
                w.last < 0 ? -1 : w.last * 1e6);
    return t;
}

/* CPU time of this process, every thread (user + system), in seconds. */
static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

static void overlap(void)
{
    long n = 4L << 20;
    char *buf = bench_alloc(n);
    double v[64], alone = 1e30, sum = 0, cpu = cpu_seconds();
    for (int i = 0; i < 7; i++) {
        double t = xfer(buf, n, 0, -1);
        alone = t < alone ? t : alone;
        sum += t;
    }
    cpu = cpu_seconds() - cpu;
    MPI_Allreduce(MPI_IN_PLACE, &cpu, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (verbose && rank == 0)
        fprintf(stderr, "alone: best %.0f us, mean %.0f us, CPU time %.0f us per "
                "transfer (both ranks, all threads)\n", alone * 1e6, sum / 7 * 1e6,
                cpu / 7 * 1e6);
    for (int b = 0; b < nb; b++) {
        double t = xfer(buf, n, alone, b);
        /* hidden part of the transfer: what the total saved over doing
         * the two one after the other */
        double h = (alone + alone - t) / alone;
        v[b] = h < 0 ? 0 : h > 1 ? 1 : h;
    }
    if (rank == 0) {
        printf("# overlap hidden-fraction higher\n");
        bench_report(n, v, nb);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    const char *kind = "lat";
    int single = 0, provided, size;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-k") && i + 1 < argc)
            kind = argv[++i];
        else if (!strcmp(argv[i], "-T") && i + 1 < argc)
            nthreads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s"))
            single = 1;
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            fixed_k = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-H"))
            hint = 1;
        else if (!strcmp(argv[i], "-v"))
            verbose = 1;
    }
    bench_opts_t o = bench_parse(argc, argv, 4L << 20);
    nb = fixed_k > 0 ? 1 : o.quick ? 3 : 61;
    MPI_Init_thread(&argc, &argv, single ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!strncmp(kind, "self", 4)) {
        self_test = !strcmp(kind, "self-test");
        if (rank == 0)
            self_msgs();
        MPI_Finalize();
        return 0;
    }
    if (size != 2 || nthreads < 1 || nthreads > MAXT ||
        (nthreads > 1 && provided != MPI_THREAD_MULTIPLE)) {
        if (rank == 0)
            fprintf(stderr, "threads: needs 2 ranks, 1..%d threads, and MPI_THREAD_MULTIPLE "
                    "for more than one (provided %d)\n", MAXT, provided);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int t = 0; t < nthreads; t++) {
        if (!hint) {
            MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
            continue;
        }
        MPI_Info info;
        char v[16];
        MPI_Info_create(&info);
        snprintf(v, sizeof v, "%d", t + 1);
        MPI_Info_set(info, "xb_progress_context", v);
        MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comms[t]);
        MPI_Info_free(&info);
    }
    if (!strncmp(kind, "overlap", 7)) {
        recv_only = !strcmp(kind, "overlap-recv");
        overlap();
    } else {
        kind_rate = !strcmp(kind, "rate");
        kind_spin = !strcmp(kind, "spin") ? 1 : !strcmp(kind, "spin-pending") ? 2 : 0;
        threaded();
    }
    for (int t = 0; t < nthreads; t++)
        MPI_Comm_free(&comms[t]);
    MPI_Finalize();
    return 0;
}
