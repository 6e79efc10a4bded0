/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/examples/litmus.c - the classic memory-model litmus tests as
 * a program, for `futexsim build --instrument` and explore
 * (docs/programs.md, "Litmus tests"): which outcomes a schedule can give.
 *
 *   futexsim build --instrument workloads/examples/litmus.c -o litmus
 *   ./litmus explore --args="SB 0 0" --strategy=random --runs=2000
 *
 * Stage: user program (workload).  Each test's threads make plain
 * accesses to shared ints (volatile: each one an access of the compiled
 * code; in an instrumented build each one a scheduling point), all
 * started before any of them runs its accesses; main joins them and
 * compares what they read (or the final values) with OUTCOME.
 *
 *   SB     T0: x = 1; r0 = y          T1: y = 1; r1 = x        "r0 r1"
 *   MP     T0: d = 1; f = 1           T1: r0 = f; r1 = d       "r0 r1"
 *   LB     T0: r0 = x; y = 1          T1: r1 = y; x = 1        "r0 r1"
 *   IRIW   T0: x = 1   T1: y = 1   T2: r0 = x; r1 = y
 *          T3: r2 = y; r3 = x                          "r0 r1 r2 r3"
 *   2+2W   T0: x = 1; y = 2           T1: y = 1; x = 2   final "x y"
 *   CoRR   T0: x = 1; x = 2           T1: r0 = x; r1 = x       "r0 r1"
 *
 * and with barriers (__atomic builtins: an instrumented build sees their
 * orders):
 *
 *   SB+mb  SB with a seq_cst fence between each thread's two accesses
 *   SB+ra  SB with release stores and acquire loads
 *   MP+ra  MP with f stored with release and loaded with acquire
 *   MP+rel MP with f stored with release, both loads plain
 *   MP+rel+fence  MP+rel with an acquire fence between the two loads
 *
 * and LB with what orders its load before its store:
 *
 *   LB+fence  a seq_cst fence between each thread's load and store
 *   LB+data   T0 stores what it loaded (y = r0), T1 as in LB
 *   LB+ctrl   each stores 1 only if it loaded 1 (if (r0) y = 1): no
 *             value comes from nowhere
 *
 * Usage: litmus TEST OUTCOME|any.  With OUTCOME (the numbers, in the
 * order above, one word or several), a run that gives it aborts with "litmus: TEST gave
 * OUTCOME": explore's crash oracle then finds a schedule that gives it,
 * and passes every run of a search in which it never appears.  With
 * "any" it prints the outcome.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int x, y, d, f, go;
static volatile int r[4];
static const char *test;

/* Wait until every thread is created: the accesses then race. */
static void start(void)
{
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

/* Wait, ordering nothing, until every thread is done with its accesses:
 * their stores may still become visible in any order the model allows,
 * where exiting (a system call) would make them visible at once. */
static int done, nthreads;

static void finish(void)
{
	__atomic_fetch_add(&done, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&done, __ATOMIC_RELAXED) < nthreads)
		__builtin_ia32_pause();
}

static void *t0(void *arg)
{
	(void)arg;
	start();
	if (!strcmp(test, "SB")) {
		x = 1;
		r[0] = y;
	} else if (!strcmp(test, "SB+mb")) {
		x = 1;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		r[0] = y;
	} else if (!strcmp(test, "SB+ra")) {
		__atomic_store_n(&x, 1, __ATOMIC_RELEASE);
		r[0] = __atomic_load_n(&y, __ATOMIC_ACQUIRE);
	} else if (!strcmp(test, "MP+ra")) {
		d = 1;
		__atomic_store_n(&f, 1, __ATOMIC_RELEASE);
	} else if (!strcmp(test, "MP+rel") || !strcmp(test, "MP+rel+fence")) {
		d = 1;
		__atomic_store_n(&f, 1, __ATOMIC_RELEASE);
	} else if (!strcmp(test, "MP")) {
		d = 1;
		f = 1;
	} else if (!strcmp(test, "CoRR")) {
		x = 1;
		x = 2;
	} else if (!strcmp(test, "LB")) {
		r[0] = x;
		y = 1;
	} else if (!strcmp(test, "LB+fence")) {
		r[0] = x;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		y = 1;
	} else if (!strcmp(test, "LB+data")) {
		int v = x;

		r[0] = v;
		y = v;
	} else if (!strcmp(test, "LB+ctrl")) {
		int v = x;

		r[0] = v;
		if (v)
			y = 1;
	} else if (!strcmp(test, "IRIW")) {
		x = 1;
	} else {		/* 2+2W */
		x = 1;
		y = 2;
	}
	finish();
	return NULL;
}

static void *t1(void *arg)
{
	(void)arg;
	start();
	if (!strcmp(test, "SB")) {
		y = 1;
		r[1] = x;
	} else if (!strcmp(test, "SB+mb")) {
		y = 1;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		r[1] = x;
	} else if (!strcmp(test, "SB+ra")) {
		__atomic_store_n(&y, 1, __ATOMIC_RELEASE);
		r[1] = __atomic_load_n(&x, __ATOMIC_ACQUIRE);
	} else if (!strcmp(test, "MP+ra")) {
		r[0] = __atomic_load_n(&f, __ATOMIC_ACQUIRE);
		r[1] = d;
	} else if (!strcmp(test, "MP") || !strcmp(test, "MP+rel")) {
		r[0] = f;
		r[1] = d;
	} else if (!strcmp(test, "MP+rel+fence")) {
		r[0] = f;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		r[1] = d;
	} else if (!strcmp(test, "CoRR")) {
		r[0] = x;
		r[1] = x;
	} else if (!strcmp(test, "LB") || !strcmp(test, "LB+data")) {
		r[1] = y;
		x = 1;
	} else if (!strcmp(test, "LB+fence")) {
		r[1] = y;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		x = 1;
	} else if (!strcmp(test, "LB+ctrl")) {
		int v = y;

		r[1] = v;
		if (v)
			x = 1;
	} else if (!strcmp(test, "IRIW")) {
		y = 1;
	} else {
		y = 1;
		x = 2;
	}
	finish();
	return NULL;
}

static void *t2(void *arg)
{
	(void)arg;
	start();
	r[0] = x;
	r[1] = y;
	finish();
	return NULL;
}

static void *t3(void *arg)
{
	(void)arg;
	start();
	r[2] = y;
	r[3] = x;
	finish();
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*const body[4])(void *) = { t0, t1, t2, t3 };
	int iriw, n;
	pthread_t th[4];
	char got[64], want[64];

	static const char *const tests[] = {
		"SB", "MP", "LB", "IRIW", "2+2W", "CoRR", "SB+mb", "SB+ra",
		"MP+ra", "MP+rel", "MP+rel+fence", "LB+fence", "LB+data",
		"LB+ctrl",
	};
	int known = 0;

	for (size_t i = 0; argc >= 3 && i < sizeof(tests) / sizeof(tests[0]); i++)
		known |= !strcmp(argv[1], tests[i]);
	if (!known) {
		fprintf(stderr, "usage: litmus SB|MP|LB|IRIW|2+2W|CoRR|SB+mb|SB+ra|MP+ra|MP+rel|MP+rel+fence|LB+fence|LB+data|LB+ctrl OUTCOME|any\n");
		return 2;
	}
	test = argv[1];
	iriw = !strcmp(test, "IRIW");
	n = iriw ? 4 : 2;
	nthreads = n;
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, body[i], NULL);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (iriw)
		snprintf(got, sizeof(got), "%d %d %d %d", r[0], r[1], r[2], r[3]);
	else if (!strcmp(test, "2+2W"))
		snprintf(got, sizeof(got), "%d %d", x, y);
	else
		snprintf(got, sizeof(got), "%d %d", r[0], r[1]);
	if (!strcmp(argv[2], "any")) {
		printf("%s: %s\n", test, got);
		return 0;
	}
	want[0] = '\0';
	for (int i = 2; i < argc; i++)	/* "1 0" or 1 0 */
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 "%s%s", i > 2 ? " " : "", argv[i]);
	if (!strcmp(want, got)) {
		fprintf(stderr, "litmus: %s gave %s\n", test, got);
		abort();
	}
	return 0;
}
