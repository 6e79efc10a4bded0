/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/replay/replay.c - the decision stream of a replay file: written while a run
 * records, compared while a run replays.  The format is in sim/replay/replay.h;
 * the header and the file names are sim/replay/replay_file.c.
 *
 * Stage: trace/report, beside the flow.  Called by the machine through
 * sim_decision()/sim_draw() (sim/machine/machine.c, sim/machine/runheap.c) at every
 * decision, and by the CLI's child process (sim/cli/cli.c) to start and
 * finish; calls sim/replay/replay_file.c for the header, sim/scenario/config.c for the
 * one-line error of a corrupt file, and reads the machine's clocks for
 * the time of a divergence.
 *
 * Both directions stream: a fixed write buffer, one line read at a time.
 * A simulated failure ends the process with exit(3) in the middle of the
 * run; an atexit() handler then ends the record (its "end" line) and
 * checks that the replayed file ends there too, so a failed run is
 * recorded whole and its replay is checked to the failure.  The record
 * is written through sim/host/outfile.h: into a temporary, renamed over
 * its name once its "end" line is written; the failure report ends it
 * first (sim_record_end()), so that it names the file only once written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/host/outfile.h"
#include "sim/scenario/config.h"
#include "sim/machine/machine.h"
#include "sim/replay/replay.h"

#define REC_BUF		(64 * 1024)	/* record write buffer		*/
#define DEC_LINE_MAX	128		/* longest decision line	*/
#define DEC_EOF		SIM_DEC_NR	/* "kind" of the file's end	*/

int sim_replay_active;

/* One decision: as taken by the run, or as read from the file. */
struct dec {
	enum sim_decision kind;		/* DEC_EOF: the file ended	*/
	uint64_t a, b, c;
};

static const char dec_letter[SIM_DEC_NR] = {
	[SIM_DEC_SWITCH] = 'S', [SIM_DEC_TIE] = 'T',
	[SIM_DEC_JITTER] = 'J', [SIM_DEC_SLACK] = 'L', [SIM_DEC_END] = 'e',
	[SIM_DEC_EXPLORE] = 'X', [SIM_DEC_DRAIN] = 'D',
};
static const int dec_fields[SIM_DEC_NR] = {
	[SIM_DEC_SWITCH] = 3, [SIM_DEC_TIE] = 2, [SIM_DEC_JITTER] = 2,
	[SIM_DEC_SLACK] = 2, [SIM_DEC_END] = 1, [SIM_DEC_EXPLORE] = 2,
	[SIM_DEC_DRAIN] = 2,
};

static struct {
	struct sim_outfile out;	/* out.f: NULL when not recording	*/
	uint64_t n;		/* decisions written			*/
	int failed_only;	/* kept only if the run fails		*/
	int err;		/* the record was not written		*/
	size_t len;
	char buf[REC_BUF];
} rec;

static struct {
	FILE *f;
	char *path;
	int line;		/* line of the next decision		*/
	uint64_t n;		/* decisions compared			*/
	int checking;		/* compares until the first divergence	*/
	int diverged;
	int exiting;		/* in the atexit() handler		*/
} rep;

static int finished;		/* sim_replay_finish() ran		*/

/* ---- writing -------------------------------------------------------------- */

static void rec_flush(void)
{
	if (rec.len)	/* an error is caught by the stream, said at the end */
		fwrite(rec.buf, 1, rec.len, rec.out.f);
	rec.len = 0;
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static void rec_put(const struct dec *d)
{
	const uint64_t v[3] = { d->a, d->b, d->c };
	char *p;

	if (rec.len > REC_BUF - DEC_LINE_MAX)
		rec_flush();
	p = rec.buf + rec.len;
	if (d->kind == SIM_DEC_END) {
		for (const char *w = "end"; *w; )
			*p++ = *w++;
	} else {
		*p++ = dec_letter[d->kind];
	}
	for (int i = 0; i < dec_fields[d->kind] && i < 3; i++) {
		*p++ = ' ';
		p = put_u64(p, v[i]);
	}
	*p++ = '\n';
	rec.len = (size_t)(p - rec.buf);
}

/* ---- reading -------------------------------------------------------------- */

/* Parse " N" fields into @v; Return: 0, or -1 if @p is not exactly that. */
static int get_fields(const char *p, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (*p++ != ' ' || *p < '0' || *p > '9')
			return -1;
		v[i] = 0;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (v[i] > (UINT64_MAX - 9) / 10)
				return -1;
			v[i] = v[i] * 10 + (uint64_t)(*p - '0');
		}
	}
	return *p == '\n' ? 0 : -1;
}

static int parse_dec(const char *line, struct dec *d)
{
	uint64_t v[3] = { 0, 0, 0 };
	int k;

	if (!strncmp(line, "end", 3)) {
		k = SIM_DEC_END;
		line += 3;
	} else {
		for (k = 0; k < SIM_DEC_END && dec_letter[k] != line[0]; k++)
			;
		if (k == SIM_DEC_END)
			return -1;
		line++;
	}
	if (get_fields(line, v, dec_fields[k]))
		return -1;
	/* T, J, L and X pick their second field below their first. */
	if (dec_fields[k] == 2 && k != SIM_DEC_END && v[1] >= v[0])
		return -1;
	*d = (struct dec){ .kind = (enum sim_decision)k,
			   .a = v[0], .b = v[1], .c = v[2] };
	return 0;
}

/* A complete line that is no decision: bad input.  In the atexit()
 * handler the process is already ending: the line is printed only. */
static void rep_corrupt(const char *line)
{
	static const char expected[] =
		"a decision line: S TIME CPU TID, T N K, J BOUND VALUE, L BOUND VALUE, X N K (each K or VALUE below its N or BOUND) or end N";
	struct sim_origin at = { .file = rep.path, .line = rep.line };
	char v[DEC_LINE_MAX];

	rep.checking = 0;
	snprintf(v, sizeof(v), "%.*s", (int)strcspn(line, "\n"), line);
	if (!rep.exiting)
		sim_config_fail(&at, NULL, expected, v);
	fprintf(stderr, "futexsim: %s:%d: expected %s, got '%s'\n",
		rep.path, rep.line, expected, v);
}

/* The next decision of the file into @d.  Return: 0, or -1 if corrupt. */
static int rep_read(struct dec *d)
{
	char line[DEC_LINE_MAX];
	size_t len;

	*d = (struct dec){ .kind = DEC_EOF };
	if (!fgets(line, sizeof(line), rep.f))
		return 0;
	len = strlen(line);
	if (!len || line[len - 1] != '\n') {
		if (feof(rep.f))
			return 0;	/* cut inside its last line */
		rep_corrupt(line);
		return -1;
	}
	if (parse_dec(line, d)) {
		rep_corrupt(line);
		return -1;
	}
	return 0;
}

/* ---- comparing ------------------------------------------------------------ */

/* Simulated time for a message: the executing CPU's, else the latest. */
static uint64_t report_now_ps(void)
{
	uint64_t max = 0;

	if (sim_cur)
		return sim_now_ps();
	for (int i = 0; i < sim.nr_cpus && i < SIM_MAX_CPUS; i++)
		if (sim.cpus[i].now_ps > max)
			max = sim.cpus[i].now_ps;
	return max;
}

/* @ps as "5.123456 ms", with three more digits when not whole ns. */
static const char *fmt_ms(uint64_t ps, char *buf, size_t len)
{
	uint64_t ns = ps / 1000;
	int n = snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ns / 1000000),
			 (unsigned long long)(ns % 1000000));

	if (ps % 1000 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%03llu",
			 (unsigned long long)(ps % 1000));
	snprintf(buf + strlen(buf), len - strlen(buf), " ms");
	return buf;
}

/* What @d is, in words; @when: say when a switch was. */
static const char *describe(const struct dec *d, int when, char *buf,
			    size_t len)
{
	char t[48];
	unsigned long long a = d->a, b = d->b;

	switch ((int)d->kind) {
	case SIM_DEC_SWITCH:
		snprintf(buf, len, "switch to cpu %llu task %llu%s%s", b,
			 (unsigned long long)d->c, when ? " at " : "",
			 when ? fmt_ms(d->a, t, sizeof(t)) : "");
		break;
	case SIM_DEC_TIE:
		snprintf(buf, len, "tie-break %llu among %llu cpus", b, a);
		break;
	case SIM_DEC_JITTER:
		snprintf(buf, len, "jitter draw %llu below %llu", b, a);
		break;
	case SIM_DEC_SLACK:
		snprintf(buf, len, "timer slack draw %llu below %llu", b, a);
		break;
	case SIM_DEC_EXPLORE:
		snprintf(buf, len, "explore pick %llu among %llu cpus", b, a);
		break;
	case SIM_DEC_DRAIN:
		snprintf(buf, len, "store drain draw %llu below %llu", b, a);
		break;
	case SIM_DEC_END:
		snprintf(buf, len, "the end of the run");
		break;
	default:
		snprintf(buf, len, "nothing (the file ends)");
	}
	return buf;
}

static int same(const struct dec *want, const struct dec *got)
{
	if (want->kind != got->kind)
		return 0;
	switch ((int)got->kind) {
	case SIM_DEC_END:
		return 1;	/* its count is for the reader only */
	case SIM_DEC_SWITCH:
		if (want->c != got->c)
			return 0;
		/* fall through */
	default:
		return want->a == got->a && want->b == got->b;
	}
}

static void diverge(const struct dec *want, const struct dec *got)
{
	char t[48], w[128], g[128];
	int when = want->kind == SIM_DEC_SWITCH && got->kind == SIM_DEC_SWITCH &&
		   want->a != got->a;

	fprintf(stderr,
		"futexsim: replay: diverged at decision %llu (t=%s, %s:%d): recorded %s, got %s\n",
		(unsigned long long)rep.n, fmt_ms(report_now_ps(), t, sizeof(t)),
		rep.path, rep.line, describe(want, when, w, sizeof(w)),
		describe(got, when, g, sizeof(g)));
	fflush(stderr);
	rep.checking = 0;
	rep.diverged = 1;
}

static void rep_check(const struct dec *got)
{
	struct dec want;

	rep.n++;
	if (rep_read(&want))
		return;
	if (!same(&want, got))
		diverge(&want, got);
	rep.line++;
}

void sim__decision(enum sim_decision kind, uint64_t a, uint64_t b,
		   uint64_t c)
{
	const struct dec d = { .kind = kind, .a = a, .b = b, .c = c };

	if (rep.checking)
		rep_check(&d);
	if (rec.out.f) {
		rec.n++;
		rec_put(&d);
	}
}

int sim_replay_forced(uint64_t n, uint64_t *k)
{
	long at;
	struct dec d;
	char line[DEC_LINE_MAX];

	if (!rep.checking || (at = ftell(rep.f)) < 0)
		return 0;
	d.kind = DEC_EOF;
	if (fgets(line, sizeof(line), rep.f) && parse_dec(line, &d))
		d.kind = DEC_EOF;
	fseek(rep.f, at, SEEK_SET);
	if (d.kind != SIM_DEC_EXPLORE || d.a != n || d.b >= n)
		return 0;
	*k = d.b;
	return 1;
}

/* ---- start and finish ----------------------------------------------------- */

/*
 * The record's "end" line, then the file renamed into place; @keep 0:
 * removed instead (the run did not fail and only a failure is kept).
 * In a process forked from the recording one, nothing: it is not ours.
 */
static void rec_end(int keep)
{
	struct dec end = { .kind = SIM_DEC_END, .a = rec.n };

	if (!rec.out.f)
		return;
	if (!sim_outfile_mine(&rec.out) || !keep) {
		rec.len = 0;
		sim_outfile_discard(&rec.out);
		return;
	}
	rec_put(&end);
	rec_flush();
	if (sim_outfile_commit(&rec.out))
		rec.err = 1;	/* its line is printed */
}

int sim_record_end(void)
{
	rec_end(1);
	return rec.err ? -1 : 0;
}

void sim_record_discard(void)
{
	rec_end(0);
}

/* The end of the run, normal (@failed 0) or not: the last "decision". */
static void finish(int failed)
{
	struct dec end = { .kind = SIM_DEC_END };

	if (finished)
		return;
	finished = 1;
	if (rep.checking) {
		end.a = rep.n;
		rep_check(&end);
	}
	if (rep.f)
		fclose(rep.f);
	rep.f = NULL;
	rep.checking = 0;
	rec_end(failed || !rec.failed_only);
	sim_replay_active = 0;
}

void sim_replay_end_now(void)
{
	rep.exiting = 1;
	finish(1);
}

static void arm(void)
{
	static int armed;

	if (!armed)
		atexit(sim_replay_end_now);
	armed = 1;
	finished = 0;
	sim_replay_active = 1;
}

int sim_record_start(const char *path, const struct sim_scenario *s)
{
	if (sim_outfile_open(&rec.out, path))
		return -1;
	sim__replay_header(rec.out.f, s);
	rec.n = 0;
	rec.len = 0;
	rec.err = 0;
	rec.failed_only = 0;
	arm();
	return 0;
}

void sim_record_failed_only(void)
{
	rec.failed_only = 1;
}

void sim_replay_start(const struct sim_replay_src *src)
{
	static const struct sim_origin cmdline = { .file = "command line" };
	char expected[160];
	FILE *f = fopen(src->path, "r");

	if (!f || fseek(f, src->offset, SEEK_SET)) {
		snprintf(expected, sizeof(expected), "a readable replay file (%s)",
			 strerror(errno));
		sim_config_fail(&cmdline, NULL, expected, src->path);
	}
	free(rep.path);
	rep.path = strdup(src->path);
	rep.f = f;
	rep.line = src->line;
	rep.n = 0;
	rep.checking = 1;
	rep.diverged = 0;
	rep.exiting = 0;
	arm();
}

int sim_replay_finish(void)
{
	finish(0);
	if (rec.err)
		exit(SIM_EXIT_HOST);	/* its line is printed */
	return rep.diverged ? SIM_EXIT_DIVERGED : 0;
}
