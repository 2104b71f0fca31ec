/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * test_proto.c - the protocol choice (a pure function) and the header size.
 */
#include <stdio.h>
#include "pt2pt/proto.h"

static int failures;
#define EXPECT(got, want) do { int g_ = (got), w_ = (want); if (g_ != w_) { \
    fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, #got, \
            xb_pt2pt_proto_name(g_), xb_pt2pt_proto_name(w_)); failures++; } } while (0)

int main(void)
{
    const unsigned C = XB_CHOOSE_CONTIG, F = XB_CHOOSE_FORCE_PIPE;
    xb_method_caps_t shm = { .eager_max = 16384, .frag_max = 65536, .get_min = 32768,
                             .flags = XB_METHOD_CAP_GET | XB_METHOD_CAP_SLEEP };
    xb_method_caps_t nocma = shm;
    nocma.flags = XB_METHOD_CAP_SLEEP;
    xb_method_caps_t tiny = { .eager_max = 1 << 20, .frag_max = 1024, .get_min = 0, .flags = 0 };

    /* eager up to and including eager_max, in every mode */
    for (int mode = XB_MODE_STANDARD; mode <= XB_MODE_BUFFERED; mode++) {
        EXPECT(xb_pt2pt_choose(&shm, 0, mode, C), XB_PROTO_EAGER);
        EXPECT(xb_pt2pt_choose(&shm, 8, mode, 0), XB_PROTO_EAGER);
        EXPECT(xb_pt2pt_choose(&shm, 16384, mode, C | F), XB_PROTO_EAGER);
        EXPECT(xb_pt2pt_choose(&shm, 16385, mode, 0), XB_PROTO_RNDV_PIPE);
    }
    /* single copy needs: the capability, a contiguous sender, len >= get_min, no force */
    EXPECT(xb_pt2pt_choose(&shm, 1 << 20, XB_MODE_STANDARD, C), XB_PROTO_RNDV_GET);
    EXPECT(xb_pt2pt_choose(&shm, 1 << 20, XB_MODE_SYNC, C), XB_PROTO_RNDV_GET);
    EXPECT(xb_pt2pt_choose(&shm, 20000, XB_MODE_STANDARD, C), XB_PROTO_RNDV_PIPE);
    EXPECT(xb_pt2pt_choose(&shm, 1 << 20, XB_MODE_STANDARD, 0), XB_PROTO_RNDV_PIPE);
    EXPECT(xb_pt2pt_choose(&shm, 1 << 20, XB_MODE_STANDARD, C | F), XB_PROTO_RNDV_PIPE);
    EXPECT(xb_pt2pt_choose(&nocma, 1 << 20, XB_MODE_STANDARD, C), XB_PROTO_RNDV_PIPE);
    /* eager is bounded by the fragment size too */
    EXPECT(xb_pt2pt_choose(&tiny, 1024, XB_MODE_STANDARD, C), XB_PROTO_EAGER);
    EXPECT(xb_pt2pt_choose(&tiny, 1025, XB_MODE_STANDARD, C), XB_PROTO_RNDV_PIPE);

    if (sizeof(xb_pt2pt_hdr_t) > XB_AM_HDR_MAX) {
        fprintf(stderr, "header of %zu bytes exceeds XB_AM_HDR_MAX\n", sizeof(xb_pt2pt_hdr_t));
        failures++;
    }
    if (failures) {
        fprintf(stderr, "test_proto: %d failures\n", failures);
        return 1;
    }
    printf("No Errors\n");
    return 0;
}
