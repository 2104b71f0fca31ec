/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * open.c - MPI_File_open/close/delete and the calls on a whole file: amode
 * checks and their error classes (under the default MPI_ERRORS_RETURN, the
 * library stays usable), CREATE/EXCL, DELETE_ON_CLOSE, different amodes or
 * names on the ranks (MPI_ERR_NOT_SAME), get_amode, get_group, size calls
 * against stat(), hints, atomicity, file errhandlers, toint/fromint, c2f/f2c.
 */
#include "iotest.h"

static int handler_calls, handler_last, handler_rewrite = -1;
static MPI_File handler_file;

static void file_handler(MPI_File *fh, int *code, ...)
{
    handler_calls++;
    handler_last = *code;
    handler_file = *fh;
    if (handler_rewrite >= 0)   /* the failed call returns what it leaves */
        *code = handler_rewrite;
}

static void amode_errors(void)
{
    static const int bad[] = {
        0, MPI_MODE_RDONLY | MPI_MODE_WRONLY, MPI_MODE_RDWR | MPI_MODE_WRONLY,
        MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_MODE_RDONLY | MPI_MODE_EXCL,
        MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_MODE_RDWR | 0x10000,
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        MPI_File fh = MPI_FILE_NULL;
        int rc = MPI_File_open(MPI_COMM_WORLD, io_path("a"), bad[i], MPI_INFO_NULL, &fh);
        CHECK(io_class(rc) == MPI_ERR_AMODE, "amode 0x%x: class %d", bad[i], io_class(rc));
        CHECK(fh == MPI_FILE_NULL, "amode 0x%x: handle set", bad[i]);
        if (rc != MPI_SUCCESS && i == 0) {
            char msg[MPI_MAX_ERROR_STRING];
            int len;
            MPI_Error_string(rc, msg, &len);
            CHECK(strstr(msg, "MPI_File_open") && strstr(msg, "amode"), "message: %s", msg);
        }
    }
    CHECK(!io_exists("a"), "a failed open created the file");
}

static void exists_errors(void)
{
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, io_path("none"), MPI_MODE_RDONLY,
                           MPI_INFO_NULL, &fh);
    CHECK(io_class(rc) == MPI_ERR_NO_SUCH_FILE, "missing file: class %d", io_class(rc));
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("x"), MPI_MODE_WRONLY |
                           MPI_MODE_CREATE | MPI_MODE_EXCL, MPI_INFO_NULL, &fh));
    CHECK_RC(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "close did not set MPI_FILE_NULL");
    rc = MPI_File_open(MPI_COMM_WORLD, io_path("x"), MPI_MODE_WRONLY | MPI_MODE_CREATE |
                       MPI_MODE_EXCL, MPI_INFO_NULL, &fh);
    CHECK(io_class(rc) == MPI_ERR_FILE_EXISTS, "EXCL on existing: class %d", io_class(rc));
    /* different amodes, then different names, on the ranks */
    if (ct_size > 1) {
        int am = ct_rank == 1 ? MPI_MODE_RDWR : MPI_MODE_RDONLY;
        rc = MPI_File_open(MPI_COMM_WORLD, io_path("x"), am, MPI_INFO_NULL, &fh);
        CHECK(io_class(rc) == MPI_ERR_NOT_SAME, "different amodes: class %d", io_class(rc));
        rc = MPI_File_open(MPI_COMM_WORLD, io_path(ct_rank == 1 ? "y" : "x"),
                           MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
        CHECK(io_class(rc) == MPI_ERR_NOT_SAME, "different names: class %d", io_class(rc));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        CHECK_RC(MPI_File_delete(io_path("x"), MPI_INFO_NULL));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(!io_exists("x"), "delete left the file");
    rc = MPI_File_delete(io_path("x"), MPI_INFO_NULL);
    CHECK(io_class(rc) == MPI_ERR_NO_SUCH_FILE, "delete missing: class %d", io_class(rc));
}

static void whole_file_calls(void)
{
    MPI_File fh;
    MPI_Group g1, g2;
    int am, res, flag;
    MPI_Offset size;
    struct stat sb;
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("w"), MPI_MODE_RDWR | MPI_MODE_CREATE |
                           MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK_RC(MPI_File_get_amode(fh, &am));
    CHECK(am == (MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE), "amode %x", am);
    CHECK_RC(MPI_File_get_group(fh, &g1));
    MPI_Comm_group(MPI_COMM_WORLD, &g2);
    MPI_Group_compare(g1, g2, &res);
    CHECK(res == MPI_IDENT, "file group compares %d", res);
    MPI_Group_free(&g1);
    MPI_Group_free(&g2);
    CHECK_RC(MPI_File_set_size(fh, 12345));
    CHECK_RC(MPI_File_get_size(fh, &size));
    CHECK(size == 12345 && stat(io_path("w"), &sb) == 0 && sb.st_size == 12345,
          "set_size: get_size %lld", (long long)size);
    CHECK_RC(MPI_File_preallocate(fh, 20000));
    CHECK_RC(MPI_File_get_size(fh, &size));
    CHECK(size == 20000, "preallocate: size %lld", (long long)size);
    CHECK_RC(MPI_File_preallocate(fh, 100));      /* never shrinks */
    CHECK_RC(MPI_File_set_size(fh, 100));         /* set_size does */
    CHECK_RC(MPI_File_get_size(fh, &size));
    CHECK(size == 100, "shrink: size %lld", (long long)size);
    int rc = MPI_File_set_size(fh, ct_rank == 0 ? 10 : 20);
    CHECK(ct_size == 1 || io_class(rc) == MPI_ERR_NOT_SAME, "set_size differs: %d", io_class(rc));
    CHECK_RC(MPI_File_sync(fh));
    CHECK_RC(MPI_File_get_atomicity(fh, &flag));
    CHECK(flag == 0, "atomicity default %d", flag);
    CHECK_RC(MPI_File_set_atomicity(fh, 1));
    CHECK_RC(MPI_File_get_atomicity(fh, &flag));
    CHECK(flag == 1, "atomicity %d", flag);
    /* hints: what was set comes back */
    MPI_Info info, used;
    char v[64];
    MPI_Info_create(&info);
    MPI_Info_set(info, "access_style", "read_once");
    CHECK_RC(MPI_File_set_info(fh, info));
    CHECK_RC(MPI_File_get_info(fh, &used));
    MPI_Info_get_string(used, "access_style", &(int){ sizeof(v) }, v, &flag);
    CHECK(flag && strcmp(v, "read_once") == 0, "hint back: %d %s", flag, v);
    MPI_Info_free(&info);
    MPI_Info_free(&used);
    /* handle serialization */
    int i = MPI_File_toint(fh);
    CHECK(MPI_File_fromint(i) == fh, "toint/fromint");
    CHECK(MPI_File_c2f(fh) == (MPI_Fint)i && MPI_File_f2c((MPI_Fint)i) == fh, "c2f/f2c");
    CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL, "MPI_FILE_NULL c2f/f2c");
    CHECK(MPI_File_toint(MPI_FILE_NULL) == 0x118 && MPI_File_fromint(0x118) == MPI_FILE_NULL,
          "MPI_FILE_NULL toint");
    CHECK(io_exists("w"), "file missing while open");
    CHECK_RC(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(!io_exists("w"), "DELETE_ON_CLOSE left the file");
}

static void access_errors(void)
{
    MPI_File fh;
    char buf[8] = "abcdefg";
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("r"), MPI_MODE_WRONLY | MPI_MODE_CREATE,
                           MPI_INFO_NULL, &fh));
    int rc = MPI_File_read_at(fh, 0, buf, 1, MPI_CHAR, MPI_STATUS_IGNORE);
    CHECK(io_class(rc) == MPI_ERR_ACCESS, "read on WRONLY: class %d", io_class(rc));
    rc = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "xb-no-such-datarep", MPI_INFO_NULL);
    CHECK(io_class(rc) == MPI_ERR_UNSUPPORTED_DATAREP, "unknown datarep: class %d",
          io_class(rc));
    rc = MPI_File_seek(fh, -1, MPI_SEEK_SET);
    CHECK(io_class(rc) == MPI_ERR_ARG, "seek to -1: class %d", io_class(rc));
    rc = MPI_File_seek(fh, 0, 12345);
    CHECK(io_class(rc) == MPI_ERR_ARG, "bad whence: class %d", io_class(rc));
    rc = MPI_File_write_at(fh, 0, buf, -1, MPI_CHAR, MPI_STATUS_IGNORE);
    CHECK(io_class(rc) == MPI_ERR_COUNT, "count -1: class %d", io_class(rc));
    /* one split collective at a time */
    CHECK_RC(MPI_File_write_at_all_begin(fh, ct_rank, buf, 1, MPI_CHAR));
    rc = MPI_File_write_all_begin(fh, buf, 1, MPI_CHAR);
    CHECK(rc != MPI_SUCCESS, "second split collective accepted");
    rc = MPI_File_write_all_end(fh, buf, MPI_STATUS_IGNORE);
    CHECK(rc != MPI_SUCCESS, "end of the wrong kind accepted");
    MPI_Status st;
    int n;
    CHECK_RC(MPI_File_write_at_all_end(fh, buf, &st));
    MPI_Get_count(&st, MPI_CHAR, &n);
    CHECK(n == 1, "split write count %d", n);
    CHECK_RC(MPI_File_close(&fh));
    rc = MPI_File_close(&fh);
    CHECK(io_class(rc) == MPI_ERR_FILE, "close of MPI_FILE_NULL: class %d", io_class(rc));
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("r"), MPI_MODE_RDONLY |
                           MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    rc = MPI_File_write_at(fh, 0, buf, 1, MPI_CHAR, MPI_STATUS_IGNORE);
    CHECK(io_class(rc) == MPI_ERR_ACCESS, "write on RDONLY: class %d", io_class(rc));
    rc = MPI_File_set_size(fh, 0);
    CHECK(io_class(rc) == MPI_ERR_ACCESS, "set_size on RDONLY: class %d", io_class(rc));
    CHECK_RC(MPI_File_close(&fh));
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("s"), MPI_MODE_WRONLY | MPI_MODE_CREATE |
                           MPI_MODE_SEQUENTIAL | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    rc = MPI_File_write_at(fh, 0, buf, 1, MPI_CHAR, MPI_STATUS_IGNORE);
    CHECK(io_class(rc) == MPI_ERR_UNSUPPORTED_OPERATION, "write_at on SEQUENTIAL: %d",
          io_class(rc));
    CHECK_RC(MPI_File_close(&fh));
}

static void errhandlers(void)
{
    MPI_Errhandler eh, got;
    MPI_File fh;
    CHECK_RC(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    CHECK(got == MPI_ERRORS_RETURN, "default file errhandler is not MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&got);
    CHECK_RC(MPI_File_create_errhandler(file_handler, &eh));
    CHECK_RC(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    int rc = MPI_File_open(MPI_COMM_WORLD, io_path("none"), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(handler_calls == 1 && handler_file == MPI_FILE_NULL && handler_last == rc,
          "open failure: handler calls %d", handler_calls);
    rc = MPI_File_open(MPI_COMM_WORLD, io_path("e"), MPI_MODE_RDONLY | MPI_MODE_CREATE,
                       MPI_INFO_NULL, &fh);
    CHECK(io_class(rc) == MPI_ERR_AMODE, "RDONLY|CREATE: class %d", io_class(rc));
    CHECK(handler_calls == 2, "AMODE failure: handler calls %d", handler_calls);
    handler_rewrite = MPI_SUCCESS;
    rc = MPI_File_open(MPI_COMM_WORLD, io_path("none"), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(handler_calls == 3 && rc == MPI_SUCCESS, "handler rewrote the code: open returned %d",
          rc);
    handler_rewrite = -1;
    CHECK_RC(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("e"), MPI_MODE_RDWR | MPI_MODE_CREATE |
                           MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK_RC(MPI_File_get_errhandler(fh, &got));
    CHECK(got == MPI_ERRORS_RETURN, "new file's errhandler");
    MPI_Errhandler_free(&got);
    CHECK_RC(MPI_File_set_errhandler(fh, eh));
    rc = MPI_File_seek(fh, -5, MPI_SEEK_SET);
    CHECK(handler_calls == 4 && handler_file == fh && io_class(handler_last) == MPI_ERR_ARG,
          "seek failure on the file: calls %d", handler_calls);
    CHECK_RC(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    CHECK(handler_calls == 5 && handler_last == MPI_ERR_IO, "call_errhandler");
    rc = MPI_File_set_errhandler(fh, MPI_ERRHANDLER_NULL);
    CHECK(io_class(rc) == MPI_ERR_ERRHANDLER, "null errhandler: class %d", io_class(rc));
    CHECK(handler_calls == 6, "errhandler error raised on the file: %d", handler_calls);
    MPI_Errhandler_free(&eh);                  /* the file still holds it */
    rc = MPI_File_get_size(MPI_FILE_NULL, &(MPI_Offset){ 0 });
    CHECK(io_class(rc) == MPI_ERR_FILE, "get_size(MPI_FILE_NULL): class %d", io_class(rc));
    CHECK_RC(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    io_setup();
    amode_errors();
    exists_errors();
    whole_file_calls();
    access_errors();
    errhandlers();
    /* the library is still usable */
    int sum = 0;
    MPI_Allreduce(&ct_rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == ct_size * (ct_size - 1) / 2, "allreduce after errors: %d", sum);
    io_teardown();
    return ct_finish();
}
