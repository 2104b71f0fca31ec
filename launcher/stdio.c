/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * stdio.c - forwarding of the ranks' stdout/stderr (line by line) and of our
 * stdin to rank 0.
 *
 * Output: each rank stream is read into its own buffer; only complete lines
 * are written out, each batch in one write() from this single thread, so
 * lines of different ranks never interleave mid-line. A partial line waits
 * for its newline or for the end of the stream (the rank's exit). A line
 * longer than LX_LINE_HOLD_MAX is written in pieces (the only case where a
 * line may be split).
 */
#include "launcher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LX_LINE_HOLD_MAX (1u << 20)
#define LX_READ_CHUNK    65536

int lx_stream_open(lx_stream_t *s, int fd, int dest)
{
    s->fd = fd;
    s->dest = dest;
    s->midline = false;
    s->buf = NULL;
    s->len = s->cap = 0;
    return 0;
}

/* Write buf[0,len) (whole lines, or a forced piece) to the stream's
 * destination, with "[rank] " before every line start when tagging. */
static void emit(lx_job_t *job, lx_rank_t *r, lx_stream_t *s, const char *buf, size_t len)
{
    if (!len)
        return;
    if (job->opt.proxy_mode) {           /* mpiexec writes (and tags) it */
        while (len) {
            size_t piece = len < (1u << 20) ? len : (1u << 20);
            (void)lx_chan_send(&job->up, s->dest == 1 ? LX_F_OUT : LX_F_ERR, r->rank, buf, piece);
            buf += piece;
            len -= piece;
        }
        return;
    }
    if (!job->opt.tag_output) {
        (void)lx_write_all(s->dest, buf, len);
        s->midline = buf[len - 1] != '\n';
        return;
    }
    char tag[24];
    int tlen = snprintf(tag, sizeof tag, "[%d] ", r->rank);
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += buf[i] == '\n';
    char *out = malloc(len + lines * (size_t)tlen);
    if (!out) {
        (void)lx_write_all(s->dest, buf, len);
        return;
    }
    size_t o = 0;
    bool at_start = !s->midline;
    for (size_t i = 0; i < len; i++) {
        if (at_start) {
            memcpy(out + o, tag, (size_t)tlen);
            o += (size_t)tlen;
        }
        out[o++] = buf[i];
        at_start = buf[i] == '\n';
    }
    (void)lx_write_all(s->dest, out, o);
    free(out);
    s->midline = !at_start;
}

static int grow(lx_stream_t *s)
{
    if (s->cap - s->len >= LX_READ_CHUNK / 4)
        return 0;
    size_t ncap = s->cap ? s->cap * 2 : LX_READ_CHUNK;
    char *nb = realloc(s->buf, ncap);
    if (!nb)
        return -1;
    s->buf = nb;
    s->cap = ncap;
    return 0;
}

void lx_stream_emit(lx_job_t *job, lx_rank_t *r, lx_stream_t *s, const char *buf, size_t len)
{
    emit(job, r, s, buf, len);
}

int lx_stream_readable(lx_job_t *job, lx_rank_t *r, lx_stream_t *s)
{
    if (grow(s)) {
        lx_stream_close(job, r, s);
        return 0;
    }
    ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n <= 0) {
        lx_stream_close(job, r, s);
        return 0;
    }
    s->len += (size_t)n;
    char *last = memrchr(s->buf, '\n', s->len);
    size_t whole = last ? (size_t)(last - s->buf) + 1 : 0;
    if (!whole && s->len >= LX_LINE_HOLD_MAX)
        whole = s->len;                 /* a huge line: let a piece out */
    emit(job, r, s, s->buf, whole);
    memmove(s->buf, s->buf + whole, s->len - whole);
    s->len -= whole;
    return 1;
}

/* End of the stream: the held partial line goes out, with a newline added
 * when other ranks' lines could otherwise be glued to it. */
void lx_stream_close(lx_job_t *job, lx_rank_t *r, lx_stream_t *s)
{
    if (s->fd < 0)
        return;
    if (s->len) {
        if ((job->n > 1 || job->opt.tag_output) && s->len < s->cap)
            s->buf[s->len++] = '\n';
        emit(job, r, s, s->buf, s->len);
    }
    close(s->fd);
    s->fd = -1;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}

/* ---- stdin -> rank 0 --------------------------------------------------- */

void lx_stdin_close(lx_job_t *job)
{
    if (job->in_dst >= 0)
        close(job->in_dst);
    job->in_dst = -1;
    job->in_src = -1;
    job->inlen = 0;
}

void lx_stdin_readable(lx_job_t *job)
{
    if (lx_remote_stdin_proxy(job)) {   /* rank 0 is on a remote host */
        lx_remote_stdin(job);
        return;
    }
    size_t room = sizeof job->inbuf - job->inlen;
    ssize_t n = read(job->in_src, job->inbuf + job->inlen, room);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {                       /* EOF (or EIO): rank 0 sees EOF */
        job->in_src = -1;
        if (job->inlen == 0)
            lx_stdin_close(job);
        return;
    }
    job->inlen += (size_t)n;
}

void lx_stdin_writable(lx_job_t *job)
{
    ssize_t n = write(job->in_dst, job->inbuf, job->inlen);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n < 0) {                        /* EPIPE: rank 0 closed its stdin */
        lx_stdin_close(job);
        return;
    }
    memmove(job->inbuf, job->inbuf + n, job->inlen - (size_t)n);
    job->inlen -= (size_t)n;
    if (job->opt.proxy_mode)             /* mpiexec may send that much more */
        (void)lx_chan_sendf(&job->up, LX_F_STDIN_ACK, 0, "%zd", n);
    if (job->inlen == 0 && job->in_src < 0 && !job->in_fed)
        lx_stdin_close(job);
}
