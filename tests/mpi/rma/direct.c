/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * direct.c - MPI_Win_allocate over one node: Put and Get are copies by the
 * origin (no message leaves: the pvars method_*_am_sent do not move), and
 * right, with derived types on both sides, request-based forms, and
 * accumulates beside them; then a counter that every rank increments at
 * once by MPI_Fetch_and_op, by a compare-and-swap loop and by
 * MPI_Accumulate (atomic under the part's lock whether the origin applies
 * them or, with arg=messages, the target: no increment lost, every
 * fetched value seen once). arg=messages:
 * the run sets XB_RMA_ALLOC_SHARED=off, or spreads the ranks over several
 * "hosts", so Put and Get must send messages, with the same results.
 * A window with a part of size 0 gets a base that is not NULL.
 * MPI_Win_lock on such a window, and on an MPI_Win_create window of one
 * node, takes the lock in shared memory: no message leaves for an epoch
 * nobody contends (they do with arg=messages, or across "hosts"); every
 * rank increments rank 0's counter under an exclusive lock by Get and Put
 * with a yield between them (no increment lost), and shared holders never
 * see an exclusive holder's two words half written.
 * MPI_Win_create (the user's memory): a contiguous Put and Get of 2 KiB to
 * a process of this node, and a Put to the origin's own part, are copies
 * by the origin too (process_vm_writev/readv, XB_RMA_COPY_MIN); with
 * XB_RMA_COPY_MIN above that size they must send messages; the data is
 * right either way (not counted across "hosts").
 */
#include <sched.h>
#include <sys/uio.h>
#include <unistd.h>
#include "../tools/mpit_util.h"

enum { K = 64 };

static bool messages;   /* arg=messages: one-sided calls must send */
static MPI_T_pvar_session s;
static MPI_T_pvar_handle h[16];
static int nh;

/* Handles on every method_<m>_am_sent counter, started. */
static void watch_methods(void)
{
    int n, count;
    MPI_T_pvar_get_num(&n);
    for (int i = 0; i < n && nh < 16; i++) {
        char name[128];
        int len = sizeof name;
        MPI_T_pvar_get_info(i, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                            NULL, NULL);
        size_t nl = strlen(name);
        if (strncmp(name, "method_", 7) == 0 && nl > 8 && !strcmp(name + nl - 8, "_am_sent")) {
            CHECK_T(MPI_T_pvar_handle_alloc(s, i, NULL, &h[nh], &count), MPI_SUCCESS);
            CHECK_T(MPI_T_pvar_start(s, h[nh]), MPI_SUCCESS);
            nh++;
        }
    }
    CHECK(nh > 0, "no method_*_am_sent pvar");
}

static unsigned long long am_sent(void)
{
    unsigned long long sum = 0;
    for (int i = 0; i < nh; i++)
        sum += read_pvar(s, h[i]);
    return sum;
}

/* Three counters at rank 0, each incremented N times by every rank at
 * once: by fetch-and-op (whose fetched values must be 0 .. N*size-1, each
 * once), by a compare-and-swap loop, and by accumulate. */
static void counters(void)
{
    enum { N = 300 };
    long *mem;
    MPI_Win win;
    CHECK_RC(MPI_Win_allocate(3 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                              &mem, &win));
    mem[0] = mem[1] = mem[2] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    long one = 1, *seen = malloc(N * sizeof(long));
    MPI_Win_lock_all(0, win);
    MPI_Barrier(MPI_COMM_WORLD);          /* every lock granted: no answer is due */
    unsigned long long before = am_sent();
    for (int i = 0; i < N; i++) {
        CHECK_RC(MPI_Fetch_and_op(&one, &seen[i], MPI_LONG, 0, 0, MPI_SUM, win));
        long old = 0, now = -1;
        for (;;) {              /* read, then swap in old + 1 if still old */
            long next = old + 1;
            CHECK_RC(MPI_Compare_and_swap(&next, &old, &now, MPI_LONG, 0, 1, win));
            CHECK_RC(MPI_Win_flush(0, win));
            if (now == old)
                break;
            old = now;
        }
        CHECK_RC(MPI_Accumulate(&one, 1, MPI_LONG, 0, 2, 1, MPI_LONG, MPI_SUM, win));
        CHECK_RC(MPI_Win_flush(0, win));
    }
    unsigned long long moved = am_sent() - before;
    if (messages)
        CHECK(moved >= 3 * N, "the counters' updates sent %llu messages",
              moved);
    else
        CHECK(moved < N, "the counters' updates on a window of one node sent %llu messages",
              moved);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    long *all = ct_rank == 0 ? malloc((size_t)N * ct_size * sizeof(long)) : NULL;
    MPI_Gather(seen, N, MPI_LONG, all, N, MPI_LONG, 0, MPI_COMM_WORLD);
    if (ct_rank == 0) {
        long want = (long)N * ct_size;
        CHECK(mem[0] == want && mem[1] == want && mem[2] == want,
              "counters %ld %ld %ld, want %ld each", mem[0], mem[1], mem[2], want);
        char *hit = calloc((size_t)want, 1);
        int bad = 0;
        for (long i = 0; i < want; i++) {
            if (all[i] < 0 || all[i] >= want || hit[all[i]])
                bad++;
            else
                hit[all[i]] = 1;
        }
        CHECK(bad == 0, "%d fetch-and-op results out of range or seen twice", bad);
        free(hit);
        free(all);
    }
    free(seen);
    MPI_Win_free(&win);
}

/* MPI_Win_lock on a window of one node (see the top): MPI_Win_allocate,
 * or MPI_Win_create (create) on the user's memory. sends: the uncontended
 * epochs must send messages. */
static void epochs(bool create, bool sends)
{
    enum { R = 50, INC = 200, READS = 100, B = 512 };
    int *mem;
    MPI_Win win;
    MPI_Aint bytes = (4 + B) * sizeof(int);
    if (create) {
        mem = ct_malloc((size_t)bytes);
        CHECK_RC(MPI_Win_create(mem, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else {
        CHECK_RC(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                                  &win));
    }
    const char *what = create ? "MPI_Win_create" : "MPI_Win_allocate";
    for (int i = 0; i < 4 + B; i++)
        mem[i] = 0;
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size, v[B];
    for (int i = 0; i < B; i++)
        v[i] = ct_rank * 1000 + i;
    MPI_Barrier(MPI_COMM_WORLD);
    /* nobody else locks `right`'s part here; 2 KiB: a single copy on
     * MPI_Win_create (XB_RMA_COPY_MIN) */
    unsigned long long before = am_sent();
    for (int r = 0; r < R; r++) {
        CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
        CHECK_RC(MPI_Put(v, B, MPI_INT, right, 4, B, MPI_INT, win));
        CHECK_RC(MPI_Win_unlock(right, win));
    }
    unsigned long long moved = am_sent() - before;
    if (sends)      /* the put at least (the answers to the left's come when they come) */
        CHECK(moved >= R, "%d lock epochs on %s sent %llu messages", R, what, moved);
    else
        CHECK(moved < R, "%d lock epochs on %s on one node sent %llu messages", R, what,
              moved);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < B; i++)
        CHECK(mem[4 + i] == left * 1000 + i, "put under lock on %s: mem[%d] = %d, want %d",
              what, 4 + i, mem[4 + i], left * 1000 + i);

    /* mutual exclusion: a non-atomic increment of rank 0's mem[0] */
    for (int k = 0; k < INC; k++) {
        int x = -1;
        CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_RC(MPI_Get(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
        CHECK_RC(MPI_Win_flush(0, win));
        sched_yield();                    /* let a rank that ignores the lock in */
        x++;
        CHECK_RC(MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
        CHECK_RC(MPI_Win_unlock(0, win));
    }
    /* shared against exclusive: odd ranks write mem[1] and mem[2] of rank 0
     * (the same value) under an exclusive lock, even ranks read both under
     * a shared one */
    int torn = 0;
    for (int k = 0; k < READS; k++) {
        int pair[2] = { k, k };
        if (ct_rank % 2) {
            CHECK_RC(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            CHECK_RC(MPI_Put(&pair[0], 1, MPI_INT, 0, 1, 1, MPI_INT, win));
            CHECK_RC(MPI_Win_flush(0, win));
            sched_yield();
            CHECK_RC(MPI_Put(&pair[1], 1, MPI_INT, 0, 2, 1, MPI_INT, win));
            CHECK_RC(MPI_Win_unlock(0, win));
        } else {
            CHECK_RC(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
            CHECK_RC(MPI_Get(pair, 2, MPI_INT, 0, 1, 2, MPI_INT, win));
            CHECK_RC(MPI_Win_unlock(0, win));
            torn += pair[0] != pair[1];
        }
    }
    CHECK(torn == 0, "%d of %d reads under a shared lock on %s saw an exclusive holder's "
          "words half written", torn, READS, what);
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        CHECK(mem[0] == INC * ct_size, "increments under an exclusive lock on %s: %d, want %d",
              what, mem[0], INC * ct_size);
    MPI_Win_free(&win);
    if (create)
        free(mem);
}

/* Whether this kernel lets a rank read its neighbour's memory
 * (process_vm_readv: Yama's ptrace_scope, seccomp, XB_SHM_CMA=0 for the
 * library), as the library's own probe finds: else Put and Get on
 * MPI_Win_create send messages. Every rank agrees. */
static bool single_copy(int right)
{
    static const unsigned long magic = 0x5eedc0de5eedc0deUL;
    unsigned long mine[2] = { (unsigned long)getpid(), (unsigned long)(uintptr_t)&magic }, peer[2];
    int left = (ct_rank + ct_size - 1) % ct_size;
    MPI_Sendrecv(mine, 2, MPI_UNSIGNED_LONG, left, 5, peer, 2, MPI_UNSIGNED_LONG, right, 5,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    unsigned long v = 0;
    struct iovec l = { &v, sizeof(v) }, r = { (void *)(uintptr_t)peer[1], sizeof(v) };
    const char *off = getenv("XB_SHM_CMA");
    int ok = process_vm_readv((pid_t)peer[0], &l, 1, &r, 1, 0) == (ssize_t)sizeof(v) &&
             v == magic && !(off != NULL && (!strcmp(off, "0") || !strcmp(off, "off")));
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all != 0;
}

/* Put and Get on a window of the user's memory (see the top). sends:
 * they must send messages. */
static void created(bool sends)
{
    enum { N = 512, R = 20 };
    int *mem = ct_malloc(2 * N * sizeof(int)), src[N], got[N];
    for (int i = 0; i < 2 * N; i++)
        mem[i] = -1;
    for (int i = 0; i < N; i++)
        src[i] = ct_rank * 100000 + i;
    MPI_Win win;
    CHECK_RC(MPI_Win_create(mem, 2 * N * sizeof(int), sizeof(int), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &win));
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    const char *min = getenv("XB_RMA_COPY_MIN");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Barrier(MPI_COMM_WORLD);          /* every lock granted */
    unsigned long long before = am_sent();
    for (int r = 0; r < R; r++) {
        CHECK_RC(MPI_Put(src, N, MPI_INT, right, 0, N, MPI_INT, win));
        CHECK_RC(MPI_Put(src, N, MPI_INT, ct_rank, N, N, MPI_INT, win));
        CHECK_RC(MPI_Win_flush_all(win));
        for (int i = 0; i < N; i++)
            got[i] = -7;
        CHECK_RC(MPI_Get(got, N, MPI_INT, right, 0, N, MPI_INT, win));
        CHECK_RC(MPI_Win_flush(right, win));
    }
    unsigned long long moved = am_sent() - before;
    if (getenv("MPIEXEC_HOSTS") != NULL)
        ;                                 /* some neighbours are on another "host" */
    else if (sends)
        CHECK(moved >= (unsigned long long)(2 * R), "Put and Get on MPI_Win_create with "
              "XB_RMA_COPY_MIN=%s or no single copy sent %llu messages in %d rounds",
              min != NULL ? min : "(unset)", moved, R);
    else
        CHECK(moved < R, "Put and Get on MPI_Win_create on one node sent %llu messages in %d "
              "rounds", moved, R);
    for (int i = 0; i < N; i++)
        CHECK(got[i] == ct_rank * 100000 + i, "get from MPI_Win_create: got[%d] = %d, want %d",
              i, got[i], ct_rank * 100000 + i);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; i++) {
        CHECK(mem[i] == left * 100000 + i, "put to MPI_Win_create: mem[%d] = %d, want %d", i,
              mem[i], left * 100000 + i);
        CHECK(mem[N + i] == ct_rank * 100000 + i, "put to this rank's own part: mem[%d] = %d, "
              "want %d", N + i, mem[N + i], ct_rank * 100000 + i);
    }
    MPI_Win_free(&win);
    free(mem);
}

int main(int argc, char **argv)
{
    int provided;
    for (int i = 1; i < argc; i++)
        messages |= !strcmp(argv[i], "messages");
    ct_init(&argc, &argv);
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK_T(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    watch_methods();

    int *mem;
    MPI_Win win;
    CHECK_RC(MPI_Win_allocate(4 * K * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                              &mem, &win));
    for (int i = 0; i < 4 * K; i++)
        mem[i] = -1;
    int right = (ct_rank + 1) % ct_size, left = (ct_rank + ct_size - 1) % ct_size;
    MPI_Datatype vec;                      /* every other int of 2K */
    MPI_Type_vector(K, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int src[2 * K], got[K], got2[2 * K];
    for (int i = 0; i < 2 * K; i++)
        src[i] = ct_rank * 1000 + i;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Barrier(MPI_COMM_WORLD);          /* every lock granted: no answer is due */

    /* R times: contiguous K ints into [0, K); the strided origin into every
     * other int of [K, 3K); back with Get and Rget. By messages that is at
     * least 4 messages a round; copies send none (a stray message of the
     * barrier's or the locks' machinery may still be counted, so the test
     * asks for fewer than one a round) */
    enum { R = 50 };
    unsigned long long before = am_sent();
    for (int r = 0; r < R; r++) {
        CHECK_RC(MPI_Put(src, K, MPI_INT, right, 0, K, MPI_INT, win));
        CHECK_RC(MPI_Put(src, 1, vec, right, K, 1, vec, win));
        CHECK_RC(MPI_Win_flush(right, win));
        CHECK_RC(MPI_Get(got, K, MPI_INT, right, 0, K, MPI_INT, win));
        MPI_Request q;
        for (int i = 0; i < 2 * K; i++)
            got2[i] = -7;
        CHECK_RC(MPI_Rget(got2, 1, vec, right, K, 1, vec, win, &q));
        CHECK_RC(MPI_Wait(&q, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Win_flush(right, win));
    }
    unsigned long long moved = am_sent() - before;
    if (messages)
        CHECK(moved >= 4 * R, "Put and Get sent %llu messages in %d rounds", moved, R);
    else
        CHECK(moved < R, "Put and Get on a window of one node sent %llu messages in %d "
              "rounds", moved, R);
    for (int i = 0; i < K; i++) {
        CHECK(got[i] == ct_rank * 1000 + i, "get: got[%d] = %d, want %d", i, got[i],
              ct_rank * 1000 + i);
        CHECK(got2[2 * i] == ct_rank * 1000 + 2 * i && got2[2 * i + 1] == -7,
              "rget: got2[%d..] = %d %d", 2 * i, got2[2 * i], got2[2 * i + 1]);
    }

    /* an accumulate to the same part, after a flush: still applied */
    int one[K];
    for (int i = 0; i < K; i++)
        one[i] = 1;
    CHECK_RC(MPI_Accumulate(one, K, MPI_INT, right, 3 * K, K, MPI_INT, MPI_SUM, win));
    CHECK_RC(MPI_Win_flush_all(win));
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < K; i++) {
        CHECK(mem[i] == left * 1000 + i, "put: mem[%d] = %d, want %d", i, mem[i],
              left * 1000 + i);
        CHECK(mem[K + 2 * i] == left * 1000 + 2 * i && mem[K + 2 * i + 1] == -1,
              "strided put: mem[%d..] = %d %d", K + 2 * i, mem[K + 2 * i], mem[K + 2 * i + 1]);
        CHECK(mem[3 * K + i] == 0, "accumulate: mem[%d] = %d, want 0", 3 * K + i,
              mem[3 * K + i]);
    }
    MPI_Type_free(&vec);
    MPI_Win_free(&win);

    counters();
    /* MPI_Win_create's Put and Get of 2 KiB send messages with the tunable
     * raised or without single copy; its locks do across "hosts" */
    const char *min = getenv("XB_RMA_COPY_MIN");
    bool hosts = getenv("MPIEXEC_HOSTS") != NULL;
    bool create_sends = (min != NULL && atol(min) > 2048) ||
                        !single_copy((ct_rank + 1) % ct_size);
    epochs(false, messages);
    epochs(true, create_sends || hosts);
    created(create_sends);

    /* a part of size 0 (every odd rank) still has a base */
    int *m0 = NULL;
    CHECK_RC(MPI_Win_allocate(ct_rank % 2 ? 0 : 8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &m0,
                              &win));
    CHECK(m0 != NULL, "MPI_Win_allocate of size %d gave a NULL base", ct_rank % 2 ? 0 : 8);
    MPI_Win_free(&win);

    CHECK_T(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    CHECK_T(MPI_T_finalize(), MPI_SUCCESS);
    return ct_finish();
}
