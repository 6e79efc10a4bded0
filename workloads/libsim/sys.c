/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/sys.c - system calls, time, memory and the process
 * calls of a simulated program.
 *
 * Stage: user program -> futex(2) boundary (sim/syscall/syscall.h) -> kernel;
 * user program -> machine (atomics, clock, arena).  Called by the
 * program through workloads/libsim/futexsim.h.
 *
 *  syscall()  SYS_futex and SYS_futex_waitv run the real kernel code, and
 *             so do the futex2 calls futex_wake (454), futex_wait (455)
 *             and futex_requeue (456) on a 6.12 build (-1, ENOSYS, on
 *             6.1, as that kernel answers);
 *             SYS_gettid, SYS_getpid, SYS_sched_yield, SYS_nanosleep,
 *             SYS_clock_gettime, SYS_exit_group are served; any other
 *             number ends the run with a report naming it.
 *  time       one virtual clock: CLOCK_REALTIME, CLOCK_MONOTONIC and
 *             their variants all read the machine's clock (0 at the
 *             start of the run), as the kernel side sees it; a read
 *             costs WL_PROG_VDSO_PS (a vDSO call) and is a scheduling point.
 *             CLOCK_THREAD_CPUTIME_ID is the task's user + system time.
 *  memory     malloc() and friends: the arena, so addresses are the same
 *             in every run; a 16-byte header before each block holds its
 *             size and the arena block it lies in.  Memory not from the
 *             arena (strdup()'s, say) is freed by libc.  mmap(): private
 *             anonymous mappings only, from the arena too; strdup(),
 *             strndup() and asprintf() put their strings in the arena.
 *             clock() is the program's CPU time; the TSC (__rdtsc()) the
 *             running CPU's clock in ns.
 *  process    exit() ends the program (and the run); the environment is
 *             empty; sysconf(_SC_NPROCESSORS_*) is the machine's CPUs; a
 *             failed assert() is a failure report naming it.
 * Outside a simulated task (a constructor of the program, say) every
 * function here is plain libc.
 */
#include <linux/futex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The futex2 system calls of Linux 6.7: one number on every architecture
 * (the common table); glibc 2.36's headers predate them. */
#define SIM_NR_futex_wake	454
#define SIM_NR_futex_wait	455
#define SIM_NR_futex_requeue	456

#include "sim/host/arena.h"
#include "sim/report/failure.h"
#include "sim/report/symbols.h"
#include "sim/syscall/syscall.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

#define WL_PROG_VDSO_PS	20000ULL	/* clock_gettime() through the vDSO */
#define WL_PROG_RDTSC_PS	8000ULL		/* rdtsc: about 25 cycles	*/

/* A raw result to the libc convention, in the calling task's errno. */
static long to_errno(long r)
{
	if (r >= 0)
		return r;
	errno = (int)-r;
	return -1;
}

long wl_prog_futex(uint32_t *uaddr, int op, uint32_t val,
		const struct timespec *timeout, uint32_t *uaddr2, uint32_t val3)
{
	long r = sim_sys_futex(uaddr, op, val, timeout, uaddr2, val3);

	sim_progress();
	wl_prog_signal_check();
	return to_errno(r);
}

void *futexsim_unsupported_ptr(const char *what)
{
	wl_prog_fail(what);
}

long futexsim_unsupported(const char *what)
{
	wl_prog_fail(what);
}

static long sys_other(long nr, const long *a)
{
	char what[64];

	switch (nr) {
	case SYS_gettid:
		return futexsim_gettid();
	case SYS_getpid:
		return futexsim_getpid();
	case SYS_sched_yield:
		return futexsim_sched_yield();
	case SYS_nanosleep:
		return futexsim_nanosleep((const struct timespec *)a[0],
					  (struct timespec *)a[1]);
	case SYS_clock_gettime:
		return futexsim_clock_gettime((clockid_t)a[0],
					      (struct timespec *)a[1]);
	case SYS_exit_group:
		futexsim__exit((int)a[0]);	/* no atexit() handlers */
	case SYS_sched_getparam:
		return futexsim_sched_getparam((pid_t)a[0],
					       (struct sched_param *)a[1]);
	case SYS_sched_setparam:
		return futexsim_sched_setparam((pid_t)a[0],
					       (const struct sched_param *)a[1]);
	case SYS_sched_getscheduler:
		return futexsim_sched_getscheduler((pid_t)a[0]);
	case SYS_sched_setscheduler:
		return futexsim_sched_setscheduler((pid_t)a[0], (int)a[1],
					(const struct sched_param *)a[2]);
	}
	snprintf(what, sizeof(what), "syscall(%ld)", nr);
	wl_prog_fail(what);
}

long futexsim_syscall(long nr, ...)
{
	long a[6], r;
	va_list ap;
	int e;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!wl_prog_self())
		wl_prog_fail("syscall() outside a simulated program");
	e = wl_prog_errno_save();
	if (nr == SYS_futex) {
		r = sim_sys_futex((uint32_t *)a[0], (int)a[1], (uint32_t)a[2],
				  (const struct timespec *)a[3],
				  (uint32_t *)a[4], (uint32_t)a[5]);
	} else if (nr == SYS_futex_waitv) {
		r = sim_sys_futex_waitv((void *)a[0], (unsigned int)a[1],
					(unsigned int)a[2],
					(const struct timespec *)a[3], (int)a[4]);
	} else if (nr == SIM_NR_futex_wake) {
		r = sim_sys_futex_wake((void *)a[0], (unsigned long)a[1],
				       (int)a[2], (unsigned int)a[3]);
	} else if (nr == SIM_NR_futex_wait) {
		r = sim_sys_futex_wait((void *)a[0], (unsigned long)a[1],
				       (unsigned long)a[2], (unsigned int)a[3],
				       (const struct timespec *)a[4], (int)a[5]);
	} else if (nr == SIM_NR_futex_requeue) {
		r = sim_sys_futex_requeue((void *)a[0], (unsigned int)a[1],
					  (int)a[2], (int)a[3]);
	} else {
		return sys_other(nr, a);
	}
	sim_progress();
	wl_prog_cancel_async();	/* the program's own system call */
	wl_prog_signal_check();
	wl_prog_errno_restore(e);
	return to_errno(r);
}

pid_t futexsim_gettid(void)
{
	int e = wl_prog_errno_save();
	long tid = sim_sys_gettid();

	wl_prog_errno_restore(e);
	return (pid_t)tid;
}

/* The process ID is the main thread's TID, as on Linux. */
pid_t futexsim_getpid(void)
{
	return wl_prog_self() ? (pid_t)wl_prog.threads[0]->task->tid : getpid();
}

int futexsim_sched_yield(void)
{
	int e = wl_prog_errno_save();

	if (!sim_current())
		return sched_yield();
	sim_sys_sched_yield();
	wl_prog_errno_restore(e);
	return 0;
}

/* ---- time ----------------------------------------------------------- */

static uint64_t cputime_ps(const struct sim_task *t)
{
	return t->stats.user_ps + t->stats.sys_ps;
}

int futexsim_clock_gettime(clockid_t clk, struct timespec *ts)
{
	struct sim_task *t = sim_current();
	int e = wl_prog_errno_save();
	uint64_t ns;

	if (!t)
		return clock_gettime(clk, ts);
	sim_delay_ps(WL_PROG_VDSO_PS);
	t = sim_current();
	sim_account(t, sim_now_ps());
	if (clk == CLOCK_THREAD_CPUTIME_ID) {
		ns = cputime_ps(t) / 1000;
	} else if (clk == CLOCK_PROCESS_CPUTIME_ID) {
		ns = 0;
		for (int i = 0; i < wl_prog.nr_threads; i++)
			ns += cputime_ps(wl_prog.threads[i]->task) / 1000;
	} else if (clk < 0 || clk > CLOCK_BOOTTIME) {
		wl_prog_errno_restore(EINVAL);
		return -1;
	} else {
		ns = sim_now_ns();
	}
	ts->tv_sec = (time_t)(ns / 1000000000);
	ts->tv_nsec = (long)(ns % 1000000000);
	wl_prog_errno_restore(e);
	return 0;
}

int futexsim_gettimeofday(struct timeval *tv, void *tz)
{
	struct timespec ts;

	futexsim_clock_gettime(CLOCK_REALTIME, &ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

time_t futexsim_time(time_t *t)
{
	struct timespec ts;

	futexsim_clock_gettime(CLOCK_REALTIME, &ts);
	if (t)
		*t = ts.tv_sec;
	return ts.tv_sec;
}

clock_t futexsim_clock(void)
{
	struct timespec ts;

	if (!sim_current())
		return 0;
	futexsim_clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (clock_t)ts.tv_sec * CLOCKS_PER_SEC +
	       (clock_t)ts.tv_nsec / (1000000000 / CLOCKS_PER_SEC);
}

/* The TSC ticks once per virtual nanosecond of the running CPU. */
unsigned long long futexsim_rdtsc(void)
{
	int e;

	if (!sim_current())
		return 0;
	e = wl_prog_errno_save();
	sim_delay_ps(WL_PROG_RDTSC_PS);
	wl_prog_errno_restore(e);
	return sim_now_ps() / 1000;
}

unsigned long long futexsim_rdtscp(unsigned int *aux)
{
	unsigned long long tsc = futexsim_rdtsc();

	*aux = sim_cur ? (unsigned int)(sim_cur - sim.cpus) |
			 (unsigned int)sim_cur->socket << 12 : 0;
	return tsc;
}

/* Sleep @ns (nanosleep(2) of the machine). */
/* Return: 0, or EINTR if a signal's handler ended the sleep early. */
static int sleep_ns(uint64_t ns)
{
	struct wl_prog_thread *t = wl_prog_self();
	int e = wl_prog_errno_save();
	long r;

	wl_prog_cancel_point();
	if (t)
		t->sig_handled = 0;
	/* a cancel or a signal ends it early (-EINTR) */
	r = sim_sys_nanosleep(ns);
	sim_progress();
	wl_prog_cancel_point();
	wl_prog_signal_check();
	wl_prog_errno_restore(e);
	return r == -EINTR && t && t->sig_handled ? EINTR : 0;
}

static int bad_timespec(const struct timespec *ts)
{
	return !ts || ts->tv_sec < 0 || ts->tv_nsec < 0 ||
	       ts->tv_nsec >= 1000000000;
}

int futexsim_nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (!sim_current())
		return nanosleep(req, rem);
	if (bad_timespec(req)) {
		errno = EINVAL;
		return -1;
	}
	if (rem)
		*rem = (struct timespec){ 0 };
	if (sleep_ns((uint64_t)req->tv_sec * 1000000000 + req->tv_nsec)) {
		errno = EINTR;	/* rem: 0, the time left is not kept */
		return -1;
	}
	return 0;
}

/* Return: 0 or an error number, as clock_nanosleep() does. */
int futexsim_clock_nanosleep(clockid_t clk, int flags,
			     const struct timespec *req, struct timespec *rem)
{
	uint64_t ns, now;

	if (!sim_current())
		return clock_nanosleep(clk, flags, req, rem);
	if (bad_timespec(req) || clk == CLOCK_THREAD_CPUTIME_ID)
		return EINVAL;
	ns = (uint64_t)req->tv_sec * 1000000000 + req->tv_nsec;
	if (flags & TIMER_ABSTIME) {
		now = sim_now_ns();
		if (ns <= now) {	/* the deadline passed: no sleep */
			sim_delay_ps(sim_jitter_ps(sim.preset->syscall_ps));
			return 0;
		}
		ns -= now;
	}
	if (rem)
		*rem = (struct timespec){ 0 };
	return sleep_ns(ns);
}

int futexsim_usleep(useconds_t us)
{
	if (!sim_current())
		return usleep(us);
	return sleep_ns((uint64_t)us * 1000);
}

unsigned int futexsim_sleep(unsigned int s)
{
	if (!sim_current())
		return sleep(s);
	sleep_ns((uint64_t)s * 1000000000);
	return 0;
}

/* ---- memory --------------------------------------------------------- */

struct wl_prog_block {
	size_t size;			/* bytes asked for		*/
	void *base;			/* what the arena handed out	*/
};
_Static_assert(sizeof(struct wl_prog_block) == 16, "block header");

static void *arena_block(size_t n, size_t align)
{
	struct wl_prog_block *h;
	char *base, *p;

	if (align < 16)
		align = 16;
	if (n > SIM_ARENA_SIZE)
		return NULL;
	base = sim_arena_alloc(n + align + sizeof(*h), 16);
	p = (char *)(((uintptr_t)base + sizeof(*h) + align - 1) & ~(align - 1));
	h = (struct wl_prog_block *)p - 1;
	h->size = n;
	h->base = base;
	return p;
}

/* A block named by its caller's site (sim/report/symbols.h). */
#define NAMED(p, n)	named_block((p), (n), __builtin_return_address(0))
static void *named_block(void *p, size_t n, void *site)
{
	if (p)
		sim_sym_heap_block((uintptr_t)p, n, (uintptr_t)site);
	return p;
}

void *futexsim_malloc(size_t n)
{
	if (!sim_current())
		return malloc(n);
	return NAMED(arena_block(n, 16), n);
}

void *futexsim_calloc(size_t n, size_t size)
{
	if (!sim_current())
		return calloc(n, size);
	if (size && n > SIZE_MAX / size)
		return NULL;
	return NAMED(arena_block(n * size, 16), n * size); /* arena zeroes */
}

void futexsim_free(void *p)
{
	if (!p)
		return;
	if (!sim_arena_contains(p)) {
		free(p);
		return;
	}
	sim_arena_free(((struct wl_prog_block *)p - 1)->base);
}

void *futexsim_realloc(void *p, size_t n)
{
	size_t old;
	void *q;

	if (!p)
		return futexsim_malloc(n);
	if (!sim_arena_contains(p))
		return realloc(p, n);
	old = ((struct wl_prog_block *)p - 1)->size;
	q = arena_block(n, 16);
	memcpy(q, p, old < n ? old : n);
	futexsim_free(p);
	return q;
}

int futexsim_posix_memalign(void **p, size_t align, size_t n)
{
	if (!align || (align & (align - 1)) || align % sizeof(void *))
		return EINVAL;
	if (!sim_current())
		return posix_memalign(p, align, n);
	*p = arena_block(n, align);
	return 0;
}

void *futexsim_memalign(size_t align, size_t n)
{
	void *p = NULL;

	if (align < sizeof(void *))
		align = sizeof(void *);
	return futexsim_posix_memalign(&p, align, n) ? NULL : p;
}

void *futexsim_reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	n *= size;
	return futexsim_realloc(p, n ? n : 1);	/* never 0 bytes */
}

void *futexsim_aligned_alloc(size_t align, size_t n)
{
	void *p = NULL;

	return futexsim_posix_memalign(&p, align, n) ? NULL : p;
}

void *futexsim_mmap(void *addr, size_t len, int prot, int flags, int fd,
		    off_t off)
{
	void *p;
	const int ok = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		       MAP_POPULATE | MAP_STACK;

	if (!sim_current())
		return mmap(addr, len, prot, flags, fd, off);
	/* a file the program created (files.c) */
	if (!addr && (flags & MAP_SHARED) && !(flags & MAP_ANONYMOUS) &&
	    (p = wl_prog_file_map(len, fd, off)) != NULL)
		return p;
	if (addr || (flags & ~ok) || !(flags & MAP_ANONYMOUS) ||
	    !(flags & MAP_PRIVATE))
		wl_prog_fail("mmap(): only private anonymous mappings are simulated");
	if (!len) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	return sim_arena_alloc((len + 4095) & ~4095UL, 4096);
}

int futexsim_munmap(void *addr, size_t len)
{
	if (!sim_arena_contains(addr))
		return munmap(addr, len);
	if (wl_prog_file_mapped(addr))
		return 0;	/* a file's memory stays */
	sim_arena_free(addr);
	return 0;
}

char *futexsim_strdup(const char *s)
{
	return futexsim_strndup(s, strlen(s));
}

char *futexsim_strndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = futexsim_malloc(len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

int futexsim_vasprintf(char **strp, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return -1;
	*strp = futexsim_malloc((size_t)n + 1);
	if (!*strp)
		return -1;
	return vsnprintf(*strp, (size_t)n + 1, fmt, ap);
}

int futexsim_asprintf(char **strp, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = futexsim_vasprintf(strp, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- process -------------------------------------------------------- */

long futexsim_sysconf(int name)
{
	if (sim_current() &&
	    (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF))
		return sim.nr_cpus;
	if (name == _SC_THREAD_STACK_MIN)	/* PTHREAD_STACK_MIN: not the host's */
		return 16384;
	return sysconf(name);
}

int futexsim_get_nprocs(void)
{
	return (int)futexsim_sysconf(_SC_NPROCESSORS_ONLN);
}

int futexsim_sched_getcpu(void)
{
	return sim_cur ? (int)(sim_cur - sim.cpus) : 0;
}

/* stdout and stderr are the layer's (whole lines, per task): a program's
 * buffering request changes nothing, and is no error. */
int futexsim_setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	if (sim_current() && f != stdout && f != stderr)
		wl_prog_fail("setvbuf(): streams other than stdout and stderr are not simulated");
	return 0;
}

void futexsim_setbuf(FILE *f, char *buf)
{
	futexsim_setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ);
}

/* The environment of a simulated program is empty (the host's would
 * make its behaviour depend on where it runs). */
char *futexsim_getenv(const char *name)
{
	return sim_current() ? NULL : getenv(name);
}

void futexsim_exit(int status)
{
	if (!wl_prog_self())
		exit(status);
	/* each handler taken off before it runs: one that calls exit()
	 * goes on with the rest, as glibc's exit() does */
	while (wl_prog.nr_at_exit > 0) {
		int i = --wl_prog.nr_at_exit;

		if (wl_prog.at_exit[i].fn)
			wl_prog.at_exit[i].fn(status, wl_prog.at_exit[i].arg);
		else
			wl_prog.at_exit[i].plain();
	}
	wl_prog_end(status);
}

void futexsim__exit(int status)
{
	if (!wl_prog_self())
		_exit(status);
	wl_prog_end(status);
}

static int at_exit_add(void (*fn)(int, void *), void (*plain)(void),
		       void *arg)
{
	int i = wl_prog.nr_at_exit;

	if (!fn && !plain)
		return 0;
	if (i == WL_PROG_MAX_ATEXIT)
		return -1;		/* a failure POSIX allows	*/
	wl_prog.at_exit[i].fn = fn;
	wl_prog.at_exit[i].plain = plain;
	wl_prog.at_exit[i].arg = arg;
	wl_prog.nr_at_exit = i + 1;
	return 0;
}

int futexsim_atexit(void (*fn)(void))
{
	return at_exit_add(NULL, fn, NULL);
}

int futexsim_on_exit(void (*fn)(int, void *), void *arg)
{
	return at_exit_add(fn, NULL, arg);
}

/* A failed assert(): the failure report names it, as glibc's message does. */
static void __attribute__((noreturn))
assert_failed(const char *what, const char *file, unsigned int line,
	      const char *func)
{
	char msg[512];

	if (func && !strcmp(func, "futexsim_user_main"))
		func = "main";		/* -Dmain=futexsim_user_main */
	snprintf(msg, sizeof(msg), "task %d \"%.16s\": assertion failed in the program: %s (%s:%u%s%s%s)",
		 sim_current() ? sim_current()->tid : 0,
		 sim_current() ? sim_current()->name : "", what, file, line,
		 func ? ", " : "", func ? func : "", func ? "()" : "");
	if (!wl_prog_self()) {
		fprintf(stderr, "%s\n", msg);
		abort();
	}
	wl_prog_out_flush(wl_prog_self());
	sim_fail(SIM_FAIL_CRASH, msg);	/* glibc's assert() raises SIGABRT */
}

void futexsim___assert_fail(const char *expr, const char *file,
			    unsigned int line, const char *func)
{
	assert_failed(expr, file, line, func);
}

void futexsim___assert_perror_fail(int errnum, const char *file,
				   unsigned int line, const char *func)
{
	assert_failed(strerror(errnum), file, line, func);
}

void futexsim___assert(const char *expr, const char *file, int line)
{
	assert_failed(expr, file, (unsigned int)line, NULL);
}

void futexsim_abort(void)
{
	char msg[96];

	if (!wl_prog_self())
		abort();
	wl_prog_out_flush(wl_prog_self());
	snprintf(msg, sizeof(msg), "task %d \"%.16s\" called abort() (SIGABRT)",
		 sim_current()->tid, sim_current()->name);
	sim_fail(SIM_FAIL_CRASH, msg);
}
