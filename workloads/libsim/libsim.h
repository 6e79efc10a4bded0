/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/libsim.h - the inside of the user-space ABI layer: the
 * simulated program, its threads and their bookkeeping.
 *
 * Stage: user program (workload).  Shared by the .c files of
 * workloads/libsim/ and the program workload (workloads/program.c); the
 * program itself only sees
 * workloads/libsim/futexsim.h.  Calls the machine (tasks, clock, hooks),
 * the futex(2) boundary (sim/syscall/syscall.h) and the user locks
 * (workloads/ulock) that pthread mutexes are made of.
 *
 * Errors: like pthreads and libc, 0 or a positive errno (pthread_*), or
 * -1 with errno (the system-call wrappers).  errno: the program's errno
 * is the host's (one host thread runs every task); the machine keeps each
 * task's across a switch (resume(), sim/machine/machine.c), so a bare
 * scheduling point (a hook) leaves it alone.  A layer function whose own
 * calls may set it (a futex wrapper's -1, a host call) saves it on entry
 * and restores it before returning (wl_prog_errno_save()/
 * wl_prog_errno_restore()), so the program sees only the errno its call
 * is documented to set.
 *
 * Names: wl_prog_ inside the layer (a workload's), futexsim_ for the
 * functions the program's calls are renamed to (the ABI).
 */
#ifndef WL_PROG_LIBSIM_H
#define WL_PROG_LIBSIM_H

#include <errno.h>
#include <linux/futex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "sim/machine/hooks.h"
#include "sim/machine/machine.h"
#include "sim/machine/prng.h"
#include "sim/scenario/scenario.h"
#include "sim/report/stats.h"
#include "workloads/ulock/ulock.h"

#define WL_PROG_MAX_KEYS	64	/* pthread_key_create() keys		*/
#define WL_PROG_MAX_ATEXIT	32	/* atexit()/on_exit() (POSIX's least ATEXIT_MAX) */
#define WL_PROG_ARGS_MAX	64	/* argv entries of the program		*/

/* One thread of the program (main included).  Lives in the arena:
 * pthread_t is its address. */
struct wl_prog_thread {
	uint32_t tid_word;		/* TID while alive, 0 once exited:
					 * pthread_join() FUTEX_WAITs on it */
	int idx;			/* creation order, main is 0	*/
	int detached;
	int joined;
	void *(*fn)(void *);
	void *arg;
	void *ret;			/* pthread_exit() value		*/
	struct sim_task *task;
	jmp_buf exit_jb;		/* pthread_exit() unwinds to it	*/
	/* cancellation (cancel.c) */
	int cancel_off;			/* PTHREAD_CANCEL_DISABLE	*/
	int cancel_async;		/* PTHREAD_CANCEL_ASYNCHRONOUS	*/
	int cancel_pending;		/* pthread_cancel() was called	*/
	int cancel_acting;		/* the thread is being cancelled */
	void *cleanup;			/* newest pthread_cleanup_push() */
	const void *tsd[WL_PROG_MAX_KEYS];	/* pthread_setspecific()	*/
	/* signals (signal.c) */
	uint64_t sig_blocked;		/* the mask			*/
	uint64_t sig_pending;		/* sent to this thread		*/
	int sig_code[65];		/* how each was sent (si_code)	*/
	uint64_t sig_waiting;		/* in sigwait() for these	*/
	uint32_t sig_word;		/* ... woken through this word	*/
	int sig_norestart;		/* in pause(), sigsuspend()	*/
	int sig_handled;		/* a handler ran (pause())	*/
	/* robust mutexes (mutex.c): the list the kernel walks at exit */
	struct robust_list_head robust;
	int robust_set;			/* set_robust_list() made	*/
	/* what the report counts */
	struct ulock_stats st;		/* pthread mutex slow paths	*/
	uint64_t acquires;		/* pthread mutex acquisitions	*/
	uint64_t start_ps, end_ps;
	struct sim_hist *acquire_ns;	/* host memory: large		*/
	/* output not yet ended by a newline, per stream (1, 2) */
	char *line[3];
	size_t line_len[3], line_cap[3];
	char *all;			/* everything written, in order	*/
	size_t all_len, all_cap;
};

struct wl_prog_named_sem;		/* sem.c			*/

/* A file the program created (files.c). */
#define WL_PROG_MAX_FILES	32
#define WL_PROG_MAX_FDS		64
struct wl_prog_file {
	char name[256];
	void *data;			/* in the arena; NULL: none yet	*/
	size_t size, cap;
	int linked;			/* its name is in the table	*/
};

/* A timer of the program (timer.c): alarm(), setitimer(ITIMER_REAL),
 * timer_create(). */
#define WL_PROG_MAX_TIMERS	17	/* 0: alarm(); 16 timer_create()s */
struct wl_prog_timer {
	struct sim_event ev;		/* armed: ev.heap_idx >= 0	*/
	int used;
	int signo;			/* 0: SIGEV_NONE		*/
	uint64_t interval_ns;		/* 0: one shot			*/
	uint64_t when_ns;		/* the next expiry, when armed	*/
};

/* A SysV shared memory segment (shm.c). */
#define WL_PROG_MAX_SHM		64
struct wl_prog_shm {
	void *addr;			/* in the arena			*/
	size_t size;
	key_t key;
	int removed;			/* IPC_RMID			*/
};

/* The program of the current run. */
struct wl_prog_state {
	int (*main)(int, char **, char **);
	const struct ulock_ops *lock;	/* default pthread mutex	*/
	int argc;
	char **argv;			/* in the arena			*/
	struct wl_prog_thread **threads;	/* by creation order		*/
	int nr_threads, cap_threads;
	int exited;			/* exit() or main returned	*/
	int status;			/* its exit status		*/
	int rt_requested;		/* SCHED_FIFO/RR attributes seen	*/
	int keys_used;
	void (*key_dtor[WL_PROG_MAX_KEYS])(void *);
	struct sim_prng rand;		/* rand()'s stream (rand.c)	*/
	int rand_seeded;		/* it is seeded			*/
	struct wl_prog_named_sem *named_sems;	/* sem_open() (sem.c)	*/
	struct {				/* atexit(), on_exit() (sys.c)	*/
		void (*fn)(int, void *);	/* on_exit()'s, or		*/
		void (*plain)(void);		/* ... atexit()'s		*/
		void *arg;
	} at_exit[WL_PROG_MAX_ATEXIT];
	int nr_at_exit;
	/* signals (signal.c) */
	struct sigaction sig_act[65];	/* by signal number		*/
	uint64_t sig_proc_pending;	/* kill(): blocked everywhere	*/
	int sig_proc_code[65];		/* ... how each was sent	*/
	struct wl_prog_timer timers[WL_PROG_MAX_TIMERS];	/* timer.c: 0
					 * is alarm() and ITIMER_REAL's	*/
	struct wl_prog_shm shm[WL_PROG_MAX_SHM];	/* shm.c	*/
	int nr_shm;
	struct wl_prog_file files[WL_PROG_MAX_FILES];	/* files.c	*/
	int nr_files;
	int fd_file[WL_PROG_MAX_FDS];	/* descriptor -> file index + 1	*/
	int sig_any;			/* a signal or a cancel was ever
					 * sent: the atomics and system
					 * calls look for one		*/
};

extern struct wl_prog_state wl_prog;

/* wl_prog_start - set up @main as the program of the machine (initialised,
 * not yet run): argv from @s->program and @s->args, pthread mutexes
 * made of @lock; creates the main task. */
void wl_prog_start(const struct sim_scenario *s, const struct ulock_ops *lock,
		int (*main)(int, char **, char **));
/* wl_prog_finish - after sim_run(): write out unterminated lines, fill the
 * program's figures into @r, free the host-side bookkeeping. */
void wl_prog_finish(struct sim_result *r);
/* wl_program_run - workload=program with @main as the program's main()
 * (workloads/program.c; the tests pass their own).  Same contract as a
 * workload's ->run(). */
void wl_program_run(const struct sim_scenario *s, const struct ulock_ops *lock,
		    int (*main)(int, char **, char **), struct sim_result *r);
/* wl_prog_self - the calling task's thread, NULL outside the program. */
struct wl_prog_thread *wl_prog_self(void);
/* futexsim___sigsetjmp_cancel - the context save of a cleanup buffer
 * (setjmp_x86_64.S): 0 when saved, 1 when cancel.c jumps back. */
int futexsim___sigsetjmp_cancel(void *env) __attribute__((returns_twice));
/* wl_prog_cancel_point - a cancellation point: a pending, enabled cancel
 * of the calling thread acts now (cleanup handlers, then the thread ends
 * with PTHREAD_CANCELED); otherwise returns (cancel.c). */
void wl_prog_cancel_point(void);
/* wl_prog_cancel_async - an instruction boundary of the program (its
 * atomic, the return of its own system call): a pending cancel of an
 * asynchronously cancellable thread acts now (cancel.c). */
void wl_prog_cancel_async(void);
/* wl_prog_cancel_due - a cancellation point would act now: checked just
 * before a cancellable wait that follows another syscall, whose return
 * has taken the cancel's signal (cancel.c). */
int wl_prog_cancel_due(void);
/* wl_prog_unwind - run the calling thread's cleanup handlers, newest
 * first, then end it with @ret as pthread_exit(@ret) does (cancel.c). */
void wl_prog_unwind(void *ret) __attribute__((noreturn));
/* wl_prog_thread_end - the thread's end after its handlers: longjmp to
 * its exit (thread.c). */
void wl_prog_thread_end(struct wl_prog_thread *t, void *ret)
	__attribute__((noreturn));
/* wl_prog_end - the program exits with @status: end the run now (other
 * tasks are left as they are, as exit_group(2) leaves them). */
void wl_prog_end(int status) __attribute__((noreturn));
/* wl_prog_sched_inherit - a new thread's policy and priority
 * (workloads/libsim/sched.c). */
void wl_prog_sched_inherit(struct sim_task *t, int explicit_, int policy,
			   int prio);
/* wl_prog_pp_raise, wl_prog_pp_drop - the caller takes (0, or EINVAL
 * when its priority is above @ceiling) or has released a
 * PTHREAD_PRIO_PROTECT mutex of @ceiling (workloads/libsim/sched.c). */
int wl_prog_pp_raise(int ceiling);
void wl_prog_pp_drop(int ceiling);
/* wl_prog_fail - a call the simulator does not model: failure report. */
void wl_prog_fail(const char *what) __attribute__((noreturn));
/* wl_prog_signal_start - the run begins: the boundary's hook is set
 * (signal.c).  wl_prog_signal_check - the current thread returns to
 * the program (after a system call or an atomic of the layer): its
 * deliverable signals are delivered. */
void wl_prog_signal_start(void);
void wl_prog_signal_check(void);
/* wl_prog_signal_from_timer - @sig to the process from a timer's
 * event (signal.c); wl_prog_timer_start - the run's timers are set up,
 * none armed (timer.c). */
void wl_prog_signal_from_timer(int sig);
void wl_prog_timer_start(void);
/* wl_prog_file_map - a MAP_SHARED mmap() of @len bytes at @off of the
 * program's file @fd (files.c).  Return: the address, MAP_FAILED with
 * errno, or NULL if @fd is not a file the program created.  wl_prog_file_mapped - @addr is in a file's memory
 * (munmap() leaves it). */
void *wl_prog_file_map(size_t len, int fd, off_t off);
int wl_prog_file_mapped(const void *addr);
/* wl_prog_robust_exit - thread @t exits: the kernel walks its robust
 * list, if it has one (mutex.c). */
void wl_prog_robust_exit(struct wl_prog_thread *t);

/* errno of the calling task around a scheduling point. */
static inline int wl_prog_errno_save(void)
{
	return errno;
}

static inline void wl_prog_errno_restore(int e)
{
	errno = e;
}

/*
 * wl_prog_abstime_check - an absolute deadline as glibc checks it before
 * it blocks.  Return: 0 usable; EINVAL tv_nsec outside [0, 10^9);
 * ETIMEDOUT a negative tv_sec (long past: the kernel would refuse it).
 */
static inline int wl_prog_abstime_check(const struct timespec *abs)
{
	if (abs->tv_nsec < 0 || abs->tv_nsec >= 1000000000L)
		return EINVAL;
	return abs->tv_sec < 0 ? ETIMEDOUT : 0;
}

/* wl_prog_clock_ok - @clk is a clock a timed wait may measure
 * (CLOCK_REALTIME, CLOCK_MONOTONIC), as glibc's futex waits accept. */
static inline int wl_prog_clock_ok(clockid_t clk)
{
	return clk == CLOCK_REALTIME || clk == CLOCK_MONOTONIC;
}

/* wl_prog_fop - futex op @op of an object that is process-shared if
 * @shared: without FUTEX_PRIVATE_FLAG then, so that the kernel keys it
 * by its page (get_futex_key()'s shared paths), as glibc does. */
static inline int wl_prog_fop(int op, int shared)
{
	return shared ? op & ~FUTEX_PRIVATE_FLAG : op;
}

/* wl_prog_futex - futex(2) with the libc convention: -1 and errno. */
long wl_prog_futex(uint32_t *uaddr, int op, uint32_t val,
		const struct timespec *timeout, uint32_t *uaddr2, uint32_t val3);
/* wl_prog_out - @n bytes to stream @fd (1 stdout, 2 stderr) of the calling
 * task: whole lines go out at once, in the order they end. */
void wl_prog_out(int fd, const char *p, size_t n);
/* futexsim_stdout, futexsim_stderr - the program's variables stdout and
 * stderr (futexsim.h renames them): the host's streams, or what the
 * program assigned.  wl_prog_streams_start - as at the program's start:
 * as the program's constructors left them (each run of an explore). */
extern FILE *futexsim_stdout, *futexsim_stderr;
void wl_prog_streams_start(void);
/* wl_prog_mute - set by wl_program_mute(): wl_prog_out() drops it all. */
extern int wl_prog_mute;
/* wl_prog_out_flush - write out @t's unterminated lines. */
void wl_prog_out_flush(struct wl_prog_thread *t);

/*
 * wl_prog_atomic_announced - the word futexsim_atomic() (atomic.c) was
 * the scheduling point of, until the builtin's own call of an
 * instrumented program (instrument.c) takes it: that call is then no
 * second scheduling point.  WL_PROG_ATOMIC_FENCE stands for a fence's.
 */
extern const volatile void *wl_prog_atomic_announced;
#define WL_PROG_ATOMIC_FENCE	((const volatile void *)1)

#endif /* WL_PROG_LIBSIM_H */
