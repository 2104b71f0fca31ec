/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * node_flow.c - small node collectives without a barrier: numbered cells in
 * the node's shared memory (the "flow" algorithms: flow_reduce.c,
 * scan_flow.c).
 *
 * A write-barrier-read collective (node_shm.c) costs one node barrier: every
 * rank must be scheduled once per call, about 3.5 us on 4 ranks and 7 us on
 * 8 ranks sharing 2 cores. A broadcast, a reduce, a gather, a scatter or a
 * scan does not need that: data flows one way (from the root, to the root,
 * from lower ranks to higher ones), so a writer may leave as soon as its
 * data is in place, and back-to-back calls pipeline: a root runs ahead,
 * the readers catch up several calls per time slice.
 *
 * Layout. The tail of each local rank's slot in area 0 (FLOW_BYTES; the
 * node algorithms see slots that much smaller, xb_coll_node_slot_size) is
 * that rank's flow region:
 *
 *   line 0   done: flow calls this rank has finished (its reads included)
 *   line 1   want: while this rank waits for room, the done value it
 *            waits for (0: it does not wait), and whose: every other
 *            rank's (0) or local rank k's alone (k + 1; node_stream.c)
 *   line 2   (local rank 0's region only) waiters: ranks waiting for room
 *   cells    NCELLS cells of CELL_BYTES: seq (8 bytes), 8 bytes of padding,
 *            then up to XB_COLL_FLOW_CELL bytes of data, which thus starts
 *            in the seq's line (48 bytes or less: one line to fetch)
 *
 * Numbering. Every rank counts the flow calls it makes (flow_seq): they
 * run only on node-complete communicators in the blocking form, without
 * MPI_THREAD_MULTIPLE, so all local ranks make the same calls in the same
 * order (the argument of node_shm.c's parity), and call n is the same call
 * everywhere. Call n uses cell n mod NCELLS of each writer's region; the
 * writer stores seq = n + 1 (release) after the data; a reader waits for
 * that value (acquire), copies, and at the end of the call stores done =
 * n + 1 (release). A writer reuses a cell only when every other rank has
 * finished call n - NCELLS (done > n - NCELLS): so a root may run NCELLS
 * calls ahead of the slowest reader, and no reader ever sees a cell
 * rewritten under it.
 *
 * Sleeping. Waits go through the progress wait (spin, then sleep in the
 * method). A writer, after its seq store, fences (xb_method_node_fence: a
 * compiler barrier where sleepers issue membarrier) and wakes
 * the readers that sleep (xb_method_node_wake); a sleeper announces its
 * sleep, fences, and re-checks the condition through the node watch
 * registered here (xb_method_set_node_watch): Dekker's pairing, as for
 * messages (method/shm/shm_wait.c), so no wake-up is lost. A writer that
 * waits for room waits until half the cells are free (hysteresis: it
 * then runs half a ring of calls before it may wait again, instead of one
 * wake-up per call), publishes what it waits for in `want` and counts
 * itself in `waiters`; whoever finishes a call then
 * fences and, when someone waits for room, wakes the sleepers.
 */
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include "coll/coll_int.h"
#include "method/method.h"
#include "progress/progress.h"
#include "runtime/runtime.h"

enum { CELL_DATA_OFF = XB_CACHELINE - XB_COLL_FLOW_SEQ_LINE,
       CELL_BYTES = XB_COLL_FLOW_CELL + XB_CACHELINE,
       HEAD_BYTES = 3 * XB_CACHELINE,
       NCELLS = (XB_COLL_FLOW_BYTES - HEAD_BYTES) / CELL_BYTES };
_Static_assert(NCELLS >= 4, "a few calls of look-ahead");

static uint64_t flow_seq;          /* flow calls made by this process */
static uint64_t room_below;        /* calls below this number have room */
static bool has_prefetchw;         /* the CPU has PREFETCHW (x86-64)    */

/* Offset of call n's cell in a writer's flow region. */
static size_t cell_off(uint64_t n) { return HEAD_BYTES + (size_t)(n % NCELLS) * CELL_BYTES; }

/* Ask for the line at p for writing (a hint; nothing where the CPU has
 * no PREFETCHW). */
static void claim_line(const char *p)
{
#if defined(__x86_64__)
    if (has_prefetchw)
        __asm__ volatile("prefetchw %0" : : "m"(*p));
#else
    (void)p;
#endif
}

/* The lines that `bytes` of cell data take beyond the seq's, at most the
 * two that a reader or a writer asks for ahead (a copy asks for the
 * lines after those together). */
static int lines_past_seq(size_t bytes)
{
    size_t end = CELL_DATA_OFF + (bytes < XB_COLL_FLOW_CELL ? bytes : XB_COLL_FLOW_CELL);
    int n = (int)((end - 1) / XB_CACHELINE);
    return n < 2 ? n : 2;
}

/* The last communicator group seen (retained, so its address is not
 * reused while it is here): whether a communicator over it, with no remote
 * group, has every member on this node with at most XB_COLL_FLOW_MAXP
 * ranks and local indices (ok), whether it is node-complete (whole), and
 * the local index of each of its ranks. The checks walk every rank; a call
 * of a few hundred instructions cannot pay for that each time. */
static struct {
    xb_group_t *group;
    bool        ok, whole;
    int         loc[XB_COLL_FLOW_MAXP];
    char       *slot[2][XB_COLL_FLOW_MAXP];   /* xb_coll_node_slots, filled on use */
} cache;

/* What this process waits for now (the node watch), or NULL. */
static bool (*watch_fn)(void *);
static void *watch_arg;

static bool node_watch(void)
{
    return (watch_fn != NULL && watch_fn(watch_arg)) || xb_coll_nbn_watch();
}

/* The regions by local index, looked up once (the segment stays mapped
 * from MPI_Init to MPI_Finalize). Flow calls need node-complete
 * communicators of at most XB_COLL_FLOW_MAXP ranks: local indices fit. */
static char *regions[XB_COLL_FLOW_MAXP];

void xb_coll_flow_init(void)
{
    flow_seq = 0;
    room_below = NCELLS;
#if defined(__x86_64__)
    unsigned a, b, c, d;
    has_prefetchw = __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & bit_PRFCHW) != 0;
#endif
    memset(regions, 0, sizeof regions);
    memset(&cache, 0, sizeof cache);
    xb_method_set_node_watch(node_watch);
}

void xb_coll_flow_fini(void)
{
    if (cache.group != NULL)
        xb_group_release(cache.group);
    memset(&cache, 0, sizeof cache);
    xb_method_set_node_watch(NULL);
}

static char *region(int local)
{
    char *r = regions[local];
    if (XB_UNLIKELY(r == NULL)) {
        size_t size;
        char *slot = xb_method_node_slot(0, local, &size);
        r = regions[local] = slot + size - XB_COLL_FLOW_BYTES;
    }
    return r;
}

static uint64_t *done_of(int local) { return (uint64_t *)(void *)region(local); }
static uint64_t *want_of(int local) { return (uint64_t *)(void *)(region(local) + XB_CACHELINE); }
static uint32_t *waiters(void) { return (uint32_t *)(void *)(region(0) + 2 * XB_CACHELINE); }

static uint64_t *seq_of(const xb_coll_flow_t *f, int rank)
{
    return (uint64_t *)(void *)(region(f->loc[rank]) + f->off);
}

/* The data starts in the seq's line (16 bytes in: aligned for any basic
 * type), so up to 48 bytes are one line for the reader to fetch, not two
 * (a line of its own for the seq made a 2-rank 8-byte bcast through the
 * cells slower than by messages: 0.158 against 0.122 us; 0.048-0.064 us
 * after, interleaved runs of 2026-11-24). */
void *xb_coll_flow_cell(const xb_coll_flow_t *f, int rank)
{
    return (char *)seq_of(f, rank) + CELL_DATA_OFF;
}

/* The local index of comm rank r (a process of this node). */
static int local_index(const xb_comm_t *comm, int r)
{
    const xb_rt_info_t *rt = xb_rt();
    int w = (int)xb_gpid_rank(xb_comm_gpid(comm, r)), lo = 0, hi = rt->local_size - 1;
    if (rt->local_ranks[r] == w)              /* COMM_WORLD and its duplicates */
        return r;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (rt->local_ranks[mid] < w)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Look comm's group up (the cache above). */
static void look_up(const xb_comm_t *comm)
{
    if (comm->group == cache.group)
        return;
    if (cache.group != NULL)
        xb_group_release(cache.group);
    xb_group_retain(comm->group);
    cache.group = comm->group;
    memset(cache.slot, 0, sizeof cache.slot);
    cache.ok = comm->size <= XB_COLL_FLOW_MAXP && xb_method_has_node_barrier() &&
               xb_coll_one_node(comm);
    for (int r = 0; cache.ok && r < comm->size; r++) {
        cache.loc[r] = local_index(comm, r);
        cache.ok = cache.loc[r] < XB_COLL_FLOW_MAXP;
    }
    cache.whole = cache.ok && xb_coll_node_complete(comm);
}

/* The cached local indices of comm's ranks, or NULL when comm is not a
 * node-complete intracommunicator of at most XB_COLL_FLOW_MAXP ranks. */
const int *xb_coll_node_locs(const xb_comm_t *comm)
{
    if (comm->remote != NULL)
        return NULL;
    look_up(comm);
    return cache.ok ? cache.loc : NULL;
}

__attribute__((noinline)) static char *const *fill_slots(const xb_comm_t *comm, int par)
{
    if (xb_coll_node_locs(comm) == NULL)
        return NULL;
    for (int r = 0; r < comm->size; r++)
        cache.slot[par][r] = xb_coll_node_local_slot(par, cache.loc[r]);
    return cache.slot[par];
}

char *const *xb_coll_node_slots(const xb_comm_t *comm, int par)
{
    if (XB_LIKELY(comm->group == cache.group && cache.slot[par][0] != NULL &&
                  comm->remote == NULL))
        return cache.slot[par];                  /* filled only where ok */
    return fill_slots(comm, par);
}

static const int *comm_locs(const xb_comm_t *comm)
{
    const int *loc = xb_coll_node_locs(comm);
    return loc != NULL && cache.whole ? loc : NULL;
}

int xb_coll_flow_begin(xb_coll_flow_t *f, const xb_comm_t *comm)
{
    f->n = flow_seq;
    f->p = comm->size;
    f->me = comm->rank;
    f->off = cell_off(f->n);
    f->loc = comm_locs(comm);
    if (f->loc == NULL)
        return xb_err_set(XB_ERR_INTERN, "a node flow collective on a communicator that "
                          "is not made of exactly the ranks of this node");
    return XB_OK;
}

static void wait_for(bool (*ready)(void *), void *arg, const char *what)
{
    if (ready(arg))
        return;
    watch_fn = ready;
    watch_arg = arg;
    xb_progress_wait_until(xb_progress_default(), ready, arg, what);
    watch_fn = NULL;
}

/* Every other rank has finished call n - NCELLS. The answer holds for
 * later calls up to the slowest rank's done + NCELLS: remembered. */
static bool room(void *arg)
{
    const xb_coll_flow_t *f = arg;
    if (XB_LIKELY(f->n < room_below))
        return true;
    uint64_t low = UINT64_MAX;
    for (int r = 0; r < f->p; r++) {
        uint64_t d = r == f->me ? f->n : __atomic_load_n(done_of(f->loc[r]), __ATOMIC_ACQUIRE);
        low = d < low ? d : low;
    }
    room_below = low + NCELLS;
    return f->n < room_below;
}

/* Every comm rank but `except` has finished call want - 1 (mine: done). */
static bool all_reached(const xb_coll_flow_t *f, uint64_t want, int except, uint64_t mine)
{
    for (int r = 0; r < f->p; r++) {
        if (r == except)
            continue;
        uint64_t d = r == f->me ? mine : __atomic_load_n(done_of(f->loc[r]), __ATOMIC_ACQUIRE);
        if (d < want)
            return false;
    }
    return true;
}

/* The lowest done counter of the comm's ranks (this rank's: its call
 * just ended). */
static uint64_t lowest_done(const xb_coll_flow_t *f)
{
    uint64_t low = UINT64_MAX;
    for (int r = 0; r < f->p; r++) {
        uint64_t d = r == f->me ? f->n + 1
                                : __atomic_load_n(done_of(f->loc[r]), __ATOMIC_ACQUIRE);
        low = d < low ? d : low;
    }
    return low;
}

/* Calls local rank `local` has finished. */
uint64_t xb_coll_flow_done(int local)
{
    return __atomic_load_n(done_of(local), __ATOMIC_ACQUIRE);
}

/* The local index of each rank of comm, which takes the flow algorithms
 * (xb_coll_flow_comm_ok): valid until a communicator over another group
 * is looked at. */
const int *xb_coll_flow_locs(const xb_comm_t *comm)
{
    return comm_locs(comm);
}

/* comm can take the flow and stream algorithms: node-complete, at most
 * XB_COLL_FLOW_MAXP ranks, and the method has node slots. */
bool xb_coll_flow_comm_ok(const xb_comm_t *comm)
{
    return xb_coll_node_slot_size() != 0 && comm->size <= XB_COLL_FLOW_MAXP &&
           comm_locs(comm) != NULL;
}

/* What local rank `my` waits for (its want line): every other rank of f's
 * comm (who = 0) or local rank who - 1 alone has finished call want - 1. */
typedef struct { int my; const xb_coll_flow_t *f; } want_arg_t;

static bool done_reached(void *arg)
{
    const want_arg_t *a = arg;
    const uint64_t *w = want_of(a->my);
    uint64_t want = __atomic_load_n(&w[0], __ATOMIC_RELAXED);
    uint64_t who = __atomic_load_n(&w[1], __ATOMIC_RELAXED);
    if (who != 0)
        return __atomic_load_n(done_of((int)who - 1), __ATOMIC_ACQUIRE) >= want;
    return all_reached(a->f, want, a->f->me, a->f->n);
}

/* Local rank `my` (this process) waits until ready(arg), which comes
 * with the end of call value - 1 by local rank `local` (-1: every other
 * rank of the comm): the want line tells whoever ends that call to wake
 * it (xb_coll_flow_end). */
static void wait_wanting(int my, int local, uint64_t value, bool (*ready)(void *), void *arg,
                         const char *what)
{
    uint64_t *want = want_of(my);
    __atomic_store_n(&want[1], (uint64_t)(local + 1), __ATOMIC_RELAXED);
    __atomic_store_n(&want[0], value, __ATOMIC_RELEASE);   /* who with it */
    __atomic_fetch_add(waiters(), 1, __ATOMIC_SEQ_CST);
    wait_for(ready, arg, what);
    __atomic_store_n(&want[0], 0, __ATOMIC_RELAXED);
    __atomic_fetch_sub(waiters(), 1, __ATOMIC_RELAXED);
}

/* ... until local rank `local` (-1: every other rank of f's comm) has
 * finished call value - 1. */
static void wait_done(int my, const xb_coll_flow_t *f, int local, uint64_t value)
{
    want_arg_t a = { my, f };
    wait_wanting(my, local, value, done_reached, &a, "a node collective (room for the next call)");
}

void xb_coll_flow_wait_local(int local, uint64_t value)
{
    wait_done(xb_rt()->local_rank, NULL, local, value);
}

/* Flow calls this process has made: the number its next one takes. */
uint64_t xb_coll_flow_calls(void)
{
    return flow_seq;
}

/* Wait until this rank's cell of this call may be written; when it must
 * wait, until half the cells are free. */
void xb_coll_flow_reserve(xb_coll_flow_t *f)
{
    if (room(f))
        return;
    wait_done(f->loc[f->me], f, -1, f->n - NCELLS / 2 + 1);
    (void)room(f);                              /* refresh room_below */
}

/* Reserve, and ask for this rank's cell for writing at once: its owner
 * transfer (the readers of the previous round hold it) overlaps the
 * call's work before the stores instead of stalling them. For a writer
 * that usually runs ahead of its reader: one of the many writers of a
 * reduce or a gather, whose root reads last. A reader that already
 * spins on the line (bcast's, scatter's) would take it back at once and
 * cost a transfer more. 2 ranks, 8-byte reduce: 0.067 us against 0.088
 * (0.94x for bcast's root, not used there). */
void xb_coll_flow_reserve_ahead(xb_coll_flow_t *f)
{
    claim_line((const char *)seq_of(f, f->me));
    xb_coll_flow_reserve(f);
}

/* A writer, after its publish: ask for its cell of the next call for
 * writing, the seq's line and the data lines of `bytes` (up to two more).
 * The reader has held those lines since it read them a round of cells
 * ago, and the writer's stores waited for each transfer: perf put a
 * gather leaf's time at its stores, the store buffer full; the claim at
 * the reserve (xb_coll_flow_reserve_ahead) comes too late to hide it.
 * With data past the seq's line, and the reader asking for the lines at
 * the end of its call too (xb_coll_flow_read_ahead), interleaved runs of
 * 2026-12-07, 64 bytes, us: 2 ranks gather 0.138 -> 0.089, reduce 0.133
 * -> 0.085, scan 0.119 -> 0.083, bcast 0.087 -> 0.074; 4 ranks gather
 * 0.25 -> 0.20, scan 0.29 -> 0.19, bcast 0.17 -> 0.14. Within the seq's
 * line the pair lost (bcast's root at 8 bytes: 0.070 against 0.059), so
 * xb_coll_flow_claim_next asks only past it; but see
 * xb_coll_flow_end_ahead. */
void xb_coll_flow_claim_cell(const xb_coll_flow_t *f, size_t bytes)
{
    const char *cell = region(f->loc[f->me]) + cell_off(f->n + 1);
    for (int i = 0, n = lines_past_seq(bytes); i <= n; i++)
        claim_line(cell + i * XB_CACHELINE);
}

/* End, and when this call's data fit the seq's line, claim the next
 * call's line: a one-line writer whose reader spins on that line in
 * between (scatter's root at 2 ranks, 8 bytes: 0.062 us against 0.092)
 * gains more than the transfer it costs, where bcast's root, whose reader
 * does less, lost (above). */
void xb_coll_flow_end_ahead(xb_coll_flow_t *f, size_t bytes)
{
    xb_coll_flow_end(f);
    if (bytes <= XB_COLL_FLOW_SEQ_LINE)
        xb_coll_flow_claim_cell(f, 0);
}

/* A reader, at the end of its call: ask for rank's cell of the next call
 * (the seq's line and the data lines of `bytes`, up to two more), whose
 * writer has often written it already: the transfers overlap the return
 * and the next call's work before the wait (xb_coll_flow_claim_cell). */
void xb_coll_flow_fetch_cell(const xb_coll_flow_t *f, int rank, size_t bytes)
{
    const char *cell = region(f->loc[rank]) + cell_off(f->n + 1);
    for (int i = 0, n = lines_past_seq(bytes); i <= n; i++)
        __builtin_prefetch(cell + i * XB_CACHELINE);
}

/* The data of this rank's cell is written: publish it and wake the comm
 * ranks [lo, hi) that sleep (the readers). */
void xb_coll_flow_publish(xb_coll_flow_t *f, int lo, int hi)
{
    xb_coll_flow_publish_word(f, lo, hi, 0);
}

/* The seq word: the call number + 1 in its low 32 bits (what readers
 * compare: a cell is reused every NCELLS calls, so 32 bits tell calls
 * apart), the writer's header word in its high 32 (bcast: the root's byte
 * count, stream_reduce.c): the same store, the same line. */
void xb_coll_flow_publish_word(xb_coll_flow_t *f, int lo, int hi, uint32_t word)
{
    __atomic_store_n(seq_of(f, f->me), (uint32_t)(f->n + 1) | (uint64_t)word << 32,
                     __ATOMIC_RELEASE);
    xb_method_node_fence();
    for (int r = lo; r < hi; r++)
        if (r != f->me)
            xb_method_node_wake(f->loc[r]);
}

typedef struct { const xb_coll_flow_t *f; int rank; } await_t;

static bool published(void *arg)
{
    const await_t *w = arg;
    return (uint32_t)__atomic_load_n(seq_of(w->f, w->rank), __ATOMIC_ACQUIRE) ==
           (uint32_t)(w->f->n + 1);
}

bool xb_coll_flow_published(const xb_coll_flow_t *f, int rank)
{
    await_t w = { f, rank };
    return published(&w);
}

/* Wait until comm rank `rank` has published its cell of this call. */
void xb_coll_flow_await(xb_coll_flow_t *f, int rank)
{
    await_t w = { f, rank };
    wait_for(published, &w, "a node collective (a peer's data)");
}

typedef struct { await_t w; int lines; } await_data_t;

/* published, asking first for the lines of data beyond the seq's */
static bool published_data(void *arg)
{
    await_data_t *d = arg;
    const char *seq = (const char *)seq_of(d->w.f, d->w.rank);
    for (int i = 1; i <= d->lines; i++)
        __builtin_prefetch(seq + i * XB_CACHELINE);
    return published(&d->w);
}

/* The same, for a reader that expects `bytes` of data in the cell: each
 * check of the seq asks for the first two lines of data beyond the seq's
 * line too, so that once the writer has published, their transfers from
 * its CPU overlap the seq's, where the copy after the wait would ask only
 * then; the lines after those the copy asks for together. Not for 48
 * bytes or less (the seq's line: an 8-byte bcast lost 3% to an unused
 * request). Asked once before the wait instead of at each check, 256
 * bytes of bcast took 1.16 times as long. */
void xb_coll_flow_await_data(xb_coll_flow_t *f, int rank, size_t bytes)
{
    await_data_t d = { { f, rank }, lines_past_seq(bytes) };
    if (d.lines == 0) {
        xb_coll_flow_await(f, rank);
        return;
    }
    wait_for(published_data, &d, "a node collective (a peer's data)");
}

static bool published_or_ended(void *arg)
{
    const await_t *w = arg;
    return published(arg) || __atomic_load_n(done_of(w->f->loc[w->rank]), __ATOMIC_ACQUIRE) >
                             w->f->n;
}

bool xb_coll_flow_await_or_end(xb_coll_flow_t *f, int rank)
{
    await_t w = { f, rank };
    if (!published_or_ended(&w))         /* a publish wakes this rank, and so does the end */
        wait_wanting(f->loc[f->me], f->loc[rank], f->n + 1, published_or_ended, &w,
                     "a node collective (the root's verdict)");
    return published(&w);
}

/* The header word rank published with its cell of this call (after its
 * await). */
uint32_t xb_coll_flow_word(const xb_coll_flow_t *f, int rank)
{
    return (uint32_t)(__atomic_load_n(seq_of(f, rank), __ATOMIC_RELAXED) >> 32);
}

/* xb_coll_flow_check's answer for a header word w that is not the
 * expected byte count, out of line. */
int xb_coll_flow_check_word(uint32_t w, int rank, size_t want, xb_coll_kind_t kind)
{
    if (w == XB_COLL_FLOW_AS_MESSAGE || w == XB_COLL_FLOW_AS_ROUNDS ||
        w == XB_COLL_FLOW_AS_PIECES)
        return XB_ERR_AGAIN;
    if (w == XB_COLL_FLOW_FAILED)
        return xb_err_set(XB_ERR_TRUNCATE, "rank %d failed in this %s before it passed its "
                          "data on (the ranks' counts or types do not match)", rank,
                          xb_coll_kind_name(kind));
    return xb_coll_mismatch((int)kind, -1, rank, w, (MPI_Count)want, 0, NULL);
}

/* The byte count of the last AS_PIECES this thread's checks met (-1: the
 * last header that sent it to pair's messages was another). The flow call
 * ends before its caller learns that it must follow pieces, and the cell
 * that held the count may be reused after that end: it is read here. */
static __thread int64_t pieces = -1;

int xb_coll_flow_check_slow(const xb_coll_flow_t *f, int rank, size_t want,
                            xb_coll_kind_t kind)
{
    uint32_t w = xb_coll_flow_word(f, rank);
    pieces = -1;
    if (w == XB_COLL_FLOW_AS_PIECES)
        memcpy(&pieces, xb_coll_flow_cell(f, rank), sizeof pieces);
    return xb_coll_flow_check_word(w, rank, want, kind);
}

int64_t xb_coll_flow_pieces(void)
{
    int64_t t = pieces;
    pieces = -1;
    return t;
}

/* The second word of the header line of rank's cell: the progress of a
 * call that publishes its data in parts (node_stream.c). */
static uint64_t *prog_of(const xb_coll_flow_t *f, int rank)
{
    return seq_of(f, rank) + 1;
}

/* Publish progress `value` of this rank's cell and wake comm rank `reader`
 * (-1: every other rank) if it sleeps. */
void xb_coll_flow_progress(xb_coll_flow_t *f, uint64_t value, int reader)
{
    __atomic_store_n(prog_of(f, f->me), value, __ATOMIC_RELEASE);
    xb_method_node_fence();
    for (int r = reader < 0 ? 0 : reader; r < (reader < 0 ? f->p : reader + 1); r++)
        if (r != f->me)
            xb_method_node_wake(f->loc[r]);
}

typedef struct { const xb_coll_flow_t *f; int rank; uint64_t value; } await_prog_t;

static bool progressed(void *arg)
{
    const await_prog_t *w = arg;
    return __atomic_load_n(prog_of(w->f, w->rank), __ATOMIC_ACQUIRE) >= w->value;
}

/* Wait until comm rank `rank` has published progress `value` or more. */
void xb_coll_flow_await_progress(xb_coll_flow_t *f, int rank, uint64_t value)
{
    await_prog_t w = { f, rank, value };
    wait_for(progressed, &w, "a node collective (a peer's data)");
}

/* This rank is done with the call (its reads too). */
void xb_coll_flow_end(xb_coll_flow_t *f)
{
    flow_seq = f->n + 1;
    __atomic_store_n(done_of(f->loc[f->me]), f->n + 1, __ATOMIC_RELEASE);
    xb_method_node_fence();
    if (XB_LIKELY(__atomic_load_n(waiters(), __ATOMIC_RELAXED) == 0))
        return;
    /* A full fence: ranks that end call w - 1 at the same time must not
     * both miss the other's done store (the node fence above is only a
     * compiler barrier where sleepers issue membarrier, and the waiter
     * may be asleep already); the last of them in the fences' order sees
     * every done store. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    /* wake a rank waiting for room when its wait is over. Only the end
     * of call w - 1 can complete a wait for w (a rank that ended it
     * earlier did not complete it then, and one that ended it before the
     * wait began let the waiter's own check see it); and a waiter's own
     * done is at least w (it waits for earlier calls), so "every other
     * rank reached w" is "the lowest done reached w": one pass over the
     * done counters at most (writers that run ahead all wait at once:
     * 8 ranks, 8-byte reduce, this loop was a quarter of a writer's
     * instructions) */
    uint64_t low = 0;
    for (int r = 0; r < f->p; r++) {
        const uint64_t *wl = want_of(f->loc[r]);
        uint64_t w = r == f->me ? 0 : __atomic_load_n(&wl[0], __ATOMIC_ACQUIRE);
        if (w != f->n + 1)
            continue;
        uint64_t who = __atomic_load_n(&wl[1], __ATOMIC_RELAXED);
        if (who == 0 && low == 0)
            low = lowest_done(f);
        if (who != 0 ? (int)who - 1 == f->loc[f->me] : low >= w)
            xb_method_node_wake(f->loc[r]);
    }
}

/* The flow algorithms' condition (NEED_FLOW in coll_select.c): blocking,
 * node-complete, not under MULTIPLE, at most XB_COLL_FLOW_MAXP ranks, and
 * what one rank writes fits a cell. */
bool xb_coll_flow_fits(xb_coll_kind_t kind, const xb_coll_args_t *a)
{
    int p = a->comm->size;
    if (a->form != XB_COLL_BLOCKING || xb_coll_threads || !xb_coll_flow_comm_ok(a->comm))
        return false;                                     /* before the work on need */
    MPI_Count need;
    switch (kind) {
    case XB_COLL_BCAST: need = a->rcount * xb_dt_size(a->rdt); break;
    case XB_COLL_REDUCE: case XB_COLL_SCAN: case XB_COLL_EXSCAN:
        need = xb_coll_red_need(a->rcount, a->rdt, a->op);
        break;
    case XB_COLL_ALLGATHERV:       /* the two-rank cells: both know both counts */
        if (p != 2)
            return false;
        need = (a->rcounts[0] > a->rcounts[1] ? a->rcounts[0] : a->rcounts[1]) *
               xb_dt_size(a->rdt);
        break;
    default: return false;
    }
    return need >= 0 && need <= XB_COLL_FLOW_CELL;
}

/* The part of the condition that does not depend on the collective: a
 * blocking call, not under MULTIPLE, on a node-complete communicator of at
 * most XB_COLL_FLOW_MAXP ranks, and `need` bytes (what one rank writes;
 * negative: no) fit a cell. The two-rank cell algorithms (pair_cell.c)
 * ask this with their own need. */
bool xb_coll_flow_need_fits(const xb_coll_args_t *a, MPI_Count need)
{
    if (need < 0 || need > XB_COLL_FLOW_CELL || a->form != XB_COLL_BLOCKING || xb_coll_threads)
        return false;
    return xb_coll_flow_comm_ok(a->comm);
}

/* Copy count elements of dt at ubuf into a cell as packed bytes (to_cell)
 * or back: a contiguous buffer is one memcpy. */
int xb_coll_flow_copy(void *ubuf, MPI_Count count, xb_datatype_t *dt, void *cell, bool to_cell)
{
    MPI_Count bytes = count * xb_dt_size(dt);
    if (xb_dt_is_contig(dt, count)) {
        char *u = (char *)ubuf + xb_dt_true_lb(dt);
        if (bytes > 0)
            memcpy(to_cell ? cell : u, to_cell ? u : cell, (size_t)bytes);
        return XB_OK;
    }
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    return to_cell ? xb_dt_copy(ubuf, count, dt, cell, bytes, byte)
                   : xb_dt_copy(cell, bytes, byte, ubuf, count, dt);
}

/* Bytes of red's working vector as it lies in memory (extent: a pair type
 * such as MPI_SHORT_INT has a hole). */
size_t xb_coll_flow_wbytes(const xb_coll_red_t *red)
{
    return (size_t)(red->wcount * xb_dt_extent(red->wdt));
}

/* The user's vector (red->count x red->dt at ubuf) to its working layout
 * at w (to_work) or back: one memcpy when the user's type is the working
 * type and contiguous. */
int xb_coll_flow_wcopy(const xb_coll_red_t *red, void *ubuf, void *w, bool to_work)
{
    if (red->dt == red->wdt && xb_dt_is_contig(red->dt, red->count)) {
        char *u = (char *)ubuf + xb_dt_true_lb(red->dt);
        size_t bytes = xb_coll_flow_wbytes(red);
        if (bytes > 0)
            memcpy(to_work ? w : u, to_work ? u : w, bytes);
        return XB_OK;
    }
    return to_work ? xb_dt_copy(ubuf, red->count, red->dt, w, red->wcount, red->wdt)
                   : xb_dt_copy(w, red->wcount, red->wdt, ubuf, red->count, red->dt);
}

/* xb_coll_red_init, without its check of the op against a predefined type
 * (the binding made it: xb_coll_args_allred; xb_op_apply checks again). */
int xb_coll_flow_red(xb_coll_red_t *r, MPI_Count count, xb_datatype_t *dt, xb_op_t *op)
{
    if (!xb_dt_is_predefined(dt))
        return xb_coll_red_init(r, count, dt, op);
    *r = (xb_coll_red_t){ .op = op, .dt = dt, .count = count, .wdt = dt, .wcount = count,
                          .direct = true };
    return XB_OK;
}

/* Wait until ready(arg) with the node watch (the chains of node_chain.c). */
void xb_coll_flow_wait(bool (*ready)(void *), void *arg, const char *what)
{
    wait_for(ready, arg, what);
}
