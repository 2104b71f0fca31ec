/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_shm_help.c - the per-copy choice of the split single copy
 * (src/method/shm/shm_help.c, xb_shm_help_wanted): a receiver asks its
 * sender for help only when the sender handles no records of its own and,
 * on a node with more ranks than CPUs, only while fewer ranks than CPUs
 * (the receiver included) are handling records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "method/shm/shm.h"
#include "runtime/cpus.h"

static int failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, "FAIL %s:%d: ", \
    __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

enum { N = 8 };

static xb_shm_ctl_t *ctl_new(void)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, N * sizeof(xb_shm_ctl_t)) != 0)
        abort();
    memset(p, 0, N * sizeof(xb_shm_ctl_t));
    return p;
}

/* working[i] for the first n ranks from a string of '0'/'1' */
static void set_working(xb_shm_ctl_t *c, const char *w)
{
    for (int i = 0; w[i] != '\0'; i++)
        c[i].working = w[i] == '1';
}

int main(void)
{
    xb_shm_ctl_t *c = ctl_new();

    /* a CPU per rank: only the sender's state counts */
    set_working(c, "1111");
    CHECK(!xb_shm_help_wanted(c, 4, 0, 1, 4), "sender working, 4 ranks on 4 CPUs");
    set_working(c, "1011");
    CHECK(xb_shm_help_wanted(c, 4, 0, 1, 4), "sender idle, 4 ranks on 4 CPUs");
    CHECK(xb_shm_help_wanted(c, 2, 0, 1, 2), "sender idle, 2 ranks on 2 CPUs");

    /* oversubscribed (8 ranks, 2 CPUs): gather's root copies, all idle */
    set_working(c, "10000000");
    CHECK(xb_shm_help_wanted(c, 8, 0, 3, 2), "root alone working: a CPU is free");
    /* the receiver's own flag need not be set (a get outside a poll) */
    set_working(c, "00000000");
    CHECK(xb_shm_help_wanted(c, 8, 0, 3, 2), "nobody working");
    /* alltoall: another rank copies too, the sender idle: both CPUs busy */
    set_working(c, "11000000");
    CHECK(!xb_shm_help_wanted(c, 8, 0, 3, 2), "two ranks working on 2 CPUs");
    set_working(c, "01100000");
    CHECK(!xb_shm_help_wanted(c, 8, 0, 3, 2), "me and rank 2 working on 2 CPUs");
    /* the sender working */
    set_working(c, "10010000");
    CHECK(!xb_shm_help_wanted(c, 8, 0, 3, 2), "sender working");
    /* 8 ranks on 4 CPUs: up to 3 working (me included) leaves a CPU */
    set_working(c, "11100000");
    CHECK(xb_shm_help_wanted(c, 8, 0, 3, 4), "3 of 4 CPUs busy");
    set_working(c, "11101000");
    CHECK(!xb_shm_help_wanted(c, 8, 0, 3, 4), "4 of 4 CPUs busy");
    /* receiver other than 0, sender 0 */
    set_working(c, "00000100");
    CHECK(xb_shm_help_wanted(c, 8, 5, 0, 2), "rank 5 alone working");
    set_working(c, "00000101");
    CHECK(!xb_shm_help_wanted(c, 8, 5, 0, 2), "ranks 5 and 7 working");

    CHECK(xb_cpus_usable() >= 1, "ncpu %d", xb_cpus_usable());
    free(c);
    if (failures == 0)
        printf("No Errors\n");
    return failures != 0;
}
