/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * attach_buffer.c - MPI 4.1 attached buffers: a communicator's buffer is
 * used by Bsend on it (no process buffer needed) and wins over the
 * session's and the process's (a message too big for it fails although the
 * others have room); a session's buffer serves the communicators made from
 * its process set; detach gives back the address and size; flush and
 * iflush (process, communicator, session) wait for a rendezvous-size
 * message until the receiver takes it; MPI_BUFFER_AUTOMATIC (no size
 * limit; detach returns it); errors: attaching twice, no buffer anywhere.
 */
#include "ptest.h"

enum { BIG = 4 << 20, SMALL = 64 };

static int rank, size, to, from;

/* Every rank Bsends n ints to `to` on comm and receives them from `from`. */
static void ring(MPI_Comm comm, int n, int tag)
{
    int *out = malloc((size_t)n * sizeof(int)), *in = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        out[i] = rank * 1000 + i + tag;
    CHECK_RC(MPI_Bsend(out, n, MPI_INT, to, tag, comm));
    CHECK_RC(MPI_Recv(in, n, MPI_INT, from, tag, comm, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++)
        CHECK(in[i] == from * 1000 + i + tag);
    free(out);
    free(in);
}

static void comm_buffer(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int sz = 4 * (SMALL * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *buf = malloc((size_t)sz), *proc = malloc(1 << 20);
    CHECK_RC(MPI_Comm_attach_buffer(c, buf, sz));
    EXPECT(MPI_Comm_attach_buffer(c, buf, sz), MPI_ERR_BUFFER, "MPI_Comm_attach_buffer",
           "already");
    int x = 1;
    EXPECT(MPI_Bsend(&x, 1, MPI_INT, to, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bsend",
           "no buffer");
    for (int t = 0; t < 3; t++)
        ring(c, SMALL, t);
    CHECK_RC(MPI_Buffer_attach(proc, 1 << 20));   /* room there, but c has its own */
    int *big = calloc(4096, sizeof(int));
    EXPECT(MPI_Bsend(big, 4096, MPI_INT, to, 9, c), MPI_ERR_BUFFER, "MPI_Bsend",
           "has no room");
    ring(MPI_COMM_WORLD, 4096, 3);                 /* the process buffer on WORLD */
    CHECK_RC(MPI_Comm_flush_buffer(c));
    void *back = NULL;
    int bsz = 0;
    CHECK_RC(MPI_Comm_detach_buffer(c, &back, &bsz));
    CHECK(back == buf && bsz == sz);
    ring(c, 4096, 4);                              /* now the process buffer */
    CHECK_RC(MPI_Buffer_detach(&back, &bsz));
    CHECK(back == proc && bsz == 1 << 20);
    free(big);
    free(proc);
    free(buf);
    MPI_Comm_free(&c);
}

/* Rank 0 Bsends a rendezvous-size message to rank 1, which takes it only
 * after rank 0 saw the flush request still pending. */
static void flush_waits(int which)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    if (size < 2 || rank > 1) {
        MPI_Comm_free(&c);
        return;
    }
    char *data = malloc(BIG);
    if (rank == 0) {
        int sz = BIG + MPI_BSEND_OVERHEAD;
        char *buf = malloc((size_t)sz);
        if (which == 0)
            CHECK_RC(MPI_Buffer_attach(buf, sz));
        else
            CHECK_RC(MPI_Comm_attach_buffer(c, buf, sz));
        memset(data, 0x5a, BIG);
        CHECK_RC(MPI_Bsend(data, BIG, MPI_BYTE, 1, 1, c));
        MPI_Request r;
        int flag = 1;
        CHECK_RC(which == 0 ? MPI_Buffer_iflush(&r) : MPI_Comm_iflush_buffer(c, &r));
        CHECK_RC(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 0);
        CHECK_RC(MPI_Send(&flag, 1, MPI_INT, 1, 2, c));
        CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_RC(which == 0 ? MPI_Buffer_flush() : MPI_Comm_flush_buffer(c));
        void *back;
        int bsz;
        CHECK_RC(which == 0 ? MPI_Buffer_detach(&back, &bsz)
                            : MPI_Comm_detach_buffer(c, &back, &bsz));
        CHECK(back == buf && bsz == sz);
        free(buf);
    } else {
        int go;
        CHECK_RC(MPI_Recv(&go, 1, MPI_INT, 0, 2, c, MPI_STATUS_IGNORE));
        CHECK_RC(MPI_Recv(data, BIG, MPI_BYTE, 0, 1, c, MPI_STATUS_IGNORE));
        CHECK(data[0] == 0x5a && data[BIG - 1] == 0x5a);
    }
    free(data);
    MPI_Comm_free(&c);
}

static void session_buffer(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm c;
    CHECK_RC(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_RC(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_RC(MPI_Comm_create_from_group(g, "attach_buffer", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                        &c));
    int sz = 1 << 18;
    char *buf = malloc((size_t)sz);
    CHECK_RC(MPI_Session_attach_buffer(s, buf, sz));
    EXPECT(MPI_Session_attach_buffer(s, buf, sz), MPI_ERR_BUFFER, "MPI_Session_attach_buffer",
           "already");
    ring(c, 1000, 5);
    MPI_Comm d;                                   /* derived: the session's buffer too */
    MPI_Comm_dup(c, &d);
    ring(d, 1000, 6);
    char tiny[SMALL + MPI_BSEND_OVERHEAD];
    CHECK_RC(MPI_Comm_attach_buffer(d, tiny, (int)sizeof(tiny)));   /* d's own wins */
    int *big = calloc(1000, sizeof(int));
    EXPECT(MPI_Bsend(big, 1000, MPI_INT, to, 7, d), MPI_ERR_BUFFER, "MPI_Bsend", "no room");
    free(big);
    CHECK_RC(MPI_Session_flush_buffer(s));
    MPI_Request r;
    CHECK_RC(MPI_Session_iflush_buffer(s, &r));
    CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    void *back;
    int bsz;
    CHECK_RC(MPI_Session_detach_buffer(s, &back, &bsz));
    CHECK(back == buf && bsz == sz);
    CHECK_RC(MPI_Comm_detach_buffer(d, &back, &bsz));
    CHECK(back == tiny && bsz == (int)sizeof(tiny));
    free(buf);
    MPI_Comm_free(&d);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    CHECK_RC(MPI_Session_finalize(&s));
}

static void automatic(void)
{
    void *back = NULL;
    int bsz = -1;
    CHECK_RC(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    EXPECT(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0), MPI_ERR_BUFFER, "MPI_Buffer_attach",
           "MPI_BUFFER_AUTOMATIC");
    for (int n = 1; n <= 1 << 16; n *= 4)
        ring(MPI_COMM_WORLD, n, 10);
    MPI_Request r;
    CHECK_RC(MPI_Buffer_iflush(&r));
    CHECK_RC(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_RC(MPI_Buffer_detach(&back, &bsz));
    CHECK(back == MPI_BUFFER_AUTOMATIC && bsz == 0);
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    CHECK_RC(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0));
    ring(c, 50000, 11);
    CHECK_RC(MPI_Comm_detach_buffer(c, &back, &bsz));
    CHECK(back == MPI_BUFFER_AUTOMATIC && bsz == 0);
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    to = (rank + 1) % size;
    from = (rank + size - 1) % size;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    comm_buffer();
    flush_waits(0);
    flush_waits(1);
    session_buffer();
    automatic();
    return pt_finish();
}
