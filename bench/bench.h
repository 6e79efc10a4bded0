/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/bench.h - private to bench/bench.c and bench/bench_spawn.c: the
 * figures bench/bench_spawn.c measures with child processes, for main()
 * in bench/bench.c, and the host clock both read.
 *
 * Stage: a host tool beside the data flow (`make bench`).  @exe is the
 * futexsim binary; @json is OUT.json, beside which the tables, reports
 * and the built program are kept.  Each figure is -1 when it could not be
 * measured (the reason on stderr); bench/bench.c's head documents them.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <time.h>

/* host_now - the host's monotonic clock, in seconds.  Host time is read
 * by the bench only; it never reaches a simulation. */
static inline double host_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* bench_mutex - mutex_ops_per_s: results[0].ops/host.seconds of
 * `futexsim run --machine=tiny4 --threads=8 --lock=ww --ops=200000`. */
double bench_mutex(const char *exe);
/* bench_native - native_ops_per_s, best of 3: the work of bench_mutex()
 * on the host's own threads and futex(2) (bench/bench_native.c). */
double bench_native(void);
/* bench_program - program_ops_per_s, best of 3: workloads/examples/
 * lostwake.c built with `futexsim build` doing the same work.  *@ratio:
 * program_ratio, bench_mutex()'s best over it, or -1. */
double bench_program(const char *exe, const char *json, double *ratio);
/* bench_trace - trace_on_slowdown: that mutex run's time with
 * --trace=FILE.txt over its time without. */
double bench_trace(const char *exe);
/* bench_html - html_bytes_per_event: the size of the page of
 * --trace=FILE.html of ~100,000 events over their number; -1 on failure. */
double bench_html(const char *exe);
/* bench_spin_table - spin_table_s: seconds of spin-2014.sh (the 2014
 * table, kept in spin-2014.txt). */
double bench_spin_table(const char *exe, const char *json);
/* bench_glibc_tables - glibc_tables_s: seconds of glibc-tables.sh
 * mutex-2017 (kept in glibc-2017-mutex.txt). */
double bench_glibc_tables(const char *exe, const char *json);
/* bench_tp_table - tp_table_s: seconds of the full 2016 TO-futex run of
 * ww, pi and tp, in that order, into @secs (the reports kept in
 * to-futex-256*.txt). */
void bench_tp_table(const char *exe, const char *json, double secs[3]);
/* bench_program_explore - program_explore_runs_per_s: explore runs per
 * CPU second on workloads/examples/lostwake.c built by @exe. */
double bench_program_explore(const char *exe, const char *json);
/* bench_instrumented - instrumented_slowdown into *@slowdown,
 * tso_explore_runs_per_s into *@tso_runs and arm64_explore_runs_per_s
 * into *@arm64_runs (-1 if unavailable). */
void bench_instrumented(const char *exe, const char *json, double *slowdown,
			double *tso_runs, double *arm64_runs);

#endif /* BENCH_BENCH_H */
