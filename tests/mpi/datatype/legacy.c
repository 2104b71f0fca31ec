/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * legacy.c - the functions MPI-3.0 removed that Crossbar keeps for MPI-1
 * programs (spec/implemented.txt [legacy], src/binding/legacy.c), as HPL
 * and the HPC Challenge suite call them: MPI_Address and MPI_Type_struct
 * build a struct type from absolute addresses (sent with MPI_BOTTOM to the
 * next rank and checked), MPI_Type_hvector and MPI_Type_hindexed give the
 * type maps (and envelopes) of their replacements, MPI_Type_extent/lb/ub
 * agree with MPI_Type_get_extent (resized types with a negative lower
 * bound included), MPI_Errhandler_create/set/get install a handler that
 * runs on an error of the communicator; errors name the removed function.
 */
#include "ctest.h"
#include "cexpect.h"

static int handled;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handled = *code;
}

struct rec { double d; int i[3]; char c; };

static void bounds(MPI_Datatype t, MPI_Aint want_lb, MPI_Aint want_ext)
{
    MPI_Aint lb, ext, lb1, ub1, ext1;
    CHECK_RC(MPI_Type_get_extent(t, &lb, &ext));
    CHECK_RC(MPI_Type_extent(t, &ext1));
    CHECK_RC(MPI_Type_lb(t, &lb1));
    CHECK_RC(MPI_Type_ub(t, &ub1));
    CHECK(lb == want_lb && ext == want_ext, "get_extent: lb %ld extent %ld (want %ld %ld)",
          (long)lb, (long)ext, (long)want_lb, (long)want_ext);
    CHECK(ext1 == ext && lb1 == lb && ub1 == lb + ext,
          "MPI_Type_extent/lb/ub: %ld %ld %ld (want %ld %ld %ld)", (long)ext1, (long)lb1,
          (long)ub1, (long)ext, (long)lb, (long)(lb + ext));
}

/* the type's bytes of a buffer numbered 0, 1, 2 ... in type map order */
static void packed(MPI_Datatype t, const char *want, int n)
{
    char src[64], out[64];
    for (int i = 0; i < 64; i++)
        src[i] = (char)i;
    int pos = 0;
    CHECK_RC(MPI_Pack(src + 16, 1, t, out, sizeof out, &pos, MPI_COMM_SELF));
    CHECK(pos == n && memcmp(out, want, (size_t)n) == 0, "packed %d bytes, first %d %d",
          pos, pos > 0 ? out[0] : -1, pos > 1 ? out[1] : -1);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* MPI_Address + MPI_Type_struct on absolute addresses, as HPL packs */
    struct rec r = { rank + 0.5, { rank, rank * 2, rank * 3 }, (char)('a' + rank) };
    MPI_Aint addr[3];
    CHECK_RC(MPI_Address(&r.d, &addr[0]));
    CHECK_RC(MPI_Address(r.i, &addr[1]));
    CHECK_RC(MPI_Address(&r.c, &addr[2]));
    MPI_Aint want;
    MPI_Get_address(r.i, &want);
    CHECK(addr[1] == want, "MPI_Address %ld, MPI_Get_address %ld", (long)addr[1], (long)want);
    int bl[3] = { 1, 3, 1 };
    MPI_Datatype ty[3] = { MPI_DOUBLE, MPI_INT, MPI_CHAR }, st;
    CHECK_RC(MPI_Type_struct(3, bl, addr, ty, &st));
    CHECK_RC(MPI_Type_commit(&st));
    int ni, na, nd, comb;
    MPI_Type_get_envelope(st, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 4 && na == 3 && nd == 3,
          "MPI_Type_struct envelope: combiner %d, %d %d %d", comb, ni, na, nd);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    struct rec got = { 0, { 0, 0, 0 }, 0 };
    MPI_Aint gaddr[3];
    MPI_Address(&got.d, &gaddr[0]);
    MPI_Address(got.i, &gaddr[1]);
    MPI_Address(&got.c, &gaddr[2]);
    MPI_Datatype gt;
    CHECK_RC(MPI_Type_struct(3, bl, gaddr, ty, &gt));
    MPI_Type_commit(&gt);
    CHECK_RC(MPI_Sendrecv(MPI_BOTTOM, 1, st, to, 0, MPI_BOTTOM, 1, gt, from, 0,
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(got.d == from + 0.5 && got.i[0] == from && got.i[1] == 2 * from &&
          got.i[2] == 3 * from && got.c == 'a' + from,
          "received %g %d %d %d %c from rank %d", got.d, got.i[0], got.i[1], got.i[2],
          got.c, from);
    MPI_Type_free(&st);
    MPI_Type_free(&gt);

    /* MPI_Type_hvector / MPI_Type_hindexed: the replacements' type maps */
    MPI_Datatype hv, hi, rs;
    CHECK_RC(MPI_Type_hvector(3, 2, 5, MPI_CHAR, &hv));
    MPI_Type_commit(&hv);
    packed(hv, "\x10\x11\x15\x16\x1a\x1b", 6);
    bounds(hv, 0, 12);
    MPI_Type_get_envelope(hv, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_HVECTOR, "MPI_Type_hvector combiner %d", comb);
    int hbl[2] = { 2, 1 };
    MPI_Aint hd[2] = { 7, -3 };
    CHECK_RC(MPI_Type_hindexed(2, hbl, hd, MPI_CHAR, &hi));
    MPI_Type_commit(&hi);
    packed(hi, "\x17\x18\x0d", 3);
    bounds(hi, -3, 12);
    MPI_Type_get_envelope(hi, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_HINDEXED, "MPI_Type_hindexed combiner %d", comb);
    MPI_Type_create_resized(MPI_INT, -8, 32, &rs);
    bounds(rs, -8, 32);
    bounds(MPI_DOUBLE, 0, 8);
    MPI_Type_free(&hv);
    MPI_Type_free(&hi);
    MPI_Type_free(&rs);

    /* MPI_Errhandler_create / set / get */
    MPI_Errhandler eh, cur;
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    CHECK_RC(MPI_Errhandler_create(handler, &eh));
    CHECK_RC(MPI_Errhandler_set(c, eh));
    CHECK_RC(MPI_Errhandler_get(c, &cur));
    CHECK(cur == eh, "MPI_Errhandler_get gave another handler");
    MPI_Errhandler_free(&cur);
    int rc = MPI_Send(NULL, 1, MPI_INT, size + 5, 0, c);
    CHECK(handled != 0 && rc == handled, "the handler saw code %d, MPI_Send returned %d",
          handled, rc);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&c);

    /* errors name the removed function */
    MPI_Aint x;
    EXPECT(MPI_Type_extent(MPI_DATATYPE_NULL, &x), MPI_ERR_TYPE, "MPI_Type_extent", "datatype");
    EXPECT(MPI_Type_lb(MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_lb", "displacement");
    EXPECT(MPI_Type_ub(MPI_DATATYPE_NULL, &x), MPI_ERR_TYPE, "MPI_Type_ub", NULL);
    EXPECT(MPI_Address(&x, NULL), MPI_ERR_ARG, "MPI_Address", "address");
    EXPECT(MPI_Type_struct(-1, bl, addr, ty, &st), MPI_ERR_COUNT, "MPI_Type_struct", "count");
    EXPECT(MPI_Type_hvector(2, 1, 4, MPI_DATATYPE_NULL, &hv), MPI_ERR_TYPE,
           "MPI_Type_hvector", "oldtype");
    EXPECT(MPI_Errhandler_set(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM,
           "MPI_Errhandler_set", NULL);
    return ct_finish();
}
