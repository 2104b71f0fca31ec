/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_pmi2.c - the PMI-2 wire codec (src/util/pmi2_wire.c) and the PMI-2
 * client (src/runtime/pmi2_client.c through pmi_client.h) against a fake
 * server that plays a conversation recorded from Slurm 22.05's
 * `srun --mpi=pmi2` (XB_LOG=pmi:debug of a 2-rank job, rank 0's side). The
 * server checks every request byte for byte and answers what Slurm
 * answered. tests/slurm/run.sh runs the same client under a real Slurm
 * where one can be started.
 */
#include "runtime/pmi_client.h"
#include "runtime/runtime.h"
#include "unit_check.h"
#include "util/pmi2_wire.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- codec ------------------------------------------------------------- */

static void test_codec(void)
{
    xb_pmi2_out_t o;
    xb_pmi2_begin(&o, "fullinit");
    xb_pmi2_add(&o, "pmijobid", "5.0");
    xb_pmi2_add_int(&o, "pmirank", 0);
    xb_pmi2_add(&o, "threaded", "FALSE");
    CHECK(xb_pmi2_end(&o) == 0, "end");
    CHECK(strcmp(o.buf, "51    cmd=fullinit;pmijobid=5.0;pmirank=0;threaded=FALSE;") == 0,
          "fullinit as Slurm saw it: '%s'", o.buf);

    /* ';' in a value is doubled and comes back single */
    xb_pmi2_begin(&o, "kvs-put");
    xb_pmi2_add(&o, "key", "k");
    xb_pmi2_add(&o, "value", "a;b;;c=d");
    CHECK(xb_pmi2_end(&o) == 0, "end");
    CHECK(strstr(o.buf, "value=a;;b;;;;c=d;") != NULL, "escaped: '%s'", o.buf);
    xb_pmi2_msg_t m;
    char err[160];
    long len = xb_pmi2_parse_len(o.buf);
    CHECK(len == (long)o.len - XB_PMI2_LENLEN, "length field %ld", len);
    CHECK(xb_pmi2_parse(o.buf + XB_PMI2_LENLEN, (size_t)len, &m, err, sizeof err) == 0, "%s", err);
    CHECK(strcmp(xb_pmi2_cmd(&m), "kvs-put") == 0, "cmd");
    CHECK(xb_pmi2_get(&m, "value") && strcmp(xb_pmi2_get(&m, "value"), "a;b;;c=d") == 0,
          "value round trip: '%s'", xb_pmi2_get(&m, "value"));

    /* Slurm's answer, with its booleans and an empty-free int list */
    const char *ans = "cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=0;"
                      "size=2;appnum=-1;debugged=FALSE;pmiverbose=FALSE;";
    CHECK(xb_pmi2_parse(ans, strlen(ans), &m, err, sizeof err) == 0, "%s", err);
    long v = 0;
    CHECK(xb_pmi2_get_int(&m, "appnum", &v) == 0 && v == -1, "appnum %ld", v);
    CHECK(xb_pmi2_get_bool(&m, "debugged") == 0, "bool");
    CHECK(xb_pmi2_get_bool(&m, "rank") == -1, "not a bool");
    CHECK(xb_pmi2_get(&m, "nothere") == NULL, "absent key");

    /* malformed input is refused with a reason, never crashes */
    static const char *bad[] = { "cmd=x", "=v;", "novalue;", "key=v;", "cmd=a;b\n=c;", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        CHECK(xb_pmi2_parse(bad[i], strlen(bad[i]), &m, err, sizeof err) == -1 && err[0],
              "accepted bad body '%s'", bad[i]);
    }
    CHECK(xb_pmi2_parse_len("51    ") == 51, "len");
    CHECK(xb_pmi2_parse_len("  51  ") == 51, "len with leading spaces");
    CHECK(xb_pmi2_parse_len("cmd=re") == -1, "a PMI-1 line is no length");
    CHECK(xb_pmi2_parse_len("999999") == -1, "too long for us");
    CHECK(xb_pmi2_parse_len("      ") == -1, "no digits");

    /* a command that does not fit is refused, not cut */
    static char big[XB_PMI2_CMD_MAX + 10];
    memset(big, 'x', sizeof big - 1);
    xb_pmi2_begin(&o, "kvs-put");
    xb_pmi2_add(&o, "value", big);
    CHECK(xb_pmi2_end(&o) == -1, "oversize command accepted");
}

/* ---- a recorded conversation ------------------------------------------- */

typedef struct {
    const char *req;    /* what the client must send (body, or the PMI-1 line) */
    const char *ans;    /* what Slurm answered */
} step_t;

static const step_t conversation[] = {
    { "cmd=init pmi_version=2 pmi_subversion=0\n",
      "cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n" },
    { "cmd=fullinit;pmijobid=5.0;pmirank=0;threaded=FALSE;",
      "cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=0;size=2;appnum=-1;"
      "debugged=FALSE;pmiverbose=FALSE;" },
    { "cmd=job-getid;", "cmd=job-getid-response;rc=0;jobid=5.0;" },
    { "cmd=info-getjobattr;key=PMI_process_mapping;",
      "cmd=info-getjobattr-response;rc=0;found=TRUE;value=(vector,(0,1,2));" },
    { "cmd=kvs-put;key=xb-addr-0;value=self:,shm:0100;", "cmd=kvs-put-response;rc=0;" },
    { "cmd=kvs-fence;", "cmd=kvs-fence-response;rc=0;" },
    { "cmd=kvs-get;jobid=5.0;srcid=-1;key=xb-addr-1;",
      "cmd=kvs-get-response;rc=0;found=TRUE;value=self:,shm:0200;" },
    { "cmd=kvs-get;jobid=5.0;srcid=-1;key=never-put;", "cmd=kvs-get-response;rc=0;found=FALSE;" },
    { "cmd=finalize;", "cmd=finalize-response;rc=0;" },
};

static int read_n(int fd, char *buf, size_t n)
{
    for (size_t off = 0; off < n;) {
        ssize_t r = read(fd, buf + off, n - off);
        if (r <= 0)
            return -1;
        off += (size_t)r;
    }
    return 0;
}

/* The fake server: exit 0 when every request was the recorded one. */
static int serve(int fd)
{
    char buf[XB_PMI2_CMD_MAX + 1];
    for (size_t i = 0; i < sizeof conversation / sizeof conversation[0]; i++) {
        const step_t *s = &conversation[i];
        size_t n = 0;
        if (i == 0) {                       /* the PMI-1 line */
            while (n < sizeof buf - 1 && read_n(fd, buf + n, 1) == 0 && buf[n++] != '\n')
                ;
        } else {
            long len;
            if (read_n(fd, buf, XB_PMI2_LENLEN) != 0 || (len = xb_pmi2_parse_len(buf)) < 0 ||
                read_n(fd, buf, (size_t)len) != 0) {
                fprintf(stderr, "FAIL fake server: step %zu: no valid command\n", i);
                return 1;
            }
            n = (size_t)len;
        }
        buf[n] = '\0';
        if (strcmp(buf, s->req) != 0) {
            fprintf(stderr, "FAIL fake server: step %zu: got '%s', want '%s'\n", i, buf, s->req);
            return 1;
        }
        char out[XB_PMI2_CMD_MAX + 1];
        int m = i == 0 ? snprintf(out, sizeof out, "%s", s->ans)
                       : snprintf(out, sizeof out, "%-6d%s", (int)strlen(s->ans), s->ans);
        if (write(fd, out, (size_t)m) != m)
            return 1;
    }
    return 0;
}

static void test_conversation(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        _exit(serve(sv[1]));
    }
    close(sv[1]);
    char num[16];
    snprintf(num, sizeof num, "%d", sv[0]);
    setenv("PMI_FD", num, 1);
    setenv("PMI_RANK", "0", 1);
    setenv("PMI_SIZE", "2", 1);
    setenv("PMI_JOBID", "5.0", 1);          /* Slurm sets it: auto picks PMI-2 */

    xb_pmi_job_t job;
    int rc = xb_pmi_init(&job);
    CHECK(rc == XB_OK, "init: %s", xb_err_detail());
    if (rc == XB_OK) {
        CHECK(job.rank == 0 && job.size == 2, "rank %d size %d", job.rank, job.size);
        CHECK(job.appnum == 0, "appnum -1 from Slurm is program 0: %d", job.appnum);
        CHECK(strcmp(job.kvsname, "5.0") == 0, "kvsname '%s'", job.kvsname);
        CHECK(strcmp(job.process_mapping, "(vector,(0,1,2))") == 0, "mapping '%s'",
              job.process_mapping);
        CHECK(xb_pmi_put("xb-addr-0", "self:,shm:0100") == XB_OK, "put: %s", xb_err_detail());
        CHECK(xb_pmi_fence() == XB_OK, "fence: %s", xb_err_detail());
        char val[64] = "";
        CHECK(xb_pmi_get("xb-addr-1", val, sizeof val) == XB_OK && strcmp(val, "self:,shm:0200") == 0,
              "get: '%s' %s", val, xb_err_detail());
        CHECK(xb_pmi_get("never-put", val, sizeof val) != XB_OK &&
              strstr(xb_err_detail(), "never-put") != NULL, "a missing key: %s", xb_err_detail());
        CHECK(xb_pmi_finalize() == XB_OK, "finalize: %s", xb_err_detail());
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the fake server saw a wrong request");
    unsetenv("PMI_FD");
    unsetenv("PMI_RANK");
    unsetenv("PMI_SIZE");
    unsetenv("PMI_JOBID");
}

int main(void)
{
    test_codec();
    test_conversation();
    if (failures == 0)
        printf("unit.pmi2: all checks passed\n");
    return failures != 0;
}
