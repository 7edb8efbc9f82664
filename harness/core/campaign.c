/*
 * campaign.c — running a campaign's runs here (in this process or on worker processes), as a
 * shard, or taking them from merged shard files (campaign.h says what each is).
 *
 * Worker processes: each is forked once and runs the indices the parent hands it one at a
 * time over a pipe (the next free worker takes the next run, so long and short runs even
 * out), and sends back the run's record and what the run wrote on stdout and stderr (both go
 * to a scratch file in the worker). The parent keeps what arrives early and takes the records,
 * and shows the output, in run order. Processes rather than threads: the Verilated models of
 * one process share its one VerilatedContext (harness/core/vl_common.cpp).
 *
 * A shard file, line by line (a record is one line of JSON):
 *   ftsim shard 1
 *   revision REV        the ftsim that ran it
 *   command CMD         e.g. faultcheck, experiment
 *   arg WORD            the command's arguments but --jobs and --shard, one a line
 *   param KEY VALUE     every parameter that affects the results, as the command names them
 *   runs R
 *   shards N
 *   shard K
 *   slurm JOB...        only under Slurm: SLURM_JOB_ID=J SLURM_ARRAY_JOB_ID=A SLURM_ARRAY_TASK_ID=T
 *   run I RECORD        each run i of the campaign with i % N == K-1, in order
 *   end COUNT SECONDS   the shard is complete: COUNT records, SECONDS of wall time
 * The header and each record are flushed as written: a shard killed part way keeps its header,
 * so a merge names it (K) and the command that runs it again.
 */
#include "campaign.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MODE_ALL, MODE_SHARD, MODE_MERGED };

typedef struct strs {
    char **v;
    unsigned n, cap;
} strs_t;

struct campaign {
    int mode;
    unsigned jobs, k, n; /* shard k of n */
    char revision[128], command[64];
    strs_t args;   /* the arguments but --jobs and --shard */
    strs_t params; /* "KEY VALUE", as the command declared them */
    /* merged: the shards' parameters, the runs' records, where they came from */
    strs_t mparams;
    unsigned runs;
    char **recs;
    long long secs;
    char first[512]; /* the first shard's path, for messages */
    unsigned param_line;
    unsigned ran; /* runs done here */
    time_t t0;
};

static int strs_add(strs_t *s, const char *str)
{
    if (s->n == s->cap) {
        unsigned cap = s->cap ? 2 * s->cap : 16;
        char **v = realloc(s->v, (cap + 1) * sizeof *v);
        if (!v)
            return -1;
        s->v = v, s->cap = cap;
    }
    if (!(s->v[s->n] = strdup(str)))
        return -1;
    s->v[++s->n] = NULL; /* an argv: NULL-terminated */
    return 0;
}

static void strs_free(strs_t *s)
{
    for (unsigned i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

int campaign_parse_shard(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    campaign_opts_t *o = dst;
    unsigned k, n;
    char c;
    if (sscanf(val, "%u/%u%c", &k, &n, &c) != 2 || k < 1 || k > n || n > 100000 ||
        strspn(val, "0123456789/") != strlen(val))
        return -1;
    o->shard_k = k, o->shard_n = n;
    return 0;
}

/* Is argv[i] --jobs or --shard (how many words it takes: 1 or 2), or not (0)? */
static int campaign_word(char *const *argv, int argc, int i)
{
    static const char *const names[] = {"--jobs", "--shard"};
    for (unsigned k = 0; k < 2; k++) {
        size_t l = strlen(names[k]);
        if (!strncmp(argv[i], names[k], l) && argv[i][l] == '=')
            return 1;
        if (!strcmp(argv[i], names[k]))
            return i + 1 < argc ? 2 : 1;
    }
    return 0;
}

campaign_t *campaign_new(const campaign_opts_t *o, const char *revision, const char *command,
                         int argc, char *const *argv, char *err, size_t errlen)
{
    campaign_t *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->mode = o->shard_n ? MODE_SHARD : MODE_ALL;
    c->jobs = o->jobs ? o->jobs : 1;
    c->k = o->shard_k, c->n = o->shard_n;
    snprintf(c->revision, sizeof c->revision, "%s", revision);
    snprintf(c->command, sizeof c->command, "%s", command);
    for (int i = 0; i < argc;) {
        int skip = campaign_word(argv, argc, i);
        if (skip) {
            i += skip;
            continue;
        }
        if (c->mode == MODE_SHARD && strchr(argv[i], '\n')) {
            snprintf(err, errlen, "an argument with a line break cannot go in a shard's header");
            campaign_free(c);
            return NULL;
        }
        if (strs_add(&c->args, argv[i++]) < 0) {
            snprintf(err, errlen, "out of memory");
            campaign_free(c);
            return NULL;
        }
    }
    return c;
}

void campaign_free(campaign_t *c)
{
    if (!c)
        return;
    strs_free(&c->args);
    strs_free(&c->params);
    strs_free(&c->mparams);
    if (c->recs)
        for (unsigned i = 0; i < c->runs; i++)
            free(c->recs[i]);
    free(c->recs);
    free(c);
}

const char *campaign_command(const campaign_t *c) { return c->command; }

char **campaign_args(const campaign_t *c, int *argc)
{
    *argc = (int)c->args.n;
    return c->args.v;
}

void campaign_param(campaign_t *c, const char *key, const char *fmt, ...)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "%s ", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    for (char *p = line; *p; p++) /* one line each in the header */
        if (*p == '\n')
            *p = ' ';
    strs_add(&c->params, line); /* out of memory: the merge refuses the shorter list */
}

int campaign_reporting(const campaign_t *c) { return c->mode != MODE_SHARD; }
int campaign_parallel(const campaign_t *c) { return c->mode != MODE_MERGED && c->jobs > 1; }
int campaign_merged(const campaign_t *c) { return c->mode == MODE_MERGED; }

unsigned campaign_ran(const campaign_t *c) { return c->ran; }

long long campaign_seconds(const campaign_t *c)
{
    return c->mode == MODE_MERGED ? c->secs : (long long)(time(NULL) - c->t0);
}

/* ---- running ---------------------------------------------------------------------------- */

/* Where the records go while the runs are done here: taken into the report, or written into
 * the shard file. */
typedef struct sink {
    campaign_t *c;
    const campaign_hooks_t *h;
    void *ctx;
    FILE *shard; /* MODE_SHARD */
    unsigned written;
    char *err;
    size_t errlen;
} sink_t;

/* Record i: 0 on, 1 the report ends, -1 an error. */
static int sink_put(sink_t *s, unsigned i, const char *rec)
{
    if (strchr(rec, '\n')) {
        snprintf(s->err, s->errlen, "run %u: a record with a line break", i);
        return -1;
    }
    if (!s->shard)
        return s->h->take(s->ctx, i, rec, s->err, s->errlen);
    fprintf(s->shard, "run %u %s\n", i, rec);
    fflush(s->shard);
    s->written++;
    return 0;
}

/* Run i into a record (malloc'ed, in *rec): 0, or -1 with the message in *rec. */
static int run_one(const campaign_hooks_t *h, void *ctx, unsigned i, char **rec)
{
    char err[1024] = "";
    campaign_w_t w;
    campaign_w_begin(&w);
    int rc = w.o ? h->run(ctx, i, &w, err, sizeof err) : -1;
    *rec = campaign_w_end(&w);
    if (!*rec && rc >= 0)
        snprintf(err, sizeof err, "out of memory"), rc = -1;
    if (rc < 0) {
        free(*rec);
        *rec = strdup(err[0] ? err : "out of memory");
    }
    return rc < 0 ? -1 : 0;
}

static ssize_t io_full(int fd, void *buf, size_t n, int wr)
{
    size_t done = 0;
    while (done < n) {
        ssize_t k =
            wr ? write(fd, (char *)buf + done, n - done) : read(fd, (char *)buf + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? -1 : (ssize_t)done;
        done += (size_t)k;
    }
    return (ssize_t)done;
}

/* What a worker sends back for a run: this, then the record (or the message), then what the
 * run wrote. */
typedef struct wmsg {
    uint32_t run;
    int32_t rc;
    uint64_t reclen, loglen;
} wmsg_t;

/* A worker: runs the indices it is handed until its task pipe closes; never returns. */
static void worker_main(const campaign_hooks_t *h, void *ctx, int tfd, int rfd)
{
    FILE *cap = tmpfile();
    if (!cap)
        _exit(3);
    int cfd = fileno(cap);
    dup2(cfd, 1); /* what a run prints goes back to the parent, shown in run order */
    dup2(cfd, 2);
    uint32_t i;
    while (io_full(tfd, &i, sizeof i, 0) == (ssize_t)sizeof i) {
        if (ftruncate(cfd, 0) < 0 || lseek(cfd, 0, SEEK_SET) < 0)
            _exit(3);
        char *rec = NULL;
        int rc = run_one(h, ctx, i, &rec);
        fflush(stdout);
        fflush(stderr);
        struct stat st;
        size_t loglen = fstat(cfd, &st) == 0 ? (size_t)st.st_size : 0;
        char *log = malloc(loglen + 1);
        if (!log || !rec || pread(cfd, log, loglen, 0) != (ssize_t)loglen)
            _exit(3);
        wmsg_t m = {i, rc, strlen(rec), loglen};
        if (io_full(rfd, &m, sizeof m, 1) != (ssize_t)sizeof m ||
            io_full(rfd, rec, m.reclen, 1) != (ssize_t)m.reclen ||
            io_full(rfd, log, loglen, 1) != (ssize_t)loglen)
            _exit(3);
        free(rec);
        free(log);
    }
    _exit(0);
}

typedef struct worker {
    pid_t pid;
    int tfd, rfd; /* the task pipe's write end, the result pipe's read end */
    int busy;
} worker_t;

/* The runs of the share handed out to `nw` workers; records put to the sink in order. */
typedef struct pool {
    worker_t *w;
    unsigned nw;
    const unsigned *share; /* share[pos] = share[0] + pos * step */
    unsigned nshare, step, next_task, next_put, done;
    char **rec, **log; /* by position in the share, until put */
    size_t *loglen;
    int *rc;
} pool_t;

static int pool_hand(pool_t *p, worker_t *w)
{
    if (p->next_task == p->nshare)
        return 0;
    uint32_t i = p->share[p->next_task++];
    w->busy = 1;
    return io_full(w->tfd, &i, sizeof i, 1) == (ssize_t)sizeof i ? 0 : -1;
}

static int pool_start(pool_t *p, const campaign_hooks_t *h, void *ctx, char *err, size_t errlen)
{
    for (unsigned k = 0; k < p->nw; k++) {
        int t[2], r[2];
        if (pipe(t) < 0 || pipe(r) < 0) {
            snprintf(err, errlen, "cannot make a pipe for a worker: %s", strerror(errno));
            return -1;
        }
        fflush(NULL); /* nothing buffered here is written twice */
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(err, errlen, "cannot start a worker process: %s", strerror(errno));
            close(t[0]), close(t[1]), close(r[0]), close(r[1]);
            return -1;
        }
        if (pid == 0) {
            for (unsigned j = 0; j < k; j++)
                close(p->w[j].tfd), close(p->w[j].rfd);
            close(t[1]), close(r[0]);
            worker_main(h, ctx, t[0], r[1]);
        }
        close(t[0]), close(r[1]);
        p->w[k] = (worker_t){pid, t[1], r[0], 0};
        if (pool_hand(p, &p->w[k]) < 0) {
            snprintf(err, errlen, "cannot hand a run to a worker");
            return -1;
        }
    }
    return 0;
}

/* One message from worker w; 0, or -1 when it died. */
static int pool_collect(pool_t *p, worker_t *w, char *err, size_t errlen)
{
    wmsg_t m;
    if (io_full(w->rfd, &m, sizeof m, 0) != (ssize_t)sizeof m) {
        int st = 0;
        waitpid(w->pid, &st, 0);
        w->pid = 0;
        snprintf(err, errlen, "a worker process died (%s %d) during a run",
                 WIFSIGNALED(st) ? "signal" : "exit status",
                 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        return -1;
    }
    unsigned pos = m.run >= p->share[0] ? (m.run - p->share[0]) / p->step : p->nshare;
    if (pos < p->nshare && p->share[pos] != m.run)
        pos = p->nshare;
    char *rec = malloc(m.reclen + 1), *log = malloc(m.loglen + 1);
    if (pos == p->nshare || !rec || !log ||
        io_full(w->rfd, rec, m.reclen, 0) != (ssize_t)m.reclen ||
        io_full(w->rfd, log, m.loglen, 0) != (ssize_t)m.loglen) {
        free(rec), free(log);
        snprintf(err, errlen, "a worker process sent a broken message");
        return -1;
    }
    rec[m.reclen] = 0;
    p->rec[pos] = rec, p->log[pos] = log, p->loglen[pos] = m.loglen, p->rc[pos] = m.rc;
    w->busy = 0;
    p->done++;
    return 0;
}

/* The records that are next in order, to the sink: 0 on, 1 the report ends, -1 an error. */
static int pool_put(pool_t *p, sink_t *s)
{
    while (p->next_put < p->nshare && p->rec[p->next_put]) {
        unsigned pos = p->next_put++;
        fwrite(p->log[pos], 1, p->loglen[pos], stderr);
        int rc = -1;
        if (p->rc[pos] < 0)
            snprintf(s->err, s->errlen, "run %u: %s", p->share[pos], p->rec[pos]);
        else
            rc = sink_put(s, p->share[pos], p->rec[pos]);
        free(p->rec[pos]), free(p->log[pos]);
        p->rec[pos] = p->log[pos] = NULL;
        if (rc)
            return rc;
    }
    return 0;
}

static int pool_loop(pool_t *p, sink_t *s)
{
    struct pollfd *fds = calloc(p->nw, sizeof *fds);
    if (!fds)
        return snprintf(s->err, s->errlen, "out of memory"), -1;
    int rc = 0;
    while (rc == 0 && p->next_put < p->nshare) {
        for (unsigned k = 0; k < p->nw; k++)
            fds[k] = (struct pollfd){p->w[k].busy ? p->w[k].rfd : -1, POLLIN, 0};
        if (poll(fds, p->nw, -1) < 0) {
            if (errno == EINTR)
                continue;
            snprintf(s->err, s->errlen, "poll: %s", strerror(errno));
            rc = -1;
            break;
        }
        for (unsigned k = 0; k < p->nw && rc == 0; k++) {
            if (!fds[k].revents)
                continue;
            rc = pool_collect(p, &p->w[k], s->err, s->errlen);
            s->c->ran += rc == 0;
            if (rc == 0 && s->h->progress)
                s->h->progress(s->ctx, p->done, p->nshare);
            if (rc == 0 && pool_hand(p, &p->w[k]) < 0) {
                snprintf(s->err, s->errlen, "cannot hand a run to a worker");
                rc = -1;
            }
        }
        if (rc == 0)
            rc = pool_put(p, s);
    }
    free(fds);
    return rc;
}

/* The share on worker processes. */
static int run_pool(sink_t *s, const unsigned *share, unsigned nshare)
{
    pool_t p = {.share = share, .nshare = nshare, .step = s->c->mode == MODE_SHARD ? s->c->n : 1};
    p.nw = s->c->jobs < nshare ? s->c->jobs : nshare;
    p.w = calloc(p.nw, sizeof *p.w);
    p.rec = calloc(nshare, sizeof *p.rec);
    p.log = calloc(nshare, sizeof *p.log);
    p.loglen = calloc(nshare, sizeof *p.loglen);
    p.rc = calloc(nshare, sizeof *p.rc);
    int rc = -1;
    void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* a worker that died is an error, not ours */
    if (!p.w || !p.rec || !p.log || !p.loglen || !p.rc)
        snprintf(s->err, s->errlen, "out of memory");
    else if (pool_start(&p, s->h, s->ctx, s->err, s->errlen) == 0)
        rc = pool_loop(&p, s);
    for (unsigned k = 0; p.w && k < p.nw; k++) {
        if (p.w[k].tfd <= 0)
            continue;      /* never started */
        close(p.w[k].tfd); /* an idle worker ends; a busy one is not needed any more */
        close(p.w[k].rfd);
        if (p.w[k].pid && p.w[k].busy)
            kill(p.w[k].pid, SIGKILL);
        if (p.w[k].pid)
            waitpid(p.w[k].pid, NULL, 0);
    }
    signal(SIGPIPE, old);
    for (unsigned k = 0; p.rec && k < nshare; k++)
        free(p.rec[k]), free(p.log[k]);
    free(p.w), free(p.rec), free(p.log), free(p.loglen), free(p.rc);
    return rc;
}

/* The share in this process. */
static int run_here(sink_t *s, const unsigned *share, unsigned nshare)
{
    for (unsigned k = 0; k < nshare; k++) {
        char *rec = NULL;
        int rc = run_one(s->h, s->ctx, share[k], &rec);
        s->c->ran++;
        if (rc < 0)
            snprintf(s->err, s->errlen, "run %u: %s", share[k], rec ? rec : "out of memory");
        else
            rc = sink_put(s, share[k], rec);
        free(rec);
        if (rc)
            return rc;
    }
    return 0;
}

static void shard_header(const campaign_t *c, FILE *f, unsigned runs)
{
    fprintf(f, "ftsim shard 1\nrevision %s\ncommand %s\n", c->revision, c->command);
    for (unsigned i = 0; i < c->args.n; i++)
        fprintf(f, "arg %s\n", c->args.v[i]);
    for (unsigned i = 0; i < c->params.n; i++)
        fprintf(f, "param %s\n", c->params.v[i]);
    fprintf(f, "runs %u\nshards %u\nshard %u\n", runs, c->n, c->k);
    /* where it ran, when a Slurm job ran it (a value that is not one plain word shows as -) */
    static const char *const slurm[] = {"SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID"};
    if (getenv(slurm[0])) {
        fprintf(f, "slurm");
        for (unsigned i = 0; i < 3; i++) {
            const char *v = getenv(slurm[i]);
            int plain = v && *v && strlen(v) < 64 && strspn(v, "0123456789_") == strlen(v);
            fprintf(f, " %s=%s", slurm[i], plain ? v : "-");
        }
        fprintf(f, "\n");
    }
    fflush(f);
}

/* Merged: the records, once the shards are shown to be this campaign. */
static int take_merged(campaign_t *c, unsigned runs, const campaign_hooks_t *h, void *ctx,
                       char *err, size_t errlen)
{
    unsigned n = c->params.n > c->mparams.n ? c->params.n : c->mparams.n;
    for (unsigned i = 0; i < n; i++)
        if (i >= c->params.n || i >= c->mparams.n || strcmp(c->params.v[i], c->mparams.v[i])) {
            snprintf(err, errlen, "%s:%u: param %s, but its arguments give %s here", c->first,
                     c->param_line + i, i < c->mparams.n ? c->mparams.v[i] : "(none)",
                     i < c->params.n ? c->params.v[i] : "(none)");
            return -1;
        }
    if (runs != c->runs) {
        snprintf(err, errlen, "%s: %u runs, but its arguments give %u here", c->first, c->runs,
                 runs);
        return -1;
    }
    for (unsigned i = 0; i < runs; i++) {
        int rc = h->take(ctx, i, c->recs[i], err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

int campaign_exec(campaign_t *c, unsigned runs, const campaign_hooks_t *h, void *ctx, char *err,
                  size_t errlen)
{
    c->t0 = time(NULL);
    if (c->mode == MODE_MERGED)
        return take_merged(c, runs, h, ctx, err, errlen);
    unsigned *share = malloc((runs ? runs : 1) * sizeof *share), nshare = 0;
    if (!share)
        return snprintf(err, errlen, "out of memory"), -1;
    for (unsigned i = 0; i < runs; i++)
        if (c->mode == MODE_ALL || i % c->n == c->k - 1)
            share[nshare++] = i;
    sink_t s = {c, h, ctx, NULL, 0, err, errlen};
    int out = -1;
    if (c->mode == MODE_SHARD) {
        /* the shard file is stdout; anything else a run prints goes to stderr */
        fflush(stdout);
        out = dup(1);
        if (out < 0 || dup2(2, 1) < 0 || !(s.shard = fdopen(out, "w"))) {
            free(share);
            return snprintf(err, errlen, "cannot write the shard on stdout"), -1;
        }
        shard_header(c, s.shard, runs);
    }
    int rc = c->jobs > 1 && nshare > 1 ? run_pool(&s, share, nshare) : run_here(&s, share, nshare);
    free(share);
    if (s.shard) {
        if (rc == 0)
            fprintf(s.shard, "end %u %lld\n", s.written, campaign_seconds(c));
        if ((fclose(s.shard) != 0) && rc == 0) {
            snprintf(err, errlen, "cannot write the shard on stdout");
            rc = -1;
        }
    }
    return rc;
}

/* ---- merging ---------------------------------------------------------------------------- */

typedef struct shard {
    const char *path;
    FILE *f;
    unsigned line;
    char *buf; /* the line just read, without its line break */
    size_t cap;
    int pending; /* buf holds a line read ahead, not yet taken */
    char revision[128], command[64];
    strs_t args, params;
    unsigned params_line, runs, n, k, k_line;
} shard_t;

static int next_line(shard_t *s)
{
    if (s->pending) {
        s->pending = 0;
        return 0;
    }
    ssize_t n = getline(&s->buf, &s->cap, s->f);
    if (n < 0)
        return -1;
    if (n > 0 && s->buf[n - 1] == '\n')
        s->buf[--n] = 0;
    s->line++;
    return 0;
}

/* Is the line read "KEY VALUE"? Its value, or NULL. */
static const char *keyed(const shard_t *s, const char *key)
{
    size_t kl = strlen(key);
    return !strncmp(s->buf, key, kl) && s->buf[kl] == ' ' ? s->buf + kl + 1 : NULL;
}

/* The next line, which must be "KEY VALUE": its value, or NULL with a message. */
static const char *expect(shard_t *s, const char *key, char *err, size_t errlen)
{
    if (next_line(s) < 0) {
        snprintf(err, errlen, "%s:%u: the file ends where '%s' was due", s->path, s->line + 1, key);
        return NULL;
    }
    const char *v = keyed(s, key);
    if (!v)
        snprintf(err, errlen, "%s:%u: '%s ...' expected, not '%.60s'", s->path, s->line, key,
                 s->buf);
    return v;
}

/* The line read is "KEY N": N into *v. */
static int line_uint(const shard_t *s, const char *key, unsigned *v, char *err, size_t errlen)
{
    const char *val = keyed(s, key);
    char *e = NULL;
    unsigned long x = val ? strtoul(val, &e, 10) : 0;
    if (!val || !*val || *e || x > 0xffffffffUL || *val == '-') {
        snprintf(err, errlen, "%s:%u: '%s N' expected, not '%.60s'", s->path, s->line, key, s->buf);
        return -1;
    }
    *v = (unsigned)x;
    return 0;
}

static int expect_uint(shard_t *s, const char *key, unsigned *v, char *err, size_t errlen)
{
    return expect(s, key, err, errlen) ? line_uint(s, key, v, err, errlen) : -1;
}

/* The header of a shard, up to "shard K". */
static int shard_header_read(shard_t *s, char *err, size_t errlen)
{
    const char *v;
    if (next_line(s) < 0 || strcmp(s->buf, "ftsim shard 1")) {
        snprintf(err, errlen, "%s:1: not an ftsim shard file (it should begin 'ftsim shard 1')",
                 s->path);
        return -1;
    }
    if (!(v = expect(s, "revision", err, errlen)))
        return -1;
    snprintf(s->revision, sizeof s->revision, "%s", v);
    if (!(v = expect(s, "command", err, errlen)))
        return -1;
    snprintf(s->command, sizeof s->command, "%s", v);
    int more;
    while ((more = next_line(s) == 0) && (v = keyed(s, "arg")))
        if (strs_add(&s->args, v) < 0)
            return snprintf(err, errlen, "out of memory"), -1;
    s->params_line = s->line;
    for (; more && (v = keyed(s, "param")); more = next_line(s) == 0)
        if (strs_add(&s->params, v) < 0)
            return snprintf(err, errlen, "out of memory"), -1;
    if (!more) {
        snprintf(err, errlen, "%s:%u: the file ends where 'runs' was due", s->path, s->line + 1);
        return -1;
    }
    if (line_uint(s, "runs", &s->runs, err, errlen) < 0 ||
        expect_uint(s, "shards", &s->n, err, errlen) < 0 ||
        expect_uint(s, "shard", &s->k, err, errlen) < 0)
        return -1;
    s->k_line = s->line;
    if (s->n < 1 || s->k < 1 || s->k > s->n) {
        snprintf(err, errlen, "%s:%u: shard %u of %u", s->path, s->line, s->k, s->n);
        return -1;
    }
    if (next_line(s) == 0 && !keyed(s, "slurm")) /* where it ran, if it says: not checked */
        s->pending = 1;
    return 0;
}

/* Two lists (arguments, parameters) the same, or a message naming b's first difference. */
static int same_list(const shard_t *a, const strs_t *la, unsigned a0, const shard_t *b,
                     const strs_t *lb, unsigned b0, const char *what, char *err, size_t errlen)
{
    for (unsigned i = 0; i < la->n || i < lb->n; i++) {
        if (i < la->n && i < lb->n && !strcmp(la->v[i], lb->v[i]))
            continue;
        if (i >= la->n)
            snprintf(err, errlen, "%s:%u: %s '%s', which %s has not", b->path, b0 + i, what,
                     lb->v[i], a->path);
        else if (i >= lb->n)
            snprintf(err, errlen, "%s:%u: no %s '%s', which %s:%u has", b->path, b0 + i, what,
                     la->v[i], a->path, a0 + i);
        else
            snprintf(err, errlen, "%s:%u: %s '%s', but %s:%u has '%s'", b->path, b0 + i, what,
                     lb->v[i], a->path, a0 + i, la->v[i]);
        snprintf(err + strlen(err), errlen - strlen(err),
                 " (the shards of a campaign differ only in --shard and --jobs)");
        return -1;
    }
    return 0;
}

/* Shard b is of the same campaign as a (the first). */
static int shard_agrees(const shard_t *a, const shard_t *b, char *err, size_t errlen)
{
    if (strcmp(a->revision, b->revision)) {
        snprintf(err, errlen, "%s:2: revision %s, but %s:2 has %s (one ftsim runs a campaign)",
                 b->path, b->revision, a->path, a->revision);
        return -1;
    }
    if (strcmp(a->command, b->command)) {
        snprintf(err, errlen, "%s:3: command %s, but %s:3 has %s", b->path, b->command, a->path,
                 a->command);
        return -1;
    }
    if (same_list(a, &a->args, 4, b, &b->args, 4, "arg", err, errlen) < 0 ||
        same_list(a, &a->params, a->params_line, b, &b->params, b->params_line, "param", err,
                  errlen) < 0)
        return -1;
    if (a->runs != b->runs || a->n != b->n) {
        snprintf(err, errlen, "%s:%u: %u runs in %u shards, but %s:%u has %u runs in %u shards",
                 b->path, b->k_line - 2, b->runs, b->n, a->path, a->k_line - 2, a->runs, a->n);
        return -1;
    }
    return 0;
}

/* Appends to out (of len bytes) the command line that runs shard k/n of the campaign of header
 * h again, into file `path` (NULL: a placeholder), each word quoted for a POSIX shell. */
static void rerun_cmd(const shard_t *h, unsigned k, const char *path, char *out, size_t len)
{
    size_t at = strlen(out);
    const char *words[3] = {"ftsim", h->command, NULL};
    for (unsigned i = 0; i < 2 + h->args.n && at + 1 < len; i++) {
        const char *w = i < 2 ? words[i] : h->args.v[i - 2];
        int plain = *w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789_-+=/.,:@%") == strlen(w);
        at += (size_t)snprintf(out + at, len - at, i ? " " : "");
        if (plain) {
            at += (size_t)snprintf(out + at, len - at, "%s", w);
            continue;
        }
        at += (size_t)snprintf(out + at, len - at, "'");
        for (const char *p = w; *p && at + 1 < len; p++)
            if (*p == '\'')
                at += (size_t)snprintf(out + at, len - at, "'\\''");
            else
                at += (size_t)snprintf(out + at, len - at, "%c", *p);
        at += (size_t)snprintf(out + at, len - at, "'");
    }
    if (at + 1 < len)
        snprintf(out + at, len - at, " --shard %u/%u > %s", k, h->n, path ? path : "SHARD-FILE");
}

/* The records of shard s, after its header, into recs (each run of the shard once, in order),
 * up to its "end" line; *secs gets its seconds. */
static int shard_records_(shard_t *s, char **recs, long long *secs, char *err, size_t errlen);
static int shard_records(shard_t *s, char **recs, long long *secs, char *err, size_t errlen)
{
    int rc = shard_records_(s, recs, secs, err, errlen);
    if (rc < 0) {
        size_t at = strlen(err);
        snprintf(err + at, errlen - at, "\n%s:%u: shard %u/%u failed; run it again: ", s->path,
                 s->k_line, s->k, s->n);
        rerun_cmd(s, s->k, s->path, err, errlen);
    }
    return rc;
}

static int shard_records_(shard_t *s, char **recs, long long *secs, char *err, size_t errlen)
{
    unsigned want = s->k - 1, count = 0;
    for (;;) {
        if (next_line(s) < 0) {
            snprintf(err, errlen,
                     "%s:%u: no 'end' line: the shard is cut short (its run stopped: "
                     "killed, or it failed)",
                     s->path, s->line + 1);
            return -1;
        }
        unsigned c;
        long long t;
        char x;
        if (sscanf(s->buf, "end %u %lld%c", &c, &t, &x) == 2) {
            if (want < s->runs) {
                snprintf(err, errlen,
                         "%s:%u: ends without run %u (shard %u/%u has every run "
                         "i with i %% %u == %u)",
                         s->path, s->line, want, s->k, s->n, s->n, s->k - 1);
                return -1;
            }
            if (c != count) {
                snprintf(err, errlen, "%s:%u: says %u runs, holds %u", s->path, s->line, c, count);
                return -1;
            }
            *secs += t;
            if (next_line(s) == 0) {
                snprintf(err, errlen, "%s:%u: more after the 'end' line", s->path, s->line);
                return -1;
            }
            return 0;
        }
        unsigned i;
        int at = 0;
        if (sscanf(s->buf, "run %u %n", &i, &at) != 1 || !at || !s->buf[at] ||
            strncmp(s->buf, "run ", 4)) {
            snprintf(err, errlen, "%s:%u: 'run I RECORD' or 'end' expected, not '%.60s'", s->path,
                     s->line, s->buf);
            return -1;
        }
        if (i >= s->runs || i % s->n != s->k - 1) {
            snprintf(err, errlen, "%s:%u: run %u is not shard %u/%u's (of %u runs)", s->path,
                     s->line, i, s->k, s->n, s->runs);
            return -1;
        }
        if (i != want) {
            if (i < want)
                snprintf(err, errlen, "%s:%u: run %u again, or out of order", s->path, s->line, i);
            else
                snprintf(err, errlen, "%s:%u: run %u missing (the next is %u)", s->path, s->line,
                         want, i);
            return -1;
        }
        memmove(s->buf, s->buf + at, strlen(s->buf + at) + 1);
        campaign_rec_t r;
        char why[256];
        if (campaign_rec_parse(&r, s->buf, why, sizeof why) < 0) {
            snprintf(err, errlen, "%s:%u: run %u: %s", s->path, s->line, i, why);
            return -1;
        }
        campaign_rec_free(&r);
        recs[i] = s->buf; /* the record keeps the line's buffer */
        s->buf = NULL, s->cap = 0;
        want += s->n, count++;
    }
}

static void shard_close(shard_t *s)
{
    if (s->f)
        fclose(s->f);
    free(s->buf);
    strs_free(&s->args);
    strs_free(&s->params);
    memset(s, 0, sizeof *s);
}

/* The first shard makes the campaign: its header is the campaign's. */
static int merge_first(campaign_t *c, const shard_t *s, const char *revision, char *err,
                       size_t errlen)
{
    if (strcmp(s->revision, revision)) {
        snprintf(err, errlen,
                 "%s:2: revision %s, but this ftsim is %s (merge with the ftsim that ran the "
                 "shards: the report is its code)",
                 s->path, s->revision, revision);
        return -1;
    }
    snprintf(c->revision, sizeof c->revision, "%.127s", s->revision);
    snprintf(c->command, sizeof c->command, "%.63s", s->command);
    snprintf(c->first, sizeof c->first, "%s", s->path);
    for (unsigned i = 0; i < s->args.n; i++)
        if (strs_add(&c->args, s->args.v[i]) < 0)
            return snprintf(err, errlen, "out of memory"), -1;
    for (unsigned i = 0; i < s->params.n; i++)
        if (strs_add(&c->mparams, s->params.v[i]) < 0)
            return snprintf(err, errlen, "out of memory"), -1;
    c->param_line = s->params_line;
    c->runs = s->runs, c->n = s->n;
    c->recs = calloc(s->runs ? s->runs : 1, sizeof *c->recs);
    return c->recs ? 0 : (snprintf(err, errlen, "out of memory"), -1);
}

/* One shard file into the campaign: its header checked (the first makes the campaign's, the
 * others must agree with it), its records taken. have[k]: the file (+1) that holds shard k.
 * -1: not a shard of this campaign; -2: a shard that failed (empty, or its records cut short or
 * broken), with the message naming it: the merge goes on to name every one. */
static int merge_one(campaign_t *c, shard_t *first, shard_t *s, unsigned **have,
                     const char *const *paths, unsigned f, const char *revision, char *err,
                     size_t errlen)
{
    struct stat st;
    if (!(s->f = fopen(paths[f], "r"))) {
        snprintf(err, errlen, "%s: cannot open (%s)", paths[f], strerror(errno));
        return -1;
    }
    if (fstat(fileno(s->f), &st) == 0 && st.st_size == 0) {
        snprintf(err, errlen, "%s:1: empty: its shard wrote nothing (it did not start, or was "
                 "stopped at once)", paths[f]);
        return -2;
    }
    if (shard_header_read(s, err, errlen) < 0)
        return -1;
    if (s == first) {
        if (merge_first(c, s, revision, err, errlen) < 0)
            return -1;
        if (!(*have = calloc(s->n + 1, sizeof **have)))
            return snprintf(err, errlen, "out of memory"), -1;
    } else if (shard_agrees(first, s, err, errlen) < 0) {
        return -1;
    }
    if ((*have)[s->k]) {
        snprintf(err, errlen, "%s:%u: shard %u/%u again (%s has it)", s->path, s->k_line, s->k,
                 s->n, paths[(*have)[s->k] - 1]);
        return -1;
    }
    (*have)[s->k] = f + 1;
    return shard_records(s, c->recs, &c->secs, err, errlen) < 0 ? -2 : 0;
}

campaign_t *campaign_merge(const char *const *paths, unsigned n, const char *revision, char *err,
                           size_t errlen)
{
    campaign_t *c = calloc(1, sizeof *c);
    if (!c)
        return snprintf(err, errlen, "out of memory"), NULL;
    c->mode = MODE_MERGED;
    shard_t first = {0}; /* kept open to the end: the others are compared with its header */
    int have_first = 0;
    unsigned *have = NULL;
    size_t at = 0; /* the messages of the shards that failed, one a line, in err */
    int rc = n ? 0 : (snprintf(err, errlen, "ftsim merge: no shard files"), -1);
    for (unsigned f = 0; f < n && rc == 0; f++) {
        shard_t other = {0}, *s = have_first ? &other : &first;
        s->path = paths[f];
        char msg[2048] = "";
        int one = merge_one(c, &first, s, &have, paths, f, revision, msg, sizeof msg);
        have_first |= s == &first && have;
        if (s == &other || !have_first)
            shard_close(s);
        if (one == -1) {
            snprintf(err, errlen, "%s", msg);
            rc = -1;
        } else if (one == -2 && at + 1 < errlen) {
            at += (size_t)snprintf(err + at, errlen - at, "%s%s", at ? "\n" : "", msg);
        }
    }
    for (unsigned k = 1; rc == 0 && have && k <= c->n; k++)
        if (!have[k] && at + 1 < errlen) {
            at += (size_t)snprintf(err + at, errlen - at,
                                   "%sftsim merge: shard %u/%u missing: no file given holds it; "
                                   "run it: ",
                                   at ? "\n" : "", k, c->n);
            rerun_cmd(&first, k, NULL, err, errlen);
            at = strlen(err);
        }
    if (rc == 0 && !have && !at)
        snprintf(err, errlen, "ftsim merge: no shard files"), at = 1;
    shard_close(&first);
    free(have);
    if (rc < 0 || at) {
        campaign_free(c);
        return NULL;
    }
    return c;
}
