/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_bind_check.c - the argument checks of the binding layer
 * (src/binding/bind_check.h) and the ABI handle serialization (abi.c):
 * accepted values return XB_OK, rejected ones the right code and a message
 * naming the argument, the value and the reason. Time limit: ctest's (60 s);
 * the test itself runs in microseconds and never blocks.
 */
#include <stdio.h>
#include <string.h>
#include "binding/bind_check.h"

static int failures;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                        \
        }                                                                      \
    } while (0)

/* rc must be `want`, and when it is an error the detail must contain `text`. */
static void expect(int rc, int want, const char *text, int line)
{
    if (rc != want) {
        fprintf(stderr, "line %d: rc %d, wanted %d (detail: %s)\n", line, rc,
                want, xb_err_detail());
        failures++;
        return;
    }
    if (want != XB_OK && text != NULL && strstr(xb_err_detail(), text) == NULL) {
        fprintf(stderr, "line %d: detail \"%s\" lacks \"%s\"\n", line,
                xb_err_detail(), text);
        failures++;
    }
    xb_err_clear();
}
#define EXPECT(rc, want, text) expect((rc), (want), (text), __LINE__)

static void test_counts(void)
{
    CHECK(xb_param_check());     /* on before MPI_Init (tunable default) */
    EXPECT(xb_check_nonneg("count", 0, XB_ERR_COUNT), XB_OK, NULL);
    EXPECT(xb_check_nonneg("count", 5, XB_ERR_COUNT), XB_OK, NULL);
    EXPECT(xb_check_nonneg("count", -1, XB_ERR_COUNT), XB_ERR_COUNT,
           "invalid value -1 for argument count");
    EXPECT(xb_check_nonneg("size", -(1LL << 40), XB_ERR_ARG), XB_ERR_ARG,
           "-1099511627776");
}

static void test_ranks(void)
{
    xb_group_t g = { .magic = XB_MAGIC_GROUP, .refcount = 1, .size = 4, .rank = 0 };
    xb_comm_t c = { .magic = XB_MAGIC_COMM, .refcount = 1, .rank = 0,
                    .size = 4, .group = &g };

    EXPECT(xb_check_rank("dest", 0, &c, 0), XB_OK, NULL);
    EXPECT(xb_check_rank("dest", 3, &c, 0), XB_OK, NULL);
    EXPECT(xb_check_rank("dest", 7, &c, XB_ALLOW_PROC_NULL), XB_ERR_RANK,
           "invalid rank 7 for argument dest (the communicator has 4 ranks");
    EXPECT(xb_check_rank("dest", 4, &c, 0), XB_ERR_RANK, "rank 4");
    EXPECT(xb_check_rank("dest", MPI_PROC_NULL, &c, XB_ALLOW_PROC_NULL), XB_OK, NULL);
    EXPECT(xb_check_rank("dest", MPI_PROC_NULL, &c, 0), XB_ERR_RANK,
           "MPI_PROC_NULL is not allowed");
    EXPECT(xb_check_rank("source", MPI_ANY_SOURCE, &c,
                         XB_ALLOW_PROC_NULL | XB_ALLOW_ANY_SOURCE), XB_OK, NULL);
    EXPECT(xb_check_rank("dest", MPI_ANY_SOURCE, &c, XB_ALLOW_PROC_NULL),
           XB_ERR_RANK, "MPI_ANY_SOURCE is not allowed for argument dest");
    EXPECT(xb_check_rank("dest", -42, &c, 0), XB_ERR_RANK, "-42");

    EXPECT(xb_check_root("root", 2, &c), XB_OK, NULL);
    EXPECT(xb_check_root("root", 4, &c), XB_ERR_ROOT, "invalid root 4");
    EXPECT(xb_check_root("root", MPI_ROOT, &c), XB_ERR_ROOT, "root");

    /* intercommunicator: ranks address the remote group */
    xb_group_t remote = { .magic = XB_MAGIC_GROUP, .refcount = 1, .size = 2,
                          .rank = MPI_UNDEFINED };
    c.remote = &remote;
    EXPECT(xb_check_rank("dest", 3, &c, 0), XB_ERR_RANK, "has 2 ranks");
    EXPECT(xb_check_rank("dest", 1, &c, 0), XB_OK, NULL);
    EXPECT(xb_check_root("root", MPI_ROOT, &c), XB_OK, NULL);
    EXPECT(xb_check_root("root", MPI_PROC_NULL, &c), XB_OK, NULL);
    EXPECT(xb_check_root("root", 2, &c), XB_ERR_ROOT, "remote group");
}

static void test_tags(void)
{
    EXPECT(xb_check_tag("tag", 0, 0), XB_OK, NULL);
    EXPECT(xb_check_tag("tag", XB_TAG_UB, 0), XB_OK, NULL);
    EXPECT(xb_check_tag("tag", XB_TAG_UB + 1, 0), XB_ERR_TAG,
           "invalid tag 1073741824 for argument tag");
    EXPECT(xb_check_tag("tag", -7, XB_ALLOW_ANY_TAG), XB_ERR_TAG, "MPI_ANY_TAG");
    EXPECT(xb_check_tag("tag", MPI_ANY_TAG, XB_ALLOW_ANY_TAG), XB_OK, NULL);
    EXPECT(xb_check_tag("sendtag", MPI_ANY_TAG, 0), XB_ERR_TAG,
           "MPI_ANY_TAG is not allowed for argument sendtag");
}

static void test_pointers(void)
{
    int x = 0;

    EXPECT(xb_check_buf("buf", NULL, 0, NULL), XB_OK, NULL);
    EXPECT(xb_check_buf("buf", &x, 10, NULL), XB_OK, NULL);
    EXPECT(xb_check_buf("buf", NULL, 10, NULL), XB_ERR_BUFFER,
           "NULL buffer for argument buf");
    EXPECT(xb_check_ptr("flag", &x), XB_OK, NULL);
    EXPECT(xb_check_ptr("flag", NULL), XB_ERR_ARG, "NULL pointer for argument flag");
    EXPECT(xb_check_array("ranks", NULL, 0), XB_OK, NULL);
    EXPECT(xb_check_array("ranks", NULL, 3), XB_ERR_ARG, "ranks");
    /* predefined types are always committed; dt is not looked at */
    EXPECT(xb_check_committed("datatype", MPI_INT, NULL), XB_OK, NULL);
}

static void test_handles(void)
{
    struct { uint32_t magic; uint32_t pad[15]; } freed = { XB_MAGIC_FREED, {0} };
    struct { uint32_t magic; uint32_t pad[15]; } junk = { 0x12345678u, {0} };

    EXPECT(xb_check_handle_fail(XB_HK_COMM, "comm", (const void *)MPI_COMM_NULL),
           XB_ERR_COMM, "MPI_COMM_NULL is not a valid communicator for argument comm");
    EXPECT(xb_check_handle_fail(XB_HK_DATATYPE, "datatype", &freed),
           XB_ERR_TYPE, "already freed");
    EXPECT(xb_check_handle_fail(XB_HK_GROUP, "group", &junk),
           XB_ERR_GROUP, "invalid group");
    EXPECT(xb_check_handle_fail(XB_HK_OP, "op", (const void *)(uintptr_t)0x777),
           XB_ERR_OP, "not a predefined operation");
    EXPECT(xb_check_handle_fail(XB_HK_REQUEST, "request", NULL),
           XB_ERR_REQUEST, "NULL is not a valid request");
    CHECK(strcmp(xb_hk_null_name(XB_HK_INFO), "MPI_INFO_NULL") == 0);
}

static void test_conversions(void)
{
    int src[3] = { 1, -2, 2147483647 };
    MPI_Aint asrc[2] = { -5, (MPI_Aint)1 << 40 };
    MPI_Count *w = NULL, stack[XB_BIND_STACK];

    CHECK(xb_bind_widen_int("a", src, 3, stack, &w) == XB_OK && w == stack);
    if (w != NULL)
        CHECK(w[0] == 1 && w[1] == -2 && w[2] == 2147483647);
    xb_bind_free(w, stack);
    CHECK(xb_bind_widen_aint("a", asrc, 2, stack, &w) == XB_OK && w == stack);
    if (w != NULL)
        CHECK(w[0] == -5 && w[1] == (MPI_Count)1 << 40);
    xb_bind_free(w, stack);
    CHECK(xb_bind_widen_int("a", NULL, 0, stack, &w) == XB_OK && w == NULL);
    /* beyond the stack: a new array (freed by xb_bind_free) */
    int many[XB_BIND_STACK + 5];
    for (int i = 0; i < XB_BIND_STACK + 5; i++)
        many[i] = 3 * i - 7;
    CHECK(xb_bind_widen_int("a", many, XB_BIND_STACK + 5, stack, &w) == XB_OK && w != NULL &&
          w != stack);
    if (w != NULL)
        CHECK(w[0] == -7 && w[XB_BIND_STACK + 4] == 3 * (XB_BIND_STACK + 4) - 7);
    xb_bind_free(w, stack);

    CHECK(xb_bind_narrow_int(12) == 12);
    CHECK(xb_bind_narrow_int(-3) == -3);
    CHECK(xb_bind_narrow_int((MPI_Count)1 << 31) == MPI_UNDEFINED);
}

static void test_abi(void)
{
    int major = -1, minor = -1;
    static int obj_a, obj_b;
    MPI_Comm a = (MPI_Comm)(void *)&obj_a, b = (MPI_Comm)(void *)&obj_b;

    CHECK(MPI_Abi_get_version(&major, &minor) == MPI_SUCCESS);
    CHECK(major == MPI_ABI_VERSION && minor == MPI_ABI_SUBVERSION);
    CHECK(MPI_Abi_get_version(NULL, &minor) != MPI_SUCCESS);

    CHECK(MPI_Comm_toint(MPI_COMM_WORLD) == 0x101);
    CHECK(MPI_Type_toint(MPI_INT) == 0x209);
    CHECK(MPI_Comm_fromint(0x102) == MPI_COMM_SELF);
    CHECK(MPI_Op_fromint(MPI_Op_toint(MPI_SUM)) == MPI_SUM);

    int ia = MPI_Comm_toint(a), ib = MPI_Comm_toint(b);
    CHECK(ia >= 0x1000 && ib >= 0x1000 && ia != ib);
    CHECK(MPI_Comm_toint(a) == ia);                 /* stable */
    CHECK(MPI_Comm_fromint(ia) == a && MPI_Comm_fromint(ib) == b);
    CHECK(MPI_Comm_fromint(0x7ffffff0) == MPI_COMM_NULL);
    /* sessions (issue 8): the null handle is its constant, a session a pointer */
    static int obj_s;
    MPI_Session sess = (MPI_Session)(void *)&obj_s;
    CHECK(MPI_Session_toint(MPI_SESSION_NULL) == (int)(uintptr_t)MPI_SESSION_NULL);
    CHECK(MPI_Session_fromint(MPI_Session_toint(MPI_SESSION_NULL)) == MPI_SESSION_NULL);
    int is = MPI_Session_toint(sess);
    CHECK(is >= 0x1000 && MPI_Session_fromint(is) == sess);
    CHECK(MPI_Session_fromint(0x7ffffff1) == MPI_SESSION_NULL);
    /* many handles: the table grows and keeps every mapping */
    static char many[1000];
    int first = MPI_Request_toint((MPI_Request)(void *)&many[0]);
    for (int i = 1; i < 1000; i++)
        (void)MPI_Request_toint((MPI_Request)(void *)&many[i]);
    CHECK(MPI_Request_toint((MPI_Request)(void *)&many[0]) == first);
    CHECK(MPI_Request_fromint(MPI_Request_toint((MPI_Request)(void *)&many[777]))
          == (MPI_Request)(void *)&many[777]);
}

int main(void)
{
    test_counts();
    test_ranks();
    test_tags();
    test_pointers();
    test_handles();
    test_conversions();
    test_abi();
    if (failures != 0) {
        printf("test_bind_check: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_bind_check: all passed\n");
    return 0;
}
