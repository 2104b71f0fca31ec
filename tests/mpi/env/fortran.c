/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * fortran.c - the Fortran side of the ABI without Fortran:
 * MPI_<Kind>_c2f / _f2c round trips (predefined handles keep their ABI
 * value, user handles get a stable integer equal to MPI_<Kind>_toint, null
 * handles map to null, an unknown integer to the kind's null handle);
 * MPI_Status_c2f / _f2c (all 8 ints, count and cancelled survive);
 * MPI_Abi_get/set_fortran_info and _booleans (not set at first, set once,
 * MPI_ERR_ABI the second time, MPI_ERR_ARG for a bad logical size).
 */
#include "ctest.h"
#include "cexpect.h"

#define ROUND(Kind, h, null) do {                                                 \
        MPI_Fint f_ = Kind##_c2f(h);                                              \
        CHECK(Kind##_f2c(f_) == (h), #Kind " of " #h ": f2c(c2f(h)) != h");        \
        CHECK(f_ == Kind##_toint(h), #Kind " of " #h ": c2f %d != toint %d", f_,   \
              Kind##_toint(h));                                                   \
        CHECK(Kind##_c2f(h) == f_, #Kind " of " #h ": c2f not stable");            \
        CHECK(Kind##_f2c(Kind##_c2f(null)) == (null), #Kind ": null not kept");    \
        CHECK(Kind##_f2c(0x7ffffff0) == (null), #Kind ": unknown integer not null"); \
    } while (0)

static void handles(void)
{
    ROUND(MPI_Comm, MPI_COMM_WORLD, MPI_COMM_NULL);
    CHECK(MPI_Comm_c2f(MPI_COMM_WORLD) == (MPI_Fint)(intptr_t)MPI_COMM_WORLD,
          "COMM_WORLD's integer is not its ABI value");
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    ROUND(MPI_Comm, dup, MPI_COMM_NULL);
    ROUND(MPI_Type, MPI_DOUBLE, MPI_DATATYPE_NULL);
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    ROUND(MPI_Type, vec, MPI_DATATYPE_NULL);
    MPI_Group g;
    MPI_Comm_group(dup, &g);
    ROUND(MPI_Group, g, MPI_GROUP_NULL);
    ROUND(MPI_Group, MPI_GROUP_EMPTY, MPI_GROUP_NULL);
    ROUND(MPI_Op, MPI_SUM, MPI_OP_NULL);
    MPI_Info info;
    MPI_Info_create(&info);
    ROUND(MPI_Info, info, MPI_INFO_NULL);
    ROUND(MPI_Errhandler, MPI_ERRORS_RETURN, MPI_ERRHANDLER_NULL);
    MPI_Request req;
    int x = 0;
    MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, dup, &req);
    ROUND(MPI_Request, req, MPI_REQUEST_NULL);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    ROUND(MPI_Message, MPI_MESSAGE_NO_PROC, MPI_MESSAGE_NULL);
    MPI_Session s;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    ROUND(MPI_Session, s, MPI_SESSION_NULL);
    MPI_Session_finalize(&s);
    MPI_Info_free(&info);
    MPI_Group_free(&g);
    MPI_Type_free(&vec);
    MPI_Comm_free(&dup);
}

static void statuses(void)
{
    MPI_Status c, back;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    memset(&c, 0, sizeof(c));
    c.MPI_SOURCE = 3;
    c.MPI_TAG = 77;
    c.MPI_ERROR = MPI_ERR_TAG;
    MPI_Status_set_elements_x(&c, MPI_BYTE, ((MPI_Count)5 << 32) + 9);
    MPI_Status_set_cancelled(&c, 1);
    CHECK_RC(MPI_Status_c2f(&c, f));
    CHECK(f[MPI_F_SOURCE] == 3 && f[MPI_F_TAG] == 77 && f[MPI_F_ERROR] == MPI_ERR_TAG,
          "Fortran status %d %d %d", f[MPI_F_SOURCE], f[MPI_F_TAG], f[MPI_F_ERROR]);
    memset(&back, 0xff, sizeof(back));
    CHECK_RC(MPI_Status_f2c(f, &back));
    CHECK(memcmp(&c, &back, sizeof(c)) == 0, "status changed in the round trip");
    MPI_Count n = 0;
    int flag = 0;
    MPI_Get_elements_x(&back, MPI_BYTE, &n);
    MPI_Test_cancelled(&back, &flag);
    CHECK(n == ((MPI_Count)5 << 32) + 9 && flag == 1, "count %lld cancelled %d",
          (long long)n, flag);
    EXPECT(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG, "MPI_Status_c2f", "c_status");
    EXPECT(MPI_Status_f2c(f, MPI_STATUS_IGNORE), MPI_ERR_ARG, "MPI_Status_f2c", "c_status");
}

/* MPI_Abi_get_info: a new info object each call, the type sizes in bytes */
static void abi_info(void)
{
    static const struct { const char *key; size_t size; } want[] = {
        { "mpi_aint_size", sizeof(MPI_Aint) },
        { "mpi_count_size", sizeof(MPI_Count) },
        { "mpi_offset_size", sizeof(MPI_Offset) },
    };
    MPI_Info a = MPI_INFO_NULL, b = MPI_INFO_NULL;
    CHECK_RC(MPI_Abi_get_info(&a));
    CHECK_RC(MPI_Abi_get_info(&b));
    CHECK(a != MPI_INFO_NULL && b != MPI_INFO_NULL && a != b, "two new info objects");
    int n = 0;
    MPI_Info_get_nkeys(a, &n);
    CHECK(n == 3, "MPI_Abi_get_info: %d keys", n);
    for (int i = 0; i < 3; i++) {
        char v[16] = "";
        int flag = 0;
        MPI_Info_get_string(a, want[i].key, &(int){ sizeof v }, v, &flag);
        CHECK(flag && (size_t)atoi(v) == want[i].size, "%s = '%s' (want %zu)", want[i].key,
              v, want[i].size);
    }
    MPI_Info_free(&a);
    MPI_Info_free(&b);
}

static void fortran_info(void)
{
    MPI_Info got = MPI_INFO_NULL, in;
    CHECK_RC(MPI_Abi_get_fortran_info(&got));
    CHECK(got == MPI_INFO_NULL, "Fortran info before anybody set it");
    MPI_Info_create(&in);
    MPI_Info_set(in, "mpi_integer_size", "4");
    CHECK_RC(MPI_Abi_set_fortran_info(in));
    MPI_Info_set(in, "mpi_integer_size", "8");     /* the library kept a copy */
    EXPECT(MPI_Abi_set_fortran_info(in), MPI_ERR_ABI, "MPI_Abi_set_fortran_info", "once");
    CHECK_RC(MPI_Abi_get_fortran_info(&got));
    char v[8] = "";
    int flag = 0;
    if (got != MPI_INFO_NULL) {
        MPI_Info_get(got, "mpi_integer_size", sizeof(v) - 1, v, &flag);
        MPI_Info_free(&got);
    }
    CHECK(flag && strcmp(v, "4") == 0, "Fortran info: flag %d value '%s'", flag, v);
    MPI_Info_free(&in);
}

static void booleans(void)
{
    int t = 7, f = 7, set = 1;
    CHECK_RC(MPI_Abi_get_fortran_booleans(4, &t, &f, &set));
    CHECK(set == 0, "booleans set before anybody set them");
    int mt = 1, mf = 0;
    CHECK_RC(MPI_Abi_set_fortran_booleans(4, &mt, &mf));
    CHECK_RC(MPI_Abi_get_fortran_booleans(4, &t, &f, &set));
    CHECK(set == 1 && t == 1 && f == 0, "booleans: set %d true %d false %d", set, t, f);
    EXPECT(MPI_Abi_set_fortran_booleans(4, &mt, &mf), MPI_ERR_ABI,
           "MPI_Abi_set_fortran_booleans", "logical_size 4");
    char c1 = 0;
    set = 1;
    CHECK_RC(MPI_Abi_get_fortran_booleans(1, &c1, &c1, &set));
    CHECK(set == 0, "logical*1 booleans set although only logical*4 were");
    EXPECT(MPI_Abi_get_fortran_booleans(3, &t, &f, &set), MPI_ERR_ARG,
           "MPI_Abi_get_fortran_booleans", "3");
    EXPECT(MPI_Abi_set_fortran_booleans(0, &t, &f), MPI_ERR_ARG,
           "MPI_Abi_set_fortran_booleans", "0");
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    handles();
    statuses();
    abi_info();
    fortran_info();
    booleans();
    return ct_finish();
}
