/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_failure.c - failure reports (sim/report/failure.c): headline, seed,
 * time, last events (none kept here: no narration), every task's stack by
 * function name and file:line, replay line, exit status 3.
 *
 * Each failure runs in a child process of its own with its stderr read
 * back, and the report is compared in full: it must be exact, and
 * byte-identical between two runs.  The children build the machine's
 * task table by hand (struct sim_machine sim), with coroutines suspended
 * in known functions, for each coroutine backend.
 */
#include <check.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/host/coro.h"
#include "sim/report/failure.h"
#include "sim/report/lines.h"
#include "sim/machine/machine.h"
#include "tests/run_child.h"

/* Functions whose names must show in stacks: neither inlined nor cloned
 * (a clone would be named "f.constprop.0"). */
#ifdef __clang__
#define FT_FRAME __attribute__((noinline))
#else
#define FT_FRAME __attribute__((noinline, noclone))
#endif

struct ft_backend {
	int (*init)(struct sim_coro *co, size_t size,
		    void (*entry)(void *), void *arg);
	void (*switch_to)(struct sim_coro *from, struct sim_coro *to);
};

static const struct ft_backend ft_backends[] = {
	{ sim_coro_init_asm, sim_coro_switch_asm },
	{ sim_coro_init_ucontext, sim_coro_switch_ucontext },
};

static const struct ft_backend *be;
static struct sim_coro ft_main;
static struct sim_task ft_tasks[4];
static volatile int ft_sink;

static bool use_backend(int i)
{
#ifndef __x86_64__
	if (i == 0)
		return false;
#endif
	be = &ft_backends[i];
	return true;
}

/*
 * @rep without the locations of its frames: "    f (file:line)" and
 * "    f (file:line, inlined)" become "    f"; each such frame of a
 * function named ft_* must be located in this file.
 */
static const char *names_only(const char *rep)
{
	static char out[CHILD_OUT_MAX];
	const char *p, *nl, *paren;
	size_t used = 0;

	for (p = rep; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		paren = memchr(p, '(', (size_t)(nl - p));
		if (!strncmp(p, "    ", 4) && p[4] != '(' && paren &&
		    nl[-1] == ')') {
			if (!strncmp(p, "    ft_", 7))
				ck_assert_msg(!strncmp(paren, "(tests/test_failure.c:", 22),
					      "frame not located: %.*s",
					      (int)(nl - p), p);
			nl = paren - 1;	/* the space before the location */
			used += (size_t)snprintf(out + used, sizeof(out) - used,
						 "%.*s\n", (int)(nl - p), p);
			nl = strchr(nl, '\n');
			if (!nl)
				break;
			continue;
		}
		used += (size_t)snprintf(out + used, sizeof(out) - used, "%.*s%s",
					 (int)(nl - p), p, *nl ? "\n" : "");
		if (!*nl)
			break;
	}
	out[used] = 0;
	return out;
}

/* Run @fn twice; both must exit 3 with the report @want (frames with
 * their locations taken out), byte-identical. */
static void expect_report(void (*fn)(void *), const char *want)
{
	static struct child_out o1, o2;

	run_child(fn, NULL, &o1);
	run_child(fn, NULL, &o2);
	ck_assert_msg(o1.status == 3, "status %d, stderr:\n%s", o1.status, o1.err);
	ck_assert_str_eq(names_only(o1.err), want);
	ck_assert_str_eq(o1.err, o2.err);
	ck_assert_int_eq(o1.status, o2.status);
}

static void ft_task(int i, int tid, const char *name,
		    enum sim_task_state state, int cpu, void (*body)(void *))
{
	struct sim_task *t = &ft_tasks[i];

	t->tid = tid;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->state = state;
	t->cpu = cpu;
	if (be->init(&t->coro, 64 * 1024, body, t))
		_exit(1);
	sim.tasks[i] = t;
	sim.nr_tasks = i + 1;
}

/* ---- a deadlock: suspended, new and dead tasks ----------------------------- */

FT_FRAME static void ft_park_deep(struct sim_task *t)
{
	be->switch_to(&t->coro, &ft_main);
	ft_sink++;
}

FT_FRAME static void ft_park_mid(struct sim_task *t)
{
	ft_park_deep(t);
	ft_sink++;
}

FT_FRAME static void ft_sleeper_body(void *arg)
{
	ft_park_mid(arg);
	for (;;)
		be->switch_to(&((struct sim_task *)arg)->coro, &ft_main);
}

static void deadlock_child(void *arg)
{
	sim.seed = 1234;
	sim.nr_cpus = 2;
	sim.cpus[0].now_ps = 5000000;
	sim.cpus[1].now_ps = 7000999;
	ft_task(0, 101, "sleeper", SIM_TASK_SLEEPING, 1, ft_sleeper_body);
	ft_task(1, 102, "newbie", SIM_TASK_NEW, 0, ft_sleeper_body);
	ft_task(2, 103, "gone", SIM_TASK_DEAD, 0, ft_sleeper_body);
	ft_task(3, 104, "queued", SIM_TASK_QUEUED, 1, ft_sleeper_body);
	sim_coro_init_main(&ft_main);
	be->switch_to(&ft_main, &ft_tasks[0].coro);	/* parks it */
	sim_failure_set_replay("futexsim run --seed=1234");
	sim_fail(SIM_FAIL_DEADLOCK, NULL);
}

START_TEST(test_failure_deadlock_report_lists_every_task_and_stack)
{
	if (!use_backend(_i))
		return;
	expect_report(deadlock_child,
		"futexsim: DEADLOCK: every task is blocked and no timer is pending\n"
		"seed: 1234\n"
		"time: 7000 ns (main loop)\n"
		"last events:\n"
		"    (not kept: the run was not narrated)\n"
		"task 101 \"sleeper\" SLEEPING on CPU 1\n"
		"    ft_park_deep\n"
		"    ft_park_mid\n"
		"    ft_sleeper_body\n"
		"task 102 \"newbie\" NEW on CPU 0\n"
		"    (not started)\n"
		"task 103 \"gone\" DEAD on CPU 0\n"
		"    (exited)\n"
		"task 104 \"queued\" QUEUED on CPU 1\n"
		"    (not started)\n"
		"replay: futexsim run --seed=1234\n");
}
END_TEST

/* ---- a BUG() in the running task: unwound from here ------------------------ */

FT_FRAME static void ft_bug_deep(void)
{
	sim_bug("BUG_ON(owner == current)", "kernel/futex/pi.c", 42);
}

FT_FRAME static void ft_bug_mid(void)
{
	ft_bug_deep();
	ft_sink++;
}

FT_FRAME static void ft_buggy_body(void *arg)
{
	ft_bug_mid();
	ft_sink++;
}

static void bug_child(void *arg)
{
	sim.seed = 7;
	sim.nr_cpus = 2;
	sim.cpus[1].k.cpu = 1;
	sim.cpus[1].now_ps = 3999;
	sim.cpus[0].now_ps = 12000;
	sim_cur = &sim.cpus[1];
	ft_task(0, 101, "sleeper", SIM_TASK_QUEUED, 0, ft_sleeper_body);
	ft_task(1, 102, "buggy", SIM_TASK_RUNNING, 1, ft_buggy_body);
	sim_coro_init_main(&ft_main);
	be->switch_to(&ft_main, &ft_tasks[0].coro);
	be->switch_to(&ft_main, &ft_tasks[1].coro);	/* fails in there */
}

START_TEST(test_failure_bug_in_running_task_skips_the_reporter_frames)
{
	if (!use_backend(_i))
		return;
	expect_report(bug_child,
		"futexsim: BUG: BUG_ON(owner == current) at kernel/futex/pi.c:42\n"
		"seed: 7\n"
		"time: 12 ns (CPU 1 at 3 ns)\n"
		"last events:\n"
		"    (not kept: the run was not narrated)\n"
		"task 101 \"sleeper\" QUEUED on CPU 0\n"
		"    ft_park_deep\n"
		"    ft_park_mid\n"
		"    ft_sleeper_body\n"
		"task 102 \"buggy\" RUNNING on CPU 1\n"
		"    ft_bug_deep\n"
		"    ft_bug_mid\n"
		"    ft_buggy_body\n"
		"replay: (not recorded)\n");
}
END_TEST

/* ---- WARN() with no machine ----------------------------------------------- */

static void warn_child(void *arg)
{
	sim_warn("WARN_ON(1)", "a.c", 1);
}

START_TEST(test_failure_warn_reports_and_exits_3)
{
	expect_report(warn_child,
		"futexsim: WARN: WARN_ON(1) at a.c:1\n"
		"seed: 0\n"
		"time: 0 ns (main loop)\n"
		"last events:\n"
		"    (not kept: the run was not narrated)\n"
		"replay: (not recorded)\n");
}
END_TEST

/* ---- a fault elsewhere keeps its default action ---------------------------- */

static void segv_child(void *arg)
{
	volatile int *p = mmap(NULL, 4096, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	use_backend(1);
	ft_task(0, 101, "sleeper", SIM_TASK_NEW, 0, ft_sleeper_body);
	sim_failure_install();
	*p = 1;
}

START_TEST(test_failure_fault_off_the_guard_pages_is_a_plain_segv)
{
	static struct child_out o;

	run_child(segv_child, NULL, &o);
	ck_assert_msg(o.status == 128 + SIGSEGV, "status %d, stderr:\n%s",
		      o.status, o.err);
	ck_assert_str_eq(o.err, "");
}
END_TEST

/* ---- sim_failure_stack_here --------------------------------------------------- */

static char here_buf[1024];

FT_FRAME static void ft_here_mid(void)
{
	sim_failure_stack_here(here_buf, sizeof(here_buf));
	ft_sink++;
}

FT_FRAME static void ft_here_body(void *arg)
{
	ft_here_mid();
	for (;;)
		be->switch_to(arg, &ft_main);
}

START_TEST(test_failure_stack_here_names_the_callers_up_to_the_coroutine)
{
	struct sim_coro co;

	if (!use_backend(_i))
		return;
	here_buf[0] = 0;
	sim_coro_init_main(&ft_main);
	ck_assert_int_eq(be->init(&co, 64 * 1024, ft_here_body, &co), 0);
	be->switch_to(&ft_main, &co);
	ck_assert_str_eq(here_buf, "ft_here_mid\nft_here_body\n");
	sim_coro_destroy(&co);
	sim_coro_destroy(&ft_main);
}
END_TEST

#ifdef __x86_64__
/*
 * A function whose only name carries a compiler's suffix, as gcc names a
 * clone or a split part of f ("f.constprop.0", "f.cold").  It has no
 * debug info, so addr2line tells its symbol, as it told a clone's in a
 * link-time optimized build.
 */
__asm__(".text\n"
	".globl \"ft_lines_probe.cold\"\n"
	".type \"ft_lines_probe.cold\", @function\n"
	"\"ft_lines_probe.cold\":\n"
	"\tnop\n"
	"\tret\n"
	".size \"ft_lines_probe.cold\", . - \"ft_lines_probe.cold\"\n");
void ft_lines_probe(void) __asm__("ft_lines_probe.cold");

static char ft_lines_told[128];

static void ft_lines_pair(int i, const char *fn, const char *loc, void *arg)
{
	size_t n = strlen(ft_lines_told);

	snprintf(ft_lines_told + n, sizeof(ft_lines_told) - n, "%s|%s\n",
		 fn, loc);
}

/* The page's names (sim/trace/trace_where.c) and the report's inlined
 * frames come from sim_lines_resolve(); the report's own frames drop the
 * suffix, and the page once showed "sim_sys_futex.constprop.0" where the
 * report said "sim_sys_futex". */
START_TEST(test_failure_lines_drop_a_clone_suffix_as_the_report_does)
{
	uintptr_t pc = (uintptr_t)ft_lines_probe;

	ft_lines_told[0] = 0;
	ck_assert_int_eq(sim_lines_resolve(&pc, 1, ft_lines_pair, NULL), 0);
	ck_assert_str_eq(ft_lines_told, "ft_lines_probe|\n");
}
END_TEST
#endif

Suite *failure_suite(void)
{
	Suite *s = suite_create("failure");
	TCase *tc = tcase_create("core");
	int nb = (int)(sizeof(ft_backends) / sizeof(ft_backends[0]));

	tcase_add_loop_test(tc, test_failure_deadlock_report_lists_every_task_and_stack,
			    0, nb);
	tcase_add_loop_test(tc, test_failure_bug_in_running_task_skips_the_reporter_frames,
			    0, nb);
	tcase_add_test(tc, test_failure_warn_reports_and_exits_3);
	tcase_add_test(tc, test_failure_fault_off_the_guard_pages_is_a_plain_segv);
	tcase_add_loop_test(tc, test_failure_stack_here_names_the_callers_up_to_the_coroutine,
			    0, nb);
#ifdef __x86_64__
	tcase_add_test(tc, test_failure_lines_drop_a_clone_suffix_as_the_report_does);
#endif
	suite_add_tcase(s, tc);
	return s;
}
