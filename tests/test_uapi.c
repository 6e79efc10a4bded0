/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_uapi.c - the user-space ABI layer (workloads/libsim) one
 * function at a time, and whole user programs through `futexsim build`
 * and `futexsim run --program`.
 *
 * Stage: tests.  The small programs below call the layer's futexsim_*
 * functions directly (what futexsim.h renames a program's calls to) and
 * run as workload=program through wl_program_run() on a booted machine;
 * the atomics tests at the end include the builtin-renaming header
 * itself.  Whole programs built with `futexsim build` are
 * tests/test_build.c.
 */
#include <check.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/workload.h"
#include "tests/run_child.h"
#include "version.h"

static struct sim_preset preset;
static struct sim_scenario scn;
static struct sim_result res;
static const char *prog_trace;	/* run_prog(): a text trace, narrated */
static const char *prog_lock = "ww";	/* what pthread mutexes are made of */

/* Boot a 4-CPU machine with @seed and run @main as the program. */
static void run_prog(int (*main)(int, char **, char **), const char *args,
		     uint64_t seed)
{
	sim_preset_defaults(&preset);
	preset.sockets = 1;
	preset.threads_per_core = 1;
	preset.cores_per_socket = 4;
	sim_scenario_defaults(&scn);
	snprintf(scn.program, sizeof(scn.program), "prog");
	snprintf(scn.args, sizeof(scn.args), "%s", args);
	scn.seed = seed;
	setenv("FUTEXSIM_CHECK_STATE", "1", 1);
	sim_machine_init(&preset, 4, seed);
	if (prog_trace) {
		scn.narrate = 1;
		scn.trace_events = SIM_TRACE_ALL;
		ck_assert_int_eq(sim_trace_open(prog_trace, &scn), 0);
	}
	wl_program_run(&scn, ulock_find(prog_lock), main, &res);
	if (prog_trace)
		ck_assert_int_eq(sim_trace_close(), 0);
}

/* run_prog(), then: the program exited with @status. */
static void run_prog_exits(int (*main)(int, char **, char **),
			   const char *args, uint64_t seed, int status)
{
	run_prog(main, args, seed);
	ck_assert_int_eq(res.prog_exited, 1);
	ck_assert_int_eq(res.prog_status, status);
}

/* The program @main run as by run_prog() (no arguments, seed 1) in a
 * child process: its exit status and output into @o. */
static int (*child_main)(int, char **, char **);

static void prog_child(void *arg)
{
	run_prog(child_main, "", 1);
}

static void run_prog_child(int (*main)(int, char **, char **),
			   struct child_out *o)
{
	child_main = main;
	run_child(prog_child, NULL, o);
}

/* ---- threads: creation, join order, exit ---- */

static int order[8], nr_order;
static pthread_mutex_t order_mx = PTHREAD_MUTEX_INITIALIZER;

/* Each thread sleeps (3 - i) x 100 us, then notes its index. */
static void *sleeper(void *arg)
{
	long i = (long)arg;

	futexsim_usleep((useconds_t)(3 - i) * 100);
	futexsim_pthread_mutex_lock(&order_mx);
	order[nr_order++] = (int)i;
	futexsim_pthread_mutex_unlock(&order_mx);
	return (void *)(i * 10);
}

static int main_join(int argc, char **argv, char **envp)
{
	pthread_t t[3];
	void *ret;

	for (long i = 0; i < 3; i++)
		futexsim_pthread_create(&t[i], NULL, sleeper, (void *)i);
	for (long i = 0; i < 3; i++) {
		futexsim_pthread_join(t[i], &ret);
		if ((long)ret != i * 10)
			return 1;
	}
	/* every thread had finished: joins waited for them */
	return nr_order == 3 ? 0 : 2;
}

START_TEST(test_threads_run_and_join_in_order)
{
	nr_order = 0;
	run_prog_exits(main_join, "", 1, 0);
	ck_assert_int_eq(res.prog_threads, 4);
	/* the shortest sleeper first: the sleeps are on the virtual clock */
	ck_assert_int_eq(order[0], 2);
	ck_assert_int_eq(order[1], 1);
	ck_assert_int_eq(order[2], 0);
	ck_assert_uint_eq(res.ops, 3);
}
END_TEST

static int main_argv(int argc, char **argv, char **envp)
{
	if (argc != 3 || strcmp(argv[0], "prog") != 0 ||
	    strcmp(argv[1], "-x") != 0 || strcmp(argv[2], "two words") != 0)
		return 1;
	return futexsim_gettid() == SIM_TID_BASE ? 7 : 2;
}

START_TEST(test_main_is_the_first_task_with_its_arguments_and_status)
{
	run_prog_exits(main_argv, "-x 'two words'", 1, 7);
}
END_TEST

static uint32_t never;

static void *blocker(void *arg)
{
	futexsim_syscall(SYS_futex, &never, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void *exiter(void *arg)
{
	futexsim_usleep(50);
	futexsim_exit(5);
}

/* exit() from a thread ends the program though a thread is blocked. */
static int main_exit(int argc, char **argv, char **envp)
{
	pthread_t a, b;

	futexsim_pthread_create(&a, NULL, blocker, NULL);
	futexsim_pthread_create(&b, NULL, exiter, NULL);
	futexsim_pthread_join(a, NULL);
	return 0;
}

START_TEST(test_exit_from_a_thread_ends_the_run)
{
	run_prog_exits(main_exit, "", 1, 5);
}
END_TEST

static int late;

static void *late_thread(void *arg)
{
	futexsim_usleep(200);
	late = 1;
	return NULL;
}

/* main() calls pthread_exit(): the program lives on until the last
 * thread exits, then exits 0. */
static int main_pthread_exit(int argc, char **argv, char **envp)
{
	pthread_t t;

	futexsim_pthread_create(&t, NULL, late_thread, NULL);
	futexsim_pthread_exit(NULL);
}

START_TEST(test_pthread_exit_of_main_waits_for_the_last_thread)
{
	late = 0;
	run_prog_exits(main_pthread_exit, "", 1, 0);
	ck_assert_int_eq(late, 1);
}
END_TEST

/* ---- shared futexes: the real get_futex_key() on an anonymous page ---- */

static uint32_t shared_word;
static long shared_ret;

static void *shared_waiter(void *arg)
{
	shared_ret = futexsim_syscall(SYS_futex, &shared_word, FUTEX_WAIT, 0,
				      NULL, NULL, 0);
	return NULL;
}

static int main_shared(int argc, char **argv, char **envp)
{
	pthread_t t;
	long priv, shared;

	futexsim_pthread_create(&t, NULL, shared_waiter, NULL);
	futexsim_usleep(100);
	/* a private key is not the shared one (FUT_OFF_MMSHARED) */
	priv = futexsim_syscall(SYS_futex, &shared_word, FUTEX_WAKE_PRIVATE, 1,
				NULL, NULL, 0);
	shared = futexsim_syscall(SYS_futex, &shared_word, FUTEX_WAKE, 1,
				  NULL, NULL, 0);
	futexsim_pthread_join(t, NULL);
	return priv == 0 && shared == 1 && shared_ret == 0 ? 0 : 1;
}

START_TEST(test_shared_futexes_work_on_the_programs_memory)
{
	run_prog_exits(main_shared, "", 1, 0);
}
END_TEST

/* ---- time ---- */

static uint64_t slept_ns;

static int main_sleep(int argc, char **argv, char **envp)
{
	struct timespec a, b, req = { .tv_nsec = 1000000 };

	futexsim_clock_gettime(CLOCK_MONOTONIC, &a);
	futexsim_nanosleep(&req, NULL);
	futexsim_clock_gettime(CLOCK_REALTIME, &b);
	slept_ns = (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000 +
		   (uint64_t)(b.tv_nsec - a.tv_nsec);
	return 0;
}

START_TEST(test_sleep_is_on_the_virtual_clock)
{
	run_prog(main_sleep, "", 1);
	/* 1 ms, plus at most the 50 us timer slack and a few syscalls */
	ck_assert_uint_ge(slept_ns, 1000000);
	ck_assert_uint_lt(slept_ns, 1060000);
	ck_assert_double_lt(res.host_seconds, 0.5);	/* not a real sleep */
}
END_TEST

/* ---- memory ---- */

static void *block;

static int main_malloc(int argc, char **argv, char **envp)
{
	char *p = futexsim_malloc(100), *q = futexsim_calloc(10, 10);
	void *a = NULL;

	block = p;
	if (futexsim_posix_memalign(&a, 256, 10) || (uintptr_t)a % 256)
		return 1;
	memset(p, 1, 100);
	p = futexsim_realloc(p, 1000);
	if (p[99] != 1 || q[99] != 0 || !sim_arena_contains(p) ||
	    !sim_arena_contains(q))
		return 2;
	futexsim_free(p);
	futexsim_free(q);
	futexsim_free(a);
	return 0;
}

START_TEST(test_malloc_is_the_arena_at_the_same_address_every_run)
{
	void *first;

	run_prog(main_malloc, "", 1);
	ck_assert_int_eq(res.prog_status, 0);
	first = block;
	run_prog(main_malloc, "", 2);
	ck_assert_int_eq(res.prog_status, 0);
	ck_assert_ptr_eq(block, first);
}
END_TEST

/* ---- synchronisation ---- */

static pthread_mutex_t cmx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t bar;
static int items, rounds_seen[4];

static void *consumer(void *arg)
{
	for (int got = 0; got < 50; got++) {
		futexsim_pthread_mutex_lock(&cmx);
		while (!items)
			futexsim_pthread_cond_wait(&cv, &cmx);
		items--;
		futexsim_pthread_mutex_unlock(&cmx);
	}
	return NULL;
}

static void *rounds(void *arg)
{
	long i = (long)arg;

	for (int r = 0; r < 3; r++) {
		futexsim_usleep((useconds_t)(i + 1) * 10);
		rounds_seen[i]++;
		futexsim_pthread_barrier_wait(&bar);
		/* nobody is a round ahead */
		for (int j = 0; j < 4; j++)
			if (rounds_seen[j] < r + 1)
				futexsim_exit(9);
	}
	return NULL;
}

static int main_sync(int argc, char **argv, char **envp)
{
	pthread_t c, t[4];

	futexsim_pthread_create(&c, NULL, consumer, NULL);
	for (int i = 0; i < 50; i++) {
		futexsim_pthread_mutex_lock(&cmx);
		items++;
		futexsim_pthread_cond_signal(&cv);
		futexsim_pthread_mutex_unlock(&cmx);
	}
	futexsim_pthread_join(c, NULL);
	futexsim_pthread_barrier_init(&bar, NULL, 4);
	for (long i = 0; i < 4; i++)
		futexsim_pthread_create(&t[i], NULL, rounds, (void *)i);
	for (int i = 0; i < 4; i++)
		futexsim_pthread_join(t[i], NULL);
	return items;
}

START_TEST(test_cond_and_barrier_over_the_futex)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		items = 0;
		memset(rounds_seen, 0, sizeof(rounds_seen));
		run_prog_exits(main_sync, "", seed, 0);
		ck_assert_int_eq(rounds_seen[3], 3);
		ck_assert_uint_ge(res.ops, 100);	/* mutex acquisitions */
	}
}
END_TEST

/* The TP futex's figures (ulock_stats) of the program's mutexes reach
 * the result, as workload=mutex's do. */
START_TEST(test_the_locks_slow_path_figures_reach_the_result)
{
	items = 0;
	memset(rounds_seen, 0, sizeof(rounds_seen));
	prog_lock = "tp";
	run_prog_exits(main_sync, "", 1, 0);
	prog_lock = "ww";
	/* each FUTEX_LOCK that acquired counts in one of the three */
	ck_assert_uint_gt(res.lock_syscalls, 0);
	ck_assert_uint_gt(res.tp_steals + res.tp_top_waiter + res.tp_handoffs, 0);
}
END_TEST

static pthread_rwlock_t rwl = PTHREAD_RWLOCK_INITIALIZER;
static int readers_in, max_readers, writer_in, rw_bad;

static void *rw_user(void *arg)
{
	long writer = (long)arg & 1;

	for (int i = 0; i < 20; i++) {
		if (writer) {
			futexsim_pthread_rwlock_wrlock(&rwl);
			writer_in++;
			if (readers_in || writer_in > 1)
				rw_bad = 1;
			futexsim_usleep(1);
			writer_in--;
		} else {
			futexsim_pthread_rwlock_rdlock(&rwl);
			readers_in++;
			if (writer_in)
				rw_bad = 1;
			if (readers_in > max_readers)
				max_readers = readers_in;
			futexsim_usleep(1);
			readers_in--;
		}
		futexsim_pthread_rwlock_unlock(&rwl);
	}
	return NULL;
}

static int main_rwlock(int argc, char **argv, char **envp)
{
	pthread_t t[6];

	for (long i = 0; i < 6; i++)	/* 0, 2, 4 read; 1, 3, 5 write */
		futexsim_pthread_create(&t[i], NULL, rw_user, (void *)i);
	for (int i = 0; i < 6; i++)
		futexsim_pthread_join(t[i], NULL);
	return rw_bad;
}

START_TEST(test_rwlock_admits_readers_together_and_writers_alone)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		readers_in = max_readers = writer_in = rw_bad = 0;
		memset(&rwl, 0, sizeof(rwl));
		run_prog_exits(main_rwlock, "", seed, 0);
		ck_assert_int_gt(max_readers, 1);
	}
}
END_TEST

/* ---- output capture ---- */

static void *talker(void *arg)
{
	futexsim_printf("b says ");
	futexsim_usleep(100);
	futexsim_printf("hello\n");
	futexsim_fprintf(stderr, "b on stderr\n");
	return NULL;
}

static int main_output(int argc, char **argv, char **envp)
{
	pthread_t t;

	futexsim_pthread_create(&t, NULL, talker, NULL);
	futexsim_usleep(50);
	futexsim_puts("main line");	/* while b's line is half-written */
	futexsim_pthread_join(t, NULL);
	futexsim_printf("no newline");
	return 0;
}

START_TEST(test_output_is_captured_a_whole_line_per_task)
{
	struct child_out o;

	run_prog_child(main_output, &o);
	ck_assert_int_eq(o.status, 0);
	ck_assert_str_eq(o.out, "main line\nb says hello\nno newline");
	ck_assert_str_eq(o.err, "b on stderr\n");
}
END_TEST

static int main_unsupported(int argc, char **argv, char **envp)
{
	futexsim_printf("before\n");
	return (int)futexsim_unsupported("fork(): processes are not simulated");
}

START_TEST(test_an_unsupported_call_is_a_failure_report)
{
	struct child_out o;

	run_prog_child(main_unsupported, &o);
	ck_assert_int_eq(o.status, 3);
	ck_assert_str_eq(o.out, "before\n");
	ck_assert_ptr_nonnull(strstr(o.err, "unsupported call in the program: fork()"));
}
END_TEST

/* ---- the trace shows the program's own futex words ---- */

static uint32_t global_word = 7;
enum { global_word_line = __LINE__ - 1 };	/* its name's file:line */

/* Two FUTEX_WAITs that time out: on a global, then on a local. */
static int main_words(int argc, char **argv, char **envp)
{
	uint32_t local = 9;
	struct timespec ts = { .tv_nsec = 1000 };

	futexsim_printf("local at 0x%lx\n", (unsigned long)&local);
	futexsim_syscall(SYS_futex, &global_word, FUTEX_WAIT_PRIVATE, 7, &ts,
			 NULL, 0);
	futexsim_syscall(SYS_futex, &local, FUTEX_WAIT_PRIVATE, 9, &ts,
			 NULL, 0);
	return 0;
}

START_TEST(test_trace_shows_the_programs_globals_and_stack_words)
{
	char path[] = "/tmp/futexsim-uapi-XXXXXX.txt", want[160], *doc;
	unsigned long local = 0;
	struct child_out o;
	int fd = mkstemps(path, 4);

	ck_assert_int_ge(fd, 0);
	close(fd);
	prog_trace = path;
	run_prog_child(main_words, &o);
	prog_trace = NULL;
	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_int_eq(sscanf(o.out, "local at 0x%lx", &local), 1);
	ck_assert_uint_ge(local, SIM_CORO_STACK_BASE);	/* a fixed stack */
	doc = slurp(path, NULL);
	unlink(path);
	/* the global by its name (sim/report/symbols.h), the stack word not */
	snprintf(want, sizeof(want), "futex_enter: uaddr=%p (global_word (test_uapi.c:%d)) op=FUTEX_WAIT_PRIVATE val=7",
		 (void *)&global_word, (int)global_word_line);
	ck_assert_msg(strstr(doc, want), "no '%s' in:\n%s", want, doc);
	snprintf(want, sizeof(want), "futex_enter: uaddr=0x%lx op=FUTEX_WAIT_PRIVATE val=9",
		 local);
	ck_assert_msg(strstr(doc, want), "no '%s' in:\n%s", want, doc);
	free(doc);
	/* the narration reads the words there too */
	snprintf(want, sizeof(want), "calls FUTEX_WAIT on global_word (test_uapi.c:%d), to sleep if the word is still 7 (it is 7 now)",
		 (int)global_word_line);
	ck_assert_msg(strstr(o.err, want), "no '%s' in:\n%s", want, o.err);
	snprintf(want, sizeof(want), "calls FUTEX_WAIT on 0x%lx, to sleep if the word is still 9 (it is 9 now)",
		 local);
	ck_assert_msg(strstr(o.err, want), "no '%s' in:\n%s", want, o.err);
}
END_TEST

/* ---- atomics: the renaming header itself ---- */
#undef FUTEXSIM_NO_RENAME
#undef FUTEXSIM_ATOMIC_H
#include "workloads/libsim/futexsim_atomic.h"

static int flag;
static unsigned long hits;

static void *setter(void *arg)
{
	for (int i = 0; i < 1000; i++)
		__atomic_fetch_add(&hits, 1, __ATOMIC_SEQ_CST);
	__sync_lock_test_and_set(&flag, 1);
	return NULL;
}

/* Spins on an atomic load: ends only if loads are scheduling points. */
static int main_atomics(int argc, char **argv, char **envp)
{
	pthread_t t;

	futexsim_pthread_create(&t, NULL, setter, NULL);
	while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
	futexsim_pthread_join(t, NULL);
	return hits == 1000 ? 0 : 1;
}

START_TEST(test_atomics_are_scheduling_points_with_a_cost)
{
	flag = 0;
	hits = 0;
	run_prog(main_atomics, "", 1);
	ck_assert_int_eq(res.prog_status, 0);
	ck_assert_uint_ge(res.host_hooks, 1000);
	/* 1000 RMWs and the spinner's loads took virtual time */
	ck_assert_uint_gt(res.elapsed_ns, 1000);
}
END_TEST

Suite *uapi_suite(void)
{
	return one_case_suite("uapi", 120, (const TTest *const[]){
		test_threads_run_and_join_in_order,
		test_main_is_the_first_task_with_its_arguments_and_status,
		test_exit_from_a_thread_ends_the_run,
		test_pthread_exit_of_main_waits_for_the_last_thread,
		test_shared_futexes_work_on_the_programs_memory,
		test_sleep_is_on_the_virtual_clock,
		test_malloc_is_the_arena_at_the_same_address_every_run,
		test_cond_and_barrier_over_the_futex,
		test_the_locks_slow_path_figures_reach_the_result,
		test_rwlock_admits_readers_together_and_writers_alone,
		test_output_is_captured_a_whole_line_per_task,
		test_an_unsupported_call_is_a_failure_report,
		test_trace_shows_the_programs_globals_and_stack_words,
		test_atomics_are_scheduling_points_with_a_cost,
		NULL });
}
