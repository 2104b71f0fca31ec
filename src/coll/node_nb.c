/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * node_nb.c - nonblocking node collectives: per-communicator channels of
 * numbered windows in the node's shared memory (the `shm_nb` algorithms,
 * shm_nb.c). The blocking node collectives (node_shm.c, node_flow.c) rely
 * on every local rank making the same node calls in the same order; the
 * nonblocking and persistent forms do not have that order: several may be
 * outstanding on one communicator, and collectives on two communicators
 * may start in different orders on different ranks. So each communicator
 * gets a channel of its own, and the calls on it are numbered.
 *
 * Channels. Area 2 of the node slots (one slot per local rank) is cut into
 * XB_COLL_NBN_CHANS channels. A communicator whose members are all
 * processes of this node (the whole node, or a part of it: a split half, a
 * row of a process grid) and whose context slot (ctx / 2) is below
 * XB_COLL_NBN_CHANS uses the channel of that number; others take the
 * message algorithms. The context id is agreed by every member, so every
 * member decides alike, and it was free on every member when it was taken:
 * the member's communicator before on that channel had no request left. A
 * rank's channel holds one communicator at a time, but the channels of
 * two members held different communicators before (parts of the node), so
 * a communicator's first call agrees on its number ("The first number"
 * below); its calls go on from there (calls[], done counters per channel).
 *
 * Layout of a rank's channel: line 0 its done counter (the calls of the
 * channel this rank has finished, a prefix: a later call that ends first
 * waits in a private mask), line 1 `want` (nonzero while it waits for
 * room), then XB_COLL_NBN_WINDOWS windows: call n uses window n mod
 * WINDOWS of every rank. A window is a header (seq = n + 1, bytes written)
 * and the data, which starts in the header's line.
 *
 * A call (xb_coll_nbn_step, one step of the schedule, advanced by every
 * poll of the progress engine):
 *   room   every rank (this one too) has finished call n - WINDOWS: the
 *          window of call n may be overwritten (every rank checks it, also
 *          those that write nothing, so that no rank finishes a call more
 *          than WINDOWS ahead of its done counter);
 *   write  this rank's part into its window, then bytes and seq (release);
 *   data   the windows this rank reads (a range of comm ranks, by
 *          collective) carry seq = n + 1; then the collective's read
 *          function combines or copies them out;
 *   done   the done counter moves over every call finished in order.
 * The lowest call not finished on a channel can always end once every rank
 * has started it, so a call waiting for room never waits on a later one.
 *
 * Sleeping. A rank that waits in MPI_Wait sleeps in the method; the node
 * watch (node_flow.c) asks xb_coll_nbn_watch whether a pending call can
 * move. A writer, after its seq store and a seq_cst fence, wakes every
 * rank that reads its window once that rank's whole range is published:
 * the writer whose fence comes last among a range's writers sees them all,
 * and sees the reader's `sleeping` if the reader's re-check missed one of
 * them (Dekker's pairing, as in shm_wait.c). A finishing rank fences and
 * wakes the ranks whose `want` is up.
 *
 * Threads. Every call, list and counter here belongs to the holder of the
 * main context's lock (collectives run on the main context), so calls on
 * different communicators may run from different threads at once; calls
 * on one communicator are ordered by the program, as the standard asks.
 * The one reader without the lock is the node watch: see
 * xb_coll_nbn_watch. Blocking calls take the channels when some process
 * of the job runs with threads, or on a part of the node (the blocking
 * node algorithms serve a whole node otherwise), and then run as a
 * request (xb_coll_run): the poller moves them, and a thread that waits
 * sleeps until its request completes.
 *
 * Two sets. The blocking calls under threads take a second set of
 * channels, in area 0 (the blocking node algorithms' slots, idle when the
 * job runs with threads), numbered apart from the nonblocking ones: the
 * message algorithms give blocking and nonblocking calls separate tag
 * sequences, so a program whose ranks start a nonblocking call and a
 * blocking one on a communicator in different orders (erroneous by the
 * standard, but MPICH and Open MPI run it, and mpi4py's Iagree test does
 * it: Iallreduce then Barrier on the root, Barrier then Iallreduce
 * elsewhere) ran; one numbering for both made the Barrier of one rank
 * meet the Iallreduce of another.
 */
#include <string.h>
#include "coll/coll_int.h"
#include "method/method.h"
#include "pt2pt/pt2pt.h"
#include "util/xb_mt.h"

enum { CHAN_BYTES = 72 << 10, HEAD_BYTES = 2 * XB_CACHELINE,
       WIN_BYTES = ((CHAN_BYTES - HEAD_BYTES) / XB_COLL_NBN_WINDOWS) & ~(XB_CACHELINE - 1),
       WIN_DATA_OFF = 16 };
_Static_assert(WIN_BYTES - WIN_DATA_OFF >= XB_COLL_NBN_DATA, "the data fits a window");
_Static_assert(XB_COLL_NBN_WINDOWS <= 64, "finished calls: a 64-bit mask");

enum { ST_IDLE, ST_BASE, ST_ROOM, ST_DATA, ST_READ, ST_FIN };
enum { BASE_NONE, BASE_ASKED, BASE_KNOWN };   /* comm->nbn[set].state */
/* The agreement's messages, on the collective context: above every tag of
 * the collectives' kind/sequence layout and of their local phases. */
enum { AGREE_TAG = 1 << 26 };

/* Two sets of channels: set 0 in area 2 for every call, set 1 in area 0
 * for the blocking calls when the job runs with threads (see "Two sets"
 * above). Channel index k = set * XB_COLL_NBN_CHANS + channel. */
enum { NSETS = 2, NCHAN = NSETS * XB_COLL_NBN_CHANS };
static const int set_area[NSETS] = { 2, 0 };

static uint64_t calls[NCHAN];                 /* calls started on the channel */
static uint64_t done[NCHAN];                  /* this rank's done counter      */
static uint64_t fin[NCHAN];                   /* bit i: call done + i finished */
static uint64_t room_below[NCHAN];
static uint64_t last_mask[NCHAN];             /* local ranks of the communicator
                                                 whose calls the channel holds */
static uint64_t need_mask[NCHAN];             /* before the next write: these */
static uint64_t need_end[NCHAN];              /* ranks' done reach need_end   */
static char    *areas[NSETS][XB_COLL_FLOW_MAXP];   /* each set's slot by local rank */
static int      have_area = -1;
static xb_coll_nbop_t *pending;               /* calls waiting for room or data */
uint64_t xb_coll_node_nb_calls;

void xb_coll_nbn_init(void)
{
    memset(calls, 0, sizeof calls);
    xb_coll_node_nb_calls = 0;
    memset(done, 0, sizeof done);
    memset(fin, 0, sizeof fin);
    for (int c = 0; c < NCHAN; c++)
        room_below[c] = XB_COLL_NBN_WINDOWS;
    memset(last_mask, 0, sizeof last_mask);
    memset(need_mask, 0, sizeof need_mask);
    memset(need_end, 0, sizeof need_end);
    memset(areas, 0, sizeof areas);
    have_area = -1;
    pending = NULL;
}

static char *chan_of(int local, int k)
{
    int set = k / XB_COLL_NBN_CHANS;
    char *a = areas[set][local];
    if (XB_UNLIKELY(a == NULL)) {
        size_t size;
        a = areas[set][local] = xb_method_node_slot(set_area[set], local, &size);
    }
    return a + (size_t)(k % XB_COLL_NBN_CHANS) * CHAN_BYTES;
}

static uint64_t *done_of(int local, int chan) { return (uint64_t *)(void *)chan_of(local, chan); }
static uint64_t *want_of(int local, int chan)
{
    return (uint64_t *)(void *)(chan_of(local, chan) + XB_CACHELINE);
}

static uint64_t *win_of(const xb_coll_nbop_t *o, int rank)
{
    return (uint64_t *)(void *)(chan_of(o->loc[rank], o->chan) + HEAD_BYTES +
                                (size_t)(o->n % XB_COLL_NBN_WINDOWS) * WIN_BYTES);
}

/* The channel of comm, or -1 when its collectives cannot take the windows:
 * before the agreement at MPI_Init (coll_agree.c), a member on another
 * node, more than XB_COLL_FLOW_MAXP ranks, a context slot beyond the
 * channels, or no area 2. */
int xb_coll_nbn_chan(const xb_comm_t *comm)
{
    if (!xb_coll_agreed || comm->ctx / 2 >= XB_COLL_NBN_CHANS || comm->size < 2 ||
        xb_coll_node_locs(comm) == NULL)
        return -1;
    if (XB_UNLIKELY(have_area < 0)) {
        have_area = 1;
        for (int set = 0; set < NSETS; set++) {
            size_t size = 0;
            have_area &= xb_method_node_slot(set_area[set], 0, &size) != NULL &&
                         size >= (size_t)XB_COLL_NBN_CHANS * CHAN_BYTES;
        }
    }
    return have_area ? (int)(comm->ctx / 2) : -1;
}

/* The comm ranks whose windows `rank` reads: [*lo, *hi). */
static void range_of(const xb_coll_nbop_t *o, int rank, int *lo, int *hi)
{
    *lo = 0;
    switch (o->reads) {
    case XB_NBN_ALL:      *hi = o->p; break;
    case XB_NBN_AT_ROOT:  *hi = rank == o->root ? o->p : 0; break;
    case XB_NBN_ROOT:     *lo = o->root; *hi = rank == o->root ? o->root : o->root + 1; break;
    case XB_NBN_PREFIX:   *hi = rank + 1; break;
    default:              *hi = rank; break;          /* XB_NBN_BEFORE */
    }
}

static bool published(const xb_coll_nbop_t *o, int rank)
{
    return __atomic_load_n(win_of(o, rank), __ATOMIC_ACQUIRE) == o->n + 1;
}

/* Every window this rank reads is published. */
static bool data_ready(const xb_coll_nbop_t *o)
{
    int lo, hi;
    range_of(o, o->me, &lo, &hi);
    for (int r = lo; r < hi; r++)
        if (!published(o, r))
            return false;
    return true;
}

/* Every rank has finished call n - WINDOWS (remembered per channel), and
 * the readers of the communicator that used the channel before have
 * finished its calls (need_mask). */
static bool room(const xb_coll_nbop_t *o)
{
    int c = o->chan;
    if (XB_LIKELY(o->n < room_below[c]))
        return true;
    for (uint64_t m = need_mask[c]; m != 0; m &= m - 1) {
        int r = __builtin_ctzll(m);
        if (__atomic_load_n(done_of(r, c), __ATOMIC_ACQUIRE) < need_end[c])
            return false;
        need_mask[c] &= ~((uint64_t)1 << r);
    }
    uint64_t low = done[c];
    for (int r = 0; r < o->p; r++)
        if (r != o->me) {
            uint64_t d = __atomic_load_n(done_of(o->loc[r], c), __ATOMIC_ACQUIRE);
            low = d < low ? d : low;
        }
    room_below[c] = low + XB_COLL_NBN_WINDOWS;
    return o->n < room_below[c];
}

/* ---- the first number of a communicator's calls ---------------------------
 * The channel is the context slot, which the members agreed is free on
 * each of them; but each rank's channel has numbered the calls of other
 * communicators before (a part of the node: different ones on different
 * ranks), so the members agree on the number of the first call too, by one
 * message to every other member: each proposes the calls its channel has
 * numbered, the first number is the largest (above every seq left in the
 * members' windows, so no old seq passes for a new call's; and every
 * member's done counter is at most that until it moves there). The call
 * that finds no agreement posts it; every call of the communicator takes
 * its place (rel) when it starts, in the communicator's order, and waits
 * for the first number. */
static int agree_post(xb_coll_nbop_t *o)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int tag = AGREE_TAG + o->set;
    o->props[o->me] = calls[o->chan];
    o->nxreq = 0;
    for (int r = 0; r < o->p; r++) {
        if (r == o->me)
            continue;
        int rc = xb_pt2pt_irecv(&o->props[r], 8, byte, r, tag, o->a.comm, 1, &o->xreq[o->nxreq]);
        if (rc != XB_OK)
            return rc;
        o->nxreq++;
        rc = xb_pt2pt_isend(&o->props[o->me], 8, byte, r, tag, o->a.comm, 1, &o->xreq[o->nxreq]);
        if (rc != XB_OK)
            return rc;
        o->nxreq++;
    }
    return XB_OK;
}

static bool agreed(const xb_coll_nbop_t *o)
{
    if (o->a.comm->nbn[o->set].state == BASE_KNOWN)
        return true;
    if (o->nxreq == 0)
        return false;               /* another call of the communicator asked */
    for (int i = 0; i < o->nxreq; i++)
        if (!xb_request_is_done(o->xreq[i]))
            return false;
    return true;
}

/* The agreement is in: move the channel to the communicator's first
 * number. Every earlier call of this rank on the channel has finished (the
 * context slot was free: the communicator before had no request left), so
 * done = calls; the readers of that communicator's windows (last_mask)
 * must finish its calls before this one overwrites them (need_mask). */
static void adopt(xb_coll_nbop_t *o)
{
    int c = o->chan;
    uint64_t base = 0, mask = 0;
    for (int i = 0; i < o->nxreq; i++)
        xb_request_release(o->xreq[i]);
    o->nxreq = 0;
    for (int r = 0; r < o->p; r++) {
        base = o->props[r] > base ? o->props[r] : base;
        mask |= (uint64_t)1 << o->loc[r];
    }
    need_mask[c] = last_mask[c];
    need_end[c] = calls[c];
    last_mask[c] = mask;
    calls[c] = done[c] = base;
    fin[c] = 0;
    room_below[c] = 0;
    __atomic_store_n(done_of(o->loc[o->me], c), base, __ATOMIC_RELEASE);
    o->a.comm->nbn[o->set].base = base;
    o->a.comm->nbn[o->set].state = BASE_KNOWN;
}

static void pend(xb_coll_nbop_t *o)
{
    if (o->on_list)
        return;
    o->on_list = true;
    o->prev = NULL;
    o->next = pending;
    if (pending != NULL)
        pending->prev = o;
    pending = o;
}

static void unpend(xb_coll_nbop_t *o)
{
    if (!o->on_list)
        return;
    o->on_list = false;
    if (o->prev != NULL)
        o->prev->next = o->next;
    else
        pending = o->next;
    if (o->next != NULL)
        o->next->prev = o->prev;
}

/* Publish this rank's window, then wake each reader of it whose range is
 * complete now (see the header: the last writer of a range sees it all). */
static void publish(xb_coll_nbop_t *o, size_t bytes)
{
    uint64_t *w = win_of(o, o->me);
    __atomic_store_n(&w[1], (uint64_t)bytes, __ATOMIC_RELAXED);
    __atomic_store_n(&w[0], o->n + 1, __ATOMIC_RELEASE);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    int prefix = -1;                    /* leading comm ranks published */
    for (int k = 0; k < o->p; k++) {
        int lo, hi;
        if (k == o->me)
            continue;
        range_of(o, k, &lo, &hi);
        if (o->me < lo || o->me >= hi)
            continue;
        if (lo != 0) {                  /* the root's window alone */
            xb_method_node_wake(o->loc[k]);
            continue;
        }
        if (prefix < 0)
            for (prefix = 0; prefix < o->p && published(o, prefix); prefix++)
                ;
        if (prefix >= hi)
            xb_method_node_wake(o->loc[k]);
    }
}

/* Call n is finished here: move the done counter over the calls finished
 * in order, and wake the ranks that wait for room. */
static void finish(xb_coll_nbop_t *o)
{
    int c = o->chan;
    fin[c] |= (uint64_t)1 << (o->n - done[c]);
    if (!(fin[c] & 1))
        return;
    while (fin[c] & 1) {
        fin[c] >>= 1;
        done[c]++;
    }
    __atomic_store_n(done_of(o->loc[o->me], c), done[c], __ATOMIC_RELEASE);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int r = 0; r < o->p; r++)
        if (r != o->me && __atomic_load_n(want_of(o->loc[r], c), __ATOMIC_RELAXED) != 0)
            xb_method_node_wake(o->loc[r]);
}

int xb_coll_nbn_step(xb_coll_nbop_t *o)
{
    if (o->state == ST_FIN) {        /* a persistent request's next start */
        o->state = ST_IDLE;
        o->rc = XB_OK;
    }
    switch (o->state) {
    case ST_IDLE: {
        __typeof__(o->a.comm->nbn[0]) *num = &o->a.comm->nbn[o->set];
        o->rel = num->next++;
        xb_coll_node_nb_calls++;
        o->state = ST_BASE;
        if (num->state == BASE_NONE) {
            if (o->props == NULL)   /* built after the state left NONE: not reached */
                return xb_err_set(XB_ERR_INTERN, "a node channel's first call has no room "
                                  "for the agreement on its number");
            num->state = BASE_ASKED;
            int rc = agree_post(o);
            if (rc != XB_OK)
                return rc;
        }
    }
        /* fall through */
    case ST_BASE:
        if (!agreed(o)) {
            pend(o);
            return XB_INPROGRESS;
        }
        if (o->nxreq > 0)
            adopt(o);
        o->n = o->a.comm->nbn[o->set].base + o->rel;
        if (calls[o->chan] < o->n + 1)
            calls[o->chan] = o->n + 1;
        o->state = ST_ROOM;
        /* fall through */
    case ST_ROOM:
        if (!room(o)) {
            __atomic_store_n(want_of(o->loc[o->me], o->chan), 1, __ATOMIC_RELAXED);
            pend(o);
            return XB_INPROGRESS;
        }
        __atomic_store_n(want_of(o->loc[o->me], o->chan), 0, __ATOMIC_RELAXED);
        if (o->write != NULL) {
            uint64_t *w = win_of(o, o->me);
            size_t bytes = 0;
            o->rc = o->write(o, (char *)w + WIN_DATA_OFF, &bytes);
            publish(o, o->rc == XB_OK ? bytes : (size_t)-1);  /* readers see a mismatch */
        }
        o->state = ST_DATA;
        /* fall through */
    case ST_DATA:
        if (!data_ready(o)) {
            pend(o);
            return XB_INPROGRESS;
        }
        unpend(o);
        o->state = ST_READ;
        if (o->user && o->rc == XB_OK && xb_mt_on)
            return XB_COLL_USER_OP;  /* the owner runs xb_coll_nbn_read */
        /* fall through */
    case ST_READ:
        return xb_coll_nbn_read(o);
    }
    return XB_OK;                    /* not reached */
}

int xb_coll_nbn_read(xb_coll_nbop_t *o)
{
    if (o->rc == XB_OK)
        o->rc = o->read(o);
    finish(o);
    o->state = ST_FIN;
    return o->rc;
}

const void *xb_coll_nbn_data(const xb_coll_nbop_t *o, int rank)
{
    return (const char *)win_of(o, rank) + WIN_DATA_OFF;
}

int xb_coll_nbn_check(const xb_coll_nbop_t *o, int rank, size_t want)
{
    size_t got = (size_t)__atomic_load_n(win_of(o, rank) + 1, __ATOMIC_RELAXED);
    if (XB_LIKELY(got == want))
        return XB_OK;
    if (got == (size_t)-1)
        return xb_err_set(XB_ERR_TRUNCATE, "the %s: rank %d failed to write its part "
                          "(its arguments differ from this rank's, see its error)",
                          xb_coll_kind_name((xb_coll_kind_t)o->kind), rank);
    bool bcast = o->kind == XB_COLL_BCAST;      /* the root's count against ours */
    return xb_coll_mismatch(o->kind, bcast ? o->root : -1, rank, got, (MPI_Count)want,
                            bcast ? o->a.rcount : 0, bcast ? o->a.rdt : NULL);
}

static bool ready(const xb_coll_nbop_t *o)
{
    switch (o->state) {
    case ST_BASE: return agreed(o);
    case ST_ROOM: return room(o);
    case ST_DATA: return data_ready(o);
    default:      return true;
    }
}

/* The node watch (node_flow.c) runs in the method's sleep. Under
 * MPI_THREAD_MULTIPLE the sleeping poller has let go of the lock, and the
 * list and the calls on it belong to whoever holds it: the watch looks
 * only when it can take the lock without waiting. When another thread
 * holds it, the answer is "look again" (true): the poller comes back, takes
 * the lock once that thread lets go (no thread holds it across a sleep),
 * polls, and sleeps after a watch that could look. Answering false there
 * could lose the wake-up of a writer that published before this rank said
 * it sleeps (the Dekker pairing of the header needs the re-check). */
bool xb_coll_nbn_watch(void)
{
    if (XB_LIKELY(!xb_mt_on)) {
        for (xb_coll_nbop_t *o = pending; o != NULL; o = o->next)
            if (ready(o))
                return true;
        return false;
    }
    if (!xb_mutex_trylock(&xb_mt_big))
        return true;
    bool any = false;
    for (xb_coll_nbop_t *o = pending; o != NULL && !any; o = o->next)
        any = ready(o);
    xb_mutex_unlock(&xb_mt_big);
    return any;
}

void xb_coll_nbn_drop(xb_coll_nbop_t *o)
{
    unpend(o);
}

int xb_coll_nbn_op(xb_coll_sched_t *s, const xb_coll_args_t *a, int kind, int reads,
                  xb_coll_nbn_write_fn write, xb_coll_nbn_read_fn read, xb_coll_nbop_t **op)
{
    xb_datatype_t *byte = xb_dt_from_handle(MPI_BYTE);
    int p = a->comm->size, chan = xb_coll_nbn_chan(a->comm);
    if (chan < 0)
        return xb_err_set(XB_ERR_INTERN, "a nonblocking node collective on a communicator "
                          "without a channel");
    int set = a->form == XB_COLL_BLOCKING && xb_coll_threads;
    xb_coll_nbop_t *o = xb_coll_sched_tmp(s, (MPI_Count)sizeof(*o), byte);
    int *loc = xb_coll_sched_tmp(s, (MPI_Count)(p * sizeof(int)), byte);
    if (o == NULL || loc == NULL)
        return XB_ERR_NO_MEM;
    memset(o, 0, sizeof(*o));
    if (a->comm->nbn[set].state == BASE_NONE) {   /* may be the first call: */
        o->props = xb_coll_sched_tmp(s, (MPI_Count)(p * sizeof(uint64_t)), byte);
        o->xreq = xb_coll_sched_tmp(s, (MPI_Count)(2 * (p - 1) * sizeof(*o->xreq)), byte);
        if (o->props == NULL || o->xreq == NULL)  /* room for the agreement */
            return XB_ERR_NO_MEM;
    }
    memcpy(loc, xb_coll_node_locs(a->comm), (size_t)p * sizeof(int));   /* chan: cached */
    o->a = *a;
    o->kind = kind;
    o->reads = reads;
    o->p = p;
    o->me = a->comm->rank;
    o->root = a->root;
    o->set = set;
    o->chan = chan + set * XB_COLL_NBN_CHANS;
    o->loc = loc;
    o->write = write;
    o->read = read;
    o->user = a->op != NULL && !a->op->predefined;
    if (op != NULL)
        *op = o;
    return xb_coll_sched_node(s, o);
}
