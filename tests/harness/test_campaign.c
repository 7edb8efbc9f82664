/* test_campaign.c — campaigns (harness/core/campaign.c): records read back bit for bit, and
 * one campaign run here, on worker processes, and as three shards merged takes the same
 * records in the same order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "campaign.h"

static int same_bits(double a, double b) { return !memcmp(&a, &b, sizeof a); }

static void records(void)
{
    static const double d[] = {0.1, -0.0, 1e-310, 1.0 / 3.0, 6.02214076e23, 255.99999999999997};
    static const uint64_t u[] = {0, 1, UINT64_MAX};
    campaign_w_t w;
    campaign_w_begin(&w);
    campaign_w_u64(&w, "u", UINT64_MAX);
    campaign_w_dbl(&w, "nan", NAN);
    campaign_w_dbl(&w, "inf", -INFINITY);
    campaign_w_str(&w, "s", "a \"quoted\" back\\slash,\nline\ttab \x01 é");
    campaign_w_dbls(&w, "d", d, 6);
    campaign_w_u64s(&w, "us", u, 3);
    campaign_w_dbls(&w, "empty", d, 0);
    char *text = campaign_w_end(&w);
    CHECK(!strchr(text, '\n'), "a record is one line: %s", text);
    campaign_rec_t r;
    char err[200];
    CHECK(campaign_rec_parse(&r, text, err, sizeof err) == 0, "parse: %s", err);
    CHECK(campaign_rec_u64(&r, "u") == UINT64_MAX, "u64");
    CHECK(isnan(campaign_rec_dbl(&r, "nan")), "NaN");
    CHECK(campaign_rec_dbl(&r, "inf") == -INFINITY, "-inf");
    CHECK(!strcmp(campaign_rec_str(&r, "s"), "a \"quoted\" back\\slash,\nline\ttab \x01 é"),
          "string: '%s'", campaign_rec_str(&r, "s"));
    double back[6];
    CHECK(campaign_rec_dbls(&r, "d", back, 6) == 6, "6 doubles");
    for (unsigned i = 0; i < 6; i++)
        CHECK(same_bits(back[i], d[i]), "double %u: %.17g read back as %.17g", i, d[i], back[i]);
    uint64_t ub[3];
    CHECK(campaign_rec_u64s(&r, "us", ub, 3) == 3 && ub[2] == UINT64_MAX && ub[1] == 1,
          "u64 array");
    CHECK(campaign_rec_dbls(&r, "empty", back, 6) == 0, "empty array");
    CHECK(r.bad == NULL, "nothing misread: %s", r.bad ? r.bad : "");
    campaign_rec_u64(&r, "absent");
    CHECK(r.bad && !strcmp(r.bad, "absent"), "a missing key is named");
    campaign_rec_free(&r);
    free(text);
    CHECK(campaign_rec_parse(&r, "{\"a\": 1, ", err, sizeof err) < 0, "a cut record refused");
    CHECK(campaign_rec_parse(&r, "{\"a\": 1} x", err, sizeof err) < 0,
          "text after a record refused");
    CHECK(campaign_rec_parse(&r, "[1]", err, sizeof err) < 0,
          "a record that is not an object refused");
    CHECK(campaign_rec_parse(&r, "{\"a\": -1, \"b\": 1.5}", err, sizeof err) == 0, "a record");
    campaign_rec_u64(&r, "a");
    CHECK(r.bad && !strcmp(r.bad, "a"), "a negative number is no unsigned word");
    r.bad = NULL;
    campaign_rec_u64(&r, "b");
    CHECK(r.bad && !strcmp(r.bad, "b"), "a fraction is no unsigned word");
    campaign_rec_free(&r);
}

static void shard_option(void)
{
    campaign_opts_t o = {0};
    CHECK(campaign_parse_shard(&o, "2/3", NULL, 0) == 0 && o.shard_k == 2 && o.shard_n == 3, "2/3");
    CHECK(campaign_parse_shard(&o, "4/3", NULL, 0) < 0, "4/3 refused");
    CHECK(campaign_parse_shard(&o, "0/3", NULL, 0) < 0, "0/3 refused");
    CHECK(campaign_parse_shard(&o, "1/3x", NULL, 0) < 0, "1/3x refused");
    CHECK(campaign_parse_shard(&o, "+1/3", NULL, 0) < 0, "+1/3 refused");
}

/* A campaign of R runs whose record is a function of the index; the taker writes what it
 * takes, in order, into a buffer. */
#define R 23
typedef struct ctx {
    char took[R * 64];
    unsigned n;
} ctx_t;

static int t_run(void *c, unsigned i, campaign_w_t *w, char *err, size_t errlen)
{
    (void)c, (void)err, (void)errlen;
    campaign_w_u64(w, "i", i);
    campaign_w_dbl(w, "x", 1.0 / (i + 1));
    if (i % 5 == 0)
        fprintf(stderr, "%s", ""); /* a run may write: the parent shows it */
    return 0;
}

static int t_take(void *c, unsigned i, const char *text, char *err, size_t errlen)
{
    ctx_t *k = c;
    campaign_rec_t r;
    if (campaign_rec_parse(&r, text, err, errlen) < 0)
        return -1;
    double x = campaign_rec_dbl(&r, "x");
    k->n += (unsigned)snprintf(k->took + k->n, sizeof k->took - k->n, "%u:%llu:%a;", i,
                               (unsigned long long)campaign_rec_u64(&r, "i"), x);
    int rc = r.bad ? -1 : 0;
    campaign_rec_free(&r);
    return rc;
}

static const campaign_hooks_t hooks = {t_run, t_take, NULL};

static void run_all(unsigned jobs, ctx_t *k)
{
    char *argv[] = {"--jobs", "3", "x"};
    campaign_opts_t o = {.jobs = jobs};
    char err[200];
    memset(k, 0, sizeof *k);
    campaign_t *c = campaign_new(&o, "test", "test", 3, argv, err, sizeof err);
    CHECK(c && campaign_exec(c, R, &hooks, k, err, sizeof err) == 0, "jobs %u: %s", jobs, err);
    campaign_free(c);
}

static void shards(const ctx_t *whole)
{
    char dir[] = "/tmp/ftsim-campaign-XXXXXX", paths[3][64];
    const char *pp[3];
    CHECK(mkdtemp(dir) != NULL, "a scratch folder");
    for (unsigned s = 0; s < 3; s++) {
        snprintf(paths[s], sizeof paths[s], "%s/%u.shard", dir, s + 1);
        pp[s] = paths[(s + 1) % 3]; /* in another order */
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            if (!freopen(paths[s], "w", stdout))
                _exit(2);
            char *argv[] = {"x"};
            campaign_opts_t o = {.jobs = s == 1 ? 2 : 1, .shard_k = s + 1, .shard_n = 3};
            char err[200];
            campaign_t *c = campaign_new(&o, "test", "test", 1, argv, err, sizeof err);
            campaign_param(c, "p", "%d", 7);
            _exit(c && campaign_exec(c, R, &hooks, NULL, err, sizeof err) == 0 ? 0 : 1);
        }
        int st;
        CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
              "shard %u written", s + 1);
    }
    char err[300];
    campaign_t *m = campaign_merge(pp, 3, "test", err, sizeof err);
    CHECK(m != NULL, "merge: %s", err);
    if (!m)
        return;
    int argc;
    char **argv = campaign_args(m, &argc);
    CHECK(!strcmp(campaign_command(m), "test") && argc == 1 && !strcmp(argv[0], "x"),
          "the merged campaign's command and arguments");
    ctx_t k = {0};
    campaign_param(m, "p", "%d", 7);
    CHECK(campaign_exec(m, R, &hooks, &k, err, sizeof err) == 0, "merged: %s", err);
    CHECK(!strcmp(k.took, whole->took), "merged takes what one process takes");
    campaign_free(m);
    m = campaign_merge(pp, 3, "other", err, sizeof err);
    CHECK(!m && strstr(err, ":2: revision test, but this ftsim is other"), "revision: %s", err);
    campaign_free(m);
    for (unsigned s = 0; s < 3; s++)
        remove(paths[s]);
    rmdir(dir);
}

int main(void)
{
    records();
    shard_option();
    ctx_t one, three;
    run_all(1, &one);
    run_all(3, &three);
    CHECK(one.n > 0 && !strcmp(one.took, three.took), "--jobs 3 takes what --jobs 1 takes");
    shards(&one);
    return check_done();
}
