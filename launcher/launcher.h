/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * launcher.h - mpiexec's internal interface (see docs/design/launcher.md).
 *
 * Lifecycle: main() parses the command line (cli.c), creates the job segment
 * (jobseg.c), starts the ranks (start_local.c: fork on this host; remote.c:
 * one proxy per other host, started by ssh or --launcher-exec, which runs
 * start_local.c there: proxy.c), then runs ONE poll loop (loop.c) until every rank has been reaped and its
 * output drained. Everything that happens is a reaction to an fd becoming
 * ready in that loop or to a deadline passing:
 *   signalfd           -> exit.c    (SIGCHLD: reap; SIGINT/SIGTERM: end job)
 *   rank PMI socket    -> pmi_server.c (command table; kvs.c, barrier.c)
 *   rank stdout/stderr -> stdio.c   (line-atomic forwarding)
 *   our stdin          -> stdio.c   (to rank 0)
 *   proxy channels     -> remote.c  (frames: PMI, output, rank ends)
 *   deadlines          -> exit.c (SIGKILL after grace), timeout.c, remote.c
 *
 * Threading: one thread. Ownership: the job owns everything; fds of the
 * launcher are close-on-exec, the children get exactly stdio, the PMI socket
 * and the job segment.
 *
 * Exit status of mpiexec (also in launcher/README.md): 0 all ranks ended
 * well; the first failing rank's exit code, or 128+signal; the code given to
 * MPI_Abort; 124 on --timeout; 128+N when mpiexec got signal N; 127 when the
 * program cannot be started; 2 for a bad command line; 1 for other errors of
 * mpiexec itself.
 */
#ifndef XB_LAUNCHER_H
#define XB_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/pmi_wire.h"
#include "util/pmi_spawn.h"

#define LX_EXIT_USAGE    2
#define LX_EXIT_ERROR    1
#define LX_EXIT_TIMEOUT  124
#define LX_EXIT_NOEXEC   127
#define LX_EXIT_NOFINALIZE 1   /* rank ended without finalize, status 0 */

/* Time between SIGTERM and SIGKILL when the job is ended. Ranks are
 * expected to die at once on SIGTERM; the grace is for wrappers (shell
 * scripts) to clean up, and keeps "the others end within a second". */
#define LX_KILL_GRACE_S  0.5
/* After the last rank is reaped, how long to wait for its output pipes to
 * reach end of file (a daemonised grandchild may hold them open). */
#define LX_DRAIN_MAX_S   1.0

typedef struct lx_envvar {
    char *name;
    char *value;                 /* NULL: take the value from our environment */
} lx_envvar_t;

typedef struct lx_app {         /* one ':'-separated program (MPMD) */
    char       **argv;           /* program and its arguments, NULL-ended */
    int          nprocs;
    const char  *wdir;           /* -wdir: its working directory, or NULL */
} lx_app_t;

#define LX_HOST_MAX 256

typedef struct lx_hostspec {     /* one -hosts / hostfile entry */
    char         name[LX_HOST_MAX];
    int          slots;          /* 0: not given */
} lx_hostspec_t;

typedef struct lx_opts {
    int          nprocs;         /* all apps together */
    const char  *launcher_exec;  /* --launcher-exec: remote-start command (NULL: ssh) */
    const char  *proxy_path;     /* --proxy-path: mpiexec on the remote hosts (NULL: ours) */
    bool         proxy_mode;     /* --xb-proxy: we are a host's proxy (remote.c) */
    lx_hostspec_t *hosts;        /* -hosts / -f; none: this host only */
    int          nhosts;
    int          ppn;            /* -ppn: ranks per host, 0 not given */
    bool         local_hosts;    /* --local-hosts: every host is this machine */
    lx_app_t    *apps;           /* rank r belongs to the app whose range holds r */
    int          napps;
    lx_envvar_t *env;
    int          nenv;
    bool         env_none;       /* -genvnone: only what -x/-genv name */
    bool         bind_core;      /* pin rank i to the i-th allowed CPU        */
    bool         bind_set;       /* --bind-to given; else core when the ranks
                                  * of this machine fit its allowed CPUs     */
    bool         tag_output;
    double       timeout_s;      /* 0: none */
    bool         verbose;
    bool         spawned;        /* --xb-spawned: a job started by a spawn */
    lx_envvar_t *preput;         /* --xb-preput K=V: KVS pairs at start     */
    int          npreput;
} lx_opts_t;

typedef struct lx_stream {       /* one output pipe of a rank */
    int    fd;                   /* -1 once closed */
    int    dest;                 /* 1 or 2 */
    bool   midline;              /* a partial line was forced out */
    char  *buf;
    size_t len, cap;
} lx_stream_t;

typedef struct lx_rank {
    int        rank;
    int        host, local;      /* index in job->hosts, rank on that host */
    int        app;              /* index in opt.apps = its appnum */
    pid_t      pid;
    int        pmi_fd;           /* our end of the socketpair; -1 closed */
    xb_pmiw_reader_t rd;
    lx_stream_t out, err;
    bool       remote;           /* started by its host's proxy (remote.c) */
    char      *remote_waiting;   /* --timeout: what its proxy says it waits in */
    bool       pmi_init, finalized, in_barrier, aborted, exited;
    int        nbad;             /* malformed PMI requests seen */
    int        wstatus;
    struct xb_pmiw_spawn *mcmd;  /* a spawn request being read (spawn.c) */
} lx_rank_t;

typedef struct lx_kvs lx_kvs_t;

/* A job started by MPI_Comm_spawn (spawn.c): an mpiexec of its own, our
 * child, with PMI_SPAWNED=1 for its ranks and the parents' port in its KVS.
 * Its output goes where ours goes; we wait for it, include its status in
 * ours, and end it with ours. */
typedef struct lx_spawned {
    struct lx_spawned *next;
    pid_t      pid;
    int        parent_rank;      /* the rank that asked */
    bool       reaped;
    char       what[128];        /* "./child (3 processes)" for messages */
} lx_spawned_t;

/* A framed byte channel between mpiexec and a proxy (chan.c): frames of
 * LX_FRAME_HDR bytes (payload length, type, rank; network order) + payload.
 * Output is buffered and written when the fd is writable. */
#define LX_FRAME_HDR   12
#define LX_FRAME_MAX   (16u << 20)
#define LX_CHAN_HIGH   (4u << 20)   /* stop reading rank output above this */

enum lx_frame_type {
    /* proxy -> mpiexec */
    LX_F_HELLO = 1, LX_F_PID, LX_F_PMI, LX_F_OUT, LX_F_ERR, LX_F_EXIT, LX_F_MSG,
    LX_F_FAIL, LX_F_STDIN_ACK, LX_F_STATUS, LX_F_STATUS_END,
    /* mpiexec -> proxy */
    LX_F_SETUP = 32, LX_F_PMI_REPLY, LX_F_SIGNAL, LX_F_STDIN, LX_F_STDIN_EOF,
    LX_F_STATUS_ASK,
};

typedef struct lx_chan {
    int    rfd, wfd;             /* -1 when closed */
    char  *in;                   /* received bytes; [inoff, inlen) not yet parsed */
    size_t inlen, inoff, taken, incap;
    char  *out;                  /* frames not yet written */
    size_t outlen, outcap;
    bool   eof;                  /* rfd reached end of file (or failed) */
} lx_chan_t;

typedef struct lx_proxy {        /* mpiexec's view of one host's proxy */
    int        host;
    pid_t      pid;              /* the remote-start command we forked */
    lx_chan_t  ch;
    int        errfd;            /* its stderr (ssh's messages) */
    char       errtail[1024];    /* its stderr before HELLO, for the failure message */
    size_t     errlen;
    bool       hello, reaped, done, lost;
    int        wstatus;
    int        nlive;            /* its ranks not yet reported ended */
    size_t     stdin_inflight;   /* bytes sent to rank 0, not yet acknowledged */
    double     hello_by;
    char       cmd[512];         /* the remote-start command, for messages */
} lx_proxy_t;

typedef struct lx_host {         /* a host of the job (a node) */
    char       name[LX_HOST_MAX];
    int        nranks;
    bool       remote;           /* started by a proxy, not forked here */
    int        proxy;            /* index in job->proxies; -1: started here */
    int        seg_fd;           /* its job segment (memfd) */
    void      *seg;              /* our mapping of header + status slots */
    size_t     seg_len;
} lx_host_t;

typedef struct lx_job {
    lx_opts_t  opt;
    int        n;
    lx_rank_t *ranks;
    char       host[256];
    char       kvsname[64];
    char       mapping[512];
    lx_host_t *hosts;            /* [nhosts] (lx_hosts_place) */
    int        nhosts;
    lx_proxy_t *proxies;         /* [nproxies]: one per remote host (remote.c) */
    int        nproxies;
    lx_chan_t  up;               /* proxy mode: the channel to mpiexec (fds 0, 1) */
    int        proxy_host;       /* proxy mode: the host we start */
    bool       in_fed;           /* proxy mode: stdin comes in frames, not yet ended */
    int        status_wait;      /* --timeout: proxies yet to report their ranks */
    bool       status_asked;
    pid_t      self;
    int        sigfd;
    lx_kvs_t  *kvs;
    /* stdin -> rank 0 */
    int        in_src, in_dst;   /* -1 when closed */
    char       inbuf[65536];
    size_t     inlen;
    /* state */
    int        nlive;            /* ranks not yet reaped */
    int        nbarrier;         /* ranks waiting in the PMI barrier */
    bool       ending;           /* SIGTERM sent; SIGKILL at kill_at */
    bool       killed;           /* SIGKILL sent */
    bool       failed;           /* exit_code fixed by the first failure */
    int        exit_code;
    double     kill_at, timeout_at, drain_until;
    lx_spawned_t *spawned;       /* spawn.c: jobs started for MPI_Comm_spawn */
    int        nspawned_live;    /* of them not yet reaped */
    struct lx_names *names;      /* names.c: MPI_Publish_name's services */
} lx_job_t;

/* util (main.c) */
extern lx_chan_t *lx_msg_chan;   /* proxy mode: messages go to mpiexec */
extern char lx_last_msg[1024];   /* the text of the last message (proxy mode) */
extern bool lx_msg_quiet;        /* only keep the text in lx_last_msg */
extern const char *lx_msg_label; /* after "mpiexec: " (a spawned job says so) */
double lx_now(void);
void   lx_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int    lx_write_all(int fd, const char *buf, size_t len);

int    lx_job_setup(lx_job_t *job);

/* cli.c: 0 run, 1 exit 0 (help/version printed), -1 usage error printed */
int  lx_cli_parse(int argc, char **argv, lx_opts_t *o);

/* hosts.c: -hosts / -f entries; placement of ranks on hosts */
int  lx_hosts_from_list(lx_opts_t *o, const char *list);
int  lx_hosts_from_file(lx_opts_t *o, const char *path);
int  lx_hosts_place(lx_job_t *job);
const char *lx_rank_host(const lx_job_t *job, const lx_rank_t *r);

/* jobseg.c: one segment per host */
int  lx_jobseg_create(lx_job_t *job);
const char *lx_jobseg_waiting(const lx_job_t *job, const lx_rank_t *r, int *pid_p);

/* start_local.c: fork every rank of the hosts started here (not remote) */
int  lx_start_local(lx_job_t *job);
/* The environment common to all ranks (NULL-terminated); *nbase entries. */
char **lx_base_env(const lx_opts_t *o, int *nbase);
void   lx_free_base_env(char **base, int nbase);
/* The job secret (64 hex digits); proxies get mpiexec's in the setup. */
const char *lx_job_secret(void);
void lx_set_job_secret(const char *hex);

/* chan.c: framed channels */
void lx_chan_init(lx_chan_t *c, int rfd, int wfd);
int  lx_chan_send(lx_chan_t *c, int type, int rank, const void *buf, size_t len);
int  lx_chan_sendf(lx_chan_t *c, int type, int rank, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Write what is buffered (nonblocking); -1 when the peer is gone. */
int  lx_chan_flush(lx_chan_t *c);
/* Flush with waiting, at most ms milliseconds. */
void lx_chan_drain_out(lx_chan_t *c, int ms);
/* Read what the fd has: >0 bytes read, 0 nothing now, -1 end of file/error. */
long lx_chan_fill(lx_chan_t *c);
/* Next complete frame: 1 (type, rank, payload valid until the next call), 0
 * none yet, -1 corrupt stream. */
int  lx_chan_next(lx_chan_t *c, int *type, int *rank, const char **p, size_t *len);
void lx_chan_close(lx_chan_t *c);

/* remote.c: mpiexec's side of the proxies */
int  lx_remote_start(lx_job_t *job);
/* Bytes read from the proxy's channel (its frames handled), 0 none, -1 gone. */
long lx_remote_readable(lx_job_t *job, lx_proxy_t *p);
void lx_remote_err_readable(lx_job_t *job, lx_proxy_t *p);
void lx_remote_reaped(lx_job_t *job, lx_proxy_t *p, int wstatus);
void lx_remote_signal(lx_job_t *job, int sig);
void lx_remote_deadlines(lx_job_t *job, double now);
double lx_remote_next_deadline(const lx_job_t *job);
void lx_remote_pmi_send(lx_job_t *job, lx_rank_t *r, const char *buf, size_t len);
void lx_remote_stdin(lx_job_t *job);
/* --timeout: ask every live proxy what its ranks wait in; how many asked. */
int  lx_remote_ask_status(lx_job_t *job);
lx_proxy_t *lx_remote_stdin_proxy(lx_job_t *job);
bool lx_remote_stdin_wanted(lx_job_t *job);

/* proxy.c: the proxy mode (mpiexec --xb-proxy, started on a remote host) */
int  lx_proxy_main(lx_job_t *job);
void lx_proxy_readable(lx_job_t *job);
void lx_proxy_rank_exited(lx_job_t *job, lx_rank_t *r);

/* loop.c */
int  lx_loop_run(lx_job_t *job);

/* pmi_server.c */
/* Returns 1 when bytes were read (more may wait), 0 otherwise. */
int  lx_pmi_readable(lx_job_t *job, lx_rank_t *r);
void lx_pmi_close(lx_job_t *job, lx_rank_t *r);
/* Send "cmd=<cmd> rc=0" to rank r. */
void lx_pmi_reply(lx_job_t *job, lx_rank_t *r, const char *cmd);
/* Serve one request line of rank r (a local rank's, or relayed by a proxy). */
void lx_pmi_dispatch(lx_job_t *job, lx_rank_t *r, const char *line, size_t len);
/* Send a formatted answer to rank r (local or through its proxy). */
void lx_pmi_answer(lx_job_t *job, lx_rank_t *r, xb_pmiw_out_t *o);
/* Send "cmd=<cmd> rc=<rc> msg=<msg>" (msg: no spaces). */
void lx_pmi_reply_rc(lx_job_t *job, lx_rank_t *r, const char *cmd, int rc, const char *msg);
/* Write bytes to a local rank's PMI socket (waits briefly when full). */
void lx_pmi_write(lx_job_t *job, lx_rank_t *r, const char *buf, size_t len);

/* kvs.c */
lx_kvs_t   *lx_kvs_new(void);
int         lx_kvs_put(lx_kvs_t *kvs, const char *key, const char *val);
const char *lx_kvs_get(const lx_kvs_t *kvs, const char *key);
void        lx_kvs_free(lx_kvs_t *kvs);

/* barrier.c */
void lx_barrier_enter(lx_job_t *job, lx_rank_t *r);
/* After a rank exited: end the job if the barrier can no longer complete. */
void lx_barrier_check(lx_job_t *job, lx_rank_t *gone);

/* stdio.c */
int  lx_stream_open(lx_stream_t *s, int fd, int dest);
/* Returns 1 when bytes were read (more may wait), 0 otherwise. */
int  lx_stream_readable(lx_job_t *job, lx_rank_t *r, lx_stream_t *s);
void lx_stream_close(lx_job_t *job, lx_rank_t *r, lx_stream_t *s);
/* Write out bytes of a rank's stream (tagging lines when asked). */
void lx_stream_emit(lx_job_t *job, lx_rank_t *r, lx_stream_t *s, const char *buf, size_t len);
void lx_stdin_readable(lx_job_t *job);
void lx_stdin_writable(lx_job_t *job);
void lx_stdin_close(lx_job_t *job);

/* exit.c: signals, reaping, failure policy, ending the job */
int  lx_signals_setup(lx_job_t *job);
void lx_signals_restore_child(void);   /* in a child before exec */
void lx_signal_readable(lx_job_t *job);
/* Rank r ended with wait status st (reaped here, or reported by a proxy). */
void lx_rank_ended(lx_job_t *job, lx_rank_t *r, int st);
/* Send sig to every local rank not yet reaped. */
void lx_kill_local(lx_job_t *job, int sig);
void lx_fail(lx_job_t *job, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void lx_end_job(lx_job_t *job);
void lx_deadlines(lx_job_t *job, double now);
const char *lx_signame(int sig, char *buf, size_t len);

/* spawn.c: the multi-line spawn request of rank r (a line of it); reaping
 * and signalling the spawned jobs. */
void lx_spawn_line(lx_job_t *job, lx_rank_t *r, const char *line, size_t len);
bool lx_spawn_reaped(lx_job_t *job, pid_t pid, int st);
void lx_spawn_signal(lx_job_t *job, int sig);
void lx_spawn_free(lx_job_t *job);

/* names.c: publish_name, unpublish_name, lookup_name */
void lx_names_publish(lx_job_t *job, lx_rank_t *r, const char *service, const char *port);
void lx_names_unpublish(lx_job_t *job, lx_rank_t *r, const char *service);
void lx_names_lookup(lx_job_t *job, lx_rank_t *r, const char *service);
void lx_names_free(lx_job_t *job);

/* timeout.c */
void lx_timeout_fire(lx_job_t *job);

#endif
