/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_uword.c - a user program's synchronisation made visible:
 * its atomics on futex words in the trace and the narration (with the
 * value before and after), its words by name, the report's "futex words"
 * figures of a hand-written lock, a deadlock's wait-for cycle, and
 * preloading the futex words (sim_uword_preload()).
 *
 * Stage: tests.  Whole programs are built with `futexsim build` and run
 * through $FUTEXSIM, as tests/test_build.c does; the preload test runs
 * a program in this process through wl_program_run(), as
 * tests/test_uapi.c does.
 */
#include <check.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace.h"
#include "sim/trace/uword.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/workload.h"
#include "tests/run_child.h"
#include "version.h"

/* ---- programs built with futexsim build ---- */

/* A hand-written futex mutex (Drepper's three states), N threads x M
 * iterations; its word is made a futex word first by a FUTEX_WAKE that
 * wakes nobody, so every acquisition counts. */
static const char hand_src[] =
	"#include <linux/futex.h>\n"
	"#include <pthread.h>\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <sys/syscall.h>\n"
	"#include <unistd.h>\n"
	"\n"
	"static unsigned int lockword;\n"		/* line 8 */
	"static long counter;\n"
	"static int iterations = 50;\n"
	"\n"
	"static void lock(void)\n"
	"{\n"
	"	unsigned int c = 0;\n"
	"	if (__atomic_compare_exchange_n(&lockword, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))\n"
	"		return;\n"
	"	if (c != 2)\n"
	"		c = __atomic_exchange_n(&lockword, 2, __ATOMIC_ACQUIRE);\n"
	"	while (c != 0) {\n"
	"		syscall(SYS_futex, &lockword, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);\n"
	"		c = __atomic_exchange_n(&lockword, 2, __ATOMIC_ACQUIRE);\n"
	"	}\n"
	"}\n"
	"\n"
	"static void unlock(void)\n"
	"{\n"
	"	if (__atomic_fetch_sub(&lockword, 1, __ATOMIC_RELEASE) != 1) {\n"
	"		__atomic_store_n(&lockword, 0, __ATOMIC_RELEASE);\n"
	"		syscall(SYS_futex, &lockword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);\n"
	"	}\n"
	"}\n"
	"\n"
	"static void *worker(void *arg)\n"
	"{\n"
	"	for (int i = 0; i < iterations; i++) {\n"
	"		lock();\n"
	"		counter++;\n"
	"		for (int k = 0; k < 20; k++)\n"
	"			__builtin_ia32_pause();\n"
	"		unlock();\n"
	"	}\n"
	"	return arg;\n"
	"}\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	int n = argc > 1 ? atoi(argv[1]) : 4;\n"
	"	pthread_t t[16];\n"
	"	if (argc > 2)\n"
	"		iterations = atoi(argv[2]);\n"
	"	syscall(SYS_futex, &lockword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);\n"
	"	for (int i = 0; i < n; i++)\n"
	"		pthread_create(&t[i], NULL, worker, NULL);\n"
	"	for (int i = 0; i < n; i++)\n"
	"		pthread_join(t[i], NULL);\n"
	"	printf(\"counter %ld\\n\", counter);\n"
	"	return 0;\n"
	"}\n";

/* Two pthread mutexes taken in opposite orders ("abba", a barrier forces
 * the interleaving) or in the same order ("ordered"). */
static const char abba_src[] =
	"#include <pthread.h>\n"
	"#include <string.h>\n"
	"\n"
	"static pthread_mutex_t lockA = PTHREAD_MUTEX_INITIALIZER;\n"	/* 4 */
	"static pthread_mutex_t lockB = PTHREAD_MUTEX_INITIALIZER;\n"	/* 5 */
	"static pthread_barrier_t bar;\n"
	"static int abba;\n"
	"\n"
	"static void *worker(void *arg)\n"
	"{\n"
	"	pthread_mutex_t *x = arg && abba ? &lockB : &lockA;\n"
	"	pthread_mutex_t *y = x == &lockA ? &lockB : &lockA;\n"
	"	pthread_mutex_lock(x);\n"
	"	if (abba)\n"
	"		pthread_barrier_wait(&bar);\n"
	"	pthread_mutex_lock(y);\n"
	"	pthread_mutex_unlock(y);\n"
	"	pthread_mutex_unlock(x);\n"
	"	return NULL;\n"
	"}\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	pthread_t t[2];\n"
	"	abba = argc > 1 && !strcmp(argv[1], \"abba\");\n"
	"	pthread_barrier_init(&bar, NULL, 2);\n"
	"	pthread_create(&t[0], NULL, worker, NULL);\n"
	"	pthread_create(&t[1], NULL, worker, &t[1]);\n"
	"	pthread_join(t[0], NULL);\n"
	"	pthread_join(t[1], NULL);\n"
	"	return 0;\n"
	"}\n";

/* Futex words in an array of structs, in a heap block, on the stack. */
static const char names_src[] =
	"#include <linux/futex.h>\n"
	"#include <stdlib.h>\n"
	"#include <sys/syscall.h>\n"
	"#include <unistd.h>\n"
	"\n"
	"struct slot { int pad; unsigned int word; };\n"
	"static struct slot slots[3];\n"				/* 7 */
	"\n"
	"int main(void)\n"
	"{\n"
	"	unsigned int *heap = malloc(16);\n"		/* 11 */
	"	unsigned int local = 0;\n"
	"	syscall(SYS_futex, &slots[2].word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);\n"
	"	syscall(SYS_futex, heap + 1, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);\n"
	"	syscall(SYS_futex, &local, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);\n"
	"	free(heap);\n"
	"	return 0;\n"
	"}\n";

/* Build the C file @src into ./@out (a fresh build: the binary holds
 * the simulator).  Return: 0 if FUTEXSIM is not set (skipped). */
static int build_c(const char *src, const char *out)
{
	const char *argv[] = { "futexsim", "build", src, "-o", out, NULL };
	struct child_out *o = malloc(sizeof(*o));
	int ok;

	ck_assert_ptr_nonnull(o);
	ok = run_futexsim(o, argv);
	if (ok)
		ck_assert_msg(o->status == 0, "build of %s failed: %s", src, o->err);
	free(o);
	return ok;
}

/* Write @src to NAME.c and build ./NAME. */
static int build(const char *name, const char *src)
{
	char c[64];
	FILE *f;

	snprintf(c, sizeof(c), "%s.c", name);
	f = fopen(c, "w");
	ck_assert_ptr_nonnull(f);
	fputs(src, f);
	fclose(f);
	return build_c(c, name);
}

/* Build the source file @path (under the source tree) into ./@out. */
static int build_file(const char *path, const char *out)
{
	char src[512];

	snprintf(src, sizeof(src), "%s/%s", FUTEXSIM_SOURCE_DIR, path);
	return build_c(src, out);
}

/* Run ./@prog with the NULL-terminated options after "run". */
#define run(o, prog, ...)						\
	run_program("./" prog, (char *const[]){ "./" prog, "run",	\
						__VA_ARGS__, NULL }, (o))

/* The report from its results table on (the scenario names the files). */
static const char *table(const char *out)
{
	const char *p = strstr(out, "\n-----");

	ck_assert_msg(p, "no results table in: %s", out);
	return p;
}

static struct child_out a, b;

START_TEST(test_hand_written_lock_counts_what_the_program_counted)
{
	if (!build("uw-hand", hand_src))
		return;
	run(&a, "uw-hand", "--args=4 50", "--json=uw-hand.json");
	ck_assert_msg(a.status == 0, "status %d: %s", a.status, a.err);
	ck_assert_ptr_nonnull(strstr(a.out, "counter 200\n"));
	/* the word by name, its acquisitions = the program's own count */
	ck_assert_ptr_nonnull(strstr(a.out, "\nfutex words (lock ww):\n  lockword (uw-hand.c:8): raw\n"
				     "    acquisitions 200 by 4 tasks (min 50, max 50, Jain's index 1.0000)\n"));
	/* contended: it waited (and some waits found the word changed) */
	ck_assert_ptr_null(strstr(a.out, "    FUTEX_WAIT 0 (EAGAIN 0), FUTEX_WAKE 0"));
	ck_assert_ptr_nonnull(strstr(a.out, "    FUTEX_WAIT "));
	/* the main table counts the hand-written lock: ops, syscalls */
	ck_assert_ptr_nonnull(strstr(a.out, "\nops                                   200\n"));
	ck_assert_ptr_null(strstr(a.out, "\nlock syscalls (% ops)                   0\n"));
	ck_assert_ptr_nonnull(strstr(a.out, "\nops per thread min                     50\n"));
	/* JSON too */
	{
		char *doc = slurp("uw-hand.json", NULL);

		ck_assert_ptr_nonnull(strstr(doc, "\"futex_words\":[{\"name\":\"lockword (uw-hand.c:8)\",\"kind\":\"raw\",\"acquisitions\":200,\"tasks\":4"));
		free(doc);
	}
	/* negative control: one thread never waits */
	run(&b, "uw-hand", "--args=1 50");
	ck_assert_int_eq(b.status, 0);
	ck_assert_ptr_nonnull(strstr(b.out, "    acquisitions 50 by 1 task (min 50, max 50"));
	ck_assert_ptr_nonnull(strstr(b.out, "    FUTEX_WAIT 0 (EAGAIN 0), FUTEX_WAKE 1 (woke 0)\n"));
	unlink("uw-hand.json");
}
END_TEST

START_TEST(test_atomics_are_traced_without_changing_the_run)
{
	char *t1, *t2, *t3;

	if (!build("uw-hand", hand_src))
		return;
	run(&a, "uw-hand", "--args=3 20");
	ck_assert_int_eq(a.status, 0);
	run(&b, "uw-hand", "--args=3 20", "--trace=uw-1.txt", "--narrate=yes");
	ck_assert_int_eq(b.status, 0);
	ck_assert_str_eq(table(a.out), table(b.out));	/* tracing: no change */
	t1 = slurp("uw-1.txt", NULL);
	/* the cmpxchg that took the lock, by name, before and after */
	ck_assert_ptr_nonnull(strstr(t1, ": atomic: uaddr=0x"));
	ck_assert_ptr_nonnull(strstr(t1, " (lockword (uw-hand.c:8)) op=cmpxchg-ok size=4 old=0x0 new=0x1\n"));
	ck_assert_ptr_null(strstr(t1, "atomic_other:"));	/* not in "all" */
	ck_assert_ptr_nonnull(strstr(b.err, ": cmpxchg-ok on lockword (uw-hand.c:8): 0 -> 1 (takes it)\n"));
	ck_assert_ptr_nonnull(strstr(b.err, ": fetch_sub on lockword (uw-hand.c:8): 1 -> 0 (frees it)\n"));
	/* every user atomic, on request: counter++ is no atomic, the
	 * lock's own ones are there (atomic_all names both events) */
	run(&b, "uw-hand", "--args=3 20", "--trace=uw-2.txt",
	    "--trace-events=atomic_all");
	ck_assert_int_eq(b.status, 0);
	ck_assert_str_eq(table(a.out), table(b.out));
	t2 = slurp("uw-2.txt", NULL);
	ck_assert_ptr_nonnull(strstr(t2, "# events: atomic_all;"));
	ck_assert_ptr_nonnull(strstr(t2, ": atomic: uaddr="));
	ck_assert_ptr_null(strstr(t2, ": futex_enter:"));
	/* determinism: the same run twice, byte for byte */
	run(&b, "uw-hand", "--args=3 20", "--trace=uw-3.txt", "--narrate=yes");
	t3 = slurp("uw-3.txt", NULL);
	ck_assert_str_eq(t1, t3);
	run(&a, "uw-hand", "--args=3 20", "--trace=uw-3.txt", "--narrate=yes");
	ck_assert_str_eq(a.err, b.err);
	free(t3);
	t3 = slurp("uw-3.txt", NULL);
	ck_assert_str_eq(t1, t3);
	free(t1);
	free(t2);
	free(t3);
	unlink("uw-1.txt");
	unlink("uw-2.txt");
	unlink("uw-3.txt");
}
END_TEST

START_TEST(test_words_are_named_by_variable_member_and_allocation)
{
	if (!build("uw-names", names_src))
		return;
	run(&a, "uw-names", "--narrate=yes");
	ck_assert_msg(a.status == 0, "status %d: %s", a.status, a.err);
	ck_assert_ptr_nonnull(strstr(a.err, "calls FUTEX_WAKE on slots[2].word (uw-names.c:7) to wake"));
	ck_assert_ptr_nonnull(strstr(a.err, "calls FUTEX_WAKE on malloc'd at uw-names.c:11 +4 to wake"));
	/* negative control: a stack word has no name, its address stays */
	ck_assert_ptr_nonnull(strstr(a.err, "calls FUTEX_WAKE on 0x"));
	ck_assert_ptr_nonnull(strstr(a.out, "\n  slots[2].word (uw-names.c:7): futex(2) only\n"));
}
END_TEST

/* main() joins two threads that sleep first: it waits on each TID word. */
static const char join_src[] =
	"#include <pthread.h>\n"
	"#include <unistd.h>\n"
	"static void *f(void *a) { usleep(50); return a; }\n"
	"int main(void)\n{\n	pthread_t t[2];\n"
	"	for (int i = 0; i < 2; i++)\n"
	"		pthread_create(&t[i], 0, f, 0);\n"
	"	for (int i = 0; i < 2; i++)\n"
	"		pthread_join(t[i], 0);\n	return 0;\n}\n";

/* A run that ends well: its last events, written after the run (the
 * trace's reorder buffer, the HTML page's table of words), still name
 * each thread's TID word, in the narration, the trace file and the
 * page. */
START_TEST(test_a_finished_runs_tid_words_are_named)
{
	char *t;

	if (!build("uw-join", join_src))
		return;
	run(&a, "uw-join", "--narrate=yes", "--trace=uw-join.txt");
	ck_assert_msg(a.status == 0, "status %d: %s", a.status, a.err);
	ck_assert_ptr_nonnull(strstr(a.err, "main (cpu 0): calls FUTEX_WAIT on thread1's TID word (pthread_join), to sleep"));
	ck_assert_ptr_nonnull(strstr(a.err, "calls FUTEX_WAIT on thread2's TID word (pthread_join), to sleep"));
	ck_assert_ptr_null(strstr(a.err, " on 0x"));
	t = slurp("uw-join.txt", NULL);
	ck_assert_ptr_nonnull(strstr(t, " (thread2's TID word (pthread_join)) op=FUTEX_WAIT_PRIVATE"));
	free(t);
	unlink("uw-join.txt");
	/* the HTML page names its words when the run is over */
	run(&a, "uw-join", "--trace=uw-join.html");
	ck_assert_msg(a.status == 0, "status %d: %s", a.status, a.err);
	t = slurp("uw-join.html", NULL);
	ck_assert_ptr_nonnull(strstr(t, "TID word (pthread_join)\""));
	ck_assert_ptr_nonnull(strstr(t, "calls FUTEX_WAIT on thread2"));
	free(t);
	unlink("uw-join.html");
}
END_TEST

START_TEST(test_the_lost_wakeup_shows_the_unlocking_store_by_name)
{
	const char *store = ": store on mtx.word (lostwake.c:50): 1 -> 0 (frees it)\n";
	const char *wake = ": calls FUTEX_WAKE on mtx.word (lostwake.c:50)";
	char *p, *last = NULL;

	if (!build_file("workloads/examples/lostwake.c", "uw-lostwake"))
		return;
	/* seed 2 hangs (docs/programs.md) */
	run(&a, "uw-lostwake", "--args=buggy 3 20 50", "--seed=2", "--narrate=yes");
	ck_assert_int_eq(a.status, 3);
	ck_assert_ptr_nonnull(strstr(a.err, "futexsim: DEADLOCK"));
	for (p = a.err; (p = strstr(p, store)); p++)
		last = p;
	ck_assert_ptr_nonnull(last);
	/* the last unlock frees the word after the last FUTEX_WAKE on it,
	 * and wakes nobody: the lost wakeup */
	ck_assert_ptr_nonnull(strstr(a.err, wake));
	ck_assert_ptr_null(strstr(last, wake));
	ck_assert_ptr_nonnull(strstr(a.err, "waits on mtx.word (lostwake.c:50), held by nobody (the word is 0); it slept on 1 and the word reads 0: its wakeup was lost\n"));
	ck_assert_ptr_nonnull(strstr(a.err, "wait-for cycle: none found\n"));
}
END_TEST

START_TEST(test_a_deadlock_prints_the_wait_for_cycle)
{
	if (!build("uw-abba", abba_src))
		return;
	run(&a, "uw-abba", "--args=abba");
	ck_assert_int_eq(a.status, 3);
	ck_assert_ptr_nonnull(strstr(a.err, "futexsim: DEADLOCK"));
	ck_assert_ptr_nonnull(strstr(a.err, "    thread1 (TID 101) waits on lockB (uw-abba.c:5), held by thread2\n"));
	ck_assert_ptr_nonnull(strstr(a.err, "    main (TID 100) waits on thread1's TID word (pthread_join), held by thread1\n"));
	ck_assert_ptr_nonnull(strstr(a.err, "wait-for cycle: thread1 -> lockB (uw-abba.c:5) (held by thread2) -> thread2 -> lockA (uw-abba.c:4) (held by thread1) -> thread1\n"));
	run(&b, "uw-abba", "--args=abba");
	ck_assert_str_eq(a.err, b.err);
	/* negative control: the same locks in one order */
	run(&b, "uw-abba", "--args=ordered");
	ck_assert_msg(b.status == 0, "status %d: %s", b.status, b.err);
	ck_assert_ptr_null(strstr(b.err, "wait-for"));
	ck_assert_ptr_nonnull(strstr(b.out, "\n  lockA (uw-abba.c:4): pthread\n    acquisitions 2 by 2 tasks"));
}
END_TEST

/* One slot, two producers, two consumers, one condition variable
 * signalled once per change: a consumer's signal can wake the other
 * consumer, and everybody sleeps (seed 1 does). */
static const char signal_src[] =
	"#include <pthread.h>\n"
	"static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
	"static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;\n"	/* 3 */
	"static int full;\n"
	"static void *put(void *arg)\n{\n"
	"	for (int i = 0; i < 4; i++) {\n"
	"		pthread_mutex_lock(&m);\n"
	"		while (full == (arg == 0))\n"
	"			pthread_cond_wait(&cv, &m);\n"
	"		full = arg == 0;\n"
	"		pthread_cond_signal(&cv);\n"
	"		pthread_mutex_unlock(&m);\n"
	"	}\n	return 0;\n}\n"
	"int main(void)\n{\n	pthread_t t[4];\n"
	"	for (long i = 0; i < 4; i++)\n"
	"		pthread_create(&t[i], 0, put, (void *)(i / 2));\n"
	"	for (int i = 0; i < 4; i++)\n"
	"		pthread_join(t[i], 0);\n	return 0;\n}\n";

/* A sleeper whose word changed while FUTEX_WAKE woke another waiter is
 * not a lost wakeup: the report says where the wakeup went.  The lost
 * wakeup of lostwake.c, where no wake followed, is still called lost
 * (test_the_lost_wakeup_shows_the_unlocking_store_by_name). */
START_TEST(test_a_wakeup_that_went_to_another_waiter_is_not_called_lost)
{
	const char *other = "but the FUTEX_WAKE calls since its wait woke 1 other waiter, not it\n";

	if (!build("uw-signal", signal_src))
		return;
	run(&a, "uw-signal", "--seed=1");
	ck_assert_int_eq(a.status, 3);
	ck_assert_ptr_nonnull(strstr(a.err, "futexsim: DEADLOCK"));
	ck_assert_msg(strstr(a.err, other), "no wakeup to another waiter in: %.3000s",
		      strstr(a.err, "wait-for:") ? strstr(a.err, "wait-for:") : a.err);
	ck_assert_ptr_nonnull(strstr(a.err, " waits on cv (uw-signal.c:3), held by nobody (the word is "));
	ck_assert_ptr_null(strstr(a.err, "wakeup was lost"));
}
END_TEST

/* A sleeper on a word nobody holds, unchanged since its wait, with no
 * wakeup since (tests/programs/early_signal.c: a condition variable
 * signalled before its waiter waits, every seed): the report says its
 * wakeup came before it slept or never came; a sleeper whose word has a
 * holder (main() on the TID word) gets no such note, its holder is the
 * answer. */
START_TEST(test_a_wakeup_sent_before_the_wait_is_told)
{
	const char *waiter = "    thread1 (TID 101) waits on cv (early_signal.c:20), held by nobody (the word is ";
	const char *note = "; unchanged since it slept, and no FUTEX_WAKE since woke a waiter: its wakeup came before it slept, or never came\n";
	const char *p;

	if (!build_file("tests/programs/early_signal.c", "uw-early"))
		return;
	run(&a, "uw-early", "--seed=1");
	ck_assert_int_eq(a.status, 3);
	ck_assert_ptr_nonnull(strstr(a.err, "futexsim: DEADLOCK"));
	p = strstr(a.err, waiter);
	ck_assert_msg(p, "no waiter line in: %.3000s", a.err);
	p = strchr(p + strlen(waiter), ')');
	ck_assert_ptr_nonnull(p);
	ck_assert_msg(!strncmp(p + 1, note, strlen(note)), "no note: %.300s", p);
	ck_assert_ptr_nonnull(strstr(a.err, "    main (TID 100) waits on thread1's TID word (pthread_join), held by thread1\n"));
	ck_assert_ptr_null(strstr(a.err, "wakeup was lost"));
}
END_TEST

/* ---- preloading the futex words: a program run in this process ---- */

static uint32_t pre_word;

/* Five acquisitions of a word that futex(2) sees only at the end. */
static int main_preload(int argc, char **argv, char **envp)
{
	for (int i = 0; i < 5; i++) {
		uint32_t zero = 0;

		futexsim_atomic(&pre_word, 4, FUTEXSIM_RMW);
		__atomic_compare_exchange_n(&pre_word, &zero, 1, 0,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
		futexsim_atomic_done(&pre_word, 4, FUTEXSIM_OP_CMPXCHG, !zero);
		futexsim_atomic(&pre_word, 4, FUTEXSIM_STORE);
		__atomic_store_n(&pre_word, 0, __ATOMIC_RELEASE);
		futexsim_atomic_done(&pre_word, 4, FUTEXSIM_OP_STORE, 1);
	}
	futexsim_syscall(SYS_futex, &pre_word, FUTEX_WAKE_PRIVATE, 1, NULL,
			 NULL, 0);
	return 0;
}

static struct sim_result res;

static void run_preload(const char *trace)
{
	static struct sim_preset preset;
	static struct sim_scenario scn;

	sim_preset_defaults(&preset);
	preset.sockets = 1;
	preset.threads_per_core = 1;
	preset.cores_per_socket = 4;
	sim_scenario_defaults(&scn);
	snprintf(scn.program, sizeof(scn.program), "prog");
	sim_machine_init(&preset, 4, 1);
	scn.trace_events = SIM_TRACE_ALL;
	ck_assert_int_eq(sim_trace_open(trace, &scn), 0);
	wl_program_run(&scn, ulock_find("ww"), main_preload, &res);
	ck_assert_int_eq(sim_trace_close(), 0);
}

START_TEST(test_preloaded_words_count_from_the_first_atomic)
{
	char path[] = "/tmp/futexsim-uword-XXXXXX.txt", *doc;
	uintptr_t words[SIM_UWORD_MAX];
	int fd = mkstemps(path, 4), n;

	ck_assert_int_ge(fd, 0);
	close(fd);
	/* negative control: not preloaded, the word is known too late */
	sim_uword_preload(NULL, 0);
	run_preload(path);
	ck_assert_int_eq(res.prog_nr_uwords, 1);
	ck_assert_uint_eq(res.prog_uwords[0].acquires, 0);
	ck_assert_uint_eq(res.prog_uwords[0].wake_calls, 1);
	doc = slurp(path, NULL);
	ck_assert_ptr_null(strstr(doc, "op=cmpxchg-ok"));
	free(doc);
	/* the words of that run, preloaded: the same run counts them all */
	n = sim_uword_list(words, SIM_UWORD_MAX);
	ck_assert_int_ge(n, 1);
	ck_assert_uint_eq(words[0], (uintptr_t)&pre_word);
	sim_uword_preload(words, n);
	run_preload(path);
	sim_uword_preload(NULL, 0);
	ck_assert_uint_eq(res.prog_uwords[0].acquires, 5);
	ck_assert_int_eq(res.prog_uwords[0].raw, 1);
	ck_assert_uint_eq(res.ops, 5);
	doc = slurp(path, NULL);
	unlink(path);
	ck_assert_ptr_nonnull(strstr(doc, "op=cmpxchg-ok size=4 old=0x0 new=0x1\n"));
	ck_assert_ptr_nonnull(strstr(doc, "op=store size=4 old=0x1 new=0x0\n"));
	free(doc);
}
END_TEST

Suite *uword_suite(void)
{
	return one_case_suite("uword", 300, (const TTest *const[]){
		test_preloaded_words_count_from_the_first_atomic,
		test_hand_written_lock_counts_what_the_program_counted,
		test_atomics_are_traced_without_changing_the_run,
		test_words_are_named_by_variable_member_and_allocation,
		test_the_lost_wakeup_shows_the_unlocking_store_by_name,
		test_a_deadlock_prints_the_wait_for_cycle,
		test_a_wakeup_that_went_to_another_waiter_is_not_called_lost,
		test_a_wakeup_sent_before_the_wait_is_told,
		test_a_finished_runs_tid_words_are_named,
		NULL });
}
