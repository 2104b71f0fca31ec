/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm.h - what src/comm offers the layer beside it, src/dpm (dynamic
 * processes), which needs communicators made from processes it found.
 *
 * xb_comm_intercomm_connect: collective over `local` (an intracommunicator)
 * and, at the same time, over the remote side's own local communicator.
 * Every local process passes the same remote group (rn gpids, in the remote
 * side's rank order, already in the peer table) and the remote side's
 * leader `rroot`; the leaders (`root` here) agree on a context id over a
 * temporary intercommunicator (a context reserved for this, past the pool),
 * then each side builds the intercommunicator and its local communicator.
 * `tag` (0 .. 2^29-1, the same on both sides) keeps the agreement apart
 * from another connection's on the same temporary context (threads).
 * The result has `local`'s errhandler. Returns XB_OK or an error with the
 * detail recorded (the groups overlap: XB_ERR_GROUP).
 * Threading: under the progress lock, like every constructor.
 */
#ifndef XB_COMM_H
#define XB_COMM_H

#include "core/core.h"

int xb_comm_intercomm_connect(xb_comm_t *local, int root, int rn, const int *rlist,
                              int rroot, int tag, xb_comm_t **out_p);

#endif
