/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/thread.c - the simulated program and its threads:
 * main() as the first task, pthread_create() as more tasks, join, exit,
 * thread-specific data, once.
 *
 * Stage: user program (workload) -> futex(2) -> machine.  Called by the
 * program through workloads/libsim/futexsim.h and by the program workload
 * (workloads/program.c: wl_prog_start(), wl_prog_finish()); calls the machine
 * (sim_task_create(), sim_run_abort()) and futex(2).
 *
 * Every thread's stack, main()'s included, is 8 MiB as with glibc, or
 * what pthread_attr_setstacksize() asked for (at most 8 MiB).
 *
 * pthread_join() and its _np kin (tryjoin: EBUSY while the thread runs;
 * timedjoin and clockjoin: glibc's EINVAL for a bad deadline or clock,
 * ETIMEDOUT) wait the same way.
 *
 * A thread is a struct wl_prog_thread in the arena (pthread_t is its
 * address, the same in every run).  As with CLONE_CHILD_CLEARTID, its
 * word holds the TID while it runs and 0 once it has exited, with a
 * FUTEX_WAKE: pthread_join() waits on that word with FUTEX_WAIT.  The
 * program ends, as exit_group(2) would, when main() returns, when any
 * thread calls exit(), or when the last thread exits after main() called
 * pthread_exit(); the run then ends at once (sim_run_abort()), whatever
 * the other tasks are doing.
 */
#include <linux/futex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/host/arena.h"
#include "sim/report/failure.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/ulock/uatomic.h"

/* A program's stacks are glibc's default size: pages are only used as
 * touched, so they cost no more than the built-in workloads' 256 KiB. */
#define WL_PROG_STACK_SIZE	SIM_CORO_STACK_MAX

struct wl_prog_state wl_prog;
/* wl_prog written since the process began: a run in a forked child (a
 * fresh world, sim/explore/explore_fork.c) finds the zeros of the .bss
 * and leaves its pages untouched until it uses them */
static bool wl_prog_dirty;
static int nr_live;			/* threads that have not exited	*/

struct wl_prog_thread *wl_prog_self(void)
{
	struct sim_task *t = sim_current();

	return t && wl_prog.main ? t->wl : NULL;
}

void wl_prog_fail(const char *what)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "unsupported call in the program: %s", what);
	if (wl_prog_self())
		wl_prog_out_flush(wl_prog_self());
	sim_fail(SIM_FAIL_INVARIANT, msg);
}

static struct wl_prog_thread *new_thread(void)
{
	struct wl_prog_thread *t = sim_arena_alloc(sizeof(*t), 64);

	if (wl_prog.nr_threads == wl_prog.cap_threads) {
		wl_prog.cap_threads = wl_prog.cap_threads ? 2 * wl_prog.cap_threads : 16;
		wl_prog.threads = realloc(wl_prog.threads, wl_prog.cap_threads *
					  sizeof(struct wl_prog_thread *));
	}
	t->acquire_ns = sim_hist_new();
	if (!wl_prog.threads || !t->acquire_ns) {
		fprintf(stderr, "futexsim: out of memory for a program thread\n");
		exit(SIM_EXIT_INPUT);
	}
	t->idx = wl_prog.nr_threads;
	wl_prog.threads[wl_prog.nr_threads++] = t;
	nr_live++;
	return t;
}

void wl_prog_end(int status)
{
	struct wl_prog_thread *t = wl_prog_self();

	wl_prog.exited = 1;
	wl_prog.status = status & 0xff;
	if (t) {
		t->end_ps = sim_now_ps();
		wl_prog_out_flush(t);
	}
	sim_progress();
	sim_run_abort();
}

/* The thread's last acts: TSD destructors, then clear the TID word and
 * wake its joiner, as the kernel does for CLONE_CHILD_CLEARTID. */
static void thread_exit(struct wl_prog_thread *t)
{
	for (int k = 0; k < wl_prog.keys_used; k++) {
		const void *v = t->tsd[k];

		t->tsd[k] = NULL;
		if (v && wl_prog.key_dtor[k])
			wl_prog.key_dtor[k]((void *)v);
	}
	wl_prog_out_flush(t);
	t->end_ps = sim_now_ps();
	/* exit(2) is a system call, whose path has full barriers: the
	 * thread's stores are visible before its TID word clears */
	if (sim__sb_on)
		sim_sb_drain(sim_cur);
	/* the kernel's order: the robust list, then CLONE_CHILD_CLEARTID */
	wl_prog_robust_exit(t);
	uatomic_store(&t->tid_word, 0);
	wl_prog_futex(&t->tid_word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
	sim_progress();
	if (--nr_live == 0)
		futexsim_exit(0);	/* main() called pthread_exit() */
}

static void main_task(void *arg)
{
	struct wl_prog_thread *t = arg;
	char *envp[1] = { NULL };

	t->start_ps = sim_now_ps();
	if (!setjmp(t->exit_jb))
		futexsim_exit(wl_prog.main(wl_prog.argc, wl_prog.argv, envp));
	thread_exit(t);		/* main() called pthread_exit() */
}

static void thread_task(void *arg)
{
	struct wl_prog_thread *t = arg;

	t->start_ps = sim_now_ps();
	if (!setjmp(t->exit_jb))
		t->ret = t->fn(t->arg);
	thread_exit(t);
}

static char *arena_strdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(sim_arena_alloc(n, 16), s, n);
}

/* argv: the program's path, then @args split at blanks ('...' and "..."
 * group words), as strings in the arena. */
static void make_argv(const char *prog, const char *args)
{
	char word[512];

	wl_prog.argv = sim_arena_alloc(WL_PROG_ARGS_MAX * sizeof(char *), 16);
	wl_prog.argv[0] = arena_strdup(prog);
	wl_prog.argc = 1;
	while (*args && wl_prog.argc < WL_PROG_ARGS_MAX - 1) {
		size_t n = 0;
		char q = 0;

		while (*args == ' ' || *args == '\t')
			args++;
		if (!*args)
			break;
		for (; *args && (q || (*args != ' ' && *args != '\t')); args++) {
			if (!q && (*args == '\'' || *args == '"'))
				q = *args;
			else if (q && *args == q)
				q = 0;
			else if (n < sizeof(word) - 1)
				word[n++] = *args;
		}
		word[n] = '\0';
		wl_prog.argv[wl_prog.argc++] = arena_strdup(word);
	}
	wl_prog.argv[wl_prog.argc] = NULL;
}

void wl_prog_start(const struct sim_scenario *s, const struct ulock_ops *lock,
		int (*main)(int, char **, char **))
{
	struct wl_prog_thread *t;

	if (wl_prog_dirty)
		memset(&wl_prog, 0, sizeof(wl_prog));
	wl_prog_dirty = true;
	wl_prog_signal_start();
	nr_live = 0;
	wl_prog.main = main;
	wl_prog.lock = lock;
	make_argv(s->program[0] ? s->program : "program", s->args);
	optind = 0;		/* getopt() starts afresh (glibc) */
	wl_prog_streams_start();	/* stdout, stderr as at the start */
	t = new_thread();
	t->task = sim_task_create_stack("main", main_task, t, 0,
					WL_PROG_STACK_SIZE);
	t->task->wl = t;
	t->tid_word = (uint32_t)t->task->tid;
}

/* ---- pthreads -------------------------------------------------------- */

/* What pthread_attr_t holds here (glibc's is larger). */
struct wl_prog_attr {
	int detached;
	int policy;
	size_t stack;
	int prio;			/* sched_param.sched_priority	*/
	int explicit_sched;		/* PTHREAD_EXPLICIT_SCHED	*/
};
_Static_assert(sizeof(struct wl_prog_attr) <= sizeof(pthread_attr_t),
	       "pthread_attr_t too small");

int futexsim_pthread_attr_init(pthread_attr_t *a)
{
	memset(a, 0, sizeof(*a));
	return 0;
}

int futexsim_pthread_attr_destroy(pthread_attr_t *a)
{
	return 0;
}

int futexsim_pthread_attr_setdetachstate(pthread_attr_t *a, int st)
{
	if (st != PTHREAD_CREATE_DETACHED && st != PTHREAD_CREATE_JOINABLE)
		return EINVAL;
	((struct wl_prog_attr *)a)->detached = st == PTHREAD_CREATE_DETACHED;
	return 0;
}

int futexsim_pthread_attr_setstacksize(pthread_attr_t *a, size_t sz)
{
	if (sz < PTHREAD_STACK_MIN)
		return EINVAL;
	if (sz > SIM_CORO_STACK_MAX)
		wl_prog_fail("pthread_attr_setstacksize() over 8 MiB (8388608 bytes): simulated stacks are at most 8 MiB, glibc's default size");
	((struct wl_prog_attr *)a)->stack = sz;
	return 0;
}

/* The scheduling attributes: used at create with PTHREAD_EXPLICIT_SCHED
 * (workloads/libsim/sched.c), glibc's EINVAL and ENOTSUP. */
int futexsim_pthread_attr_setinheritsched(pthread_attr_t *a, int inh)
{
	if (inh != PTHREAD_INHERIT_SCHED && inh != PTHREAD_EXPLICIT_SCHED)
		return EINVAL;
	((struct wl_prog_attr *)a)->explicit_sched =
		inh == PTHREAD_EXPLICIT_SCHED;
	return 0;
}

int futexsim_pthread_attr_getinheritsched(const pthread_attr_t *a, int *inh)
{
	*inh = ((const struct wl_prog_attr *)a)->explicit_sched ?
	       PTHREAD_EXPLICIT_SCHED : PTHREAD_INHERIT_SCHED;
	return 0;
}

int futexsim_pthread_attr_setschedpolicy(pthread_attr_t *a, int pol)
{
	if (pol != SCHED_OTHER && pol != SCHED_FIFO && pol != SCHED_RR)
		return EINVAL;
	((struct wl_prog_attr *)a)->policy = pol;
	return 0;
}

int futexsim_pthread_attr_getschedpolicy(const pthread_attr_t *a, int *pol)
{
	*pol = ((const struct wl_prog_attr *)a)->policy;
	return 0;
}

int futexsim_pthread_attr_setschedparam(pthread_attr_t *a,
					const struct sched_param *p)
{
	if (p->sched_priority < 0 || p->sched_priority > 99)
		return EINVAL;
	((struct wl_prog_attr *)a)->prio = p->sched_priority;
	return 0;
}

int futexsim_pthread_attr_getschedparam(const pthread_attr_t *a,
					struct sched_param *p)
{
	p->sched_priority = ((const struct wl_prog_attr *)a)->prio;
	return 0;
}

int futexsim_pthread_create(pthread_t *th, const pthread_attr_t *attr,
			    void *(*fn)(void *), void *arg)
{
	const struct wl_prog_attr *a = (const struct wl_prog_attr *)attr;
	int e = wl_prog_errno_save();
	struct wl_prog_thread *t;
	char name[16];

	if (!wl_prog_self())
		wl_prog_fail("pthread_create() outside a simulated program");
	if (a && a->explicit_sched &&
	    (a->policy == SCHED_OTHER ? a->prio != 0 :
	     a->prio < 1 || a->prio > 99))
		return EINVAL;	/* glibc: the priority its policy admits */
	t = new_thread();
	t->fn = fn;
	t->arg = arg;
	if (wl_prog_self())	/* the signal mask is inherited */
		t->sig_blocked = wl_prog_self()->sig_blocked;
	t->detached = a && a->detached;
	if (a && a->policy != SCHED_OTHER)
		wl_prog.rt_requested++;
	snprintf(name, sizeof(name), "thread%d", t->idx);
	/* clone(2): a system call's entry and exit, then the new task */
	sim_delay_ps(sim_jitter_ps(sim.preset->syscall_ps));
	t->task = sim_task_create_stack(name, thread_task, t, -1,
					a && a->stack ? a->stack :
					WL_PROG_STACK_SIZE);
	t->task->wl = t;
	wl_prog_sched_inherit(t->task, a && a->explicit_sched,
			      a ? a->policy : SCHED_OTHER, a ? a->prio : 0);
	t->tid_word = (uint32_t)t->task->tid;
	*th = (pthread_t)t;
	wl_prog_errno_restore(e);
	return 0;
}

/* The join, measuring @clk until @abs if given; @try: EBUSY rather than
 * wait.  Return: 0, EDEADLK, EINVAL, EBUSY or ETIMEDOUT. */
static int thread_join(pthread_t th, void **ret, int try, clockid_t clk,
		       const struct timespec *abs)
{
	struct wl_prog_thread *t = (struct wl_prog_thread *)th;
	int e = wl_prog_errno_save(), op = FUTEX_WAIT_PRIVATE, err = 0;
	uint32_t v;

	if (t == wl_prog_self())
		return EDEADLK;
	if (t->detached || t->joined)
		return EINVAL;
	if (!try)
		wl_prog_cancel_point();
	if (abs && (!wl_prog_clock_ok(clk) || abs->tv_nsec < 0 ||
		    abs->tv_nsec >= 1000000000L))
		return EINVAL;
	if (abs)
		op = FUTEX_WAIT_BITSET_PRIVATE |
		     (clk == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0);
	while ((v = uatomic_load(&t->tid_word)) != 0) {
		if (try) {
			err = EBUSY;
			break;
		}
		if (abs && (err = wl_prog_abstime_check(abs)) != 0)
			break;
		if (wl_prog_futex(&t->tid_word, op, v, abs, NULL,
				  FUTEX_BITSET_MATCH_ANY) < 0 &&
		    errno == ETIMEDOUT) {
			err = ETIMEDOUT;
			break;
		}
		wl_prog_cancel_point();
	}
	if (!err) {
		t->joined = 1;
		if (ret)
			*ret = t->ret;
	}
	wl_prog_errno_restore(e);
	return err;
}

int futexsim_pthread_join(pthread_t th, void **ret)
{
	return thread_join(th, ret, 0, CLOCK_REALTIME, NULL);
}

int futexsim_pthread_tryjoin_np(pthread_t th, void **ret)
{
	return thread_join(th, ret, 1, CLOCK_REALTIME, NULL);
}

int futexsim_pthread_timedjoin_np(pthread_t th, void **ret,
				  const struct timespec *abs)
{
	return thread_join(th, ret, 0, CLOCK_REALTIME, abs);
}

int futexsim_pthread_clockjoin_np(pthread_t th, void **ret, clockid_t clk,
				  const struct timespec *abs)
{
	return thread_join(th, ret, 0, clk, abs);
}

void futexsim_pthread_exit(void *ret)
{
	if (!wl_prog_self())
		wl_prog_fail("pthread_exit() outside a simulated program");
	wl_prog_unwind(ret);	/* the cleanup handlers first, as glibc */
}

void wl_prog_thread_end(struct wl_prog_thread *t, void *ret)
{
	t->ret = ret;
	longjmp(t->exit_jb, 1);
}

pthread_t futexsim_pthread_self(void)
{
	return (pthread_t)wl_prog_self();
}

int futexsim_pthread_equal(pthread_t a, pthread_t b)
{
	return a == b;
}

int futexsim_pthread_detach(pthread_t th)
{
	struct wl_prog_thread *t = (struct wl_prog_thread *)th;

	if (t->detached)
		return EINVAL;
	t->detached = 1;
	return 0;
}

/* once: 0 not run, 1 running, 2 done; latecomers FUTEX_WAIT while 1. */
/*
 * The init routine of a pthread_once(), with a cleanup handler of the
 * layer's own registered around it (cancel.c's protocol): if the routine
 * is cancelled the once is not done, so it goes back to 0 and its
 * waiters are woken to run it themselves, as glibc does.
 */
static void once_init(uint32_t *w, void (*fn)(void))
{
	__pthread_unwind_buf_t buf;

	if (futexsim___sigsetjmp_cancel(buf.__cancel_jmp_buf)) {
		uatomic_store(w, 0);
		wl_prog_futex(w, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
		futexsim___pthread_unwind_next(&buf);
	}
	futexsim___pthread_register_cancel(&buf);
	fn();
	futexsim___pthread_unregister_cancel(&buf);
	uatomic_store(w, 2);
	wl_prog_futex(w, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

/* The word: 0 not run, 1 running, 2 done. */
int futexsim_pthread_once(pthread_once_t *once, void (*fn)(void))
{
	uint32_t *w = (uint32_t *)once;
	int e = wl_prog_errno_save();
	uint32_t v;

	if (uatomic_cmpxchg(w, 0, 1) == 0) {
		once_init(w, fn);
	} else {
		while ((v = uatomic_load(w)) != 2) {
			if (v == 1)
				wl_prog_futex(w, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
			else if (uatomic_cmpxchg(w, 0, 1) == 0) {
				once_init(w, fn);	/* its runner was cancelled */
				break;
			}
		}
	}
	wl_prog_errno_restore(e);
	return 0;
}

int futexsim_pthread_key_create(pthread_key_t *k, void (*dtor)(void *))
{
	if (wl_prog.keys_used == WL_PROG_MAX_KEYS)
		return EAGAIN;
	wl_prog.key_dtor[wl_prog.keys_used] = dtor;
	*k = (pthread_key_t)wl_prog.keys_used++;
	return 0;
}

int futexsim_pthread_key_delete(pthread_key_t k)
{
	if ((int)k >= wl_prog.keys_used)
		return EINVAL;
	wl_prog.key_dtor[k] = NULL;
	return 0;
}

void *futexsim_pthread_getspecific(pthread_key_t k)
{
	struct wl_prog_thread *t = wl_prog_self();

	return t && (int)k < wl_prog.keys_used ? (void *)t->tsd[k] : NULL;
}

int futexsim_pthread_setspecific(pthread_key_t k, const void *v)
{
	struct wl_prog_thread *t = wl_prog_self();

	if (!t || (int)k >= wl_prog.keys_used)
		return EINVAL;
	t->tsd[k] = v;
	return 0;
}
