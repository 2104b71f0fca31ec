/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_int.h - shared by the files of src/comm (communicator construction).
 */
#ifndef XB_COMM_INT_H
#define XB_COMM_INT_H

#include "core/core.h"
#include "core/op.h"
#include "datatype/datatype.h"

/* Agree on a context id over parent (collective over parent). member: this
 * process will belong to the new communicator. *ctx_p is the same on every
 * process; the caller takes it with xb_comm_new (members only). */
int xb_comm_ctx_agree(xb_comm_t *parent, bool member, uint32_t *ctx_p);

#endif
