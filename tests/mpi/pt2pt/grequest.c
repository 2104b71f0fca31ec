/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * grequest.c - generalized requests (MPI_Grequest_start/_complete):
 * Test before completion (no callback); cancel_fn with complete = 0, then 1;
 * the status comes from query_fn (source, tag, count, cancelled), which
 * runs at each report and MPI_Request_get_status; free_fn once, after the
 * query; MPI_Request_free before completion: free_fn at
 * MPI_Grequest_complete and no query; Waitall/Waitany/Testsome over a mix
 * of generalized and receive requests; a query_fn error is the call's error
 * (MPI_Wait) or MPI_ERR_IN_STATUS with the code in MPI_ERROR (Waitall); a
 * free_fn error; MPI_Grequest_complete of another request kind or twice;
 * under MPI_THREAD_MULTIPLE, another thread completes the request while
 * this one waits, and the callbacks call MPI (the lock is dropped).
 */
#include <pthread.h>
#include <unistd.h>
#include "ptest.h"

typedef struct ctx {
    int nquery, nfree, ncancel, last_complete;
    int query_rc, free_rc;
    MPI_Request req;        /* for the completing thread */
} ctx_t;

static int query_fn(void *extra, MPI_Status *st)
{
    ctx_t *c = extra;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);      /* MPI inside a callback */
    c->nquery++;
    MPI_Status_set_source(st, 3 + rank);
    MPI_Status_set_tag(st, 7);
    MPI_Status_set_elements(st, MPI_INT, 5);
    MPI_Status_set_cancelled(st, 0);
    return c->query_rc;
}

static int free_fn(void *extra)
{
    ctx_t *c = extra;
    c->nfree++;
    CHECK(c->nfree == 1);
    return c->free_rc;
}

static int cancel_fn(void *extra, int complete)
{
    ctx_t *c = extra;
    c->ncancel++;
    c->last_complete = complete;
    return MPI_SUCCESS;
}

static void check_status(const MPI_Status *st, int rank)
{
    int n = -1;
    CHECK(st->MPI_SOURCE == 3 + rank && st->MPI_TAG == 7);
    MPI_Get_count(st, MPI_INT, &n);
    CHECK(n == 5);
}

static void basic(int rank)
{
    ctx_t c = { 0 };
    MPI_Request r;
    MPI_Status st;
    int flag = 1;
    CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &r));
    CHECK_RC(MPI_Test(&r, &flag, &st));
    CHECK(flag == 0 && c.nquery == 0 && c.nfree == 0);
    CHECK_RC(MPI_Cancel(&r));
    CHECK(c.ncancel == 1 && c.last_complete == 0);
    CHECK_RC(MPI_Grequest_complete(r));
    CHECK_RC(MPI_Cancel(&r));
    CHECK(c.ncancel == 2 && c.last_complete == 1);
    CHECK_RC(MPI_Request_get_status(r, &flag, &st));
    CHECK(flag == 1 && c.nquery == 1 && c.nfree == 0 && r != MPI_REQUEST_NULL);
    check_status(&st, rank);
    CHECK_RC(MPI_Test(&r, &flag, &st));
    CHECK(flag == 1 && r == MPI_REQUEST_NULL && c.nquery == 2 && c.nfree == 1);
    check_status(&st, rank);

    ctx_t d = { 0 };                       /* freed before completion */
    CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &d, &r));
    MPI_Request keep = r;
    CHECK_RC(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL && d.nfree == 0);
    CHECK_RC(MPI_Grequest_complete(keep));
    CHECK(d.nfree == 1 && d.nquery == 0);

    ctx_t e = { 0 };                       /* completed, then freed */
    CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &e, &r));
    CHECK_RC(MPI_Grequest_complete(r));
    CHECK_RC(MPI_Request_free(&r));
    CHECK(e.nfree == 1 && e.nquery == 0);
}

/* Waitall, Waitany, Testsome over two generalized requests and a receive. */
static void arrays(int rank, int size)
{
    ctx_t c[2] = { { 0 }, { 0 } };
    MPI_Request r[3];
    MPI_Status st[3];
    int buf = -1, val = 100 + rank, idx = -1, out = -1, ind[3];
    int from = (rank + size - 1) % size, to = (rank + 1) % size;
    for (int round = 0; round < 3; round++) {
        memset(c, 0, sizeof(c));
        CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c[0], &r[0]));
        CHECK_RC(MPI_Irecv(&buf, 1, MPI_INT, from, 5, MPI_COMM_WORLD, &r[1]));
        CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c[1], &r[2]));
        CHECK_RC(MPI_Send(&val, 1, MPI_INT, to, 5, MPI_COMM_WORLD));
        CHECK_RC(MPI_Grequest_complete(r[2]));
        if (round == 0) {
            CHECK_RC(MPI_Grequest_complete(r[0]));
            CHECK_RC(MPI_Waitall(3, r, st));
            check_status(&st[0], rank);
            check_status(&st[2], rank);
        } else if (round == 1) {
            CHECK_RC(MPI_Waitany(3, r, &idx, &st[0]));
            CHECK(idx == 1 || idx == 2);
            CHECK_RC(MPI_Grequest_complete(r[0]));
            CHECK_RC(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
        } else {
            CHECK_RC(MPI_Grequest_complete(r[0]));
            int done = 0;
            while (done < 3) {
                CHECK_RC(MPI_Testsome(3, r, &out, ind, st));
                if (out == MPI_UNDEFINED)
                    break;
                for (int k = 0; k < out; k++)
                    if (ind[k] != 1)
                        check_status(&st[k], rank);
                done += out;
            }
            CHECK(done == 3);
        }
        CHECK(buf == 100 + from);
        CHECK(c[0].nfree == 1 && c[1].nfree == 1 && c[0].nquery == 1 && c[1].nquery == 1);
        CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL);
    }
}

static void errors(void)
{
    ctx_t c = { .query_rc = MPI_ERR_BUFFER }, g = { 0 };
    MPI_Request r[2];
    MPI_Status st[2];
    CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &r[0]));
    CHECK_RC(MPI_Grequest_complete(r[0]));
    EXPECT(MPI_Wait(&r[0], &st[0]), MPI_ERR_BUFFER, "MPI_Wait", "query_fn");
    CHECK(r[0] == MPI_REQUEST_NULL && c.nfree == 1);

    c = (ctx_t){ .query_rc = MPI_ERR_BUFFER };
    CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &r[0]));
    CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &r[1]));
    CHECK_RC(MPI_Grequest_complete(r[0]));
    CHECK_RC(MPI_Grequest_complete(r[1]));
    EXPECT(MPI_Waitall(2, r, st), MPI_ERR_IN_STATUS, "MPI_Waitall", NULL);
    CHECK(st[0].MPI_ERROR == MPI_ERR_BUFFER && st[1].MPI_ERROR == MPI_SUCCESS);
    CHECK(c.nfree == 1 && g.nfree == 1);

    c = (ctx_t){ .free_rc = MPI_ERR_OTHER };
    CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &r[0]));
    CHECK_RC(MPI_Grequest_complete(r[0]));
    EXPECT(MPI_Wait(&r[0], MPI_STATUS_IGNORE), MPI_ERR_OTHER, "MPI_Wait", "free_fn");

    int x;
    MPI_Request rr;
    CHECK_RC(MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rr));
    EXPECT(MPI_Grequest_complete(rr), MPI_ERR_REQUEST, "MPI_Grequest_complete", "generalized");
    CHECK_RC(MPI_Wait(&rr, MPI_STATUS_IGNORE));
    c = (ctx_t){ 0 };
    CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &r[0]));
    CHECK_RC(MPI_Grequest_complete(r[0]));
    EXPECT(MPI_Grequest_complete(r[0]), MPI_ERR_REQUEST, "MPI_Grequest_complete", "already");
    EXPECT(MPI_Grequest_start(NULL, free_fn, cancel_fn, &c, &rr), MPI_ERR_ARG,
           "MPI_Grequest_start", "query_fn");
    CHECK_RC(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
}

static void *completer(void *arg)
{
    ctx_t *c = arg;
    usleep(50000);
    MPI_Grequest_complete(c->req);
    return NULL;
}

static void threaded(int rank)
{
    ctx_t c = { 0 };
    MPI_Status st;
    pthread_t t;
    CHECK_RC(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &c.req));
    MPI_Request r = c.req;
    pthread_create(&t, NULL, completer, &c);
    CHECK_RC(MPI_Wait(&r, &st));
    pthread_join(t, NULL);
    check_status(&st, rank);
    CHECK(c.nquery == 1 && c.nfree == 1);
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    basic(rank);
    arrays(rank, size);
    errors();
    if (provided == MPI_THREAD_MULTIPLE)
        threaded(rank);
    else
        CHECK(!"MPI_THREAD_MULTIPLE not granted");
    return pt_finish();
}
