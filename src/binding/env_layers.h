/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * env_layers.h - the init/fini entry points of the layers that MPI_Init and
 * MPI_Finalize (env.c) drive, for the layers whose own header does not
 * declare them yet. Same names and signatures as docs/design/contracts.md;
 * a declaration here that disagrees with the layer's header is a compile
 * error wherever both are included, which is the point.
 */
#ifndef XB_ENV_LAYERS_H
#define XB_ENV_LAYERS_H

#include "core/core.h"

/* src/coll */
int  xb_coll_init(void);
void xb_coll_fini(void);
int  xb_coll_barrier(xb_comm_t *comm);
int  xb_coll_agree(bool threads);

/* src/dpm: the parent intercommunicator of a spawned job (after COMM_WORLD
 * and the collectives), ports and the parent at finalize. */
int  xb_dpm_init(void);
void xb_dpm_fini(void);

#endif
