/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* Several progress contexts (docs/design/threads.md "Progress contexts"),
 * run with XB_PROGRESS_CONTEXTS=T: T threads per rank ping-pong on T
 * communicators made with MPI_Comm_dup_with_info and the hint
 * "xb_progress_context" = t + 1, so each has a context of its own. The
 * MPI_T counters of each context (lock acquisitions by the bindings,
 * messages sent on its channel) must show that thread t's traffic went
 * through context t + 1 and its lock, not through context 0; with the
 * argument "main", or XB_METHODS without shm (communicators then cannot
 * have lanes) they must show the opposite. Also: a communicator
 * without the hint gets a lane round-robin, a hint that is not a context
 * number fails with MPI_ERR_INFO and a message naming the key and value,
 * one above the contexts there are wraps around, and messages keep
 * their order and contents (blocking, nonblocking, Sendrecv, Iprobe). */
#include <stdbool.h>
#include "mt_util.h"

#define T 4
#define N 400

static MPI_Comm comm[T];
static MPI_T_pvar_session session;
static MPI_T_pvar_handle locks[T + 1], sent[T + 1];

static void pvar_handle(const char *what, int c, MPI_T_pvar_handle *h)
{
    char name[64];
    int idx = -1, count = 0;
    snprintf(name, sizeof name, "progress_context_%d_%s", c, what);
    int rc = MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx);
    MT_CHECK(rc == MPI_SUCCESS, "no pvar %s (XB_PROGRESS_CONTEXTS=%d expected): %d", name,
             T, rc);
    if (rc != MPI_SUCCESS)
        return;
    MT_RC(MPI_T_pvar_handle_alloc(session, idx, NULL, h, &count));
    MT_CHECK(count == 1, "%s: count %d", name, count);
    MT_RC(MPI_T_pvar_start(session, *h));
}

static unsigned long long pvar(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    MT_RC(MPI_T_pvar_read(session, h, &v));
    return v;
}

static void check_bad_hint(void)
{
    MPI_Info info;
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Info_create(&info);
    MPI_Info_set(info, "xb_progress_context", "-3");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c), cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING] = "";
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    MT_CHECK(cls == MPI_ERR_INFO && c == MPI_COMM_NULL, "hint -3: class %d (%s)", cls, msg);
    MT_CHECK(strstr(msg, "xb_progress_context") != NULL && strstr(msg, "-3") != NULL,
             "hint -3: message \"%s\"", msg);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Info_free(&info);
}

static void make_comms(void)
{
    for (int t = 0; t < T; t++) {
        MPI_Info info;
        char v[8];
        MPI_Info_create(&info);
        snprintf(v, sizeof v, "%d", t == T - 1 ? 2 * T : t + 1);  /* 2T wraps to T */
        MPI_Info_set(info, "xb_progress_context", v);
        MT_RC(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm[t]));
        MPI_Info_free(&info);
    }
}

/* Ping-pong with the partner rank (r ^ 1); a rank without one talks to
 * itself (an odd size: the self method's lane). */
static void *pingpong(void *arg)
{
    int t = (int)(long)arg, peer = (mt_rank ^ 1) < mt_size ? mt_rank ^ 1 : mt_rank;
    bool first = mt_rank <= peer;
    for (int i = 0; i < N; i++) {
        int out[4] = { mt_rank, t, i, 7 }, in[4] = { -1, -1, -1, -1 }, flag = 0;
        MPI_Request r[2];
        MPI_Status st;
        switch (i % 3) {
        case 0:
            if (first || peer == mt_rank) {
                MT_RC(MPI_Send(out, 4, MPI_INT, peer, t, comm[t]));
                MT_RC(MPI_Recv(in, 4, MPI_INT, peer, t, comm[t], &st));
            } else {
                MT_RC(MPI_Recv(in, 4, MPI_INT, peer, t, comm[t], &st));
                MT_RC(MPI_Send(out, 4, MPI_INT, peer, t, comm[t]));
            }
            break;
        case 1:
            MT_RC(MPI_Irecv(in, 4, MPI_INT, peer, t, comm[t], &r[0]));
            MT_RC(MPI_Isend(out, 4, MPI_INT, peer, t, comm[t], &r[1]));
            MT_RC(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
            while (!flag)
                MT_RC(MPI_Test(&r[0], &flag, &st));
            break;
        default:
            MT_RC(MPI_Isend(out, 4, MPI_INT, peer, t, comm[t], &r[1]));
            while (!flag)
                MT_RC(MPI_Iprobe(peer, t, comm[t], &flag, &st));
            MT_RC(MPI_Sendrecv(out, 0, MPI_INT, peer, 100 + t, in, 4, MPI_INT, peer, t,
                               comm[t], &st));
            MT_RC(MPI_Recv(NULL, 0, MPI_INT, peer, 100 + t, comm[t], MPI_STATUS_IGNORE));
            MT_RC(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
        }
        MT_CHECK(in[0] == peer && in[1] == t && in[2] == i && in[3] == 7,
                 "thread %d msg %d: got %d %d %d %d", t, i, in[0], in[1], in[2], in[3]);
        MT_CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == t, "thread %d msg %d: status %d/%d",
                 t, i, st.MPI_SOURCE, st.MPI_TAG);
    }
    return NULL;
}

/* Lanes: thread t's messages and lock acquisitions on context t + 1
 * (>= N each: every iteration sends and calls MPI at least twice), almost
 * none on context 0. Main: everything on context 0. */
static void check_counters(bool lanes, const unsigned long long *l0,
                           const unsigned long long *s0)
{
    for (int c = 0; c <= T; c++) {
        unsigned long long dl = pvar(locks[c]) - l0[c], ds = pvar(sent[c]) - s0[c];
        bool busy = lanes ? c > 0 : c == 0;
        unsigned long long want = lanes || c != 0 ? N : (unsigned long long)N * T;
        if (busy)
            MT_CHECK(ds >= want && (!lanes || dl >= N), "context %d: %llu messages, %llu "
                     "locks (want >= %llu)", c, ds, dl, want);
        else
            MT_CHECK(ds < N / 4 && (lanes || dl == 0), "context %d: %llu messages, %llu "
                     "locks (want few)", c, ds, dl);
    }
}

/* A communicator without the hint gets a lane too (round-robin). */
static void check_round_robin(void)
{
    MPI_Comm c;
    unsigned long long before[T + 1], lane = 0;
    MT_RC(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    for (int k = 0; k <= T; k++)
        before[k] = pvar(sent[k]);
    int peer = (mt_rank ^ 1) < mt_size ? mt_rank ^ 1 : mt_rank, x = mt_rank, y = -1;
    for (int i = 0; i < 50; i++)
        MT_RC(MPI_Sendrecv(&x, 1, MPI_INT, peer, 0, &y, 1, MPI_INT, peer, 0, c,
                           MPI_STATUS_IGNORE));
    MT_CHECK(y == peer, "round-robin: got %d", y);
    for (int k = 1; k <= T; k++)
        lane += pvar(sent[k]) - before[k];
    MT_CHECK(lane >= 50 && pvar(sent[0]) - before[0] < 10, "round-robin: %llu messages "
             "on lanes, %llu on context 0", lane, pvar(sent[0]) - before[0]);
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    /* no lanes without shm (XB_METHODS=tcp, also the suite's forced-tcp run) */
    const char *methods = getenv("XB_METHODS");
    bool lanes = !(argc > 1 && strcmp(argv[1], "main") == 0) &&
                 (methods == NULL || strstr(methods, "shm") != NULL);
    int provided;
    mt_init(&argc, &argv);
    MT_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    MT_RC(MPI_T_pvar_session_create(&session));
    for (int c = 0; c <= T; c++) {
        pvar_handle("locks", c, &locks[c]);
        pvar_handle("messages_sent", c, &sent[c]);
    }
    if (lanes)
        check_bad_hint();
    make_comms();
    MPI_Barrier(MPI_COMM_WORLD);
    unsigned long long l0[T + 1], s0[T + 1];
    for (int c = 0; c <= T; c++) {
        l0[c] = pvar(locks[c]);
        s0[c] = pvar(sent[c]);
    }
    mt_run(T, pingpong);
    check_counters(lanes, l0, s0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (lanes)
        check_round_robin();
    for (int t = 0; t < T; t++)
        MPI_Comm_free(&comm[t]);
    for (int c = 0; c <= T; c++) {
        MPI_T_pvar_handle_free(session, &locks[c]);
        MPI_T_pvar_handle_free(session, &sent[c]);
    }
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    return mt_finish();
}
