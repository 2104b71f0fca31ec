/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_errcode.c - error codes, classes and strings (src/core/errcode.c) and
 * the error path of the binding under MPI_ERRORS_RETURN and a user handler
 * (src/core/errhandler.c).
 */
#include <stdio.h>
#include <string.h>
#include "core/errhandler.h"
#include "runtime/runtime.h"

#include "unit_check.h"

static int class_of(int code)
{
    int cls = -1;
    return xb_errcode_class(code, &cls) == XB_OK ? cls : -1;
}

static const char *string_of(int code)
{
    static char buf[MPI_MAX_ERROR_STRING];
    int len = -1;
    if (xb_errcode_string(code, buf, &len) != XB_OK)
        return NULL;
    if (len != (int)strlen(buf))
        return "(bad length)";
    return buf;
}

static void test_predefined(void)
{
    CHECK(xb_errcode_class_of_rc(XB_OK) == MPI_SUCCESS, "ok");
    CHECK(xb_errcode_class_of_rc(XB_ERR_RANK) == MPI_ERR_RANK, "rank");
    CHECK(xb_errcode_class_of_rc(XB_ERR_ERRHANDLER) == MPI_ERR_ERRHANDLER, "errh");
    CHECK(xb_errcode_class_of_rc(XB_ERR_AGAIN) == MPI_ERR_INTERN, "again");
    for (int c = 0; c <= MPI_ERR_ABI; c++) {
        const char *s = string_of(c);
        CHECK(s != NULL && strncmp(s, "MPI_", 4) == 0, "string of class %d: %s", c,
              s ? s : "(null)");
        CHECK(class_of(c) == c, "class of class %d", c);
    }
    CHECK(strstr(string_of(MPI_ERR_TRUNCATE), "truncated") != NULL, "truncate text");
    const int bad[] = { -1, MPI_ERR_ABI + 1, MPI_ERR_LASTCODE,
                        XB_ERRCODE_USER_BASE, 0x7fffffff, (0x7fff << 15) | 999 };
    for (size_t i = 0; i < XB_ARRAY_LEN(bad); i++) {
        CHECK(class_of(bad[i]) == -1, "code %d accepted", bad[i]);
        CHECK(string_of(bad[i]) == NULL, "string of bad code %d", bad[i]);
    }
}

static void test_detailed(void)
{
    const char *msg = "MPI_Send: invalid rank 7 for argument dest (the communicator has 4 ranks)";
    int code = xb_errcode_make(MPI_ERR_RANK, msg);
    CHECK(code > MPI_ERR_LASTCODE, "code %d", code);
    CHECK(class_of(code) == MPI_ERR_RANK, "class %d", class_of(code));
    CHECK(string_of(code) && strcmp(string_of(code), msg) == 0, "string: %s", string_of(code));

    int first = xb_errcode_make(MPI_ERR_TAG, "first");
    int codes[300];
    for (int i = 0; i < 300; i++) {
        char m[64];
        snprintf(m, sizeof(m), "message %d", i);
        codes[i] = xb_errcode_make(i % 2 ? MPI_ERR_COUNT : MPI_ERR_TYPE, m);
    }
    CHECK(strcmp(string_of(codes[299]), "message 299") == 0, "newest kept");
    CHECK(class_of(first) == MPI_ERR_TAG, "an old code keeps its class");
    CHECK(strstr(string_of(first), "MPI_ERR_TAG") != NULL &&
          strstr(string_of(first), "no longer") != NULL, "old code: %s", string_of(first));
    for (int i = 0; i < 300; i++)
        CHECK(class_of(codes[i]) == (i % 2 ? MPI_ERR_COUNT : MPI_ERR_TYPE), "code %d", i);

    char big[2000];
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    int c = xb_errcode_make(MPI_ERR_OTHER, big);
    CHECK(strlen(string_of(c)) == MPI_MAX_ERROR_STRING - 1, "truncated message");
}

static void test_user(void)
{
    int cls = -1, code = -1;

    CHECK(xb_errcode_lastused() == MPI_ERR_LASTCODE, "lastused %d", xb_errcode_lastused());
    CHECK(xb_errcode_add_class(&cls) == XB_OK && cls >= MPI_ERR_LASTCODE, "class %d", cls);
    CHECK(xb_errcode_lastused() == cls, "lastused after add_class");
    CHECK(class_of(cls) == cls, "class of a user class");
    CHECK(string_of(cls) && strcmp(string_of(cls), "") == 0, "empty string by default");
    CHECK(xb_errcode_add_code(cls, &code) == XB_OK && code > cls, "code %d", code);
    CHECK(xb_errcode_lastused() == code, "lastused after add_code");
    CHECK(class_of(code) == cls, "class of a user code: %d", class_of(code));
    int code2 = -1;
    CHECK(xb_errcode_add_code(MPI_ERR_ARG, &code2) == XB_OK && class_of(code2) == MPI_ERR_ARG,
          "user code of a predefined class");
    CHECK(xb_errcode_add_string(cls, "my class") == XB_OK, "add_string class");
    CHECK(xb_errcode_add_string(code, "my code") == XB_OK, "add_string code");
    CHECK(strcmp(string_of(cls), "my class") == 0, "class string %s", string_of(cls));
    CHECK(strcmp(string_of(code), "my code") == 0, "code string %s", string_of(code));
    CHECK(xb_errcode_add_string(code, "changed") == XB_OK &&
          strcmp(string_of(code), "changed") == 0, "replace string");
    CHECK(strcmp(string_of(code2), "") == 0, "code without string: '%s'", string_of(code2));
    CHECK(xb_errcode_add_string(MPI_ERR_ARG, "no") == XB_ERR_ARG, "predefined string changed");
    CHECK(xb_errcode_add_code(code, &code2) == XB_ERR_ARG, "a code is not a class");
    CHECK(xb_errcode_add_code(12345, &code2) == XB_ERR_ARG, "invalid class");
    char big[MPI_MAX_ERROR_STRING + 1];
    memset(big, 'y', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    CHECK(xb_errcode_add_string(cls, big) == XB_ERR_ARG, "too long a string");
    /* a detailed code of a user class */
    int d = xb_errcode_make(cls, "detailed user");
    CHECK(class_of(d) == cls && strcmp(string_of(d), "detailed user") == 0, "detailed user");
}

static int handler_calls, handler_code;
static MPI_Comm handler_comm;
static void user_handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

static void test_handlers(void)
{
    xb_errhandler_t *ret = xb_errhandler_from_handle(MPI_ERRORS_RETURN);
    CHECK(ret != NULL && ret->kind == XB_ERRH_RETURN, "ERRORS_RETURN");
    CHECK(xb_errhandler_from_handle(MPI_ERRORS_ARE_FATAL) == xb_errhandler_fatal(), "FATAL");
    CHECK(xb_errhandler_from_handle(MPI_ERRORS_ABORT)->kind == XB_ERRH_ABORT, "ABORT");
    CHECK(xb_errhandler_from_handle(MPI_ERRHANDLER_NULL) == NULL, "NULL handle");
    CHECK(xb_errhandler_to_handle(ret) == MPI_ERRORS_RETURN, "to_handle");

    xb_set_init_state(XB_STATE_INIT);
    xb_comm_t comm = { .magic = XB_MAGIC_COMM, .refcount = 1, .size = 4,
                       .errh = ret, .handle = MPI_COMM_WORLD };
    xb_err_set(XB_ERR_RANK, "invalid rank 7 for argument dest (the communicator has 4 ranks)");
    int code = xb_errh_raise_comm(&comm, "MPI_Send", XB_ERR_RANK);
    CHECK(class_of(code) == MPI_ERR_RANK, "class of raised code");
    CHECK(strcmp(string_of(code), "MPI_Send: invalid rank 7 for argument dest "
                 "(the communicator has 4 ranks)") == 0, "string: %s", string_of(code));
    CHECK(xb_err_detail()[0] == '\0', "detail cleared");
    code = xb_errh_raise_comm(&comm, "MPI_Recv", XB_ERR_TRUNCATE);
    CHECK(class_of(code) == MPI_ERR_TRUNCATE && strncmp(string_of(code), "MPI_Recv: MPI_ERR_TRUNCATE", 26) == 0,
          "no detail: %s", string_of(code));
    CHECK(xb_errh_raise_comm(&comm, "MPI_Send", XB_OK) == MPI_SUCCESS, "success passes");

    xb_errhandler_t *u = NULL;
    CHECK(xb_errhandler_create(XB_ERRH_OBJ_COMM, (void (*)(void))user_handler, &u) == XB_OK, "create");
    CHECK(xb_errhandler_from_handle(xb_errhandler_to_handle(u)) == u, "user handle");
    xb_errhandler_retain(u);            /* the communicator's reference */
    comm.errh = u;
    xb_errhandler_release(u);           /* the user's free: still alive */
    xb_err_set(XB_ERR_TAG, "invalid tag -5");
    code = xb_errh_raise_comm(&comm, "MPI_Isend", XB_ERR_TAG);
    CHECK(handler_calls == 1 && handler_code == code, "handler got %d (calls %d), want %d",
          handler_code, handler_calls, code);
    CHECK(handler_comm == MPI_COMM_WORLD, "handler's communicator");
    CHECK(class_of(handler_code) == MPI_ERR_TAG, "class in the handler");
    xb_errh_invoke_comm(&comm, 4242, "user code");
    CHECK(handler_calls == 2 && handler_code == 4242, "invoke passes the code unchanged");
    comm.errh = NULL;
    xb_errhandler_release(u);           /* frees it */
    xb_set_init_state(XB_STATE_NONE);
}

int main(void)
{
    test_predefined();
    test_detailed();
    test_user();
    test_handlers();
    if (failures != 0) {
        fprintf(stderr, "test_errcode: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_errcode: all passed\n");
    return 0;
}
