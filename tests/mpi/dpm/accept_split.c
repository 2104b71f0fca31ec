/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * accept_split.c - MPI_Open_port / MPI_Comm_accept / MPI_Comm_connect inside
 * one job, between the two halves of COMM_WORLD (low half accepts, high
 * half connects, roots not at rank 0 of either side), then on the
 * intercommunicator: remote size, point-to-point both ways (sources are
 * remote ranks), an allreduce and a bcast across, MPI_Intercomm_merge (the
 * side with high=0 first), MPI_Comm_disconnect (the handle becomes
 * MPI_COMM_NULL). A second connection reuses the same port. Errors (all
 * with MPI_ERRORS_RETURN, the library stays usable): a malformed port
 * name, a port nobody listens on (MPI_ERR_PORT), Close_port of a port this
 * process did not open, accept on an intercommunicator. With one rank only
 * the ports and the errors are tested.
 */
#include <unistd.h>
#include "ctest.h"

static void expect_class(int rc, int cls, const char *what)
{
    int c = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    CHECK(c == cls, "%s: error class %d, expected %d", what, c, cls);
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        CHECK(strstr(msg, "MPI_") != NULL, "%s: message '%s' names no function",
              what, msg);
    }
}

static void errors(void)
{
    MPI_Comm ic = MPI_COMM_NULL;
    char port[MPI_MAX_PORT_NAME];
    expect_class(MPI_Comm_connect("no-such-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic),
                 MPI_ERR_PORT, "connect to garbage");
    CHECK(ic == MPI_COMM_NULL, "newcomm written on failure");
    CHECK_RC(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK(strlen(port) > 0 && strlen(port) < MPI_MAX_PORT_NAME, "port name '%s'", port);
    CHECK_RC(MPI_Close_port(port));
    /* the port is closed now: nobody listens there */
    expect_class(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic),
                 MPI_ERR_PORT, "connect to a closed port");
    expect_class(MPI_Close_port(port), MPI_ERR_PORT, "close a closed port");
    expect_class(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic),
                 MPI_ERR_PORT, "accept on a closed port");
    expect_class(MPI_Comm_accept(port, MPI_INFO_NULL, 5, MPI_COMM_SELF, &ic),
                 MPI_ERR_ROOT, "accept with root 5");
}

static void check_ic(MPI_Comm ic, MPI_Comm half, int low, int split)
{
    int lsize = low ? split : ct_size - split, rsize = ct_size - lsize;
    int inter = 0, rs = -1, hr;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_test_inter(ic, &inter);
    MPI_Comm_remote_size(ic, &rs);
    CHECK(inter && rs == rsize, "inter %d remote size %d want %d", inter, rs, rsize);
    /* every local rank sends its world rank to every remote rank */
    MPI_Request *rq = ct_malloc((size_t)rsize * sizeof(*rq));
    for (int i = 0; i < rsize; i++)
        MPI_Isend(&ct_rank, 1, MPI_INT, i, 7, ic, &rq[i]);
    for (int i = 0; i < rsize; i++) {
        MPI_Status st;
        int v = -1;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, ic, &st);
        int want = low ? split + st.MPI_SOURCE : st.MPI_SOURCE;
        CHECK(v == want, "from remote %d got %d want %d", st.MPI_SOURCE, v, want);
    }
    MPI_Waitall(rsize, rq, MPI_STATUSES_IGNORE);
    free(rq);
    /* a large message (rendezvous) from remote 0 to local 0 and back */
    int n = 1 << 18;
    int *big = ct_malloc((size_t)n * sizeof(int));
    if (hr == 0) {
        for (int i = 0; i < n; i++)
            big[i] = low ? i : -i;
        MPI_Sendrecv_replace(big, n, MPI_INT, 0, 8, 0, 8, ic, MPI_STATUS_IGNORE);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += big[i] != (low ? -i : i);
        CHECK(bad == 0, "%d wrong ints in the large exchange", bad);
    }
    free(big);
    /* allreduce: each side gets the sum of the other side's world ranks */
    int sum = -1, want = 0;
    MPI_Allreduce(&ct_rank, &sum, 1, MPI_INT, MPI_SUM, ic);
    for (int r = low ? split : 0; r < (low ? ct_size : split); r++)
        want += r;
    CHECK(sum == want, "allreduce across %d want %d", sum, want);
    /* bcast from the high side's rank 0 */
    int val = hr == 0 && !low ? 4242 : -1;
    int root = low ? 0 : hr == 0 ? MPI_ROOT : MPI_PROC_NULL;
    MPI_Bcast(&val, 1, MPI_INT, root, ic);
    if (low)
        CHECK(val == 4242, "bcast across got %d", val);
}

static void check_merge(MPI_Comm ic, int low, int lsize)
{
    MPI_Comm m;
    int mr = -1, ms = -1;
    /* the connecting (high) side asks to go first */
    CHECK_RC(MPI_Intercomm_merge(ic, low, &m));
    MPI_Comm_rank(m, &mr);
    MPI_Comm_size(m, &ms);
    CHECK(ms == ct_size, "merged size %d", ms);
    int want = low ? ct_rank + (ct_size - lsize) : ct_rank - lsize;
    CHECK(mr == want, "merged rank %d want %d", mr, want);
    int sum = 0;
    MPI_Allreduce(&ct_rank, &sum, 1, MPI_INT, MPI_SUM, m);
    CHECK(sum == ct_size * (ct_size - 1) / 2, "merged allreduce %d", sum);
    MPI_Comm_free(&m);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    errors();
    if (ct_size >= 2) {
        int lsize = ct_size / 2, low = ct_rank < lsize;
        MPI_Comm half, ic;
        MPI_Comm_split(MPI_COMM_WORLD, low, 0, &half);
        int hsize, hr, root;
        MPI_Comm_size(half, &hsize);
        MPI_Comm_rank(half, &hr);
        root = hsize - 1;                       /* not rank 0 */
        char port[MPI_MAX_PORT_NAME] = "";
        if (low && hr == root)                  /* the low side's root */
            CHECK_RC(MPI_Open_port(MPI_INFO_NULL, port));
        MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, lsize - 1, MPI_COMM_WORLD);
        for (int round = 0; round < 2; round++) {
            if (low)
                CHECK_RC(MPI_Comm_accept(port, MPI_INFO_NULL, root, half, &ic));
            else
                CHECK_RC(MPI_Comm_connect(port, MPI_INFO_NULL, root, half, &ic));
            check_ic(ic, half, low, lsize);
            if (round == 0)
                check_merge(ic, low, lsize);
            MPI_Comm bad = MPI_COMM_NULL;
            MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
            expect_class(MPI_Comm_accept(port, MPI_INFO_NULL, 0, ic, &bad), MPI_ERR_COMM,
                         "accept over an intercommunicator");
            CHECK_RC(MPI_Comm_disconnect(&ic));
            CHECK(ic == MPI_COMM_NULL, "disconnect left the handle");
        }
        if (low && hr == root)
            CHECK_RC(MPI_Close_port(port));
        MPI_Comm_free(&half);
    }
    return ct_finish();
}
