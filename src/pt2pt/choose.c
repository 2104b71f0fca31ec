/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * choose.c - the protocol choice: a pure function of the method's
 * capabilities, the message size, the send mode and the sender's layout.
 */
#include "pt2pt/proto.h"

int xb_pt2pt_choose(const xb_method_caps_t *caps, size_t len, int mode, unsigned in)
{
    (void)mode;   /* every mode uses the same size rule; SYNC adds a flag */
    if (len <= caps->eager_max && len <= caps->frag_max)
        return XB_PROTO_EAGER;
    if ((caps->flags & XB_METHOD_CAP_GET) && (in & XB_CHOOSE_CONTIG) &&
        !(in & XB_CHOOSE_FORCE_PIPE) && len >= caps->get_min)
        return XB_PROTO_RNDV_GET;
    return XB_PROTO_RNDV_PIPE;
}

const char *xb_pt2pt_proto_name(int proto)
{
    switch (proto) {
    case XB_PROTO_EAGER:     return "eager";
    case XB_PROTO_RNDV_GET:  return "rendezvous-get";
    case XB_PROTO_RNDV_PIPE: return "rendezvous-pipelined";
    default:                 return "?";
    }
}
