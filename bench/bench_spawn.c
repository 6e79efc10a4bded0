/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/bench_spawn.c - the figures of `make bench` that time child
 * processes: mutex_ops_per_s (the futexsim binary), program_ops_per_s and
 * program_ratio (a user program built by `futexsim build`),
 * trace_on_slowdown (the same run with a full text trace),
 * html_bytes_per_event (the page of --trace=FILE.html), spin_table_s,
 * glibc_tables_s and tp_table_s (the study tables' scripts and
 * scenarios); and the tiny JSON reader that takes results[0].ops out of
 * a run's JSON file.
 *
 * Stage: a host tool beside the data flow (`make bench`).  Called by
 * main() in bench/bench.c, which documents each figure and prints them;
 * calls sim_program_spawn() (sim/program/program.c) to run the futexsim binary,
 * /bin/sh with workloads/scenarios/spin-2014.sh and glibc-tables.sh, and
 * the to-futex-256 scenarios; reads the host clock (host_now(),
 * bench/bench.h).  The tables and reports are kept beside OUT.json.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "sim/program/program.h"
#include "version.h"

#define BENCH_TRACE_ROUNDS	3
#define SPIN_TABLE_OPS		"500000"	/* per task */

/* ---- a tiny JSON reader: enough for results[0].ops ---------------------- */

static const char *js_ws(const char *p)
{
	while (p && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/* @p at '"': past the closing quote, or NULL. */
static const char *js_string_end(const char *p)
{
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p + 1 : NULL;
}

/* Past the value at @p (any type), or NULL if malformed. */
static const char *js_skip(const char *p)
{
	const char *s;
	char close;

	p = js_ws(p);
	if (!p || !*p)
		return NULL;
	if (*p == '"')
		return js_string_end(p);
	if (*p != '{' && *p != '[') {
		for (s = p; *p && !strchr(",}] \t\r\n", *p); p++)
			;
		return p > s ? p : NULL;
	}
	close = *p == '{' ? '}' : ']';
	p = js_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			p = js_ws(js_string_end(js_ws(p)));
			if (!p || *p++ != ':')
				return NULL;
		}
		p = js_ws(js_skip(p));
		if (!p)
			return NULL;
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

/* The value of member @key of the object at @p, or NULL. */
static const char *js_member(const char *p, const char *key)
{
	size_t n = strlen(key);
	const char *k, *end;

	p = js_ws(p);
	if (!p || *p != '{')
		return NULL;
	for (p = js_ws(p + 1); p && *p == '"'; p = js_ws(p)) {
		k = p + 1;
		end = js_string_end(p);
		p = js_ws(end);
		if (!p || *p++ != ':')
			return NULL;
		if ((size_t)(end - 1 - k) == n && !strncmp(k, key, n))
			return js_ws(p);
		p = js_ws(js_skip(p));
		if (p && *p == ',')
			p++;
	}
	return NULL;
}

/* The first element of the array at @p, or NULL. */
static const char *js_first(const char *p)
{
	p = js_ws(p);
	if (!p || *p != '[')
		return NULL;
	p = js_ws(p + 1);
	return *p == ']' ? NULL : p;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap += 65536);

			if (!nb)
				break;
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	if (buf)
		buf[len] = 0;
	return buf;
}

/* ---- mutex throughput through the real binary --------------------------------- */

/* The mutex command, with one more option @opt (NULL: none), its stdout
 * to /dev/null. Return: its exit status (sim_program_spawn()). */
static int run_futexsim(const char *exe, const char *opt)
{
	char *argv[] = { (char *)exe, "run", "--machine=tiny4", "--threads=8",
			 "--lock=ww", "--ops=200000", (char *)opt, NULL };

	return sim_program_spawn(NULL, argv, "/dev/null", "bench");
}

double bench_mutex(const char *exe)
{
	char json[] = "/tmp/futexsim-bench-XXXXXX", opt[64];
	const char *r0, *ops, *secs;
	double v = -1;
	char *doc;
	int fd = mkstemp(json), rc;

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(opt, sizeof(opt), "--json=%s", json);
	rc = run_futexsim(exe, opt);
	doc = rc == 0 ? slurp(json) : NULL;
	unlink(json);
	if (rc)
		fprintf(stderr, "bench: %s exited with status %d\n", exe, rc);
	if (!doc)
		return -1;
	r0 = js_first(js_member(doc, "results"));
	ops = js_member(r0, "ops");
	secs = js_member(js_member(r0, "host"), "seconds");
	if (ops && secs && strtod(secs, NULL) > 0)
		v = strtod(ops, NULL) / strtod(secs, NULL);
	else
		fprintf(stderr, "bench: no results[0].ops/host.seconds in the JSON of %s\n",
			exe);
	free(doc);
	return v;
}

/* ---- the cost of a full text trace -------------------------------------------- */

/* Host seconds of one run of the mutex command with @opt; -1 if it failed. */
static double timed_run(const char *exe, const char *opt)
{
	double t0 = host_now();
	int rc = run_futexsim(exe, opt);

	if (rc) {
		fprintf(stderr, "bench: %s %s exited with status %d\n", exe,
			opt ? opt : "", rc);
		return -1;
	}
	return host_now() - t0;
}

double bench_trace(const char *exe)
{
	char path[] = "/tmp/futexsim-bench-XXXXXX.txt", opt[64];
	double on = -1, off = -1, t;
	int fd = mkstemps(path, 4);

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(opt, sizeof(opt), "--trace=%s", path);
	for (int r = 0; r < BENCH_TRACE_ROUNDS; r++) {
		t = timed_run(exe, NULL);
		if (t < 0)
			break;
		if (off < 0 || t < off)
			off = t;
		t = timed_run(exe, opt);
		if (t < 0) {
			on = -1;
			break;
		}
		if (on < 0 || t < on)
			on = t;
	}
	unlink(path);
	return on > 0 && off > 0 ? on / off : -1;
}

/* ---- the size of the HTML page ------------------------------------------------- */

double bench_html(const char *exe)
{
	char path[] = "/tmp/futexsim-bench-XXXXXX.html", opt[64];
	char *argv[] = { (char *)exe, "run", "--machine=tiny4", "--threads=4",
			 "--lock=ww", "--ops=19300", opt, NULL };
	const char *nr;
	double v = -1;
	char *doc;
	int fd = mkstemps(path, 5), rc;

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(opt, sizeof(opt), "--trace=%s", path);
	rc = sim_program_spawn(NULL, argv, "/dev/null", "bench");
	doc = rc == 0 ? slurp(path) : NULL;
	unlink(path);
	if (rc)
		fprintf(stderr, "bench: %s --trace=FILE.html exited with status %d\n",
			exe, rc);
	nr = doc ? strstr(doc, "\"nr\":") : NULL;
	if (nr && strtod(nr + 5, NULL) > 0)
		v = (double)strlen(doc) / strtod(nr + 5, NULL);
	free(doc);
	return v;
}

/* ---- the 2014 spinlock table through the real binary ---------------------------- */

/* @json's directory + "/" + @name. */
static char *table_path(const char *json, const char *name)
{
	const char *slash = strrchr(json, '/');
	char *p;

	if (asprintf(&p, "%.*s%s", slash ? (int)(slash - json + 1) : 0,
		     json, name) < 0)
		return NULL;
	return p;
}

/* Host seconds of /bin/sh with @argv ("sh", the script, its options),
 * its stdout into the file @name beside @json.
 * Return: -1 if it could not run or failed. */
static double time_script(const char *json, const char *name,
			  char *const argv[])
{
	char *out = table_path(json, name);
	double t0 = host_now();
	int status;

	if (!out)
		return -1;
	status = sim_program_spawn("/bin/sh", argv, out, "bench");
	free(out);
	if (status) {
		fprintf(stderr, "bench: %s failed (status %d)\n", argv[1], status);
		return -1;
	}
	return host_now() - t0;
}

double bench_spin_table(const char *exe, const char *json)
{
	char *argv[] = { "sh", FUTEXSIM_SOURCE_DIR "/workloads/scenarios/spin-2014.sh",
			 "-f", (char *)exe, "-n", SPIN_TABLE_OPS, "-p", "0", NULL };

	return time_script(json, "spin-2014.txt", argv);
}

/* The 2017 glibc mutex table (ww, adaptive, and tp when it exists), 0.1 s of
 * simulated time per point; the table is kept in glibc-2017-mutex.txt. */
double bench_glibc_tables(const char *exe, const char *json)
{
	char *argv[] = { "sh", FUTEXSIM_SOURCE_DIR "/workloads/scenarios/glibc-tables.sh",
			 "-f", (char *)exe, "-d", "100ms", "mutex-2017", NULL };

	return time_script(json, "glibc-2017-mutex.txt", argv);
}

/* The published 2016 TO-futex run of each lock (docs/studies/
 * to-futex-2016.md), at full size: host seconds of `futexsim run
 * workloads/scenarios/FILE.scn`; the report (published beside
 * simulated) is kept in FILE.txt beside the JSON. */
void bench_tp_table(const char *exe, const char *json, double secs[3])
{
	static const char *const scn[3] = {
		"to-futex-256", "to-futex-256-pi", "to-futex-256-tp",
	};

	for (int i = 0; i < 3; i++) {
		char *path, *name;
		char *argv[] = { "sh", "-c", "exec \"$0\" run \"$1\"",
				 (char *)exe, NULL, NULL };

		secs[i] = -1;
		if (asprintf(&path, FUTEXSIM_SOURCE_DIR "/workloads/scenarios/%s.scn",
			     scn[i]) < 0)
			continue;
		if (asprintf(&name, "%s.txt", scn[i]) < 0) {
			free(path);
			continue;
		}
		argv[4] = path;
		secs[i] = time_script(json, name, argv);
		free(name);
		free(path);
	}
}

/* ---- a user program ------------------------------------------------------------ */

/*
 * The example's mutex loop on a pthread mutex (workloads/examples/
 * lostwake.c, mode pthread: the scenario's lock, ww) built with `futexsim
 * build`, doing what bench_mutex()'s built-in run does: 8 threads, 200000
 * lock/unlock in all, PAUSE x5 inside and x1 between, on tiny4.
 * Return: its ops per host second, -1 if unavailable.
 */
static double program_once(const char *exe, const char *json)
{
	char *prog = table_path(json, "lostwake-bench"), opt[64];
	char out[] = "/tmp/futexsim-bench-XXXXXX";
	char *build[] = { (char *)exe, "build",
		FUTEXSIM_SOURCE_DIR "/workloads/examples/lostwake.c", "-o", prog,
		NULL };
	char *run[] = { (char *)exe, "run", "--machine=tiny4", NULL,
		"--args=pthread 8 25000", opt, NULL };
	const char *r0, *ops, *secs;
	char popt[4200], *doc = NULL;
	double v = -1;
	int fd = mkstemp(out);

	if (fd >= 0)
		close(fd);
	if (fd < 0 || sim_program_spawn(NULL, build, "/dev/null", "bench")) {
		fprintf(stderr, "bench: cannot build %s\n", prog);
		if (fd >= 0)
			unlink(out);
		free(prog);
		return -1;
	}
	snprintf(popt, sizeof(popt), "--program=%s", prog);
	run[3] = popt;
	snprintf(opt, sizeof(opt), "--json=%s", out);
	if (!sim_program_spawn(NULL, run, "/dev/null", "bench"))
		doc = slurp(out);
	unlink(out);
	free(prog);
	r0 = doc ? js_first(js_member(doc, "results")) : NULL;
	ops = r0 ? js_member(r0, "ops") : NULL;
	secs = r0 ? js_member(js_member(r0, "host"), "seconds") : NULL;
	if (ops && secs && strtod(secs, NULL) > 0 && strtod(ops, NULL) == 200000)
		v = strtod(ops, NULL) / strtod(secs, NULL);
	else
		fprintf(stderr, "bench: the program run gave no results\n");
	free(doc);
	return v;
}

#define BENCH_PROGRAM_ROUNDS	3

/* The best of BENCH_PROGRAM_ROUNDS runs of the program and of the
 * built-in workload, alternately (a loaded host slows single runs).
 * Return: the program's ops/s; *@ratio: built-in's over it, or -1. */
double bench_program(const char *exe, const char *json, double *ratio)
{
	double best = -1, best_builtin = -1;

	for (int i = 0; i < BENCH_PROGRAM_ROUNDS; i++) {
		double p = program_once(exe, json), b = bench_mutex(exe);

		if (p > best)
			best = p;
		if (b > best_builtin)
			best_builtin = b;
	}
	*ratio = best > 0 && best_builtin > 0 ? best_builtin / best : -1;
	return best;
}

/* ---- explore on a user program -------------------------------------------------- */

/* Build @src (under the source tree) into @out beside @json, with
 * --instrument if @instr.  Return: the path (to free), or NULL. */
static char *build_program(const char *exe, const char *json, const char *src,
			   const char *out, int instr)
{
	char *prog = table_path(json, out), path[512];
	char *with[] = { (char *)exe, "build", "--instrument", path, "-o", prog, NULL };
	char *without[] = { (char *)exe, "build", path, "-o", prog, NULL };

	snprintf(path, sizeof(path), FUTEXSIM_SOURCE_DIR "/%s", src);
	if (!prog || sim_program_spawn(NULL, instr ? with : without,
				       "/dev/null", "bench")) {
		fprintf(stderr, "bench: cannot build %s\n", src);
		free(prog);
		return NULL;
	}
	return prog;
}


#define BENCH_PROGRAM_EXPLORE_RUNS	2000
#define BENCH_EXPLORE_MIN_CPU_S		0.5	/* below: measured again, longer */
#define BENCH_EXPLORE_MAX_RUNS		500000

/* CPU seconds (user + system) of this process's waited-for children. */
static double children_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/*
 * Runs per CPU second of the children of `@argv`, whose --runs= is
 * @runs (room for it): BENCH_PROGRAM_EXPLORE_RUNS runs, then, if they
 * took less than BENCH_EXPLORE_MIN_CPU_S (the CPU clock's granularity
 * would show), as many as should take about a second, measured again.
 * Return: the figure, -1 if a command failed.
 */
static double explore_runs_per_cpu_s(char **argv, char *runs, size_t len)
{
	long n = BENCH_PROGRAM_EXPLORE_RUNS;
	double t0, t;

	for (;;) {
		snprintf(runs, len, "--runs=%ld", n);
		t0 = children_cpu();
		if (sim_program_spawn(NULL, argv, "/dev/null", "bench"))
			return -1;
		t = children_cpu() - t0;
		if (t >= BENCH_EXPLORE_MIN_CPU_S || n >= BENCH_EXPLORE_MAX_RUNS)
			break;
		n = t > 0 ? (long)(n / t) : BENCH_EXPLORE_MAX_RUNS;
		if (n > BENCH_EXPLORE_MAX_RUNS)
			n = BENCH_EXPLORE_MAX_RUNS;
	}
	return t > 0 ? n / t : -1;
}

/*
 * program_explore_runs_per_s: `futexsim explore --program=P --args="pthread
 * 2 3" --strategy=random` on tiny4, P the example workloads/examples/
 * lostwake.c built by @exe (the 2-thread counterpart of
 * explore_runs_per_s), complete runs per CPU second of the children
 * (futexsim, the program, and the fresh world each run starts from).
 * Return: the figure, -1 if unavailable.
 */
double bench_program_explore(const char *exe, const char *json)
{
	char *prog = build_program(exe, json, "workloads/examples/lostwake.c",
				   "lostwake-explore", 0);
	char popt[4200], runs[32];
	char *run[] = { (char *)exe, "explore", "--machine=tiny4", popt,
		"--args=pthread 2 3", "--strategy=random", runs, NULL };
	double r;

	if (!prog)
		return -1;
	snprintf(popt, sizeof(popt), "--program=%s", prog);
	r = explore_runs_per_cpu_s(run, runs, sizeof(runs));
	if (r < 0)
		fprintf(stderr, "bench: explore of %s failed\n", prog);
	free(prog);
	return r;
}

/* ---- instrumented programs ------------------------------------------------------ */

/* Host seconds of `@prog run --machine=tiny4 --args=pthread 8 25000`. */
static double lostwake_secs(const char *prog)
{
	char *run[] = { (char *)prog, "run", "--machine=tiny4",
		"--args=pthread 8 25000", NULL };
	double t0 = host_now();

	if (sim_program_spawn(NULL, run, "/dev/null", "bench"))
		return -1;
	return host_now() - t0;
}

/* Explore runs per CPU second of the children: @litmus under @memory. */
static double litmus_runs_per_s(char *litmus, char *memory)
{
	char runs[32];
	char *ex[] = { litmus, "explore", "--machine=tiny4", memory,
		"--args=SB 2 2", "--strategy=random", runs, NULL };

	return explore_runs_per_cpu_s(ex, runs, sizeof(runs));
}

void bench_instrumented(const char *exe, const char *json, double *slowdown,
			double *tso_runs, double *arm64_runs)
{
	char *plain = build_program(exe, json, "workloads/examples/lostwake.c",
				    "lostwake-plain", 0);
	char *instr = build_program(exe, json, "workloads/examples/lostwake.c",
				    "lostwake-instrumented", 1);
	char *litmus = build_program(exe, json, "workloads/examples/litmus.c",
				     "litmus-instrumented", 1);
	double best_p = -1, best_i = -1;

	*slowdown = *tso_runs = *arm64_runs = -1;
	for (int i = 0; plain && instr && i < BENCH_PROGRAM_ROUNDS; i++) {
		double p = lostwake_secs(plain), q = lostwake_secs(instr);

		if (p > 0 && (best_p < 0 || p < best_p))
			best_p = p;
		if (q > 0 && (best_i < 0 || q < best_i))
			best_i = q;
	}
	if (best_p > 0 && best_i > 0)
		*slowdown = best_i / best_p;
	if (litmus) {
		*tso_runs = litmus_runs_per_s(litmus, "--memory=tso");
		*arm64_runs = litmus_runs_per_s(litmus, "--memory=arm64");
	}
	free(plain);
	free(instr);
	free(litmus);
}
