/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/replay/replay_file.c - the header of a replay file (written by a recording
 * run, read back into a scenario by `futexsim replay`) and the names of
 * replay files.  The format is in sim/replay/replay.h; the decisions after the
 * header are sim/replay/replay.c.
 *
 * Stage: CLI input (reading) and trace/report (writing).  Called by the
 * CLI (sim/cli/cli.c: sim_replay_load() and sim_replay_check() in the parent,
 * the file names) and by
 * sim/replay/replay.c (sim__replay_header() when a record starts); calls
 * sim/scenario/scenario.c to echo and to apply the scenario keys, and sim/scenario/config.c
 * for the one-line error of a bad header (exit 2).
 *
 * The header holds the scenario keys that decide what is simulated.  The
 * output keys (json, record, trace and its window and events, lock-stat,
 * narrate) are left out when writing and refused when reading: a replay
 * writes the outputs its own command line asks for, and never the file
 * it reads.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/host/outfile.h"
#include "sim/scenario/config.h"
#include "sim/replay/replay.h"
#include "sim/scenario/scenario.h"
#include "version.h"

#define HDR_LINE_MAX	4096	/* a header line: every value escaped fits */

enum { SEEN_FUTEXSIM = 1, SEEN_KERNEL = 2, SEEN_SEED = 4 };

static const struct sim_origin cmdline = { .file = "command line" };

/* Keys that name an output or choose what is written to one. */
static int output_key(const char *key)
{
	return !strcmp(key, "json") || !strcmp(key, "record") ||
	       !strcmp(key, "plot") ||
	       !strncmp(key, "trace", 5) || !strcmp(key, "lock-stat") ||
	       !strcmp(key, "narrate");
}

/* ---- writing -------------------------------------------------------------- */

static void header_key(void *ctx, const char *key, const char *value)
{
	if (output_key(key))
		return;
	fprintf(ctx, "%s = ", key);
	sim_config_put_value(ctx, value);
	fputc('\n', ctx);
}

void sim__replay_header(FILE *f, const struct sim_scenario *s)
{
	fprintf(f, "%s\n", SIM_REPLAY_FORMAT);
	fputs("# futexsim replay file: 'futexsim replay FILE' re-runs this run and\n"
	      "# checks every decision; the format is described in sim/replay/replay.h\n",
	      f);
	fprintf(f, "futexsim = %s\nkernel = %s\n", FUTEXSIM_VERSION,
		FUTEXSIM_KERNEL);
	sim_scenario_each(s, header_key, f);
	fputs("decisions\n", f);
}

/* ---- reading -------------------------------------------------------------- */

enum line_kind { LINE_OK, LINE_EOF, LINE_CUT };

/* The next line of @f into @buf, newline and surrounding blanks removed;
 * a line too long for @buf is bad input at @at. */
static enum line_kind read_line(FILE *f, char *buf, size_t len,
				const struct sim_origin *at)
{
	char expected[64];
	size_t n, i = 0;

	if (!fgets(buf, (int)len, f))
		return LINE_EOF;
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	else if (!feof(f)) {
		snprintf(expected, sizeof(expected),
			 "a line of at most %zu characters", len - 2);
		sim_config_fail(at, NULL, expected, NULL);
	} else {
		return LINE_CUT;
	}
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	while (buf[i] == ' ' || buf[i] == '\t')
		i++;
	memmove(buf, buf + i, n - i + 1);
	return LINE_OK;
}

/* Line 1: the format and its version. */
static void check_format(FILE *f, const struct sim_origin *at)
{
	static const char what[] =
		"a futexsim replay file, whose first line is '" SIM_REPLAY_FORMAT "'";
	char line[HDR_LINE_MAX];
	enum line_kind k = read_line(f, line, sizeof(line), at);

	if (k == LINE_EOF)
		sim_config_fail(at, NULL,
				"a futexsim replay file, whose first line is '"
				SIM_REPLAY_FORMAT "' (the file is empty)", NULL);
	if (!strcmp(line, SIM_REPLAY_FORMAT) && k == LINE_OK)
		return;
	if (!strncmp(line, "futexsim-replay ", 16))
		sim_config_fail(at, NULL,
				"format version 1 ('" SIM_REPLAY_FORMAT
				"'): this futexsim reads no other", line);
	sim_config_fail(at, NULL, what, line);
}

static void copy_value(char *dst, size_t size, const char *key,
		       const char *v, const struct sim_origin *at)
{
	char expected[96];

	if (!*v || strlen(v) >= size) {
		snprintf(expected, sizeof(expected),
			 "a version of 1 to %zu characters", size - 1);
		sim_config_fail(at, key, expected, v);
	}
	memcpy(dst, v, strlen(v) + 1);
}

/* One header line, not blank, not a comment, not "decisions". */
static int header_line(char *p, struct sim_scenario *s,
		       struct sim_replay_src *src, const struct sim_origin *at)
{
	char *key, *value;

	if (!strchr(p, '='))
		sim_config_fail(at, NULL,
				"a 'key = value' header line or the line 'decisions'", p);
	if (!sim_config_split(p, at, &key, &value))
		return 0;
	if (!strcmp(key, "futexsim")) {
		copy_value(src->futexsim, sizeof(src->futexsim), key, value, at);
		return SEEN_FUTEXSIM;
	}
	if (!strcmp(key, "kernel")) {
		copy_value(src->kernel, sizeof(src->kernel), key, value, at);
		return SEEN_KERNEL;
	}
	if (output_key(key))
		sim_config_fail(at, key,
				"no output key in a replay header (give it to the replay command)",
				value);
	sim_scenario_set(s, key, value, at);
	return !strcmp(key, "seed") ? SEEN_SEED : 0;
}

/*
 * check_complete - a record ends with its "end N" line (written even when
 * the run failed): without it the file was cut short, which is bad input
 * (one line, exit 2), not a divergence.
 */
static void check_complete(FILE *f, const char *path)
{
	struct sim_origin at = { .file = path };
	char tail[64];
	long size, from;
	size_t n;
	char *last;

	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0)
		return;
	from = size > (long)sizeof(tail) - 1 ? size - (long)sizeof(tail) + 1 : 0;
	fseek(f, from, SEEK_SET);
	n = fread(tail, 1, sizeof(tail) - 1, f);
	tail[n] = '\0';
	if (n && tail[n - 1] == '\n')
		tail[--n] = '\0';
	last = strrchr(tail, '\n');
	last = last ? last + 1 : tail;
	if (strncmp(last, "end ", 4) != 0 || !last[4] ||
	    strspn(last + 4, "0123456789") != strlen(last + 4))
		sim_config_fail(&at, NULL,
				"a complete record ending with its 'end N' line (the file is truncated)",
				NULL);
}

void sim_replay_load(const char *path, struct sim_scenario *s,
		     struct sim_replay_src *src)
{
	static const char *const need[] = { "futexsim", "kernel", "seed" };
	struct sim_origin at = { .file = path, .line = 1 };
	char line[HDR_LINE_MAX], expected[160];
	enum line_kind k;
	int seen = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(expected, sizeof(expected), "a readable replay file (%s)",
			 strerror(errno));
		sim_config_fail(&cmdline, NULL, expected, path);
	}
	memset(src, 0, sizeof(*src));
	src->path = path;
	check_format(f, &at);
	for (;;) {
		at.line++;
		k = read_line(f, line, sizeof(line), &at);
		if (k == LINE_EOF)
			sim_config_fail(&at, NULL,
					"more of the header, then the line 'decisions' (the file ends here)",
					NULL);
		if (k == LINE_CUT)
			sim_config_fail(&at, NULL,
					"a complete header line, then the line 'decisions' (the file ends inside this line)",
					line);
		if (!strcmp(line, "decisions"))
			break;
		if (line[0] && line[0] != '#')
			seen |= header_line(line, s, src, &at);
	}
	for (int i = 0; i < 3; i++) {
		if (seen & (1 << i))
			continue;
		snprintf(expected, sizeof(expected),
			 "a line '%s = ...' in the header, before 'decisions'",
			 need[i]);
		sim_config_fail(&at, need[i], expected, NULL);
	}
	src->offset = ftell(f);
	src->line = at.line + 1;
	check_complete(f, path);
	fclose(f);
}

/* ---- file names ----------------------------------------------------------- */

int sim_record_lock_path(const char *path, const char *lock, int nr_locks,
			 char *out, size_t len)
{
	const char *base = strrchr(path, '/'), *dot;
	int n;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (nr_locks <= 1)
		n = snprintf(out, len, "%s", path);
	else if (!dot || dot == base)
		n = snprintf(out, len, "%s.%s", path, lock);
	else
		n = snprintf(out, len, "%.*s.%s%s", (int)(dot - path), path, lock,
			     dot);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

void sim_replay_run_name(const struct sim_scenario *one, char *out,
			 size_t len)
{
	const char *base, *dot;
	size_t n, i;

	if (strcmp(one->workload, "program") != 0 || !one->program[0]) {
		snprintf(out, len, "%s", one->locks[0]);
		return;
	}
	base = strrchr(one->program, '/');
	base = base ? base + 1 : one->program;
	dot = strrchr(base, '.');
	n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	if (!n || !len) {
		snprintf(out, len, "program");
		return;
	}
	if (n > len - 1)
		n = len - 1;
	for (i = 0; i < n; i++) {
		char ch = base[i];

		out[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ?
			 ch : '_';
	}
	out[n] = '\0';
}

void sim_replay_failure_path(const struct sim_scenario *one, char *out,
			     size_t len)
{
	char name[64];

	sim_replay_run_name(one, name, sizeof(name));
	snprintf(out, len, "futexsim-failure-%s-%llu.replay", name,
		 (unsigned long long)one->seed);
}

/* ---- the command that replays a run -------------------------------------- */

struct cmdbuf {
	char *buf;
	size_t len, size;
};

static void cmd_add(struct cmdbuf *c, const char *s)
{
	size_t n = strlen(s);

	if (c->len + n + 1 > c->size)
		return;		/* cannot happen: keys are bounded */
	memcpy(c->buf + c->len, s, n + 1);
	c->len += n;
}

/* Append " WORD", single-quoted for the shell when it needs to be. */
static void cmd_word(struct cmdbuf *c, const char *w)
{
	const char *safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			   "0123456789_./:,=@%+-";
	char one[2] = { 0 };

	cmd_add(c, " ");
	if (*w && strspn(w, safe) == strlen(w)) {
		cmd_add(c, w);
		return;
	}
	cmd_add(c, "'");
	for (; *w; w++) {
		one[0] = *w;
		cmd_add(c, *w == '\'' ? "'\\''" : one);
	}
	cmd_add(c, "'");
}

static void cmd_key(void *ctx, const char *key, const char *value)
{
	char opt[512];

	if (output_key(key))
		return;		/* output only: the replay writes no file */
	snprintf(opt, sizeof(opt), "--%s=%s", key, value);
	cmd_word(ctx, opt);
}

void sim_replay_command(const char *self, const struct sim_scenario *one,
			const char *file, char *buf, size_t size)
{
	struct cmdbuf c = { .buf = buf, .size = size };

	buf[0] = '\0';
	cmd_add(&c, self);
	cmd_add(&c, " run");
	sim_scenario_each(one, cmd_key, &c);
	if (!file)
		return;
	cmd_add(&c, "\nreplay file: ");
	cmd_add(&c, file);
	cmd_add(&c, " (");
	cmd_add(&c, self);
	cmd_add(&c, " replay");
	cmd_word(&c, file);
	cmd_add(&c, ")");
}

/* ---- checks before the run ------------------------------------------------ */

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* The --record file of lock @idx: writable, and not the file replayed. */
static void check_record_file(const struct sim_scenario *s, int idx,
			      const struct sim_replay_src *src)
{
	char path[sizeof(s->record) + sizeof(s->locks[0]) + 1], expected[320];

	if (sim_record_lock_path(s->record, s->locks[idx], s->nr_locks, path,
				 sizeof(path)))
		sim_config_fail(&s->record_at, "record", "a shorter path",
				s->record);
	if (src && same_file(path, src->path))
		sim_config_fail(&s->record_at, "record",
				"a file other than the replay file being read",
				s->record);
	if (sim_outfile_check(path)) {	/* the file itself is not touched */
		snprintf(expected, sizeof(expected), "a writable file (%s: %s)",
			 path, strerror(errno));
		sim_config_fail(&s->record_at, "record", expected, s->record);
	}
}

void sim_replay_check(const struct sim_scenario *s,
		      const struct sim_replay_src *src)
{
	char v[SIM_MAX_LOCKS * 33 + 1] = "";

	if (src && s->nr_locks != 1) {
		for (int i = 0; i < s->nr_locks; i++)
			snprintf(v + strlen(v), sizeof(v) - strlen(v), "%s%s",
				 i ? "," : "", s->locks[i]);
		sim_config_fail(s->lock_at.file ? &s->lock_at : &cmdline, "lock",
				"one lock: a replay file holds the run of one lock",
				v);
	}
	for (int i = 0; s->record[0] && i < s->nr_locks; i++)
		check_record_file(s, i, src);
	if (src && (strcmp(src->futexsim, FUTEXSIM_VERSION) != 0 ||
		    strcmp(src->kernel, FUTEXSIM_KERNEL) != 0))
		fprintf(stderr,
			"futexsim: replay: %s was recorded by futexsim %s (kernel %s); this is futexsim %s (kernel %s): the run may diverge\n",
			src->path, src->futexsim, src->kernel, FUTEXSIM_VERSION,
			FUTEXSIM_KERNEL);
}
