/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_pmi_spawn.c - the multi-line PMI-1 spawn request parser
 * (src/util/pmi_spawn.c, spec/pmi_wire.txt section 7): a good two-command
 * request with arguments holding spaces, preput pairs and info keys; then
 * malformed requests, each rejected with a clear reason (never a crash,
 * a hang or a leak: the suite also runs under ASan); random garbage.
 */
#include "util/pmi_spawn.h"
#include "util/pmi_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_check.h"

static char err[XB_PMIW_ERR_MAX];

/* Feed the '\n'-separated lines of text; the last feed's result. */
static int feed_all(xb_pmiw_spawn_t *s, const char *text)
{
    int rc = 0;
    err[0] = '\0';
    while (*text) {
        size_t n = strcspn(text, "\n");
        rc = xb_pmiw_spawn_feed(s, text, n, err, sizeof err);
        if (rc != 0)
            return rc;
        text += n + (text[n] == '\n');
    }
    return rc;
}

static const char good[] =
    "mcmd=spawn\nnprocs=2\nexecname=/bin/prog\ntotspawns=2\nspawnssofar=1\n"
    "argcnt=2\narg1=hello world\narg2=x=y\npreput_num=1\n"
    "preput_key_0=PARENT_ROOT_PORT_NAME\npreput_val_0=xbport:1:00:1.2.3.4:5\n"
    "info_num=1\ninfo_key_0=wdir\ninfo_val_0=/tmp\nunknown_key=ignored\nendcmd\n"
    "mcmd=spawn\nnprocs=0\nexecname=other\ntotspawns=2\nspawnssofar=2\n"
    "argcnt=0\npreput_num=1\npreput_key_0=K\npreput_val_0=V\ninfo_num=0\nendcmd\n";

static void test_good(void)
{
    xb_pmiw_spawn_t s;
    xb_pmiw_spawn_init(&s);
    CHECK(xb_pmiw_is_mcmd("mcmd=spawn", 10) && !xb_pmiw_is_mcmd("cmd=get", 7), "is_mcmd");
    int rc = feed_all(&s, good);
    CHECK(rc == 1, "good request: rc %d (%s)", rc, err);
    CHECK(s.total == 2 && s.ncmds == 2, "total %d ncmds %d", s.total, s.ncmds);
    if (rc == 1 && s.ncmds == 2) {
        CHECK(strcmp(s.cmds[0].exec, "/bin/prog") == 0 && s.cmds[0].nprocs == 2, "cmd 0");
        CHECK(s.cmds[0].argc == 2 && strcmp(s.cmds[0].argv[0], "hello world") == 0 &&
              strcmp(s.cmds[0].argv[1], "x=y") == 0, "args of cmd 0");
        CHECK(s.cmds[0].ninfo == 1 && strcmp(s.cmds[0].info[0].key, "wdir") == 0 &&
              strcmp(s.cmds[0].info[0].val, "/tmp") == 0, "info of cmd 0");
        CHECK(s.cmds[1].nprocs == 0 && s.cmds[1].argc == 0, "cmd 1");
        CHECK(s.npreput == 1 && strcmp(s.preput[0].key, "PARENT_ROOT_PORT_NAME") == 0 &&
              strcmp(s.preput[0].val, "xbport:1:00:1.2.3.4:5") == 0, "preput");
    }
    xb_pmiw_spawn_free(&s);
}

/* A request that must fail with an error containing `why`. */
static void bad(const char *text, const char *why)
{
    xb_pmiw_spawn_t s;
    xb_pmiw_spawn_init(&s);
    int rc = feed_all(&s, text);
    CHECK(rc == -1, "'%.50s...' accepted (rc %d)", text, rc);
    CHECK(strstr(err, why) != NULL, "'%.50s...': error '%s' lacks '%s'", text, err, why);
    xb_pmiw_spawn_free(&s);
}

static void test_malformed(void)
{
    bad("cmd=spawn\n", "mcmd=spawn was expected");
    bad("mcmd=spawn\nnprocs=-1\n", "nprocs=-1");
    bad("mcmd=spawn\nnprocs=99999\n", "nprocs=99999");
    bad("mcmd=spawn\nnprocs=two\n", "nprocs=two");
    bad("mcmd=spawn\ntotspawns=0\n", "totspawns=0");
    bad("mcmd=spawn\ntotspawns=1000\n", "totspawns=1000");
    bad("mcmd=spawn\nnprocs=1\ntotspawns=1\nspawnssofar=1\nendcmd\n", "without execname");
    bad("mcmd=spawn\nnprocs=1\nexecname=a\nspawnssofar=1\nendcmd\n", "without totspawns");
    bad("mcmd=spawn\nnprocs=1\nexecname=a\ntotspawns=2\nspawnssofar=2\nendcmd\n",
        "spawnssofar=2 where block 1");
    bad("mcmd=spawn\nexecname=a\ntotspawns=1\nspawnssofar=1\nargcnt=2\narg1=x\nendcmd\n",
        "arg2 missing");
    bad("mcmd=spawn\nargcnt=1\narg2=x\n", "outside the count");
    bad("mcmd=spawn\narg1=x\n", "outside the count");
    bad("mcmd=spawn\nargcnt=1\nargcnt=1\n", "given twice");
    bad("mcmd=spawn\nexecname=a\nexecname=b\n", "given twice");
    bad("mcmd=spawn\nargcnt=100000\n", "argcnt=100000");
    bad("mcmd=spawn\npreput_num=1\npreput_key_0=k\nexecname=a\ntotspawns=1\n"
        "spawnssofar=1\nendcmd\n", "preput pair 0 incomplete");
    bad("mcmd=spawn\ninfo_num=1\ninfo_val_0=v\nexecname=a\ntotspawns=1\n"
        "spawnssofar=1\nendcmd\n", "info pair 0 incomplete");
    bad("mcmd=spawn\ninfo_key_3=x\n", "outside the count");
    bad("mcmd=spawn\nno equals sign\n", "not key=value");
    bad("mcmd=spawn\n=value\n", "not key=value");
    bad("mcmd=spawn\nexecname=a\tb\n", "byte 0x09");
    bad("mcmd=spawn\nexecname=\xff\n", "byte 0xff");
    char longv[XB_PMIW_VAL_MAX + 40];
    memset(longv, 0, sizeof(longv));
    strcpy(longv, "mcmd=spawn\nexecname=");
    memset(longv + strlen(longv), 'a', XB_PMIW_VAL_MAX + 1);
    bad(longv, "longer than");
    /* a CR before the LF is allowed */
    xb_pmiw_spawn_t s;
    xb_pmiw_spawn_init(&s);
    CHECK(feed_all(&s, "mcmd=spawn\r\nnprocs=1\r\nexecname=a\r\ntotspawns=1\r\n"
                       "spawnssofar=1\r\nendcmd\r\n") == 1, "CRLF request: %s", err);
    xb_pmiw_spawn_free(&s);
}

static void test_garbage(void)
{
    unsigned seed = 12345;
    char line[200];
    for (int round = 0; round < 2000; round++) {
        xb_pmiw_spawn_t s;
        xb_pmiw_spawn_init(&s);
        xb_pmiw_spawn_feed(&s, "mcmd=spawn", 10, err, sizeof err);
        for (int k = 0; k < 20; k++) {
            static const char *keys[] = { "nprocs=", "execname=", "totspawns=",
                                          "spawnssofar=", "argcnt=", "arg1=",
                                          "preput_num=", "info_num=", "endcmd", "" };
            size_t n = (size_t)snprintf(line, sizeof line, "%s", keys[rand_r(&seed) % 10]);
            for (int c = rand_r(&seed) % 6; c > 0; c--)
                line[n++] = (char)(rand_r(&seed) % 3 ? '0' + rand_r(&seed) % 10
                                                     : 0x20 + rand_r(&seed) % 95);
            if (xb_pmiw_spawn_feed(&s, line, n, err, sizeof err) != 0)
                break;
        }
        xb_pmiw_spawn_free(&s);
    }
}

int main(void)
{
    alarm(60);                     /* a hang is a failure */
    test_good();
    test_malformed();
    test_garbage();
    if (failures) {
        fprintf(stderr, "test_pmi_spawn: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_pmi_spawn: all passed\n");
    return 0;
}
