/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * isendrecv.c - MPI_Isendrecv and MPI_Isendrecv_replace (MPI 4.0): one
 * request that completes when both its send and its receive have; its
 * status is the receive's. A ring (right = rank+1, left = rank-1; with one
 * rank both are the rank itself): plain and typed exchanges, a message big
 * enough for the rendezvous protocol, MPI_PROC_NULL on either side,
 * MPI_ANY_SOURCE/MPI_ANY_TAG, truncation (MPI_ERR_TRUNCATE; MPI_ERR_IN_STATUS
 * from MPI_Waitall), cancel of a pair whose receive cannot match, the pair
 * in MPI_Waitall/Testany/Waitsome/Request_get_status mixed with ordinary
 * requests, MPI_Request_free of a pending pair, and argument errors.
 */
#include "ptest.h"

static int rank, size, right, left;

static int val(int from, int i) { return from * 100000 + i; }

static void ring(int n, int tag)
{
    int *s = malloc((size_t)n * sizeof *s), *r = malloc((size_t)n * sizeof *r);
    for (int i = 0; i < n; i++) {
        s[i] = val(rank, i);
        r[i] = -1;
    }
    MPI_Request rq;
    MPI_Status st;
    CHECK_RC(MPI_Isendrecv(s, n, MPI_INT, right, tag, r, n, MPI_INT, left, tag, MPI_COMM_WORLD,
                           &rq));
    CHECK(rq != MPI_REQUEST_NULL);
    CHECK_RC(MPI_Wait(&rq, &st));
    CHECK(rq == MPI_REQUEST_NULL);
    int cnt = -1, bad = 0;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == tag && cnt == n);
    for (int i = 0; i < n; i++)
        bad += r[i] != val(left, i);
    CHECK(bad == 0);
    free(s);
    free(r);
}

static void typed_and_replace(void)
{
    /* receive 4 ints into every other slot of 8 */
    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int s[4], r[8], buf[8];
    for (int i = 0; i < 4; i++)
        s[i] = val(rank, i);
    for (int i = 0; i < 8; i++)
        r[i] = -1, buf[i] = val(rank, i);
    MPI_Request rq[2];
    MPI_Status st[2];
    CHECK_RC(MPI_Isendrecv(s, 4, MPI_INT, right, 3, r, 1, vec, left, 3, MPI_COMM_WORLD, &rq[0]));
    /* replace through the strided type: slots 0,2,4,6 come from the left, others stay */
    CHECK_RC(MPI_Isendrecv_replace(buf, 1, vec, right, 4, left, 4, MPI_COMM_WORLD, &rq[1]));
    CHECK_RC(MPI_Waitall(2, rq, st));
    for (int i = 0; i < 8; i++) {
        CHECK(r[i] == (i % 2 == 0 ? val(left, i / 2) : -1));
        CHECK(buf[i] == (i % 2 == 0 ? val(left, i) : val(rank, i)));
    }
    int cnt = -1;
    MPI_Get_count(&st[1], vec, &cnt);
    CHECK(cnt == 1 && st[1].MPI_SOURCE == left && st[1].MPI_TAG == 4);
    MPI_Get_elements(&st[0], MPI_INT, &cnt);
    CHECK(cnt == 4);
    MPI_Type_free(&vec);

    /* a rendezvous-sized replace */
    int n = 1 << 18;
    int *big = malloc((size_t)n * sizeof *big);
    for (int i = 0; i < n; i++)
        big[i] = val(rank, i);
    MPI_Request q;
    CHECK_RC(MPI_Isendrecv_replace(big, n, MPI_INT, right, 5, left, 5, MPI_COMM_WORLD, &q));
    CHECK_RC(MPI_Wait(&q, &st[0]));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += big[i] != val(left, i);
    CHECK(bad == 0);
    free(big);
}

static void proc_null_and_any(void)
{
    int s = val(rank, 0), r = -1, flag = 0, cnt = -1;
    MPI_Request rq;
    MPI_Status st;
    CHECK_RC(MPI_Isendrecv(&s, 1, MPI_INT, MPI_PROC_NULL, 6, &r, 1, MPI_INT, MPI_PROC_NULL, 6,
                           MPI_COMM_WORLD, &rq));
    CHECK_RC(MPI_Test(&rq, &flag, &st));            /* nothing to wait for */
    CHECK(flag == 1 && rq == MPI_REQUEST_NULL);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0 && r == -1);

    /* send to nobody, receive from the left with wildcards; the left sends
     * with a plain MPI_Send */
    MPI_Request sq;
    CHECK_RC(MPI_Isend(&s, 1, MPI_INT, right, 77, MPI_COMM_WORLD, &sq));
    CHECK_RC(MPI_Isendrecv(&s, 1, MPI_INT, MPI_PROC_NULL, 0, &r, 1, MPI_INT, MPI_ANY_SOURCE,
                           MPI_ANY_TAG, MPI_COMM_WORLD, &rq));
    CHECK_RC(MPI_Wait(&rq, &st));
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 77 && r == val(left, 0));
    CHECK_RC(MPI_Wait(&sq, MPI_STATUS_IGNORE));

    /* receive from nobody: the status is the empty one of MPI_PROC_NULL */
    r = -1;
    CHECK_RC(MPI_Isendrecv_replace(&r, 1, MPI_INT, right, 8, MPI_PROC_NULL, 8, MPI_COMM_WORLD,
                                   &rq));
    int got = -1;
    CHECK_RC(MPI_Recv(&got, 1, MPI_INT, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_RC(MPI_Wait(&rq, &st));
    CHECK(got == -1 && r == -1 && st.MPI_SOURCE == MPI_PROC_NULL);
}

static void truncation(void)
{
    int s[4] = { 1, 2, 3, 4 }, r[2] = { -1, -1 };
    MPI_Request rq;
    MPI_Status st;
    CHECK_RC(MPI_Isendrecv(s, 4, MPI_INT, right, 9, r, 2, MPI_INT, left, 9, MPI_COMM_WORLD, &rq));
    st.MPI_ERROR = MPI_ERR_DIMS;                  /* a single completion leaves it */
    EXPECT(MPI_Wait(&rq, &st), MPI_ERR_TRUNCATE, "MPI_Wait", "truncated");
    CHECK(st.MPI_ERROR == MPI_ERR_DIMS && rq == MPI_REQUEST_NULL);
    MPI_Request two[2];
    MPI_Status sts[2];
    CHECK_RC(MPI_Isendrecv(s, 4, MPI_INT, right, 10, r, 2, MPI_INT, left, 10, MPI_COMM_WORLD,
                           &two[0]));
    CHECK_RC(MPI_Isendrecv(s, 1, MPI_INT, right, 11, r, 2, MPI_INT, left, 11, MPI_COMM_WORLD,
                           &two[1]));
    EXPECT(MPI_Waitall(2, two, sts), MPI_ERR_IN_STATUS, "MPI_Waitall", NULL);
    CHECK(sts[0].MPI_ERROR == MPI_ERR_TRUNCATE && sts[1].MPI_ERROR == MPI_SUCCESS);
    CHECK(r[0] == 1);
}

static void cancel(void)
{
    int s = 1, r = -1, flag = -1;
    MPI_Request rq;
    MPI_Status st;
    /* the receive cannot match (nobody sends tag 999): cancelled */
    CHECK_RC(MPI_Isendrecv(&s, 1, MPI_INT, MPI_PROC_NULL, 0, &r, 1, MPI_INT, left, 999,
                           MPI_COMM_WORLD, &rq));
    CHECK_RC(MPI_Test(&rq, &flag, &st));
    CHECK(flag == 0);
    CHECK_RC(MPI_Cancel(&rq));
    CHECK_RC(MPI_Wait(&rq, &st));
    CHECK_RC(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 1 && r == -1);
    /* completed before the cancel: not cancelled */
    CHECK_RC(MPI_Isendrecv(&s, 1, MPI_INT, right, 12, &r, 1, MPI_INT, left, 12, MPI_COMM_WORLD,
                           &rq));
    do
        CHECK_RC(MPI_Request_get_status(rq, &flag, MPI_STATUS_IGNORE));
    while (!flag);
    CHECK_RC(MPI_Cancel(&rq));
    CHECK_RC(MPI_Wait(&rq, &st));
    CHECK_RC(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 0 && r == 1 && st.MPI_SOURCE == left);
}

static void mixes(void)
{
    int a = val(rank, 1), b = -1, c = -1, d = val(rank, 2);
    MPI_Request rq[3];
    MPI_Status st[3];
    CHECK_RC(MPI_Isendrecv(&a, 1, MPI_INT, right, 20, &b, 1, MPI_INT, left, 20, MPI_COMM_WORLD,
                           &rq[0]));
    CHECK_RC(MPI_Irecv(&c, 1, MPI_INT, left, 21, MPI_COMM_WORLD, &rq[1]));
    CHECK_RC(MPI_Isend(&d, 1, MPI_INT, right, 21, MPI_COMM_WORLD, &rq[2]));
    int done = 0, idx, flag, seen[3] = { 0 };
    while (done < 3) {
        CHECK_RC(MPI_Testany(3, rq, &idx, &flag, &st[0]));
        if (flag && idx != MPI_UNDEFINED) {
            seen[idx]++;
            done++;
            if (idx == 0)
                CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 20);
        }
    }
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && b == val(left, 1) &&
          c == val(left, 2));

    int out = 0, ind[3];
    CHECK_RC(MPI_Isendrecv_replace(&a, 1, MPI_INT, right, 22, left, 22, MPI_COMM_WORLD, &rq[0]));
    CHECK_RC(MPI_Isendrecv(&d, 1, MPI_INT, right, 23, &c, 1, MPI_INT, left, 23, MPI_COMM_WORLD,
                           &rq[1]));
    rq[2] = MPI_REQUEST_NULL;
    done = 0;
    while (done < 2) {
        CHECK_RC(MPI_Waitsome(3, rq, &out, ind, st));
        CHECK(out >= 1 && out != MPI_UNDEFINED);
        done += out;
    }
    CHECK(a == val(left, 1) && c == val(left, 2));
    CHECK(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL);

    /* freed while pending: it still completes; a later exchange works */
    static int e, f;   /* the freed pair may still write f: not on the stack */
    e = val(rank, 3);
    f = -1;
    CHECK_RC(MPI_Isendrecv(&e, 1, MPI_INT, right, 24, &f, 1, MPI_INT, left, 24, MPI_COMM_WORLD,
                           &rq[0]));
    CHECK_RC(MPI_Request_free(&rq[0]));
    CHECK(rq[0] == MPI_REQUEST_NULL);
    ring(3, 25);
}

/* Pair requests on a communicator of their own, freed while one is still
 * pending: each request holds a reference, so the communicator lives until
 * the last one completes (a missing reference would free it early: ASan). */
static void own_comm(void)
{
    MPI_Comm c;
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    int s[8], r[8];
    MPI_Request rq[8];
    for (int i = 0; i < 8; i++) {
        s[i] = val(rank, i);
        r[i] = -1;
        CHECK_RC(MPI_Isendrecv(&s[i], 1, MPI_INT, right, i, &r[i], 1, MPI_INT, left, i, c,
                               &rq[i]));
    }
    CHECK_RC(MPI_Waitall(7, rq, MPI_STATUSES_IGNORE));
    CHECK_RC(MPI_Comm_free(&c));
    CHECK_RC(MPI_Wait(&rq[7], MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < 8; i++)
        bad += r[i] != val(left, i);
    CHECK(bad == 0);
    MPI_Comm d;                        /* the library still works */
    CHECK_RC(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_RC(MPI_Sendrecv(&s[0], 1, MPI_INT, right, 0, &r[0], 1, MPI_INT, left, 0, d,
                          MPI_STATUS_IGNORE));
    CHECK(r[0] == val(left, 0));
    CHECK_RC(MPI_Comm_free(&d));
}

static void errors(void)
{
    int s = 0, r = 0;
    MPI_Request rq = MPI_REQUEST_NULL;
    EXPECT(MPI_Isendrecv(&s, 1, MPI_INT, size, 0, &r, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq),
           MPI_ERR_RANK, "MPI_Isendrecv", "dest");
    EXPECT(MPI_Isendrecv(&s, 1, MPI_INT, 0, 0, &r, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &rq),
           MPI_ERR_RANK, "MPI_Isendrecv", "source");
    EXPECT(MPI_Isendrecv(&s, -1, MPI_INT, 0, 0, &r, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq),
           MPI_ERR_COUNT, "MPI_Isendrecv", "sendcount");
    EXPECT(MPI_Isendrecv(&s, 1, MPI_INT, 0, MPI_ANY_TAG, &r, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                         &rq), MPI_ERR_TAG, "MPI_Isendrecv", "sendtag");
    EXPECT(MPI_Isendrecv(&s, 1, MPI_INT, 0, 0, &r, 1, MPI_INT, 0, -3, MPI_COMM_WORLD, &rq),
           MPI_ERR_TAG, "MPI_Isendrecv", "recvtag");
    EXPECT(MPI_Isendrecv(&s, 1, MPI_INT, 0, 0, &r, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD,
                         &rq), MPI_ERR_TYPE, "MPI_Isendrecv", "recvtype");
    EXPECT(MPI_Isendrecv(&s, 1, MPI_INT, 0, 0, &r, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &rq),
           MPI_ERR_COMM, "MPI_Isendrecv", "comm");
    EXPECT(MPI_Isendrecv(&s, 1, MPI_INT, 0, 0, &r, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL),
           MPI_ERR_ARG, "MPI_Isendrecv", "request");
    EXPECT(MPI_Isendrecv(&s, 1, MPI_INT, 0, 0, NULL, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq),
           MPI_ERR_BUFFER, "MPI_Isendrecv", "recvbuf");
    EXPECT(MPI_Isendrecv_replace(&s, -2, MPI_INT, 0, 0, 0, 0, MPI_COMM_WORLD, &rq),
           MPI_ERR_COUNT, "MPI_Isendrecv_replace", "count");
    EXPECT(MPI_Isendrecv_replace(&s, 1, MPI_INT, 0, 0, size + 1, 0, MPI_COMM_WORLD, &rq),
           MPI_ERR_RANK, "MPI_Isendrecv_replace", "source");
    EXPECT(MPI_Isendrecv_c(&s, -1, MPI_INT, 0, 0, &r, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq),
           MPI_ERR_COUNT, "MPI_Isendrecv_c", "sendcount");
    CHECK(rq == MPI_REQUEST_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* an invalid communicator argument is raised on MPI_COMM_SELF */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    ring(1, 1);
    ring(1 << 17, 2);          /* rendezvous-sized */
    typed_and_replace();
    proc_null_and_any();
    truncation();
    cancel();
    mixes();
    own_comm();
    errors();
    return pt_finish();
}
