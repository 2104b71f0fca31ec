/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * ct_aff16.h - a non-commutative, associative user reduction on a
 * predefined type, for tests that check rank order: x -> a*x + b mod 2^16,
 * packed as a << 16 | b in one uint32_t. ct_aff16(l, r) applies l, then r.
 */
#ifndef CT_AFF16_H
#define CT_AFF16_H

#include <stdint.h>
#include <mpi.h>

static inline uint32_t ct_aff16(uint32_t l, uint32_t r)
{
    uint32_t la = l >> 16, lb = l & 0xffff, ra = r >> 16, rb = r & 0xffff;
    return ((la * ra) & 0xffff) << 16 | ((lb * ra + rb) & 0xffff);
}

/* The MPI_User_function of ct_aff16 (inout := in, then inout). */
static inline void ct_aff16_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const uint32_t *l = in;
    uint32_t *r = inout;
    for (int k = 0; k < *len; k++)
        r[k] = ct_aff16(l[k], r[k]);
}

#endif
