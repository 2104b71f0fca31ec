/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_mutex.c - the futex mutex of src/util/xb_mt.h: mutual exclusion
 * under contention, fairness (a thread that re-takes the lock in a tight
 * loop passes over a sleeper at most a bounded number of times, even when
 * both share one CPU, where a plain futex mutex lets it go on for a whole
 * time slice), and xb_mutex_yield (the sleeper runs before the yielder has
 * the lock back).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>
#include "unit_check.h"
#include "util/xb_mt.h"

static xb_mutex_t mu = XB_MUTEX_INIT;

/* ---- mutual exclusion ------------------------------------------------------ */

enum { ADDERS = 4, ADDS = 200000 };
static long counter;              /* plain: only the lock protects it */

static void *adder(void *arg)
{
    (void)arg;
    for (int i = 0; i < ADDS; i++) {
        xb_mutex_lock(&mu);
        counter++;
        xb_mutex_unlock(&mu);
    }
    return NULL;
}

static void test_exclusion(void)
{
    pthread_t t[ADDERS];
    for (int i = 0; i < ADDERS; i++)
        pthread_create(&t[i], NULL, adder, NULL);
    for (int i = 0; i < ADDERS; i++)
        pthread_join(t[i], NULL);
    CHECK(counter == (long)ADDERS * ADDS, "counter %ld, want %ld", counter, (long)ADDERS * ADDS);
    CHECK(atomic_load(&mu.state) == 0, "state %u after the last unlock", atomic_load(&mu.state));
    CHECK(xb_mutex_trylock(&mu), "trylock of a free mutex failed");
    CHECK(!xb_mutex_trylock(&mu), "trylock of a held mutex succeeded");
    xb_mutex_unlock(&mu);
}

/* ---- fairness against a tight re-taker --------------------------------------- */

enum { TURNS = 200, PASS_BOUND = 64 };
static atomic_int stop;
static atomic_long hog_takes;      /* acquisitions of the hog over a sleeper */

static void *hog(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        xb_mutex_lock(&mu);
        if (atomic_load_explicit(&mu.sleepers, memory_order_relaxed) > 0)
            atomic_fetch_add_explicit(&hog_takes, 1, memory_order_relaxed);
        for (volatile int k = 0; k < 50; k++)   /* a short call's worth */
            ;
        xb_mutex_unlock(&mu);
    }
    return NULL;
}

/* Both threads on the first CPU we may use: the hog holds the lock most
 * of the time, so the waiter, when it gets the CPU, finds it held. */
static void pin_to_one_cpu(void)
{
    cpu_set_t all, one;
    if (sched_getaffinity(0, sizeof(all), &all) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (CPU_ISSET(c, &all)) {
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            sched_setaffinity(0, sizeof(one), &one);
            return;
        }
    }
}

static void test_fairness(void)
{
    pthread_t t;
    pin_to_one_cpu();
    pthread_create(&t, NULL, hog, NULL);
    long worst = 0;
    for (int i = 0; i < TURNS; i++) {
        usleep(200);                        /* let the hog run alone */
        atomic_store(&hog_takes, 0);
        xb_mutex_lock(&mu);
        long n = atomic_load(&hog_takes);
        xb_mutex_unlock(&mu);
        if (n > worst)
            worst = n;
    }
    atomic_store(&stop, 1);
    pthread_join(t, NULL);
    printf("fairness: the hog took the lock at most %ld times while the waiter slept\n", worst);
    CHECK(worst <= PASS_BOUND, "a waiter was passed over %ld times (bound %d)", worst, PASS_BOUND);
}

/* ---- yield ------------------------------------------------------------------- */

static atomic_int sleeper_ran;

static void *sleeper(void *arg)
{
    (void)arg;
    xb_mutex_lock(&mu);
    atomic_store(&sleeper_ran, 1);
    xb_mutex_unlock(&mu);
    return NULL;
}

static void test_yield(void)
{
    xb_mutex_lock(&mu);
    xb_mutex_yield(&mu);                    /* nobody waits: a no-op */
    CHECK(atomic_load(&mu.state) != 0, "yield without a sleeper let go of the lock");
    pthread_t t;
    pthread_create(&t, NULL, sleeper, NULL);
    while (!xb_mutex_contended(&mu))        /* until it sleeps on the lock */
        usleep(100);
    xb_mutex_yield(&mu);
    CHECK(atomic_load(&sleeper_ran), "yield came back before the sleeper had the lock");
    xb_mutex_unlock(&mu);
    pthread_join(t, NULL);
    CHECK(atomic_load(&mu.sleepers) == 0, "%u sleepers left", atomic_load(&mu.sleepers));
}

int main(void)
{
    test_exclusion();
    test_yield();
    test_fairness();
    return failures != 0;
}
