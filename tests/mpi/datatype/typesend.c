/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * typesend.c - point-to-point with derived datatypes: the receiver uses a
 * different but compatible type (same type signature) than the sender:
 * vector -> contiguous, contiguous -> indexed, struct -> struct with other
 * displacements, a large strided vector (rendezvous path) -> resized type,
 * padded structs of 27000 packed bytes (a pipelined rendezvous in small
 * fragments whose boundaries cut elements: XB_PT2PT_PACK_FRAG) into structs
 * of another layout, whole and truncated, and Get_count/Get_elements on the
 * result. Rank 0 sends to every other rank.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf("rank %d: ", rank); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static int rank, size;

static void vector_to_contig(int peer)
{
    MPI_Datatype vec;
    MPI_Type_vector(5, 2, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (rank == 0) {
        int src[15];
        for (int i = 0; i < 15; i++)
            src[i] = 100 + i;
        MPI_Send(src, 1, vec, peer, 1, MPI_COMM_WORLD);
    } else {
        int dst[12] = { 0 };
        MPI_Status st;
        MPI_Recv(dst, 12, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
        int count;
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 10, "vector->contig: count %d", count);
        for (int i = 0; i < 10; i++)
            CHECK(dst[i] == 100 + (i / 2) * 3 + i % 2, "vector->contig: dst[%d] = %d", i, dst[i]);
        CHECK(dst[10] == 0, "vector->contig: wrote past the message");
    }
    MPI_Type_free(&vec);
}

static void contig_to_indexed(int peer)
{
    int bl[3] = { 1, 3, 2 }, dp[3] = { 7, 0, 4 };
    MPI_Datatype idx;
    MPI_Type_indexed(3, bl, dp, MPI_DOUBLE, &idx);
    MPI_Type_commit(&idx);
    if (rank == 0) {
        double src[12];
        for (int i = 0; i < 12; i++)
            src[i] = i + 0.5;
        MPI_Send(src, 12, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
    } else {
        double dst[16];
        for (int i = 0; i < 16; i++)
            dst[i] = -1;
        MPI_Status st;
        MPI_Recv(dst, 2, idx, 0, 2, MPI_COMM_WORLD, &st);
        /* element e of idx at e*extent (extent 8 doubles): 7 | 0 1 2 | 4 5 */
        int order[6] = { 7, 0, 1, 2, 4, 5 };
        for (int e = 0; e < 2; e++)
            for (int k = 0; k < 6; k++) {
                double want = e * 6 + k + 0.5, got = dst[e * 8 + order[k]];
                CHECK(got == want, "contig->indexed: elem %d item %d: %g want %g", e, k, got, want);
            }
        CHECK(dst[3] == -1 && dst[6] == -1, "contig->indexed: holes written");
        int count;
        MPI_Get_count(&st, idx, &count);
        CHECK(count == 2, "contig->indexed: count %d", count);
    }
    MPI_Type_free(&idx);
}

struct rec { char tag; double val; int id; };
struct rec2 { int id; double val; char tag; };

static void struct_to_struct(int peer)
{
    MPI_Datatype t1, t2;
    int bl[3] = { 1, 1, 1 };
    MPI_Aint d1[3] = { offsetof(struct rec, tag), offsetof(struct rec, val), offsetof(struct rec, id) };
    MPI_Datatype ty[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT };
    MPI_Type_create_struct(3, bl, d1, ty, &t1);
    MPI_Type_commit(&t1);
    /* same signature (char, double, int), other layout */
    MPI_Aint d2[3] = { offsetof(struct rec2, tag), offsetof(struct rec2, val), offsetof(struct rec2, id) };
    MPI_Type_create_struct(3, bl, d2, ty, &t2);
    MPI_Type_commit(&t2);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t1, &lb, &ext);
    CHECK(lb == 0 && ext == sizeof(struct rec), "struct extent %ld want %zu", (long)ext, sizeof(struct rec));
    if (rank == 0) {
        struct rec r[4];
        for (int i = 0; i < 4; i++) {
            r[i].tag = (char)('a' + i);
            r[i].val = i * 1.25;
            r[i].id = 1000 + i;
        }
        MPI_Send(r, 4, t1, peer, 3, MPI_COMM_WORLD);
    } else {
        struct rec2 r[4];
        memset(r, 0, sizeof(r));
        MPI_Status st;
        MPI_Recv(r, 4, t2, 0, 3, MPI_COMM_WORLD, &st);
        for (int i = 0; i < 4; i++)
            CHECK(r[i].tag == 'a' + i && r[i].val == i * 1.25 && r[i].id == 1000 + i,
                  "struct: record %d = %c %g %d", i, r[i].tag, r[i].val, r[i].id);
        int n;
        MPI_Get_elements(&st, t2, &n);
        CHECK(n == 12, "struct: Get_elements %d", n);
    }
    MPI_Type_free(&t1);
    MPI_Type_free(&t2);
}

/* A strided vector of 2^18 doubles (2 MiB of data): rendezvous/pipelined
 * path with partial packs; received into a resized type (one double every
 * 24 bytes). */
static void large_vector(int peer)
{
    const int n = 1 << 18;
    MPI_Datatype vec, rs;
    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_create_resized(MPI_DOUBLE, 0, 3 * sizeof(double), &rs);
    MPI_Type_commit(&rs);
    if (rank == 0) {
        double *src = malloc(2 * (size_t)n * sizeof(double));
        for (int i = 0; i < 2 * n; i++)
            src[i] = i;
        MPI_Send(src, 1, vec, peer, 4, MPI_COMM_WORLD);
        free(src);
    } else {
        double *dst = calloc(3 * (size_t)n, sizeof(double));
        MPI_Status st;
        MPI_Recv(dst, n, rs, 0, 4, MPI_COMM_WORLD, &st);
        int bad = 0;
        for (int i = 0; i < n; i++)
            if (dst[3 * i] != 2.0 * i || dst[3 * i + 1] != 0 || dst[3 * i + 2] != 0)
                bad++;
        CHECK(bad == 0, "large vector: %d wrong elements", bad);
        free(dst);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&rs);
}

/* 3000 x {char; double} (9 packed bytes each, 27000 in all: above the eager
 * limit, so a pipelined rendezvous whose fragments of packed data end in the
 * middle of elements) received as {char at 0; double at 16} of extent 24;
 * then the same message into a buffer of 2000 elements (MPI_ERR_TRUNCATE,
 * nothing written past it). */
static void fragmented_structs(int peer)
{
    enum { N = 3000, M = 2000 };
    int bl[2] = { 1, 1 };
    MPI_Aint sd[2] = { 0, 8 }, rd[2] = { 0, 16 };
    MPI_Datatype ty[2] = { MPI_CHAR, MPI_DOUBLE }, s0, r0, sty, rty;
    MPI_Type_create_struct(2, bl, sd, ty, &s0);
    MPI_Type_create_resized(s0, 0, 16, &sty);
    MPI_Type_create_struct(2, bl, rd, ty, &r0);
    MPI_Type_create_resized(r0, 0, 24, &rty);
    MPI_Type_commit(&sty);
    MPI_Type_commit(&rty);
    if (rank == 0) {
        char *src = calloc(N, 16);
        for (int i = 0; i < N; i++) {
            src[16 * i] = (char)(i * 7 + 1);
            double d = i * 0.5 - 3;
            memcpy(src + 16 * i + 8, &d, 8);
        }
        MPI_Send(src, N, sty, peer, 5, MPI_COMM_WORLD);
        MPI_Send(src, N, sty, peer, 6, MPI_COMM_WORLD);
        free(src);
    } else {
        char *dst = malloc((size_t)N * 24 + 24);
        memset(dst, 0x5a, (size_t)N * 24 + 24);
        MPI_Status st;
        MPI_Recv(dst, N, rty, 0, 5, MPI_COMM_WORLD, &st);
        int bad = 0, count = -1;
        for (int i = 0; i < N; i++) {
            double d;
            memcpy(&d, dst + 24 * i + 16, 8);
            if (dst[24 * i] != (char)(i * 7 + 1) || d != i * 0.5 - 3 || dst[24 * i + 1] != 0x5a)
                bad++;
        }
        MPI_Get_count(&st, rty, &count);
        CHECK(bad == 0 && count == N, "fragmented structs: %d wrong, count %d", bad, count);
        memset(dst, 0x5a, (size_t)N * 24 + 24);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Recv(dst, M, rty, 0, 6, MPI_COMM_WORLD, &st), cls = -1;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Error_class(rc, &cls);
        bad = 0;
        for (int i = 0; i < M; i++)
            if (dst[24 * i] != (char)(i * 7 + 1))
                bad++;
        CHECK(cls == MPI_ERR_TRUNCATE && bad == 0 && dst[24 * M] == 0x5a,
              "truncated fragmented structs: class %d, %d wrong, past the end %d", cls,
              bad, dst[24 * M]);
        free(dst);
    }
    MPI_Type_free(&s0);
    MPI_Type_free(&r0);
    MPI_Type_free(&sty);
    MPI_Type_free(&rty);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int peer = 1; peer < size; peer++) {
        if (rank != 0 && rank != peer)
            continue;
        vector_to_contig(peer);
        contig_to_indexed(peer);
        struct_to_struct(peer);
        large_vector(peer);
        fragmented_structs(peer);
    }
    int all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
