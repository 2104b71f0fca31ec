/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * fake_rt.h - a tiny stand-in for src/runtime, so the method conformance
 * suite runs forked processes without MPI, PMI or a launcher: xb_rt() returns
 * a struct the test fills, the KVS and the fence live in an anonymous shared
 * mapping made before fork(), tunables are parsed from defaults and the
 * environment, error detail is one per-process buffer.
 */
#ifndef XB_TEST_FAKE_RT_H
#define XB_TEST_FAKE_RT_H

#include "runtime/runtime.h"

/* Before fork: the shared KVS/fence area for nprocs processes. */
void fake_rt_setup(int nprocs);
/* In each child: fill xb_rt() for world rank `rank` of `size`, all on node 0
 * (or node = rank / per_node), with the launcher segment fd (or -1). */
void fake_rt_child(int rank, int size, int per_node, int jobseg_fd);
xb_rt_info_t *fake_rt_info(void);
/* Between ready and fini: let the fence poll the methods while it waits. */
void fake_rt_fence_progress(bool on);
int xb_tunables_init(void);

#endif
