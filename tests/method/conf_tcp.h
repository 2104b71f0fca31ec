/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * conf_tcp.h - the tcp-only part of the method conformance suite.
 */
#ifndef XB_TEST_CONF_TCP_H
#define XB_TEST_CONF_TCP_H

/* Foreign connections to rank 1's tcp listener (garbage, a wrong job secret,
 * silence): each closed and counted, the job's own traffic unaffected.
 * Every rank calls it (it fences twice). Returns the number of failures. */
int test_tcp_intruders(int me, int np);

#endif
