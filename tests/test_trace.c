/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_trace.c - suite "trace": --trace FILE.txt and FILE.json
 * (sim/trace/trace.c, sim/trace/trace_text.c, sim/trace/trace_json.c) through the binary:
 * every text line matches its event's strict format (and Perfetto's line
 * tokenizer), the JSON parses and has the CPU, task and lock tracks, the
 * window and the event list limit what is written, bad values are one
 * line and exit 2, traces are byte-identical for one seed and do not
 * change the run, and a long run's memory does not grow with the trace.
 *
 * Stage: trace/report, end to end.  Run by tests/check_main.c; runs
 * $FUTEXSIM (`make check` sets it) through tests/run_child.h and reads
 * the JSON with tests/trace_json.h.  Without $FUTEXSIM each test says so
 * and passes.
 */
#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/run_child.h"
#include "tests/trace_json.h"

static struct child_out co;
#define TEMP_DIR_PREFIX "/tmp/futexsim-trace-"
#include "tests/temp_dir.h"

#define futexsim(o, ...) \
	run_futexsim((o), (const char *const[]){ "futexsim", "run", __VA_ARGS__, NULL })

/* The small run every test traces: contended ww on 4 CPUs. */
#define SMALL	"--threads=8", "--ops=2000", "--seed=3"

/* ---- the text trace's line formats -------------------------------------- */

#define TPL	"\\((0|c[0-9]+(\\.[1-3])?),[01],[01]\\)"
#define FLAG	"(SPIN|READ|WRITE|RT|PERCPU|MUTEX)"

static const struct {
	const char *event, *fields;
} formats[] = {
	{ "sched_switch", "prev_comm=[^ ]+ prev_pid=[0-9]+ prev_prio=120 "
	  "prev_state=(S|R|R\\+|X) ==> next_comm=[^ ]+ next_pid=[0-9]+ next_prio=120" },
	{ "sched_waking", "comm=[^ ]+ pid=[0-9]+ prio=120 target_cpu=[0-9]{3}" },
	{ "sched_wakeup", "comm=[^ ]+ pid=[0-9]+ prio=120 target_cpu=[0-9]{3}" },
	{ "sched_wakeup_new", "comm=[^ ]+ pid=[0-9]+ prio=120 target_cpu=[0-9]{3}" },
	{ "futex_enter", "uaddr=0x[0-9a-f]+ op=FUTEX_[A-Z_]+ val=[0-9]+( utime=[0-9]+ns)?" },
	{ "futex_exit", "uaddr=0x[0-9a-f]+ op=FUTEX_[A-Z_]+ ret=([0-9]+|-[0-9]+ \\(E[A-Z_]+\\))" },
	{ "nanosleep_enter", "ns=[0-9]+" },
	{ "nanosleep_exit", "ret=-?[0-9]+" },
	{ "contention_begin", "0x[0-9a-f]+ \\(flags=" FLAG "(\\|" FLAG ")*\\)" },
	{ "contention_end", "0x[0-9a-f]+ \\(ret=-?[0-9]+\\)" },
	{ "qspinlock", "lock=0x[0-9a-f]+ op=(slowpath \\(t,p,l\\) " TPL "|"
	  "(lock|trylock|trylock-fail|unlock) \\(t,p,l\\) " TPL " -> " TPL ")" },
	{ "cache", "line=0x[0-9a-f]*[048c]0 op=(load|store|rmw) "
	  "from=(cpu[0-9]+|sharers|l3) dist=(smt|socket|remote|2hop|l3) "
	  "inval=[0-9]+ wait=[0-9]+\\.[0-9]{3}ns cost=[0-9]+\\.[0-9]{3}ns" },
};
#define NR_FORMATS	(sizeof(formats) / sizeof(formats[0]))

/* Perfetto's systrace line tokenizer, in POSIX ERE. */
static const char perfetto_line[] =
	"-([0-9]+)[[:space:]]+\\(?[[:space:]]*([0-9]+|-+)?\\)?[[:space:]]?"
	"\\[([0-9]+)\\][[:space:]]*[a-zA-Z0-9.]{0,4}[[:space:]]+"
	"([0-9]+\\.[0-9]+):[[:space:]]+([^[:space:]]+):";

struct text_stats {
	int lines, count[NR_FORMATS];
	double first_s, last_s;
};

/*
 * Check every line of @text: the header is '#' lines only, then each
 * line is "COMM-PID [CPU] SECONDS: EVENT: FIELDS" with the strict FIELDS
 * of its EVENT, Perfetto's tokenizer finds the same event, and the times
 * never go back; the last line is "# end of trace: N events" with N the
 * event lines (without it the trace is truncated).  Counts the events
 * in @st.
 */
static void check_text(char *text, struct text_stats *st)
{
	regex_t head, pf, re[NR_FORMATS];
	regmatch_t m[6];
	char *line, *save = NULL, pat[400], *end;
	unsigned long n = 0;
	int body = 0;
	size_t i, len = strlen(text);

	ck_assert_msg(len && text[len - 1] == '\n', "truncated: no final newline");
	text[len - 1] = '\0';
	end = strrchr(text, '\n');
	ck_assert_msg(end && sscanf(end + 1, "# end of trace: %lu events", &n) == 1,
		      "truncated: no '# end of trace' line");
	*end = '\0';

	ck_assert_int_eq(regcomp(&head, "^ *[^ ]+-[0-9]+ +\\[[0-9]{3}\\] +"
				 "([0-9]+\\.[0-9]{9}): ([a-z_]+): (.*)$",
				 REG_EXTENDED), 0);
	ck_assert_int_eq(regcomp(&pf, perfetto_line, REG_EXTENDED), 0);
	for (i = 0; i < NR_FORMATS; i++) {
		snprintf(pat, sizeof(pat), "^%s$", formats[i].fields);
		ck_assert_int_eq(regcomp(&re[i], pat, REG_EXTENDED | REG_NOSUB), 0);
	}
	memset(st, 0, sizeof(*st));
	ck_assert_msg(!strncmp(text, "# tracer: nop\n", 14), "no ftrace header");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		double t;

		if (line[0] == '#' && !body)
			continue;
		body = 1;
		ck_assert_msg(!regexec(&head, line, 4, m, 0), "bad line: %s", line);
		ck_assert_msg(strchr(line, '-') - line == 16,
			      "comm not in 16 columns: %s", line);
		line[m[2].rm_eo] = '\0';
		for (i = 0; i < NR_FORMATS && strcmp(formats[i].event,
						     line + m[2].rm_so); i++)
			;
		ck_assert_msg(i < NR_FORMATS, "unknown event %s", line + m[2].rm_so);
		ck_assert_msg(!regexec(&re[i], line + m[3].rm_so, 0, NULL, 0),
			      "bad %s fields: %s", formats[i].event, line + m[3].rm_so);
		line[m[2].rm_eo] = ':';
		ck_assert_msg(!regexec(&pf, line, 6, m, 0) &&
			      !strncmp(line + m[5].rm_so, formats[i].event,
				       strlen(formats[i].event)),
			      "Perfetto would not read: %s", line);
		t = strtod(line + m[4].rm_so, NULL);
		ck_assert_msg(t >= st->last_s, "time goes back at: %s", line);
		if (!st->lines++)
			st->first_s = t;
		st->last_s = t;
		st->count[i]++;
	}
	regfree(&head);
	regfree(&pf);
	for (i = 0; i < NR_FORMATS; i++)
		regfree(&re[i]);
	ck_assert_msg(n == (unsigned long)st->lines,
		      "the end line counts %lu events, the trace has %d", n,
		      st->lines);
}

static int count_of(const struct text_stats *st, const char *event)
{
	for (size_t i = 0; i < NR_FORMATS; i++)
		if (!strcmp(formats[i].event, event))
			return st->count[i];
	return -1;
}

START_TEST(test_text_trace_lines_all_match_their_event_format)
{
	static const char *const want[] = {
		"sched_switch", "sched_waking", "sched_wakeup",
		"sched_wakeup_new", "futex_enter", "futex_exit",
		"contention_begin", "contention_end", "qspinlock",
	};
	struct text_stats st, st2;
	char path[128], opt[160], *text;

	in_dir("t.txt", path, sizeof(path));
	snprintf(opt, sizeof(opt), "--trace=%s", path);
	if (!futexsim(&co, SMALL, opt))
		return;
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	text = slurp(path, NULL);
	ck_assert_ptr_nonnull(strstr(text, "lock=ww seed=3\n"));
	check_text(text, &st);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(count_of(&st, want[i]) > 0, "no %s event", want[i]);
	ck_assert_int_eq(count_of(&st, "futex_enter"), count_of(&st, "futex_exit"));
	ck_assert_int_eq(count_of(&st, "contention_begin"),
			 count_of(&st, "contention_end"));
	free(text);

	/* sleeps and timeouts: nanosleep, ETIMEDOUT, utime */
	in_dir("s.txt", path, sizeof(path));
	snprintf(opt, sizeof(opt), "--trace=%s", path);
	futexsim(&co, "--lock=ww-timed", "--threads=6", "--ops=600",
		 "--cs=sleep:60us", opt);
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	text = slurp(path, NULL);
	ck_assert_ptr_nonnull(strstr(text, "ret=-110 (ETIMEDOUT)"));
	ck_assert_ptr_nonnull(strstr(text, "utime=50000ns"));
	check_text(text, &st2);
	ck_assert_int_eq(count_of(&st2, "nanosleep_enter"), 600);
	ck_assert_int_eq(count_of(&st2, "nanosleep_exit"), 600);
	free(text);
}
END_TEST

/* ---- JSON ---------------------------------------------------------------- */

START_TEST(test_json_trace_parses_with_cpu_task_and_lock_tracks)
{
	static const char *const task_slices[] = {
		"user", "FUTEX_WAIT_PRIVATE", "FUTEX_WAKE_PRIVATE", "running",
		"runnable", "sleeping", "spinning", "contention",
	};
	char path[128], opt[160], *text;
	int cpus = 0, futex = 0, qspin = 0, waking = 0;
	struct tj_doc d;

	in_dir("t.json", path, sizeof(path));
	snprintf(opt, sizeof(opt), "--trace=%s", path);
	if (!futexsim(&co, SMALL, opt))
		return;
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	text = slurp(path, NULL);
	ck_assert_msg(!tj_parse(&d, text), "bad JSON near: %.60s", d.s);
	ck_assert(d.has_events);
	for (int i = 0; i < d.n; i++) {
		const struct tj_event *e = &d.ev[i];
		char want[16];

		if (e->ph == 'M' && e->pid == 1 && !strcmp(e->name, "thread_name")) {
			snprintf(want, sizeof(want), "CPU %d", e->tid - 10000);
			ck_assert_str_eq(e->arg_name, want);
			cpus++;
		}
		if (e->ph == 'C' && !strncmp(e->name, "futex 0x", 8)) {
			ck_assert_str_eq(e->args, " waiters word");
			futex++;
		}
		if (e->ph == 'C' && !strncmp(e->name, "qspinlock 0x", 12)) {
			ck_assert_str_eq(e->args, " waiters holder");
			qspin++;
		}
		waking += e->ph == 'i' && !strcmp(e->name, "waking");
		ck_assert_msg(strchr("XCMi", e->ph), "event type %c", e->ph);
	}
	ck_assert_int_eq(cpus, 4);
	ck_assert_int_gt(futex, 0);
	ck_assert_int_gt(qspin, 0);
	ck_assert_int_gt(waking, 0);
	ck_assert(tj_has_slice(&d, 1, "worker0 (100)"));
	ck_assert(tj_has_slice(&d, 1, "idle"));
	for (size_t i = 0; i < sizeof(task_slices) / sizeof(task_slices[0]); i++)
		ck_assert_msg(tj_has_slice(&d, 2, task_slices[i]),
			      "no task slice %s", task_slices[i]);
	tj_check_nesting(&d);
	free(d.ev);
	free(text);
}
END_TEST

/* ---- the window and the event list ------------------------------------------ */

/* The event lines of @text (after the '#' header). */
static const char *body_of(const char *text)
{
	const char *p = text;

	while (*p == '#')
		p = strchr(p, '\n') + 1;
	return p;
}

START_TEST(test_window_keeps_exactly_the_events_inside_it)
{
	char full[128], part[128], js[128], o1[160], o2[160], o3[160];
	char *a, *b, *line, *save = NULL, *want, *w;
	int nr = 0;
	size_t la, lb;
	struct text_stats st;
	struct tj_doc d;

	in_dir("full.txt", full, sizeof(full));
	in_dir("part.txt", part, sizeof(part));
	in_dir("part.json", js, sizeof(js));
	snprintf(o1, sizeof(o1), "--trace=%s", full);
	if (!futexsim(&co, SMALL, o1))
		return;
	ck_assert_int_eq(co.status, 0);
	snprintf(o2, sizeof(o2), "--trace=%s", part);
	futexsim(&co, SMALL, o2, "--trace-from=100us", "--trace-to=200us");
	ck_assert_int_eq(co.status, 0);
	a = slurp(full, &la);
	b = slurp(part, &lb);
	ck_assert_msg(lb < la / 2, "window: %zu bytes of %zu", lb, la);
	ck_assert_ptr_nonnull(strstr(b, "window: 100us to 200us"));

	/* the windowed lines are the full trace's lines in [100us, 200us] */
	want = calloc(1, la + 1);
	w = want;
	for (line = strtok_r((char *)body_of(a), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		double t;

		if (line[0] == '#')
			continue;	/* the end line */
		t = strtod(strchr(line, ']') + 1, NULL);
		if (t >= 100e-6 && t <= 200e-6) {
			w += sprintf(w, "%s\n", line);
			nr++;
		}
	}
	ck_assert_int_gt(w - want, 1000);
	sprintf(w, "# end of trace: %d events\n", nr);
	ck_assert_str_eq(body_of(b), want);
	check_text(b, &st);
	ck_assert(st.first_s >= 100e-6 && st.last_s <= 200e-6);

	snprintf(o3, sizeof(o3), "--trace=%s", js);
	futexsim(&co, SMALL, o3, "--trace-from=100us", "--trace-to=200us");
	ck_assert_int_eq(co.status, 0);
	free(a);
	a = slurp(js, NULL);
	ck_assert_msg(!tj_parse(&d, a), "bad JSON near: %.60s", d.s);
	for (int i = 0; i < d.n; i++) {
		const struct tj_event *e = &d.ev[i];

		if (e->ph == 'M')
			continue;
		ck_assert_msg(e->ts >= 100 - 1e-6 && e->ts <= 200 + 1e-6,
			      "%s at %f us", e->name, e->ts);
		ck_assert_msg(e->ph != 'X' || e->ts + e->dur <= 200 + 1e-6,
			      "%s ends at %f us", e->name, e->ts + e->dur);
	}
	ck_assert(tj_has_slice(&d, 2, "running"));
	free(d.ev);
	free(a);
	free(b);
	free(want);
}
END_TEST

START_TEST(test_event_list_selects_the_events_written)
{
	char path[128], opt[160], *text;
	struct text_stats st;

	in_dir("sched.txt", path, sizeof(path));
	snprintf(opt, sizeof(opt), "--trace=%s", path);
	if (!futexsim(&co, SMALL, opt, "--trace-events=sched"))
		return;
	ck_assert_int_eq(co.status, 0);
	ck_assert_ptr_nonnull(strstr(co.out, "trace-events = sched\n"));
	text = slurp(path, NULL);
	check_text(text, &st);
	ck_assert_int_gt(count_of(&st, "sched_switch"), 0);
	ck_assert_int_eq(st.lines, count_of(&st, "sched_switch") +
			 count_of(&st, "sched_waking") + count_of(&st, "sched_wakeup") +
			 count_of(&st, "sched_wakeup_new"));
	free(text);

	futexsim(&co, SMALL, opt, "--trace-events=futex_exit,qspinlock");
	ck_assert_int_eq(co.status, 0);
	text = slurp(path, NULL);
	check_text(text, &st);
	ck_assert_int_gt(count_of(&st, "futex_exit"), 0);
	ck_assert_int_gt(count_of(&st, "qspinlock"), 0);
	ck_assert_int_eq(st.lines, count_of(&st, "futex_exit") +
			 count_of(&st, "qspinlock"));
	free(text);
}
END_TEST

/* @report without its first "trace... = ..." line. */
static void drop_trace_line(char *report)
{
	char *l = strstr(report, "\ntrace");

	if (l) {
		l++;
		memmove(l, strchr(l, '\n') + 1, strlen(strchr(l, '\n') + 1) + 1);
	}
}

/*
 * trace-events=cache: one line per miss of the cache-line model, never
 * in "all".  Two tasks on the ticket lock of westmere-ex: every hand-over
 * shows the new holder loading the lock's line from the other CPU, one
 * xfer-socket (39 ns), and tracing the misses changes nothing of the run.
 */
START_TEST(test_cache_events_show_each_miss_and_are_not_in_all)
{
	char path[128], opt[160], plain[CHILD_OUT_MAX], *text;
	struct text_stats st;

#define SPIN2	"--workload=spin", "--machine=westmere-ex", "--lock=ticket", \
		"--threads=2", "--ops=2000"
	in_dir("cache.txt", path, sizeof(path));
	snprintf(opt, sizeof(opt), "--trace=%s", path);
	if (!futexsim(&co, SPIN2))
		return;
	ck_assert_int_eq(co.status, 0);
	memcpy(plain, co.out, sizeof(plain));

	futexsim(&co, SPIN2, opt);		/* all */
	ck_assert_int_eq(co.status, 0);
	text = slurp(path, NULL);
	check_text(text, &st);
	ck_assert_int_eq(count_of(&st, "cache"), 0);
	free(text);

	futexsim(&co, SPIN2, opt, "--trace-events=cache");
	ck_assert_int_eq(co.status, 0);
	ck_assert_ptr_nonnull(strstr(co.out, "trace-events = cache\n"));
	drop_trace_line(co.out);
	drop_trace_line(co.out);	/* and trace-events */
	ck_assert_str_eq(co.out, plain);	/* tracing changes nothing */
	text = slurp(path, NULL);
	ck_assert_ptr_nonnull(strstr(text, " spin1-101   [001] "));
	ck_assert_ptr_nonnull(strstr(text, "op=load from=cpu0 dist=socket inval=0"));
	ck_assert_ptr_nonnull(strstr(text, "op=load from=cpu1 dist=socket inval=0"));
	ck_assert_ptr_nonnull(strstr(text, "cost=39.000ns"));	/* xfer-socket */
	ck_assert_ptr_nonnull(strstr(text, "op=rmw"));
	check_text(text, &st);
	/* a hand-over at least every other lock: 2000 of them */
	ck_assert_int_gt(count_of(&st, "cache"), 2000);
	ck_assert_int_eq(st.lines, count_of(&st, "cache"));
	free(text);

	futexsim(&co, SPIN2, opt, "--trace-events=cache,all");
	ck_assert_int_eq(co.status, 0);
	ck_assert_ptr_nonnull(strstr(co.out, "trace-events = all,cache\n"));
	text = slurp(path, NULL);
	check_text(text, &st);
	ck_assert_int_gt(count_of(&st, "cache"), 2000);
	ck_assert_int_lt(count_of(&st, "cache"), st.lines);
	free(text);
#undef SPIN2
}
END_TEST

START_TEST(test_bad_trace_values_get_one_line_and_status_2)
{
	if (!futexsim(&co, SMALL, "--trace=/tmp/x.trace"))
		return;
	assert_one_line_error(&co, "--trace", ".txt", ".json", "'/tmp/x.trace'");
	futexsim(&co, SMALL, "--trace=/nonexistent-dir/t.txt");
	assert_one_line_error(&co, "--trace", "a writable file");
	futexsim(&co, SMALL, "--trace=/tmp/x.txt", "--trace-events=sched,bogus");
	assert_one_line_error(&co, "--trace-events", "sched_switch", "'sched,bogus'");
	futexsim(&co, SMALL, "--trace=/tmp/x.txt", "--trace-events=");
	assert_one_line_error(&co, "--trace-events");
	futexsim(&co, SMALL, "--trace=/tmp/x.txt", "--trace-from=soon");
	assert_one_line_error(&co, "--trace-from", "'soon'");
	futexsim(&co, SMALL, "--trace=/tmp/x.txt", "--trace-from=2ms",
		 "--trace-to=1ms");
	assert_one_line_error(&co, "--trace-to", "after trace-from (2ms)", "'1ms'");
}
END_TEST

/* ---- determinism, several locks, memory ---------------------------------- */

START_TEST(test_same_seed_gives_the_same_trace_and_the_same_run)
{
	static const char *const names[] = { "a.txt", "b.txt", "a.json", "b.json" };
	char path[4][128], opt[560], plain[CHILD_OUT_MAX], *x, *y;
	size_t lx, ly;

	if (!futexsim(&co, SMALL))
		return;
	ck_assert_int_eq(co.status, 0);
	memcpy(plain, co.out, sizeof(plain));
	for (int i = 0; i < 4; i++) {
		in_dir(names[i], path[i], sizeof(path[i]));
		snprintf(opt, sizeof(opt), "--trace=%s", path[i]);
		futexsim(&co, SMALL, opt);
		ck_assert_int_eq(co.status, 0);
		drop_trace_line(co.out);
		ck_assert_str_eq(co.out, plain);	/* tracing changes nothing */
	}
	/* the traced spin_lock() makes the accesses of the untraced one */
	futexsim(&co, "--workload=spin", "--lock=qspinlock-generic,qspinlock-x86",
		 "--ops=20000");
	ck_assert_int_eq(co.status, 0);
	memcpy(plain, co.out, sizeof(plain));
	snprintf(opt, sizeof(opt), "--trace=%s", path[0]);
	futexsim(&co, "--workload=spin", "--lock=qspinlock-generic,qspinlock-x86",
		 "--ops=20000", opt, "--trace-events=qspinlock");
	ck_assert_int_eq(co.status, 0);
	drop_trace_line(co.out);
	drop_trace_line(co.out);	/* and trace-events */
	ck_assert_str_eq(co.out, plain);
	for (int i = 0; i < 4; i += 2) {
		x = slurp(path[i], &lx);
		y = slurp(path[i + 1], &ly);
		ck_assert_uint_eq(lx, ly);
		ck_assert_msg(!memcmp(x, y, lx), "%s and %s differ", path[i],
			      path[i + 1]);
		free(x);
		free(y);
	}
}
END_TEST

START_TEST(test_several_locks_write_one_trace_each)
{
	char path[128], opt[160], one[128], *text;

	in_dir("m.txt", path, sizeof(path));
	snprintf(opt, sizeof(opt), "--trace=%s", path);
	if (!futexsim(&co, "--threads=4", "--ops=200", "--lock=ww,ww-timed", opt))
		return;
	ck_assert_int_eq(co.status, 0);
	ck_assert_int_ne(access(path, F_OK), 0);
	text = slurp(in_dir("m.ww.txt", one, sizeof(one)), NULL);
	ck_assert_ptr_nonnull(strstr(text, " lock=ww seed="));
	free(text);
	text = slurp(in_dir("m.ww-timed.txt", one, sizeof(one)), NULL);
	ck_assert_ptr_nonnull(strstr(text, " lock=ww-timed seed="));
	free(text);
}
END_TEST

/* In a child: run futexsim with @ops operations and a full text trace
 * (in_dir() made the directory before), then print the largest RSS among
 * its descendants, in KiB. */
static void traced_run_rss(void *ops)
{
	char o[32], path[128], opt[160];
	struct rusage ru;

	snprintf(o, sizeof(o), "--ops=%s", (const char *)ops);
	in_dir("mem.txt", path, sizeof(path));
	snprintf(opt, sizeof(opt), "--trace=%s", path);
	futexsim(&co, "--threads=8", o, opt);
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("%d %ld\n", co.status, ru.ru_maxrss);
}

static long file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return (long)st.st_size;
}

START_TEST(test_long_trace_does_not_grow_memory)
{
	struct child_out small, big;
	long rss_small = 0, rss_big = 0, size_small;
	int st_small = -1, st_big = -1;
	char path[128];

	if (!futexsim(&co, "--version"))
		return;
	in_dir("mem.txt", path, sizeof(path));
	run_child(traced_run_rss, "20000", &small);
	size_small = file_size(path);
	run_child(traced_run_rss, "200000", &big);
	ck_assert_int_gt(file_size(path), 8 * size_small);	/* 10x the ops */
	ck_assert(sscanf(small.out, "%d %ld", &st_small, &rss_small) == 2 &&
		  sscanf(big.out, "%d %ld", &st_big, &rss_big) == 2);
	ck_assert(st_small == 0 && st_big == 0 && rss_small > 0);
	ck_assert_msg(rss_big <= rss_small + 1024,
		      "peak RSS %ld KiB for 200k ops, %ld KiB for 20k", rss_big,
		      rss_small);
}
END_TEST

Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, NULL, remove_dir);
	tcase_add_test(tc, test_text_trace_lines_all_match_their_event_format);
	tcase_add_test(tc, test_json_trace_parses_with_cpu_task_and_lock_tracks);
	tcase_add_test(tc, test_window_keeps_exactly_the_events_inside_it);
	tcase_add_test(tc, test_event_list_selects_the_events_written);
	tcase_add_test(tc, test_cache_events_show_each_miss_and_are_not_in_all);
	tcase_add_test(tc, test_bad_trace_values_get_one_line_and_status_2);
	tcase_add_test(tc, test_same_seed_gives_the_same_trace_and_the_same_run);
	tcase_add_test(tc, test_several_locks_write_one_trace_each);
	tcase_add_test(tc, test_long_trace_does_not_grow_memory);
	suite_add_tcase(s, tc);
	return s;
}
