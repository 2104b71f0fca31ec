/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_pmi_wire.c - the PMI-1 line parser, formatter and reader
 * (src/util/pmi_wire.c) against spec/pmi_wire.txt, malformed input first:
 * every bad line gives a clear error, never a crash or a hang. Also the
 * PMI_process_mapping parser of the client.
 */
#include "util/pmi_wire.h"
#include "runtime/pmi_client.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_check.h"

static xb_pmiw_msg_t m;
static char err[XB_PMIW_ERR_MAX];

static int parse(const char *line, xb_pmiw_dir_t dir)
{
    err[0] = '\0';
    return xb_pmiw_parse(line, strlen(line), dir, &m, err, sizeof err);
}

/* A bad line must fail with an error text containing `why`. */
static void bad(const char *line, xb_pmiw_dir_t dir, const char *why)
{
    int rc = parse(line, dir);
    CHECK(rc == -1, "'%.60s' was accepted", line);
    CHECK(strstr(err, why) != NULL, "'%.60s': error '%s' lacks '%s'", line, err, why);
}

static void test_good(void)
{
    CHECK(parse("cmd=init pmi_version=1 pmi_subversion=1\n", XB_PMIW_REQUEST) == 0, "%s", err);
    CHECK(strcmp(xb_pmiw_cmd(&m), "init") == 0, "cmd '%s'", xb_pmiw_cmd(&m));
    long v = 0;
    CHECK(xb_pmiw_get_int(&m, "pmi_version", &v) == 0 && v == 1, "version %ld", v);
    CHECK(parse("  cmd=put   kvsname=k key=a value=x=y=(1,2)  \r\n", XB_PMIW_REQUEST) == 0, "%s", err);
    CHECK(strcmp(xb_pmiw_get(&m, "value"), "x=y=(1,2)") == 0, "value '%s'", xb_pmiw_get(&m, "value"));
    CHECK(xb_pmiw_get(&m, "nokey") == NULL, "absent key found");
    CHECK(parse("cmd=put kvsname=k key=a value=", XB_PMIW_REQUEST) == 0, "empty value: %s", err);
    CHECK(parse("cmd=barrier_in extra=ignored", XB_PMIW_REQUEST) == 0, "%s", err);
    /* responses: rc absent means 0; required keys only when rc == 0 */
    CHECK(parse("cmd=barrier_out", XB_PMIW_RESPONSE) == 0 && xb_pmiw_rc(&m) == 0, "%s", err);
    CHECK(parse("cmd=get_result rc=-1 msg=key_x_not_found", XB_PMIW_RESPONSE) == 0, "%s", err);
    CHECK(xb_pmiw_rc(&m) == -1, "rc %ld", xb_pmiw_rc(&m));
    CHECK(parse("cmd=get_result rc=0 msg=success value=(vector,(0,1,1))", XB_PMIW_RESPONSE) == 0, "%s", err);
    CHECK(parse("cmd=set size=4", XB_PMIW_RESPONSE) == 0, "%s", err);
    CHECK(xb_pmiw_known("abort", XB_PMIW_REQUEST) && !xb_pmiw_known("abort", XB_PMIW_RESPONSE), "known");
}

static void test_malformed(void)
{
    char big[4096];
    bad("", XB_PMIW_REQUEST, "empty line");
    bad("   \n", XB_PMIW_REQUEST, "empty line");
    bad("cmd=frobnicate", XB_PMIW_REQUEST, "unknown command 'frobnicate'");
    bad("cmd=", XB_PMIW_REQUEST, "unknown command ''");
    bad("cmd=maxes", XB_PMIW_REQUEST, "unknown command");            /* wrong direction */
    bad("cmd=get_maxes", XB_PMIW_RESPONSE, "unknown response");
    bad("key=a cmd=put", XB_PMIW_REQUEST, "instead of 'cmd='");
    bad("cmd=put key=a value=b", XB_PMIW_REQUEST, "lacks the key 'kvsname'");
    bad("cmd=put kvsname=k value=b", XB_PMIW_REQUEST, "lacks the key 'key'");
    bad("cmd=get kvsname=k", XB_PMIW_REQUEST, "lacks the key 'key'");
    bad("cmd=init pmi_version=1", XB_PMIW_REQUEST, "lacks the key 'pmi_subversion'");
    bad("cmd=get_result rc=0", XB_PMIW_RESPONSE, "lacks the key 'value'");
    bad("cmd=put kvsname=k key=a value=b c", XB_PMIW_REQUEST, "not a key=value pair");
    bad("cmd=put =b", XB_PMIW_REQUEST, "empty key");
    bad("cmd=get kvsname=k key=a\tb", XB_PMIW_REQUEST, "byte 0x09");
    bad("cmd=get kvsname=k key=\x80", XB_PMIW_REQUEST, "byte 0x80");
    bad("cmd=get kvsname=k\nkey=a", XB_PMIW_REQUEST, "byte 0x0a");
    bad("cmd=get a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13 n=14 o=15 p=16",
        XB_PMIW_REQUEST, "more than 16");
    /* embedded NUL: length-delimited, so the NUL is seen */
    CHECK(xb_pmiw_parse("cmd=init\0x", 10, XB_PMIW_REQUEST, &m, err, sizeof err) == -1 &&
          strstr(err, "0x00"), "NUL: '%s'", err);
    /* oversize value (1025 bytes), key (65 bytes), line (> 2048 bytes) */
    int n = snprintf(big, sizeof big, "cmd=put kvsname=k key=a value=");
    memset(big + n, 'v', 1025);
    big[n + 1025] = '\0';
    bad(big, XB_PMIW_REQUEST, "more than 1024");
    big[n + 1024] = '\0';
    CHECK(parse(big, XB_PMIW_REQUEST) == 0, "1024-byte value refused: %s", err);
    n = snprintf(big, sizeof big, "cmd=get kvsname=k key=a ");
    memset(big + n, 'k', 65);
    strcpy(big + n + 65, "=1");
    bad(big, XB_PMIW_REQUEST, "more than 64");
    memset(big, 'a', 3000);
    big[3000] = '\0';
    bad(big, XB_PMIW_REQUEST, "longer than 2048");
}

static void test_format(void)
{
    xb_pmiw_out_t o;
    xb_pmiw_begin(&o, "get_result");
    xb_pmiw_add_int(&o, "rc", 0);
    xb_pmiw_add(&o, "value", "abc=def");
    CHECK(xb_pmiw_end(&o, err, sizeof err) == 0, "%s", err);
    CHECK(strcmp(o.buf, "cmd=get_result rc=0 value=abc=def\n") == 0, "got '%s'", o.buf);
    CHECK(xb_pmiw_parse(o.buf, o.len, XB_PMIW_RESPONSE, &m, err, sizeof err) == 0, "%s", err);
    xb_pmiw_begin(&o, "put");
    xb_pmiw_add(&o, "value", "has space");
    CHECK(xb_pmiw_end(&o, err, sizeof err) == -1, "a space in a value was formatted");
    xb_pmiw_begin(&o, "put");
    xb_pmiw_add(&o, "a=b", "x");
    CHECK(xb_pmiw_end(&o, err, sizeof err) == -1, "'=' in a key was formatted");
    char v[1001];
    memset(v, 'q', 1000);
    v[1000] = '\0';
    xb_pmiw_begin(&o, "put");
    xb_pmiw_add(&o, "a", v);
    xb_pmiw_add(&o, "b", v);
    xb_pmiw_add(&o, "c", v);
    CHECK(xb_pmiw_end(&o, err, sizeof err) == -1 && o.len < sizeof o.buf, "overlong line formatted");

    char enc[128], dec[128];
    const char *text = "rank 3: 100% done\tnow";
    xb_pmiw_pct_encode(text, enc, sizeof enc);
    CHECK(xb_pmiw_value_ok(enc, 1024), "encoded '%s' not a valid value", enc);
    xb_pmiw_pct_decode(enc, dec, sizeof dec);
    CHECK(strcmp(dec, text) == 0, "roundtrip '%s'", dec);
    xb_pmiw_pct_encode(text, enc, 8);
    CHECK(strlen(enc) < 8, "encode overflow");
    xb_pmiw_pct_decode("%zz%4", dec, sizeof dec);
    CHECK(strcmp(dec, "%zz%4") == 0, "bad escapes changed: '%s'", dec);
}

static void test_reader(void)
{
    int p[2];
    xb_pmiw_reader_t r;
    const char *line;
    size_t len;
    CHECK(pipe(p) == 0, "pipe");
    xb_pmiw_reader_init(&r);
    /* two lines in one chunk, a third split in two */
    const char *a = "cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_maxes\ncmd=barr";
    CHECK(write(p[1], a, strlen(a)) == (ssize_t)strlen(a), "write");
    CHECK(xb_pmiw_reader_fill(&r, p[0]) > 0, "fill");
    CHECK(xb_pmiw_reader_next(&r, &line, &len, err, sizeof err) == 1 && len == 39, "line 1");
    CHECK(xb_pmiw_reader_next(&r, &line, &len, err, sizeof err) == 1 &&
          len == 13 && memcmp(line, "cmd=get_maxes", 13) == 0, "line 2");
    CHECK(xb_pmiw_reader_next(&r, &line, &len, err, sizeof err) == 0, "partial line given out");
    CHECK(write(p[1], "ier_in\n", 7) == 7, "write");
    CHECK(xb_pmiw_reader_fill(&r, p[0]) > 0, "fill");
    CHECK(xb_pmiw_reader_next(&r, &line, &len, err, sizeof err) == 1 &&
          len == 14 && memcmp(line, "cmd=barrier_in", 14) == 0, "line 3");
    /* an oversize line is dropped with an error; the next line still comes */
    char big[5000];
    memset(big, 'z', sizeof big);
    big[sizeof big - 1] = '\n';
    CHECK(write(p[1], big, sizeof big) == (ssize_t)sizeof big, "write");
    CHECK(write(p[1], "cmd=finalize\n", 13) == 13, "write");
    int oversize = 0, got = 0, rounds = 0;
    while (rounds++ < 100 && !got) {
        int rc;
        while ((rc = xb_pmiw_reader_next(&r, &line, &len, err, sizeof err)) != 0) {
            if (rc < 0)
                oversize++;
            else
                got = len == 12 && memcmp(line, "cmd=finalize", 12) == 0;
        }
        if (!got)
            (void)xb_pmiw_reader_fill(&r, p[0]);
    }
    CHECK(oversize == 1 && got, "oversize %d, next line %d", oversize, got);
    /* truncated: bytes without LF, then end of stream */
    CHECK(write(p[1], "cmd=get kvs", 11) == 11, "write");
    close(p[1]);
    CHECK(xb_pmiw_reader_fill(&r, p[0]) == 11, "fill");
    CHECK(xb_pmiw_reader_next(&r, &line, &len, err, sizeof err) == 0, "truncated line given out");
    CHECK(xb_pmiw_reader_fill(&r, p[0]) == 0, "eof");
    CHECK(xb_pmiw_reader_pending(&r) == 11, "pending %zu", xb_pmiw_reader_pending(&r));
    close(p[0]);
}

/* Random bytes and random mutations of valid lines: every call returns, and
 * every rejection says why. */
static void test_garbage(void)
{
    static const char *seeds[] = {
        "cmd=put kvsname=kvs_1_0 key=addr-3 value=0a1b2c",
        "cmd=get_result rc=0 msg=success value=(vector,(0,1,4))",
        "cmd=init pmi_version=1 pmi_subversion=1",
    };
    uint64_t s = 88172645463325252ull;
    char line[3000];
    int accepted = 0, rejected = 0;
    for (int it = 0; it < 200000; it++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        size_t len;
        if (it & 1) {
            len = s % sizeof line;
            for (size_t i = 0; i < len; i++) {
                s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                line[i] = (char)(s >> 24);
            }
        } else {
            const char *seed = seeds[s % 3];
            len = strlen(seed);
            memcpy(line, seed, len);
            for (int k = 0; k < 3; k++) {
                s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                line[(s >> 8) % len] = (char)(s >> 40);
            }
        }
        xb_pmiw_dir_t dir = (it & 2) ? XB_PMIW_RESPONSE : XB_PMIW_REQUEST;
        err[0] = '\0';
        if (xb_pmiw_parse(line, len, dir, &m, err, sizeof err) == 0) {
            accepted++;
            CHECK(m.npairs >= 1 && xb_pmiw_known(xb_pmiw_cmd(&m), dir), "accepted garbage");
        } else {
            rejected++;
            if (!err[0]) {
                CHECK(err[0], "rejection without a reason");
                break;
            }
        }
    }
    CHECK(accepted > 0 && rejected > 0, "accepted %d rejected %d", accepted, rejected);
}

static void test_mapping(void)
{
    uint32_t node[16];
    int nn = 0;
    CHECK(xb_pmi_parse_mapping("(vector,(0,2,4),(2,1,3))", 11, node, &nn) == XB_OK, "parse");
    CHECK(nn == 3 && node[0] == 0 && node[3] == 0 && node[4] == 1 && node[7] == 1 &&
          node[8] == 2 && node[10] == 2, "nodes %d: %u %u %u", nn, node[4], node[8], node[10]);
    CHECK(xb_pmi_parse_mapping("(vector,(0,1,1))", 5, node, &nn) == XB_OK && nn == 1 &&
          node[4] == 0, "Hydra's single-host form repeats");
    CHECK(xb_pmi_parse_mapping("(vector,(0,2,1))", 4, node, &nn) == XB_OK && nn == 2 &&
          node[0] == 0 && node[1] == 1 && node[2] == 0 && node[3] == 1, "cyclic");
    const char *bad_maps[] = { "", "(vector)", "(vector,(0,1))", "(vector,(0,1,1)", "(vector,(0,0,0))",
                               "(vector,(a,1,1))", "(vector,(0,1,-2))", "(vector,(0,1,1))x",
                               "(blah,(0,1,1))" };
    for (size_t i = 0; i < sizeof bad_maps / sizeof bad_maps[0]; i++) {
        xb_err_clear();
        CHECK(xb_pmi_parse_mapping(bad_maps[i], 4, node, &nn) != XB_OK, "'%s' accepted", bad_maps[i]);
        CHECK(strstr(xb_err_detail(), "PMI_process_mapping") != NULL, "detail '%s'", xb_err_detail());
    }
}

int main(void)
{
    alarm(60);                     /* a hang is a failure */
    test_good();
    test_malformed();
    test_format();
    test_reader();
    test_garbage();
    test_mapping();
    if (failures) {
        fprintf(stderr, "test_pmi_wire: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_pmi_wire: all passed\n");
    return 0;
}
