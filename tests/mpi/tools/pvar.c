/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pvar.c - performance variables that must move, by exact amounts.
 *
 * The last rank (the receiver; rank 0 itself with one rank) tells rank 0
 * "go" and then only probes for a final message: rank 0 sends N messages
 * of LEN bytes and one empty final one, so the receiver holds exactly N + 1
 * unexpected messages (level and high-water mark), then receives them all
 * (level back). Counters move exactly: messages and bytes sent (and the
 * method counters summed over the methods), received, eager, unexpected.
 * Then the class semantics: a stopped counter does not move, reset, write,
 * readreset; a level refuses write, reset, start and stop.
 */
#include "mpit_util.h"

enum { N = 10, LEN = 100, NPV = 64 };

static MPI_T_pvar_session s;
static MPI_T_pvar_handle h[NPV];
static int npv;

static MPI_T_pvar_handle handle_of(const char *name, int cls)
{
    int idx = pvar_index(name, cls);
    return idx >= 0 ? h[idx] : MPI_T_PVAR_HANDLE_NULL;
}

static unsigned long long val(const char *name, int cls)
{
    return read_pvar(s, handle_of(name, cls));
}

#define CNT(name) val(name, MPI_T_PVAR_CLASS_COUNTER)
#define LVL(name) val(name, MPI_T_PVAR_CLASS_LEVEL)
#define HWM(name) val(name, MPI_T_PVAR_CLASS_HIGHWATERMARK)

/* Sum of one per-method counter over every method ("am_sent"/"bytes_sent"). */
static unsigned long long method_sum(const char *what)
{
    unsigned long long sum = 0;
    for (int i = 0; i < npv; i++) {
        char name[128];
        int len = sizeof name, cls;
        MPI_T_pvar_get_info(i, name, &len, NULL, &cls, NULL, NULL, NULL, NULL, NULL,
                            NULL, NULL, NULL);
        size_t nl = strlen(name), wl = strlen(what);
        if (strncmp(name, "method_", 7) == 0 && nl > wl && strcmp(name + nl - wl, what) == 0)
            sum += read_pvar(s, h[i]);
    }
    return sum;
}

static MPI_Request rq[N + 1];
static unsigned long long level0, arrived0, posted0, comm0, am_recv0, am_rbytes0;

static void sender(int peer)
{
    static char buf[N][LEN];
    int go;
    if (peer != 0) {
        MPI_Recv(&go, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_RC(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    }
    unsigned long long base_am = method_sum("_am_sent"), base_b = method_sum("_bytes_sent");
    for (int i = 0; i < N; i++)
        MPI_Isend(buf[i], LEN, MPI_CHAR, peer, 10 + i, MPI_COMM_WORLD, &rq[i]);
    MPI_Isend(NULL, 0, MPI_CHAR, peer, 99, MPI_COMM_WORLD, &rq[N]);
    if (peer != 0)
        MPI_Waitall(N + 1, rq, MPI_STATUSES_IGNORE);
    CHECK(CNT("pt2pt_messages_sent") == N + 1, "messages sent %llu", CNT("pt2pt_messages_sent"));
    CHECK(CNT("pt2pt_bytes_sent") == N * LEN, "bytes sent %llu", CNT("pt2pt_bytes_sent"));
    CHECK(CNT("pt2pt_eager_sent") == N + 1, "eager %llu", CNT("pt2pt_eager_sent"));
    CHECK(CNT("pt2pt_rendezvous_sent") == 0, "rendezvous %llu", CNT("pt2pt_rendezvous_sent"));
    CHECK(method_sum("_am_sent") - base_am == N + 1, "active messages %llu",
          method_sum("_am_sent") - base_am);
    CHECK(method_sum("_bytes_sent") - base_b == N * LEN, "method bytes %llu",
          method_sum("_bytes_sent") - base_b);
    if (peer == 0)
        return;
    MPI_Recv(&go, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* A handle bound to MPI_COMM_SELF sees none of MPI_COMM_WORLD's messages. */
static void check_other_comm(void)
{
    MPI_T_pvar_handle hs;
    MPI_Comm self = MPI_COMM_SELF;
    unsigned long long v = 99;
    int count;
    CHECK_RC(MPI_T_pvar_handle_alloc(s, pvar_index("pt2pt_comm_unexpected_length",
             MPI_T_PVAR_CLASS_LEVEL), &self, &hs, &count));
    CHECK_RC(MPI_T_pvar_read(s, hs, &v));
    CHECK(v == 0, "MPI_COMM_SELF's unexpected queue: %llu", v);
    CHECK_RC(MPI_T_pvar_handle_free(s, &hs));
}

/* Before anything is sent to this rank: the levels to compare with. */
static void receiver_prepare(void)
{
    CHECK_RC(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    level0 = LVL("pt2pt_unexpected_queue_length");
    arrived0 = CNT("pt2pt_unexpected_arrived");
    posted0 = LVL("pt2pt_posted_queue_length");
    comm0 = LVL("pt2pt_comm_unexpected_length");
    am_recv0 = method_sum("_am_received");
    am_rbytes0 = method_sum("_bytes_received");
}

static void receiver(void)
{
    static char buf[LEN];
    int go = 1;
    MPI_Probe(0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    unsigned long long level1 = LVL("pt2pt_unexpected_queue_length");
    CHECK(level1 == level0 + N + 1, "unexpected queue: %llu then %llu", level0, level1);
    CHECK(LVL("pt2pt_comm_unexpected_length") == comm0 + N + 1, "on MPI_COMM_WORLD: "
          "%llu then %llu", comm0, LVL("pt2pt_comm_unexpected_length"));
    check_other_comm();
    CHECK(method_sum("_am_received") - am_recv0 == N + 1, "active messages received %llu",
          method_sum("_am_received") - am_recv0);
    CHECK(method_sum("_bytes_received") - am_rbytes0 == N * LEN, "method bytes received "
          "%llu", method_sum("_bytes_received") - am_rbytes0);
    CHECK(HWM("pt2pt_unexpected_queue_max") >= level1, "high-water mark %llu < %llu",
          HWM("pt2pt_unexpected_queue_max"), level1);
    CHECK(CNT("pt2pt_unexpected_arrived") - arrived0 == N + 1, "arrived %llu",
          CNT("pt2pt_unexpected_arrived") - arrived0);
    unsigned long long rmsg0 = CNT("pt2pt_messages_received");
    unsigned long long rbytes0 = CNT("pt2pt_bytes_received");
    for (int i = N - 1; i >= 0; i--)
        MPI_Recv(buf, LEN, MPI_CHAR, 0, 10 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(buf, 0, MPI_CHAR, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(LVL("pt2pt_unexpected_queue_length") == level0, "unexpected queue left %llu",
          LVL("pt2pt_unexpected_queue_length"));
    CHECK(CNT("pt2pt_messages_received") - rmsg0 == N + 1, "received %llu",
          CNT("pt2pt_messages_received") - rmsg0);
    CHECK(CNT("pt2pt_bytes_received") - rbytes0 == N * LEN, "received bytes %llu",
          CNT("pt2pt_bytes_received") - rbytes0);
    /* a posted receive that waits: the posted level moves by one */
    MPI_Request r;
    MPI_Irecv(buf, LEN, MPI_CHAR, 0, 3, MPI_COMM_WORLD, &r);
    CHECK(LVL("pt2pt_posted_queue_length") == posted0 + 1, "posted %llu, was %llu",
          LVL("pt2pt_posted_queue_length"), posted0);
    CHECK(HWM("pt2pt_posted_queue_max") >= posted0 + 1, "posted max");
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(LVL("pt2pt_posted_queue_length") == posted0, "posted after cancel %llu",
          LVL("pt2pt_posted_queue_length"));
    if (ct_rank != 0)
        MPI_Send(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
}

/* Counter: stop/start, write, readreset; level: read-only, continuous. */
static void check_classes(void)
{
    MPI_T_pvar_handle c = handle_of("pt2pt_messages_sent", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle l = handle_of("pt2pt_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL);
    unsigned long long v = 7, x = 1;
    int self = ct_rank;
    CHECK_RC(MPI_T_pvar_write(s, c, &v));
    CHECK(read_pvar(s, c) == 7, "counter after write: %llu", read_pvar(s, c));
    CHECK_RC(MPI_T_pvar_stop(s, c));
    MPI_Sendrecv(&x, 1, MPI_INT, self, 4, &v, 1, MPI_INT, self, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(read_pvar(s, c) == 7, "stopped counter moved: %llu", read_pvar(s, c));
    CHECK_RC(MPI_T_pvar_start(s, c));
    MPI_Sendrecv(&x, 1, MPI_INT, self, 4, &v, 1, MPI_INT, self, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(read_pvar(s, c) == 8, "started counter: %llu (want 8)", read_pvar(s, c));
    CHECK_RC(MPI_T_pvar_readreset(s, c, &v));
    CHECK(v == 8 && read_pvar(s, c) == 0, "readreset: %llu then %llu", v, read_pvar(s, c));
    CHECK_T(MPI_T_pvar_write(s, l, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(MPI_T_pvar_reset(s, l), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(MPI_T_pvar_readreset(s, l, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(MPI_T_pvar_start(s, l), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_T(MPI_T_pvar_stop(s, l), MPI_T_ERR_PVAR_NO_STARTSTOP);
    /* a second session sees its own values */
    MPI_T_pvar_session s2;
    MPI_T_pvar_handle c2;
    int count;
    CHECK_RC(MPI_T_pvar_session_create(&s2));
    CHECK_RC(MPI_T_pvar_handle_alloc(s2, pvar_index("pt2pt_messages_sent",
             MPI_T_PVAR_CLASS_COUNTER), NULL, &c2, &count));
    CHECK_RC(MPI_T_pvar_read(s2, c2, &v));
    CHECK(v == 0, "a new stopped counter reads %llu", v);
    CHECK_RC(MPI_T_pvar_start(s2, c2));
    MPI_Sendrecv(&x, 1, MPI_INT, self, 4, &v, 1, MPI_INT, self, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(read_pvar(s2, c2) == 1 && read_pvar(s, c) == 1, "two sessions: %llu %llu",
          read_pvar(s2, c2), read_pvar(s, c));
    CHECK_RC(MPI_T_pvar_handle_free(s2, &c2));
    CHECK(c2 == MPI_T_PVAR_HANDLE_NULL, "handle not nulled");
    CHECK_RC(MPI_T_pvar_session_free(&s2));
    CHECK(s2 == MPI_T_PVAR_SESSION_NULL, "session not nulled");
}

int main(int argc, char **argv)
{
    int provided, count;
    ct_init(&argc, &argv);
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK_RC(MPI_T_pvar_get_num(&npv));
    CHECK(npv > 0 && npv <= NPV, "%d pvars", npv);
    CHECK_RC(MPI_T_pvar_session_create(&s));
    for (int i = 0; i < npv && i < NPV; i++) {
        MPI_Comm world = MPI_COMM_WORLD;      /* ignored by unbound pvars */
        CHECK_RC(MPI_T_pvar_handle_alloc(s, i, &world, &h[i], &count));
        CHECK(count == 1, "pvar %d: count %d", i, count);
    }
    CHECK_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    int last = ct_size - 1, go = 1;
    if (ct_rank == last)
        receiver_prepare();
    if (ct_rank == last && last != 0)
        MPI_Send(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    if (ct_rank == 0)
        sender(last);
    if (ct_rank == last)
        receiver();
    if (ct_rank == 0 && last == 0)
        MPI_Waitall(N + 1, rq, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    check_classes();
    /* the session is left for MPI_T_finalize to free with its handles */
    CHECK_RC(MPI_T_finalize());
    return ct_finish();
}
