/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* The completion calls that run without the lock (docs/design/threads.md
 * "Lock-free calls"): on every rank a "progress" thread blocks in MPI_Recv
 * (it polls, and completes the other threads' requests under the lock),
 * while T tester threads exchange windows of messages around a ring and
 * complete them with Test, Waitall, Testsome, Waitany and Testall, looking
 * between polls at MPI_REQUEST_NULL, at an inactive persistent request and
 * at MPI_Comm_rank (which must all answer at once, with the empty status),
 * and run a persistent receive whose completion another thread may make.
 * A request reported too early, an inactive one taken for complete (or a
 * completing one for inactive), a status read before it was final, or a
 * request freed twice shows as a wrong value or status here, and as a
 * data race under ThreadSanitizer (make tsan-test). */
#include "mt_util.h"

#define T 3
#define W 8
#define ITER 200

static MPI_Comm comms[T], prog_comm;
static int left, right;

static void check_empty(const MPI_Status *st, int flag, const char *what)
{
    MT_CHECK(flag == 1, "%s: flag %d", what, flag);
    MT_CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG,
             "%s: status %d/%d, not the empty one", what, st->MPI_SOURCE, st->MPI_TAG);
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    MT_CHECK(n == 0, "%s: count %d", what, n);
}

/* What a polling loop looks at besides its own requests. */
static void side_calls(int t, MPI_Request *inactive)
{
    MPI_Request nul = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag = 0, r = -1, n = -1;
    MT_RC(MPI_Test(&nul, &flag, &st));
    check_empty(&st, flag, "Test(MPI_REQUEST_NULL)");
    flag = 0;
    MT_RC(MPI_Test(inactive, &flag, &st));
    check_empty(&st, flag, "Test(inactive)");
    flag = 0;
    MT_RC(MPI_Request_get_status(*inactive, &flag, &st));
    check_empty(&st, flag, "Request_get_status(inactive)");
    MT_CHECK(*inactive != MPI_REQUEST_NULL, "inactive request freed");
    MT_RC(MPI_Comm_rank(comms[t], &r));
    MT_RC(MPI_Comm_size(comms[t], &n));
    MT_CHECK(r == mt_rank && n == mt_size, "Comm_rank/size %d/%d", r, n);
}

static void check_msg(int it, int w, int got, const MPI_Status *st, const char *how)
{
    MT_CHECK(got == it * W + w, "%s: iteration %d message %d holds %d", how, it, w, got);
    if (st != MPI_STATUS_IGNORE) {
        int n = -1;
        MPI_Get_count(st, MPI_INT, &n);
        MT_CHECK(st->MPI_SOURCE == left && st->MPI_TAG == w && n == 1,
                 "%s: iteration %d message %d status %d/%d count %d", how, it, w,
                 st->MPI_SOURCE, st->MPI_TAG, n);
    }
}

/* Complete the window rr (in[w] from left, tag w) in the way of it % 5. */
static void complete(int t, int it, MPI_Request *rr, int *in, MPI_Request *inactive)
{
    MPI_Status st[W + 2];
    int flag = 0, got = 0, seen[W] = { 0 };
    switch (it % 5) {
    case 0:                                 /* Test each until done */
        for (int w = 0; w < W; w++) {
            for (flag = 0; !flag;) {
                MT_RC(MPI_Test(&rr[w], &flag, &st[0]));
                if (!flag)
                    side_calls(t, inactive);
            }
            MT_CHECK(rr[w] == MPI_REQUEST_NULL, "Test left the handle");
            check_msg(it, w, in[w], &st[0], "Test");
        }
        break;
    case 1: {                               /* Waitall, with a null and an inactive one */
        MPI_Request all[W + 2];
        memcpy(all, rr, sizeof(MPI_Request) * W);
        all[W] = MPI_REQUEST_NULL;
        all[W + 1] = *inactive;
        MT_RC(MPI_Waitall(W + 2, all, st));
        for (int w = 0; w < W; w++) {
            MT_CHECK(all[w] == MPI_REQUEST_NULL, "Waitall left handle %d", w);
            check_msg(it, w, in[w], &st[w], "Waitall");
            MT_CHECK(st[w].MPI_ERROR == MPI_SUCCESS, "Waitall MPI_ERROR %d", st[w].MPI_ERROR);
            rr[w] = MPI_REQUEST_NULL;
        }
        check_empty(&st[W], 1, "Waitall(null)");
        check_empty(&st[W + 1], 1, "Waitall(inactive)");
        MT_CHECK(all[W + 1] == *inactive, "Waitall freed the inactive request");
        break;
    }
    case 2:                                 /* Testsome */
        while (got < W) {
            int out = 0, idx[W];
            MT_RC(MPI_Testsome(W, rr, &out, idx, st));
            MT_CHECK(out != MPI_UNDEFINED, "Testsome: none active with %d left", W - got);
            if (out == MPI_UNDEFINED)
                break;
            for (int j = 0; j < out; j++) {
                MT_CHECK(!seen[idx[j]], "Testsome: index %d twice", idx[j]);
                seen[idx[j]] = 1;
                check_msg(it, idx[j], in[idx[j]], &st[j], "Testsome");
            }
            got += out;
            if (out == 0)
                side_calls(t, inactive);
        }
        break;
    case 3:                                 /* Waitany */
        for (int k = 0; k < W; k++) {
            int idx = -1;
            MT_RC(MPI_Waitany(W, rr, &idx, &st[0]));
            MT_CHECK(idx >= 0 && idx < W && !seen[idx], "Waitany index %d", idx);
            if (idx >= 0 && idx < W) {
                seen[idx] = 1;
                check_msg(it, idx, in[idx], &st[0], "Waitany");
            }
        }
        break;
    default:                                /* Testall */
        while (!flag) {
            MT_RC(MPI_Testall(W, rr, &flag, st));
            if (!flag)
                side_calls(t, inactive);
        }
        for (int w = 0; w < W; w++)
            check_msg(it, w, in[w], &st[w], "Testall");
        break;
    }
    for (int w = 0; w < W; w++)
        MT_CHECK(rr[w] == MPI_REQUEST_NULL, "iteration %d: handle %d not freed", it, w);
}

/* A persistent receive started here and completed by whichever thread
 * polls: Test must never take it for inactive before it reported it. */
static void persistent_round(int t, int it, MPI_Request *pers, int *pbuf, MPI_Request *inactive)
{
    MPI_Request ps;
    MPI_Status st;
    int flag = 0;
    *pbuf = -1;
    MT_RC(MPI_Start(pers));
    MT_RC(MPI_Isend(&it, 1, MPI_INT, right, 1000, comms[t], &ps));
    while (!flag) {
        MT_RC(MPI_Test(pers, &flag, &st));
        if (!flag)
            side_calls(t, inactive);
    }
    MT_CHECK(*pbuf == it && st.MPI_SOURCE == left && st.MPI_TAG == 1000,
             "persistent receive %d: %d from %d/%d", it, *pbuf, st.MPI_SOURCE, st.MPI_TAG);
    flag = 0;
    MT_RC(MPI_Test(pers, &flag, &st));      /* now inactive */
    check_empty(&st, flag, "Test(persistent after its report)");
    MT_RC(MPI_Wait(&ps, MPI_STATUS_IGNORE));
    MT_RC(MPI_Wait(&ps, MPI_STATUS_IGNORE));        /* null: returns at once */
}

static void *tester(void *arg)
{
    int t = (int)(long)arg, pbuf, ibuf;
    MPI_Request pers, inactive;
    MT_RC(MPI_Recv_init(&pbuf, 1, MPI_INT, left, 1000, comms[t], &pers));
    MT_RC(MPI_Recv_init(&ibuf, 1, MPI_INT, left, 2000, comms[t], &inactive));
    for (int it = 0; it < ITER; it++) {
        MPI_Request rr[W], sr[W];
        int in[W], out[W];
        for (int w = 0; w < W; w++)
            MT_RC(MPI_Irecv(&in[w], 1, MPI_INT, left, w, comms[t], &rr[w]));
        for (int w = 0; w < W; w++) {
            out[w] = it * W + w;
            MT_RC(MPI_Isend(&out[w], 1, MPI_INT, right, w, comms[t], &sr[w]));
        }
        complete(t, it, rr, in, &inactive);
        MT_RC(MPI_Waitall(W, sr, MPI_STATUSES_IGNORE));
        persistent_round(t, it, &pers, &pbuf, &inactive);
    }
    MT_RC(MPI_Request_free(&pers));
    MT_RC(MPI_Request_free(&inactive));
    return NULL;
}

/* Blocks in MPI_Recv (the poller, mostly) until main sends it the end. */
static void *progress(void *arg)
{
    (void)arg;
    int x = 0;
    MT_RC(MPI_Recv(&x, 1, MPI_INT, mt_rank, 7, prog_comm, MPI_STATUS_IGNORE));
    MT_CHECK(x == 42, "end message %d", x);
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    left = (mt_rank + mt_size - 1) % mt_size;
    right = (mt_rank + 1) % mt_size;
    for (int t = 0; t < T; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    MPI_Comm_dup(MPI_COMM_WORLD, &prog_comm);
    pthread_t pt, th[T];
    pthread_create(&pt, NULL, progress, NULL);
    for (long t = 0; t < T; t++)
        pthread_create(&th[t], NULL, tester, (void *)t);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    int end = 42;
    MT_RC(MPI_Send(&end, 1, MPI_INT, mt_rank, 7, prog_comm));
    pthread_join(pt, NULL);
    for (int t = 0; t < T; t++)
        MPI_Comm_free(&comms[t]);
    MPI_Comm_free(&prog_comm);
    return mt_finish();
}
