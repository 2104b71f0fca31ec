/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * conformance.c - the method conformance suite, run against self, shm and
 * tcp in forked processes that share a memfd, without MPI (fake_rt.c stands
 * in for the runtime).
 *
 *   method_conformance [-n N] [--per-node K] [--no-jobseg] [--no-secret] [--bench]
 *
 * Which method serves a pair follows XB_METHODS like in a job (default: shm
 * on a node, tcp across nodes; XB_METHODS=tcp: tcp everywhere). The job
 * secret is set in the environment as mpiexec does, unless --no-secret
 * (then rank 0 makes one and publishes it in its tcp address).
 *
 * N processes (default 2), K per "node" (default N). With a launcher-style
 * segment (XB_JOBSEG_FD semantics) unless --no-jobseg, in which case
 * node-local rank 0 creates the memfd and the others open it through /proc.
 * Environment tunables apply (XB_SHM_CMA=0 forces single copy off, ...).
 *
 * Checks: the peer rule, self delivery and its re-entrancy, per-peer AM
 * ordering with content, back-pressure (AGAIN, then progress, then
 * success), payloads of frag_max bytes through a pack callback, block()
 * woken by a send and bounded by its timeout, get() (or its refusal when
 * single copy is off). --bench adds ping-pong latency and streaming
 * bandwidth between ranks 0 and 1. Prints "No Errors" on success.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fake_rt.h"
#include "conf_tcp.h"
#include "method/method.h"
#include "runtime/jobseg.h"

static int failures, me, np;
#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, "FAIL [rank %d] " \
    "%s:%d: ", me, __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); \
    fputc('\n', stderr); } } while (0)

enum { AM_SEQ = 1, AM_SELF_CHAIN = 2, AM_BIG = 3, AM_PING = 4, AM_ADDR = 5,
       AM_ACK = 6, AM_STREAM = 7, AM_BP = 8 };
enum { MAXP = 64, NSEQ = 20000 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint8_t byte_of(uint64_t i, size_t k) { return (uint8_t)(i * 131 + k * 7 + 1); }

/* ---- handlers ---------------------------------------------------------------- */
typedef struct { uint64_t seq; uint32_t len; uint32_t from; } seq_hdr_t;
static uint64_t next_seq[MAXP];
static uint64_t got_seq_total;

static void on_seq(xb_gpid_t src, const void *hdr, size_t hl, const void *pl, size_t len)
{
    seq_hdr_t h;
    uint32_t s = xb_gpid_rank(src);
    CHECK(hl == sizeof(h), "seq header of %zu bytes", hl);
    memcpy(&h, hdr, sizeof(h));
    CHECK(h.from == s, "message from %u says it is from %u", s, h.from);
    CHECK(h.seq == next_seq[s], "from %u: seq %llu arrived, %llu expected", s,
          (unsigned long long)h.seq, (unsigned long long)next_seq[s]);
    CHECK(h.len == len, "from %u seq %llu: %zu payload bytes, header says %u", s,
          (unsigned long long)h.seq, len, h.len);
    for (size_t k = 0; k < len; k++)
        if (((const uint8_t *)pl)[k] != byte_of(h.seq, k)) {
            CHECK(0, "from %u seq %llu: payload byte %zu wrong", s,
                  (unsigned long long)h.seq, k);
            break;
        }
    next_seq[s] = h.seq + 1;
    got_seq_total++;
}

static int chain_depth, chain_max_depth, chain_count;
static void on_self_chain(xb_gpid_t src, const void *hdr, size_t hl, const void *pl,
                          size_t len)
{
    int left;
    (void)pl;
    (void)len;
    (void)hl;
    memcpy(&left, hdr, sizeof(left));
    chain_depth++;
    if (chain_depth > chain_max_depth)
        chain_max_depth = chain_depth;
    chain_count++;
    if (left > 0) {
        left--;
        CHECK(xb_method_send(src, AM_SELF_CHAIN, &left, sizeof(left), NULL, NULL) == XB_OK,
              "send to self from a handler failed");
    }
    chain_depth--;
}

static size_t big_len;
static int big_got;
static void on_big(xb_gpid_t src, const void *hdr, size_t hl, const void *pl, size_t len)
{
    uint64_t id;
    (void)src;
    (void)hl;
    memcpy(&id, hdr, sizeof(id));
    CHECK(len == big_len, "big message of %zu bytes, expected %zu", len, big_len);
    for (size_t k = 0; k < len; k++)
        if (((const uint8_t *)pl)[k] != byte_of(id, k)) {
            CHECK(0, "big message %llu: byte %zu wrong", (unsigned long long)id, k);
            break;
        }
    big_got++;
}

static volatile int pings, acks;
static uint64_t remote_addr;
static size_t remote_len;
/* The header of the last 8-byte ping: test_block's sender puts its send
 * time there (CLOCK_MONOTONIC, one clock for every process of the host). */
static double ping_stamp;
static void on_ping(xb_gpid_t s, const void *h, size_t hl, const void *p, size_t l)
{
    (void)s; (void)p; (void)l;
    if (hl == sizeof ping_stamp)
        memcpy(&ping_stamp, h, hl);
    pings++;
}
static void on_addr(xb_gpid_t s, const void *h, size_t hl, const void *p, size_t l)
{
    (void)s; (void)hl; (void)p; (void)l;
    uint64_t v[2];
    memcpy(v, h, sizeof(v));
    remote_addr = v[0];
    remote_len = (size_t)v[1];
}
static void on_ack(xb_gpid_t s, const void *h, size_t hl, const void *p, size_t l)
{
    (void)s; (void)h; (void)hl; (void)p; (void)l;
    acks++;
}
static uint64_t bp_next, bp_got;
static void on_bp(xb_gpid_t s, const void *h, size_t hl, const void *p, size_t l)
{
    uint64_t seq;
    (void)s; (void)hl; (void)p; (void)l;
    memcpy(&seq, h, sizeof(seq));
    CHECK(seq == bp_next, "back-pressure message %llu arrived, %llu expected",
          (unsigned long long)seq, (unsigned long long)bp_next);
    bp_next = seq + 1;
    bp_got++;
}
static uint8_t *stream_dst;
static size_t stream_got;
static void on_stream(xb_gpid_t s, const void *h, size_t hl, const void *p, size_t l)
{
    uint64_t off;
    (void)s; (void)hl;
    memcpy(&off, h, sizeof(off));
    memcpy(stream_dst + off, p, l);
    stream_got += l;
}

/* ---- helpers ------------------------------------------------------------------ */
static xb_gpid_t G(int r) { return xb_gpid_make(0, (uint32_t)r); }

/* Does some method serve the pair (me, r)? */
static bool reach(int r) { return r != me && xb_peer_method(G(r)) != NULL; }
static size_t frag_to(int r) { return xb_peer_method(G(r))->caps.frag_max; }

/* The method the rule should give peer r, from XB_METHODS, or NULL. */
static const char *expected_method(int r)
{
    const char *s = getenv("XB_METHODS");
    const xb_rt_info_t *rt = xb_rt();
    bool same = rt->node_of[r] == rt->my_node;
    if (s == NULL || *s == '\0')
        s = "self,shm,tcp";
    for (const char *p = s; *p != '\0';) {
        size_t n = strcspn(p, ", ");
        if (n == 3 && strncmp(p, "shm", 3) == 0 && same)
            return "shm";
        if (n == 3 && strncmp(p, "tcp", 3) == 0)
            return "tcp";
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return NULL;
}

/* Progress until cond() or the deadline; spin a little, then sleep. */
static bool wait_for(bool (*cond)(void), double limit_s)
{
    double end = now() + limit_s;
    int idle = 0;
    while (!cond()) {
        if (xb_method_progress_all() > 0)
            idle = 0;
        else if (++idle > 200)
            xb_method_block(10);
        if (now() > end)
            return false;
    }
    return true;
}

/* Send, retrying after progress on back-pressure. Counts AGAINs. */
static long agains;
static int send_retry(int dst, uint8_t am, const void *h, size_t hl, const xb_payload_t *pl)
{
    int rc;
    double end = now() + 20;
    while ((rc = xb_method_send(G(dst), am, h, hl, pl, NULL)) == XB_ERR_AGAIN) {
        agains++;
        if (xb_method_progress_all() == 0 && agains % 64 == 0)
            xb_method_block(1);     /* oversubscribed: let the receiver run */
        if (now() > end)
            return XB_ERR_OTHER;
    }
    return rc;
}

typedef struct { uint64_t id; } pk_t;
static size_t pack_big(void *arg, size_t off, void *dst, size_t max)
{
    pk_t *a = arg;
    size_t n = max > 3000 ? 3000 : max;
    for (size_t k = 0; k < n; k++)
        ((uint8_t *)dst)[k] = byte_of(a->id, off + k);
    return n;
}

/* ---- the tests ------------------------------------------------------------------ */
static void test_peers(void)
{
    char line[160];
    CHECK(xb_peer_method(G(me)) == xb_method_get(0), "self is not served by self");
    CHECK(xb_peer_describe(G(me), line, sizeof(line)) == XB_OK &&
          strstr(line, "self") != NULL, "describe(self): %s", line);
    const xb_rt_info_t *rt = xb_rt();
    for (int r = 0; r < np; r++) {
        if (r == me)
            continue;
        xb_method_t *m = xb_peer_method(G(r));
        xb_peer_describe(G(r), line, sizeof(line));
        const char *want = expected_method(r);
        if (want != NULL)
            CHECK(m != NULL && strcmp(m->ops->name, want) == 0 &&
                  strstr(line, want) != NULL, "peer %d (node %u, mine %u) should "
                  "use %s: %s", r, rt->node_of[r], rt->my_node, want, line);
        else
            CHECK(m == NULL && strstr(line, "none") != NULL,
                  "peer %d should be unreachable: %s", r, line);
        (void)rt;
    }
    char buf[2048];
    const char *on = expected_method(me == 0 ? np - 1 : 0);
    char want_on[16];
    snprintf(want_on, sizeof(want_on), "%s: on", on != NULL ? on : "self");
    CHECK(xb_method_describe_all(buf, sizeof(buf)) == XB_OK &&
          strstr(buf, want_on) != NULL, "describe_all lacks '%s': %s", want_on, buf);
    if (me == 0)
        printf("%s", buf);
}

static void test_self(void)
{
    int left = 100;
    uint8_t data[5000];
    for (size_t k = 0; k < sizeof(data); k++)
        data[k] = byte_of(7, k);
    CHECK(xb_method_send(G(me), AM_SELF_CHAIN, &left, sizeof(left), NULL, NULL) == XB_OK,
          "send to self failed");
    CHECK(chain_count == 101, "self chain delivered %d of 101 before send returned",
          chain_count);
    CHECK(chain_max_depth == 1, "self handlers nested %d deep", chain_max_depth);
    /* self with a 3-piece iovec */
    struct iovec iov[3] = { { data, 100 }, { data + 100, 0 }, { data + 100, 4900 } };
    xb_payload_t pl = { .iov = iov, .iovcnt = 3, .len = 5000 };
    uint64_t id = 7;
    big_len = 5000;
    big_got = 0;
    CHECK(xb_method_send(G(me), AM_BIG, &id, sizeof(id), &pl, NULL) == XB_OK &&
          big_got == 1, "self iovec message not delivered");
    /* get from self */
    xb_method_t *m = xb_peer_method(G(me));
    xb_ep_t *ep;
    uint8_t dst[5000];
    struct iovec l[2] = { { dst, 1234 }, { dst + 1234, 5000 - 1234 } };
    CHECK(xb_peer_ep(G(me), &ep) == XB_OK && m->ops->get(ep, l, 2,
          (uint64_t)(uintptr_t)data, 5000) == XB_OK && memcmp(dst, data, 5000) == 0,
          "get from self");
}

static bool all_seq_in(void)
{
    for (int r = 0; r < np; r++)
        if (reach(r) && next_seq[r] < NSEQ)
            return false;
    return true;
}

/* Every rank sends NSEQ messages of varying size to every same-node peer. */
static void test_ordering(void)
{
    size_t frag = 0;
    for (int r = 0; r < np; r++)
        if (reach(r) && frag_to(r) > frag)
            frag = frag_to(r);
    if (frag > 65536)
        frag = 65536;        /* 20000 messages: keep the volume of the test small */
    if (frag == 0)
        return;              /* no peer */
    uint8_t *buf = malloc(frag + 256);
    for (uint64_t i = 0; i < NSEQ; i++) {
        size_t len = (i % 7 == 0) ? (i * 37) % (frag + 1) : i % 200;
        for (size_t k = 0; k < len; k++)
            buf[k] = byte_of(i, k);
        for (int r = 0; r < np; r++) {
            if (!reach(r))
                continue;
            seq_hdr_t h = { i, (uint32_t)len, (uint32_t)me };
            if (len > frag_to(r))
                h.len = 0;           /* a method with smaller frames: header only */
            size_t plen = h.len;
            struct iovec iov = { buf, plen };
            xb_payload_t pl = { .iov = &iov, .iovcnt = 1, .len = plen };
            int rc = send_retry(r, AM_SEQ, &h, sizeof(h), plen ? &pl : NULL);
            CHECK(rc == XB_OK, "send seq %llu to %d: %d %s", (unsigned long long)i, r,
                  rc, xb_err_detail());
            if (rc != XB_OK) {
                free(buf);
                return;
            }
        }
        xb_method_progress_all();
    }
    free(buf);
    CHECK(wait_for(all_seq_in, 30), "ordering: not all messages arrived");
}

/* Rank 0 fills its ring to rank 1 until AGAIN while rank 1 does not poll
 * (it waits in the fence, with the fake fence's progress off on rank 1 only:
 * rank 0 keeps its own, which a tcp queue needs), then rank 1 drains and
 * rank 0 can send again. With progress in rank 1's fence, rank 1 drained
 * the ring while rank 0 filled it, and the second try found room (a loaded
 * ASan run, 2026-11-29). */
static volatile uint64_t *xshared;     /* shared by all processes (pre-fork) */
static bool bp_cond(void) { return bp_got >= xshared[0]; }
static void test_backpressure(void)
{
    bool pair = np >= 2 && (me > 1 || reach(me ^ 1));
    if (pair && me == 1)
        fake_rt_fence_progress(false);
    xb_rt_fence();
    if (pair && me == 0) {
        uint8_t data[1000];
        memset(data, 3, sizeof(data));
        struct iovec iov = { data, sizeof(data) };
        xb_payload_t pl = { .iov = &iov, .iovcnt = 1, .len = sizeof(data) };
        uint64_t n = 0;
        int rc;
        while ((rc = xb_method_send(G(1), AM_BP, &n, sizeof(n), &pl, NULL)) == XB_OK)
            n++;
        CHECK(rc == XB_ERR_AGAIN, "full ring gave %d, not XB_ERR_AGAIN", rc);
        CHECK(n > 0, "not even one message fitted");
        CHECK(xb_method_send(G(1), AM_BP, &n, sizeof(n), &pl, NULL) == XB_ERR_AGAIN,
              "a second try without the receiver's progress did not give AGAIN");
        xshared[0] = n;
    }
    xb_rt_fence();
    if (pair && me == 1)
        fake_rt_fence_progress(true);
    if (pair && me == 1)
        CHECK(wait_for(bp_cond, 20), "drained %llu of %llu back-pressured messages",
              (unsigned long long)bp_got, (unsigned long long)xshared[0]);
    xb_rt_fence();
    if (pair && me == 0) {
        uint64_t n = xshared[0];
        CHECK(send_retry(1, AM_BP, &n, sizeof(n), NULL) == XB_OK,
              "send after the receiver drained still refused");
        xshared[0] = n + 1;
    }
    xb_rt_fence();
    if (pair && me == 1)
        CHECK(wait_for(bp_cond, 20), "message after back-pressure lost");
    xb_rt_fence();
}

/* Each rank sends 20 messages of frag_max bytes through a pack callback to
 * the next rank of its node. */
static int big_expect;
static bool big_cond(void) { return big_got >= big_expect; }
static void test_big(void)
{
    const xb_rt_info_t *rt = xb_rt();
    int next, prev;
    if (np >= 2 && reach((me + 1) % np) && reach((me + np - 1) % np)) {
        next = (me + 1) % np;                  /* a ring over every rank */
        prev = (me + np - 1) % np;
    } else if (rt->local_size >= 2) {
        next = rt->local_ranks[(rt->local_rank + 1) % rt->local_size];
        prev = rt->local_ranks[(rt->local_rank + rt->local_size - 1) % rt->local_size];
    } else {
        return;
    }
    size_t send_len = frag_to(next);
    big_len = frag_to(prev);
    big_got = 0;
    big_expect = 20;
    xb_rt_fence();
    for (uint64_t id = 0; id < 20; id++) {
        pk_t a = { id };
        xb_payload_t pl = { .pack = pack_big, .pack_arg = &a, .offset = 0, .len = send_len };
        CHECK(send_retry(next, AM_BIG, &id, sizeof(id), &pl) == XB_OK, "big send %llu",
              (unsigned long long)id);
    }
    CHECK(wait_for(big_cond, 20), "got %d of 20 big messages", big_got);
    /* a payload over frag_max is refused, not truncated */
    xb_payload_t pl = { .pack = pack_big, .pack_arg = &(pk_t){ 0 }, .len = send_len + 8 };
    uint64_t id = 99;
    CHECK(xb_method_send(G(next), AM_BIG, &id, sizeof(id), &pl, NULL) < 0 &&
          xb_method_send(G(next), AM_BIG, &id, sizeof(id), &pl, NULL) != XB_ERR_AGAIN,
          "a payload over frag_max was not refused");
    xb_rt_fence();
}

static bool ping_cond(void) { return pings > 0; }
/* Rank 1 sleeps in block(); rank 0 sends after 100 ms and must wake it. */
static void test_block(void)
{
    if (np < 2 || me > 1 || !reach(me ^ 1)) {
        xb_rt_fence();
        xb_rt_fence();
        return;
    }
    pings = 0;
    if (me == 1) {
        double t0 = now();
        xb_method_block(150);
        double dt = now() - t0;
        CHECK(dt > 0.1 && dt < 2.0, "block(150 ms) with nothing coming took %.3f s", dt);
    }
    xb_rt_fence();
    if (me == 0) {
        usleep(100000);
        double sent = now();
        CHECK(send_retry(1, AM_PING, &sent, sizeof sent, NULL) == XB_OK, "ping send");
    } else {
        double t0 = now();
        int blocks = 0;
        while (pings == 0 && now() - t0 < 5) {
            xb_method_block(3000);
            blocks++;
            xb_method_progress_all();
        }
        /* measured from the send, not from the fence: a rank the scheduler
         * holds back after the fence may find the ping already there */
        double dt = now() - ping_stamp;
        CHECK(pings == 1, "ping not received");
        CHECK(dt >= 0 && dt < 1.5, "block() woke %.3f s after the send (%d calls): the "
              "send did not wake it", dt, blocks);
    }
    xb_rt_fence();
    (void)ping_cond;
}

/* Rank 0 publishes a buffer, rank 1 reads it with get(). */
static bool addr_cond(void) { return remote_len != 0; }
static bool ack_cond(void) { return acks > 0; }
static void test_get(void)
{
    const xb_rt_info_t *rt = xb_rt();
    const char *cma_env = getenv("XB_SHM_CMA");
    bool forced_off = cma_env != NULL && (strcmp(cma_env, "0") == 0 ||
                                          strcmp(cma_env, "off") == 0);
    xb_method_t *shm = xb_method_get(1);
    if (forced_off)
        CHECK(!(shm->caps.flags & XB_METHOD_CAP_GET), "XB_SHM_CMA=off but GET is on");
    if (np < 2 || rt->node_of[1] != rt->node_of[0] || me > 1 ||
        xb_peer_method(G(me ^ 1)) != shm) {
        xb_rt_fence();
        return;
    }
    size_t len = 3 * 1024 * 1024 + 123;
    uint8_t *buf = malloc(len);
    acks = 0;
    remote_len = 0;
    if (me == 0) {
        for (size_t k = 0; k < len; k++)
            buf[k] = byte_of(5, k);
        uint64_t v[2] = { (uint64_t)(uintptr_t)buf, len };
        CHECK(send_retry(1, AM_ADDR, v, sizeof(v), NULL) == XB_OK, "addr send");
        CHECK(wait_for(ack_cond, 20), "no ack for get");
    } else {
        CHECK(wait_for(addr_cond, 20), "no address for get");
        xb_ep_t *ep;
        CHECK(xb_peer_ep(G(0), &ep) == XB_OK, "ep of rank 0");
        memset(buf, 0, len);
        struct iovec l[3] = { { buf, 1000 }, { buf + 1000, 0 }, { buf + 1000, len - 1000 } };
        int rc = shm->ops->get(ep, l, 3, remote_addr, remote_len);
        if (shm->caps.flags & XB_METHOD_CAP_GET) {
            CHECK(rc == XB_OK, "get: %d %s", rc, xb_err_detail());
            for (size_t k = 0; k < len; k++)
                if (buf[k] != byte_of(5, k)) {
                    CHECK(0, "get: byte %zu wrong", k);
                    break;
                }
        } else {
            CHECK(rc < 0, "get with single copy off returned %d", rc);
        }
        CHECK(send_retry(0, AM_ACK, NULL, 0, NULL) == XB_OK, "ack send");
    }
    free(buf);
    xb_rt_fence();
}

/* ---- benchmark: ranks 0 and 1 ---------------------------------------------------- */
static volatile int pong_target;
static bool pong_cond(void) { return pings >= pong_target; }
static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Ping-pong in batches; prints the median and the best batch (a preempted
 * batch on a loaded machine must not hide the capability). */
static void bench_latency(size_t len, int batches, int iters)
{
    uint8_t data[64] = { 0 };
    struct iovec iov = { data, len };
    xb_payload_t pl = { .iov = &iov, .iovcnt = 1, .len = len };
    uint64_t h = 0;
    double t[64];
    pings = 0;
    xb_rt_fence();
    int done = 0;
    for (int b = 0; b < batches; b++) {
        double t0 = now();
        for (int i = 0; i < iters; i++, done++) {
            if (me == 0) {
                send_retry(1, AM_PING, &h, sizeof(h), &pl);
                pong_target = done + 1;
                wait_for(pong_cond, 10);
            } else {
                pong_target = done + 1;
                wait_for(pong_cond, 10);
                send_retry(0, AM_PING, &h, sizeof(h), &pl);
            }
        }
        t[b] = (now() - t0) / iters / 2 * 1e6;
    }
    qsort(t, (size_t)batches, sizeof(double), cmp_dbl);
    if (me == 0)
        printf("bench: latency %4zu B: median %.3f us, best %.3f us one-way "
               "(%d batches of %d round trips)\n", len, t[batches / 2], t[0], batches,
               iters);
}

static bool stream_cond(void) { return stream_got >= remote_len; }
static void bench_stream(size_t msg, int reps)
{
    size_t frag = frag_to(me ^ 1);
    uint8_t *src = malloc(msg);
    memset(src, 1, msg);
    stream_dst = malloc(msg);
    memset(stream_dst, 0, msg);
    acks = 0;
    pings = 0;
    stream_got = 0;
    xb_rt_fence();
    double t0 = now();
    for (int r = 0; r < reps; r++) {
        if (me == 0) {
            for (size_t off = 0; off < msg; off += frag) {
                size_t n = msg - off < frag ? msg - off : frag;
                struct iovec iov = { src + off, n };
                xb_payload_t pl = { .iov = &iov, .iovcnt = 1, .len = n };
                uint64_t o = off;
                send_retry(1, AM_STREAM, &o, sizeof(o), &pl);
            }
            pong_target = r + 1;
            wait_for(pong_cond, 20);
        } else {
            stream_got = 0;
            remote_len = msg;
            wait_for(stream_cond, 20);
            send_retry(0, AM_PING, NULL, 0, NULL);
        }
    }
    double dt = now() - t0;
    if (me == 0)
        printf("bench: ring stream %7zu B x %d: %.0f MB/s (frag %zu)\n", msg, reps,
               (double)msg * reps / dt / 1e6, frag);
    free(src);
    free(stream_dst);
    pings = 0;
}

static void bench_get(size_t msg, int reps)
{
    xb_method_t *shm = xb_method_get(1);
    uint8_t *buf = malloc(msg);
    memset(buf, 2, msg);
    acks = 0;
    remote_len = 0;
    xb_rt_fence();
    if (!(shm->caps.flags & XB_METHOD_CAP_GET)) {
        free(buf);
        return;
    }
    if (me == 0) {
        uint64_t v[2] = { (uint64_t)(uintptr_t)buf, msg };
        send_retry(1, AM_ADDR, v, sizeof(v), NULL);
        wait_for(ack_cond, 30);
    } else {
        wait_for(addr_cond, 20);
        xb_ep_t *ep;
        xb_peer_ep(G(0), &ep);
        uint8_t *dst = malloc(msg);
        memset(dst, 0, msg);
        struct iovec l = { dst, msg };
        double t0 = now();
        for (int r = 0; r < reps; r++)
            shm->ops->get(ep, &l, 1, remote_addr, msg);
        double dt = now() - t0;
        printf("bench: cma get   %7zu B x %d: %.0f MB/s\n", msg, reps,
               (double)msg * reps / dt / 1e6);
        free(dst);
        send_retry(0, AM_ACK, NULL, 0, NULL);
    }
    free(buf);
}

static void run_bench(void)
{
    if (np < 2 || me > 1 || !reach(me ^ 1))
        return;
    bench_latency(8, 31, 2000);
    bench_latency(0, 31, 2000);
    for (size_t msg = 65536; msg <= 4u << 20; msg *= 4) {
        bench_stream(msg, msg >= (1u << 20) ? 10 : 100);
        bench_get(msg, msg >= (1u << 20) ? 10 : 100);
    }
}

/* ---- process setup --------------------------------------------------------------- */
static int child(int rank, int size, int per_node, int jobseg_fd, bool bench)
{
    me = rank;
    np = size;
    setvbuf(stdout, NULL, _IOLBF, 0);
    fake_rt_child(rank, size, per_node, jobseg_fd);
    if (xb_tunables_init() != XB_OK)
        return 2;
    xb_am_register(AM_SEQ, on_seq);
    xb_am_register(AM_SELF_CHAIN, on_self_chain);
    xb_am_register(AM_BIG, on_big);
    xb_am_register(AM_PING, on_ping);
    xb_am_register(AM_ADDR, on_addr);
    xb_am_register(AM_ACK, on_ack);
    xb_am_register(AM_STREAM, on_stream);
    xb_am_register(AM_BP, on_bp);
    int rc = xb_method_init_all(fake_rt_info());
    CHECK(rc == XB_OK, "init_all: %d %s", rc, xb_err_detail());
    if (rc != XB_OK)
        return 1;
    xb_rt_fence();
    rc = xb_method_ready_all();
    CHECK(rc == XB_OK, "ready_all: %d %s", rc, xb_err_detail());
    fake_rt_fence_progress(true);
    if (failures)
        return 1;
    test_peers();
    test_self();
    test_backpressure();
    test_ordering();
    xb_rt_fence();
    test_big();
    test_block();
    test_get();
    failures += test_tcp_intruders(me, np);
    if (bench)
        run_bench();
    xb_rt_fence();
    fake_rt_fence_progress(false);
    xb_method_fini_all();
    return failures ? 1 : 0;
}

static int make_jobseg(int nlocal)
{
    int fd = memfd_create("test-jobseg", 0);           /* inherited by children */
    xb_jobseg_hdr_t h = { XB_JOBSEG_MAGIC, (uint32_t)nlocal, 0, 64, 8192 };
    if (fd < 0 || ftruncate(fd, 8192) != 0 || pwrite(fd, &h, sizeof(h), 0) != sizeof(h))
        return -1;
    return fd;
}

int main(int argc, char **argv)
{
    int n = 2, per_node = 0;
    bool jobseg = true, bench = false, secret = true;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--per-node") == 0 && i + 1 < argc)
            per_node = atoi(argv[++i]);
        else if (strcmp(argv[i], "--no-secret") == 0)
            secret = false;
        else if (strcmp(argv[i], "--no-jobseg") == 0)
            jobseg = false;
        else if (strcmp(argv[i], "--bench") == 0)
            bench = true;
        else {
            fprintf(stderr, "usage: %s [-n N] [--per-node K] [--no-jobseg] [--no-secret] [--bench]\n",
                    argv[0]);
            return 2;
        }
    }
    if (n < 1 || n > MAXP)
        return 2;
    if (per_node <= 0 || per_node > n)
        per_node = n;
    fake_rt_setup(n);
    if (secret)           /* what mpiexec gives every rank of a job */
        setenv("XB_JOB_SECRET", "00112233445566778899aabbccddeeff"
               "0123456789abcdef0123456789abcdef", 1);
    else
        unsetenv("XB_JOB_SECRET");
    xshared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int nnodes = (n + per_node - 1) / per_node, segfd[MAXP];
    for (int k = 0; k < nnodes; k++) {
        int nl = k == nnodes - 1 ? n - k * per_node : per_node;
        segfd[k] = jobseg ? make_jobseg(nl) : -1;
    }
    pid_t pids[MAXP];
    for (int r = 0; r < n; r++) {
        pids[r] = fork();
        if (pids[r] == 0) {
            alarm(100);          /* never outlive the test's time limit */
            int rc = child(r, n, per_node, segfd[r / per_node], bench);
            fflush(stdout);
            fflush(stderr);
            _exit(rc);
        }
    }
    int bad = 0, left = n;
    bool reaped[MAXP] = { false };
    while (left > 0) {
        int st;
        pid_t p = wait(&st);
        if (p < 0)
            break;
        int r = 0;
        while (r < n && pids[r] != p)
            r++;
        if (r == n)
            continue;
        reaped[r] = true;
        left--;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "rank %d failed (status %#x)\n", r, st);
            bad++;
            for (int k = 0; k < n; k++)      /* do not wait for the others */
                if (!reaped[k])
                    kill(pids[k], SIGKILL);
        }
    }
    if (bad)
        return 1;
    printf("No Errors\n");
    return 0;
}
