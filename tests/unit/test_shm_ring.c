/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_shm_ring.c - the per-pair shared-memory ring (src/method/shm/shm_inl.h)
 * with two threads standing in for two processes: ordering, wraparound,
 * full ring -> XB_ERR_AGAIN, variable sizes (iovec and pack callback), a
 * million records checked byte by byte, and the producer's prefault (every
 * page of a memfd ring resident, contents unchanged; none with it off).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "method/shm/shm_inl.h"
#include "runtime/tunable.h"

XB_TUNABLE_DECL(SHM_PREFAULT);

static int failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, "FAIL %s:%d: ", \
    __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static xb_shm_ring_t *ring_new(size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, xb_shm_ring_stride(size)) != 0)
        abort();
    memset(p, 0, xb_shm_ring_stride(size));
    return p;
}

/* Deterministic content of message i: byte k is (i * 31 + k) & 255. */
static uint8_t byte_of(uint64_t i, size_t k) { return (uint8_t)(i * 31 + k); }

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

typedef struct { uint64_t i; } pack_arg_t;
static size_t pack_cb(void *arg, size_t offset, void *dst, size_t max)
{
    pack_arg_t *a = arg;
    size_t n = max > 100 ? 100 : max;      /* several calls per message */
    for (size_t k = 0; k < n; k++)
        ((uint8_t *)dst)[k] = byte_of(a->i, offset + k);
    return n;
}

/* ---- single-threaded: full ring, AGAIN, then success ------------------------ */
static void test_full(void)
{
    size_t size = 4096;
    xb_shm_ring_t *r = ring_new(size);
    xb_shm_tx_t tx;
    xb_shm_rx_t rx;
    xb_shm_tx_init(&tx, r, size);
    xb_shm_rx_init(&rx, r, size);
    uint8_t buf[1000];
    memset(buf, 7, sizeof(buf));
    struct iovec iov = { buf, sizeof(buf) };
    xb_payload_t pl = { .iov = &iov, .iovcnt = 1, .len = sizeof(buf) };
    uint32_t h = 0;
    int pushed = 0, rc;
    while ((rc = xb_shm_ring_push(&tx, 5, &h, sizeof(h), &pl)) == XB_OK) {
        pushed++;
        h++;
    }
    CHECK(rc == XB_ERR_AGAIN, "full ring returned %d, not AGAIN", rc);
    CHECK(pushed == 4, "a 4 KiB ring took %d records of 1016 bytes (want 4)", pushed);
    CHECK(xb_shm_ring_push(&tx, 5, &h, sizeof(h), &pl) == XB_ERR_AGAIN,
          "second push into a full ring did not return AGAIN");
    /* consume one: the next record must wrap (PAD) and its trailing zero
     * word would land on record 1's header, so there is still no room */
    uint64_t w = xb_shm_ring_peek(&rx);
    CHECK(w != 0 && XB_SHM_W_AM(w) == 5 && XB_SHM_W_LEN(w) == 1000 &&
          XB_SHM_W_HLEN(w) == 4, "bad first header word %#llx", (unsigned long long)w);
    CHECK(*(const uint32_t *)(xb_shm_ring_rec(&rx) + 8) == 0, "first header not 0");
    xb_shm_ring_release(&rx, w);
    CHECK(xb_shm_ring_push(&tx, 5, &h, sizeof(h), &pl) == XB_ERR_AGAIN,
          "push overwrote the header of an unread record");
    w = xb_shm_ring_peek(&rx);
    CHECK(w != 0 && *(const uint32_t *)(xb_shm_ring_rec(&rx) + 8) == 1,
          "second record lost");
    xb_shm_ring_release(&rx, w);
    CHECK(xb_shm_ring_push(&tx, 5, &h, sizeof(h), &pl) == XB_OK,
          "push after two releases still refused");
    /* drain in order, including across the wrap (PAD) */
    uint32_t expect = 2;
    while ((w = xb_shm_ring_peek(&rx)) != 0) {
        if (XB_SHM_W_KIND(w) == XB_SHM_REC_PAD) {
            xb_shm_ring_skip_pad(&rx);
            continue;
        }
        uint32_t got = *(const uint32_t *)(xb_shm_ring_rec(&rx) + 8);
        CHECK(got == expect, "record %u arrived where %u was expected", got, expect);
        expect++;
        xb_shm_ring_release(&rx, w);
    }
    CHECK(expect == 5, "drained up to %u, expected 5", expect);
    /* header-only and zero-length messages */
    CHECK(xb_shm_ring_push(&tx, 9, NULL, 0, NULL) == XB_OK, "empty message refused");
    w = xb_shm_ring_peek(&rx);
    CHECK(w != 0 && XB_SHM_W_AM(w) == 9 && XB_SHM_W_LEN(w) == 0 && XB_SHM_W_HLEN(w) == 0,
          "empty message header %#llx", (unsigned long long)w);
    xb_shm_ring_release(&rx, w);
    CHECK(xb_shm_ring_peek(&rx) == 0, "ring not empty after draining");
    free(r);
}

/* ---- two threads, one million records ------------------------------------- */
enum { NREC = 1000000 };
static size_t t_size = 8192;
static xb_shm_ring_t *t_ring;
static uint64_t t_again;

static void *producer(void *arg)
{
    (void)arg;
    xb_shm_tx_t tx;
    xb_shm_tx_init(&tx, t_ring, t_size);
    size_t maxp = xb_shm_ring_payload_max(t_size);
    uint64_t s = 88172645463325252ull;
    static uint8_t data[65536];
    for (uint64_t i = 0; i < NREC; i++) {
        uint64_t x = rng(&s);
        size_t len = (x & 3) == 0 ? (size_t)(x >> 8) % (maxp + 1) : (size_t)(x >> 8) % 64;
        size_t hl = (size_t)(x >> 40) % (XB_AM_HDR_MAX + 1);
        uint8_t hdr[XB_AM_HDR_MAX];
        if (hl < 8)
            hl = 8;
        memcpy(hdr, &i, 8);
        memset(hdr + 8, (int)(i & 255), hl - 8);
        pack_arg_t pa = { i };
        struct iovec iov[2];
        xb_payload_t pl = { .len = len };
        if ((x >> 20) & 1) {
            pl.pack = pack_cb;
            pl.pack_arg = &pa;
        } else {
            for (size_t k = 0; k < len; k++)
                data[k] = byte_of(i, k);
            iov[0].iov_base = data;
            iov[0].iov_len = len / 2;
            iov[1].iov_base = data + len / 2;
            iov[1].iov_len = len - len / 2;
            pl.iov = iov;
            pl.iovcnt = 2;
        }
        int rc;
        while ((rc = xb_shm_ring_push(&tx, (uint8_t)(1 + i % 60), hdr, hl, &pl)) ==
               XB_ERR_AGAIN) {
            t_again++;
            sched_yield();
        }
        if (rc != XB_OK) {
            fprintf(stderr, "FAIL: push %llu returned %d\n", (unsigned long long)i, rc);
            failures++;
            return NULL;
        }
    }
    return NULL;
}

static void test_threads(void)
{
    t_ring = ring_new(t_size);
    pthread_t th;
    pthread_create(&th, NULL, producer, NULL);
    xb_shm_rx_t rx;
    xb_shm_rx_init(&rx, t_ring, t_size);
    uint64_t next = 0, bad = 0, spins = 0;
    while (next < NREC && bad < 10) {
        uint64_t w = xb_shm_ring_peek(&rx);
        if (w == 0) {
            if (++spins % 64 == 0)
                sched_yield();
            continue;
        }
        if (XB_SHM_W_KIND(w) == XB_SHM_REC_PAD) {
            xb_shm_ring_skip_pad(&rx);
            continue;
        }
        const uint8_t *p = xb_shm_ring_rec(&rx);
        uint64_t i;
        size_t hl = XB_SHM_W_HLEN(w), len = XB_SHM_W_LEN(w);
        memcpy(&i, p + 8, 8);
        if (i != next || XB_SHM_W_AM(w) != 1 + i % 60) {
            CHECK(0, "record %llu (am %u) arrived where %llu was expected",
                  (unsigned long long)i, XB_SHM_W_AM(w), (unsigned long long)next);
            bad++;
        }
        for (size_t k = 8; k < hl; k++)
            if (p[8 + k] != (uint8_t)(i & 255)) {
                CHECK(0, "record %llu: header byte %zu wrong", (unsigned long long)i, k);
                bad++;
                break;
            }
        const uint8_t *pay = p + 8 + xb_shm_a8(hl);
        for (size_t k = 0; k < len; k++)
            if (pay[k] != byte_of(i, k)) {
                CHECK(0, "record %llu: payload byte %zu of %zu wrong",
                      (unsigned long long)i, k, len);
                bad++;
                break;
            }
        xb_shm_ring_release(&rx, w);
        next++;
    }
    pthread_join(th, NULL);
    CHECK(next == NREC, "received %llu of %d records", (unsigned long long)next, NREC);
    CHECK(xb_shm_ring_peek(&rx) == 0, "records left after the last one");
    CHECK(t_again > 0, "the producer never saw a full ring (test too weak)");
    printf("ring: %d records through a %zu-byte ring, %llu full-ring retries\n",
           NREC, t_size, (unsigned long long)t_again);
    free(t_ring);
}

/* ---- prefault: pages of a fresh memfd ring, resident or not -------------- */
static size_t resident_pages(const uint8_t *base, size_t len)
{
    size_t np = len / 4096, n = 0;
    unsigned char vec[64];
    if (np > sizeof vec || mincore((void *)base, len, vec) != 0)
        return (size_t)-1;
    for (size_t i = 0; i < np; i++)
        n += vec[i] & 1;
    return n;
}

static void prefault_one(bool on)
{
    size_t size = 65536, len = xb_shm_ring_stride(size) + 4096 - 128;  /* whole pages */
    int fd = memfd_create("test-shm-ring", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
        abort();
    uint8_t *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
        abort();
    xb_shm_ring_t *r = (xb_shm_ring_t *)(void *)base;
    for (size_t k = 0; k < 200; k++)        /* a record in flight: must stay */
        r->data[k] = (uint8_t)(k * 7 + 1);
    size_t before = resident_pages(base, len);
    xb_shm_tx_t tx;
    xb_shm_tx_init(&tx, r, size);
    xb_tn_SHM_PREFAULT.v.b = on;
    xb_shm_tx_prefault(&tx);
    size_t after = resident_pages(base, len), want = on ? len / 4096 : before;
    CHECK(before < len / 4096, "a fresh memfd ring has %zu of %zu pages resident", before,
          len / 4096);
    CHECK(after == want, "prefault %s: %zu of %zu pages resident (want %zu)",
          on ? "on" : "off", after, len / 4096, want);
    for (size_t k = 0; k < 200; k++)
        if (r->data[k] != (uint8_t)(k * 7 + 1)) {
            CHECK(0, "prefault changed byte %zu of the ring", k);
            break;
        }
    munmap(base, len);
    close(fd);
}

static void test_prefault(void)
{
    prefault_one(true);
    prefault_one(false);
    xb_tn_SHM_PREFAULT.v.b = true;
}

int main(void)
{
    test_prefault();
    test_full();
    test_threads();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("No Errors\n");
    return 0;
}
