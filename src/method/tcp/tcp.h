/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tcp.h - state shared by the files of the tcp method (internal).
 *
 * One connection per pair of ranks, opened on the first send (either side),
 * driven by one epoll set per process. Design: docs/design/tcp.md.
 *
 * Peer states (tcp_peer_t.state):
 *   IDLE       no socket; sends queue and start a connect
 *   CONNECTING our nonblocking connect() in flight (EPOLLOUT)
 *   HELLO      connected, our hello written (or being written), waiting for
 *              the 8-byte verdict
 *   WAITING    our connect lost the simultaneous-connect rule (or the peer
 *              closed it during the handshake): the peer's connection will
 *              arrive through our listener
 *   UP         frames flow
 *   CLOSED     the peer closed a quiet connection (it finalized); a send to
 *              it is an error
 *
 * Simultaneous connects: when a hello arrives from rank p while our own
 * connection to p is not UP, the connection initiated by the LOWER rank wins
 * (both ends apply the same rule, see tcp_conn.c).
 *
 * Frames (little endian, host order: Linux x86/arm64 jobs are homogeneous):
 *   tcp_frame_t (8 bytes) | AM header padded to 8 | payload padded to 8
 * so every header the handlers see is 8-byte aligned in the receive buffer.
 *
 * Threading: called under the progress lock only (method.h).
 */
#ifndef XB_TCP_H
#define XB_TCP_H

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include "method/method_int.h"

enum {
    XB_TCP_MAX_ADDRS = 4,
    XB_TCP_SECRET_LEN = 32,
    XB_TCP_HOST_LEN = 48,
    TCP_ADDR_VERSION = 2,                /* 2: 16-byte addresses (IPv6) */
    TCP_FRAME_MAGIC = 0x5842,            /* "XB" */
};

typedef struct xb_tcp_addr {               /* the address blob (KVS, hex)   */
    uint32_t version;
    uint32_t naddr;
    struct {
        uint8_t  ip[16];                   /* IPv6, or IPv4 as ::ffff:a.b.c.d */
        uint16_t port;                     /* network order                 */
        uint8_t  loopback;
        uint8_t  family;                   /* 4 or 6                        */
    } a[XB_TCP_MAX_ADDRS];
    uint32_t has_secret;                   /* rank 0 without a launcher secret */
    uint32_t pad;
    uint8_t  secret[XB_TCP_SECRET_LEN];
    char     host[XB_TCP_HOST_LEN];        /* for error messages            */
} xb_tcp_addr_t;

typedef struct tcp_frame {
    uint32_t len;          /* payload bytes (unpadded) */
    uint8_t  am_id;
    uint8_t  hdr_len;
    uint16_t magic;        /* TCP_FRAME_MAGIC          */
} tcp_frame_t;
_Static_assert(sizeof(tcp_frame_t) == 8, "frame head is 8 bytes");

/* First bytes a connector sends; nothing else is read before they check. */
typedef struct tcp_hello {
    char     magic[8];     /* "XBTCP01\0" */
    uint32_t src, dst;     /* world ranks */
    uint32_t size;         /* world size  */
    uint32_t pad;
    uint8_t  secret[XB_TCP_SECRET_LEN];
} tcp_hello_t;

typedef struct tcp_verdict {
    char     magic[4];     /* "XBok" */
    uint32_t accept;       /* 1 accepted, 0 the other connection wins */
} tcp_verdict_t;

/* Polling the open connections with recv() instead of epoll_wait (see
 * tcp_progress): at most this many, and a full epoll_wait every
 * TCP_FULL_EVERY polls (listeners, handshakes). */
enum { TCP_DIRECT_MAX = 4 };

enum { TCP_K_LISTEN = 1, TCP_K_PEER = 2, TCP_K_ACCEPT = 3, TCP_K_WAKE = 4 };
enum { TCP_IDLE, TCP_CONNECTING, TCP_HELLO, TCP_WAITING, TCP_UP, TCP_CLOSED };

/* A queued outgoing message (or raw handshake bytes). */
typedef struct tcp_msg {
    struct tcp_msg *next;
    xb_am_done_t   *done;      /* non-NULL: user memory referenced (INPROGRESS) */
    size_t          left;      /* bytes not yet written                       */
    int             cur, niov; /* first unsent iov, iov count                 */
    struct iovec   *iov;       /* points into the allocation                  */
    size_t          bytes;     /* total bytes (for the queue's budget)        */
} tcp_msg_t;

typedef struct xb_ep {          /* one per peer rank (xb_ep_t of method.h) */
    int          kind;          /* TCP_K_PEER: first, for epoll dispatch   */
    int          rank;
    int          fd;
    int          state;
    bool         initiator;     /* we opened fd                            */
    bool         want_out;      /* EPOLLOUT registered                     */
    bool         addr_ok;       /* blob fetched                            */
    int          next_try;      /* address index of the next connect       */
    size_t       hs_got;        /* verdict bytes read                      */
    tcp_verdict_t verdict;
    tcp_msg_t   *q_head, *q_tail;
    size_t       q_bytes;
    /* receive: frames parsed from rbuf[roff..rlen) */
    uint8_t     *rbuf;
    size_t       rcap, rlen;
    /* a large payload read straight to where its owner wants it
     * (xb_am_place): the frame's head and header stay in rbuf meanwhile */
    uint8_t     *pdst;          /* non-NULL: reading the payload there     */
    size_t       pgot, plen;    /* bytes of it read, payload bytes         */
    size_t       skip;          /* padding after it, still to drop         */
    char         tried[256];    /* addresses tried and why, for the error  */
    int          bufsize;       /* xb_tcp_buffer_size hint; 0 none         */
    bool         foreign;       /* a process of another job (dpm)          */
    xb_proc_id_t fid;           /* foreign: its job key and rank there     */
    xb_tcp_addr_t addr;         /* the peer's blob                         */
} tcp_peer_t;

typedef struct tcp_accept {     /* an accepted socket before its hello */
    int          kind;          /* TCP_K_ACCEPT */
    int          fd;
    struct tcp_accept *next;
    size_t       got;
    double       deadline;
    char         from[64];
    bool         parked;        /* a complete foreign hello from a process
                                   not yet in the peer table (tcp_foreign.c) */
    tcp_hello_t  hello;
} tcp_accept_t;

typedef struct tcp_listener {
    int          kind;          /* TCP_K_LISTEN */
    int          fd;
    struct sockaddr_storage sa; /* AF_INET or AF_INET6, with the port */
} tcp_listener_t;

typedef struct xb_tcp {
    xb_method_t   *m;
    const xb_rt_info_t *rt;
    int            epfd;
    int            wake_kind;     /* TCP_K_WAKE: epoll dispatch of wakefd   */
    int            wakefd;        /* eventfd: another thread wakes block()  */
    tcp_listener_t lis[XB_TCP_MAX_ADDRS];
    int            nlis;
    tcp_peer_t   **peers;        /* [npeers], created on first need       */
    int            npeers;       /* world size + processes of other jobs  */
    uint64_t       job_key;      /* hash of the secret (tcp_foreign.c)    */
    tcp_accept_t  *accepts;      /* pending hellos                        */
    uint8_t        secret[XB_TCP_SECRET_LEN];
    bool           have_secret;  /* from the launcher (XB_JOB_SECRET)     */
    bool           in_progress;  /* re-entry guard of progress()          */
    bool           finalizing;   /* fini: drain, discard arrivals         */
    int            nopen;        /* UP connections                        */
    tcp_peer_t    *direct[TCP_DIRECT_MAX]; /* UP connections, while nopen is
                                  * at most TCP_DIRECT_MAX (tcp_progress)  */
    int            ndirect;
    int            full_countdown; /* direct polls until the next epoll_wait */
    unsigned long  rejected;     /* foreign / bad connections closed      */
    char           ifdesc[256];  /* chosen interfaces, for describe       */
} xb_tcp_t;

extern xb_tcp_t xb_tcp;

/* tcp_iface.c: choose interfaces, open the listeners (init). */
int  xb_tcp_listen(xb_tcp_t *st);
/* Is this address (AF_INET or AF_INET6) a loopback one (127/8, ::1)? */
bool xb_tcp_sa_loopback(const struct sockaddr *sa);
/* "1.2.3.4:5" or "[fd00::1]:5". */
const char *xb_tcp_fmt(const struct sockaddr *sa, char *buf, size_t len);
/* Blob entry i <-> socket address. */
socklen_t xb_tcp_sa_of(const xb_tcp_addr_t *a, int i, struct sockaddr_storage *ss);
void xb_tcp_entry_set(xb_tcp_addr_t *a, int i, const struct sockaddr *sa);
double xb_tcp_now(void);

/* tcp_conn.c: connections and the handshake. */
tcp_peer_t *xb_tcp_peer(xb_tcp_t *st, int rank);            /* create if absent */
int  xb_tcp_peer_addr(xb_tcp_t *st, tcp_peer_t *p);         /* fetch the blob   */
int  xb_tcp_connect(xb_tcp_t *st, tcp_peer_t *p);
void xb_tcp_connect_ready(xb_tcp_t *st, tcp_peer_t *p);     /* EPOLLOUT while connecting */
int  xb_tcp_verdict_readable(xb_tcp_t *st, tcp_peer_t *p);
void xb_tcp_accept_ready(xb_tcp_t *st, tcp_listener_t *l);
void xb_tcp_hello_readable(xb_tcp_t *st, tcp_accept_t *a);
void xb_tcp_accept_expire(xb_tcp_t *st);
void xb_tcp_accept_close(xb_tcp_t *st, tcp_accept_t *a, const char *why);
void xb_tcp_set_sockopts(int fd);
void xb_tcp_hello_valid(xb_tcp_t *st, tcp_accept_t *a, int rank);
bool xb_tcp_secret_ok(const uint8_t *a, const uint8_t *b);
/* tcp_foreign.c */
extern const char xb_tcp_hello_magic_x[8];
void xb_tcp_hello_foreign(xb_tcp_t *st, tcp_accept_t *a);
void xb_tcp_job_key_set(xb_tcp_t *st);
void xb_tcp_set_bufsize(int fd, int bytes);                 /* 0: nothing */
int  xb_tcp_peer_hint(xb_method_t *m, xb_gpid_t peer, const char *key, const char *value);
int  xb_tcp_epoll(xb_tcp_t *st, int op, int fd, void *ptr, bool out);

/* tcp_io.c: frames out and in. */
int  xb_tcp_send(tcp_peer_t *p, uint8_t am_id, const void *hdr, size_t hdr_len,
                 const xb_payload_t *pl, xb_am_done_t *done);
int  xb_tcp_queue_raw(tcp_peer_t *p, const void *buf, size_t len, bool front);
int  xb_tcp_flush(xb_tcp_t *st, tcp_peer_t *p);             /* <0: connection lost */
int  xb_tcp_readable(xb_tcp_t *st, tcp_peer_t *p);           /* frames handled   */
void xb_tcp_peer_lost(xb_tcp_t *st, tcp_peer_t *p, const char *why);
void xb_tcp_update_out(xb_tcp_t *st, tcp_peer_t *p);
void xb_tcp_free_queue(tcp_peer_t *p, int status);
/* tcp_method.c: the list of connections polled directly. */
void xb_tcp_direct_add(xb_tcp_t *st, tcp_peer_t *p);
void xb_tcp_direct_remove(xb_tcp_t *st, tcp_peer_t *p);

#endif
