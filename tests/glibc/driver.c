/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/glibc/driver.c - the support functions glibc's nptl tests call
 * (support/check.h, support/xthread.h, support/timespec.h,
 * support/xtime.h, support/support.h, support/xunistd.h), written for
 * this project from their documented behaviour: each x* wrapper calls
 * the function it is named for and ends the test with status 1 and a
 * message naming it when that fails; TEST_VERIFY and TEST_COMPARE
 * record a failure and go on; FAIL_EXIT1 ends the test.
 *
 * Stage: tests (the glibc harness).  Linked into every test by
 * mk/check-glibc.sh, natively (gcc -lpthread) and through `futexsim
 * build`, where its calls are the simulated ones like the test's own.
 * One process, no fork: a recorded failure is a plain global, read by
 * the driver's main() (tests/glibc/include/support/test-driver.c) at the
 * end through tst_driver_status().
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <support/check.h>
#include <support/support.h>
#include <support/timespec.h>
#include <support/xthread.h>
#include <support/xtime.h>
#include <support/xunistd.h>

static int tst_failed;		/* a failure was recorded */
unsigned int test_verbose;	/* support/test-driver.h: quiet */

int tst_driver_status(int status);

/* ---- failures ----------------------------------------------------------- */

void support_record_failure(void)
{
	tst_failed = 1;
}

void support_record_failure_reset(void)
{
	tst_failed = 0;
}

int support_record_failure_is_failed(void)
{
	return tst_failed;
}

void support_record_failure_barrier(void)
{
	if (tst_failed) {
		puts("error: a failure was recorded before this point");
		exit(1);
	}
}

int tst_driver_status(int status)
{
	if (status == 0 && tst_failed)
		return 1;
	return status;
}

static void tst_vmsg(const char *file, int line, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	printf("%s:%d: error: %s\n", file, line, buf);
}

int support_print_failure_impl(const char *file, int line,
			       const char *format, ...)
{
	va_list ap;

	support_record_failure();
	va_start(ap, format);
	tst_vmsg(file, line, format, ap);
	va_end(ap);
	return 1;
}

void support_exit_failure_impl(int status, const char *file, int line,
			       const char *format, ...)
{
	va_list ap;

	if (status != 77)
		support_record_failure();
	va_start(ap, format);
	tst_vmsg(file, line, format, ap);
	va_end(ap);
	exit(status);
}

void support_test_verify_impl(const char *file, int line, const char *expr)
{
	support_record_failure();
	printf("%s:%d: error: test verification failed: %s\n", file, line,
	       expr);
}

void support_test_verify_exit_impl(int status, const char *file, int line,
				   const char *expr)
{
	support_test_verify_impl(file, line, expr);
	exit(status);
}

void support_test_compare_failure(const char *file, int line,
				  const char *left_expr, long long left_value,
				  int left_positive, int left_size,
				  const char *right_expr,
				  long long right_value, int right_positive,
				  int right_size)
{
	support_record_failure();
	printf("%s:%d: numeric comparison failure\n", file, line);
	printf("   left: %lld (%s, %d bytes%s)\n", left_value, left_expr,
	       left_size, left_positive ? "" : ", not positive");
	printf("  right: %lld (%s, %d bytes%s)\n", right_value, right_expr,
	       right_size, right_positive ? "" : ", not positive");
}

/* ---- threads ------------------------------------------------------------ */

void xpthread_check_return(const char *function, int value)
{
	if (value) {
		printf("error: %s: %s\n", function, strerror(value));
		support_record_failure();
		exit(1);
	}
}

#define TST_X(call, name)	xpthread_check_return(name, call)

void xpthread_barrier_init(pthread_barrier_t *b, pthread_barrierattr_t *a,
			   unsigned int count)
{
	TST_X(pthread_barrier_init(b, a, count), "pthread_barrier_init");
}

void xpthread_barrier_destroy(pthread_barrier_t *b)
{
	TST_X(pthread_barrier_destroy(b), "pthread_barrier_destroy");
}

int xpthread_barrier_wait(pthread_barrier_t *b)
{
	int r = pthread_barrier_wait(b);

	if (r != PTHREAD_BARRIER_SERIAL_THREAD)
		TST_X(r, "pthread_barrier_wait");
	return r == PTHREAD_BARRIER_SERIAL_THREAD;
}

void xpthread_barrierattr_init(pthread_barrierattr_t *a)
{
	TST_X(pthread_barrierattr_init(a), "pthread_barrierattr_init");
}

void xpthread_barrierattr_destroy(pthread_barrierattr_t *a)
{
	TST_X(pthread_barrierattr_destroy(a), "pthread_barrierattr_destroy");
}

void xpthread_barrierattr_setpshared(pthread_barrierattr_t *a, int ps)
{
	TST_X(pthread_barrierattr_setpshared(a, ps),
	      "pthread_barrierattr_setpshared");
}

void xpthread_mutexattr_init(pthread_mutexattr_t *a)
{
	TST_X(pthread_mutexattr_init(a), "pthread_mutexattr_init");
}

void xpthread_mutexattr_destroy(pthread_mutexattr_t *a)
{
	TST_X(pthread_mutexattr_destroy(a), "pthread_mutexattr_destroy");
}

void xpthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int p)
{
	TST_X(pthread_mutexattr_setprotocol(a, p),
	      "pthread_mutexattr_setprotocol");
}

void xpthread_mutexattr_setpshared(pthread_mutexattr_t *a, int ps)
{
	TST_X(pthread_mutexattr_setpshared(a, ps),
	      "pthread_mutexattr_setpshared");
}

void xpthread_mutexattr_setrobust(pthread_mutexattr_t *a, int r)
{
	TST_X(pthread_mutexattr_setrobust(a, r), "pthread_mutexattr_setrobust");
}

void xpthread_mutexattr_settype(pthread_mutexattr_t *a, int t)
{
	TST_X(pthread_mutexattr_settype(a, t), "pthread_mutexattr_settype");
}

void xpthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
	TST_X(pthread_mutex_init(m, a), "pthread_mutex_init");
}

void xpthread_mutex_destroy(pthread_mutex_t *m)
{
	TST_X(pthread_mutex_destroy(m), "pthread_mutex_destroy");
}

void xpthread_mutex_lock(pthread_mutex_t *m)
{
	TST_X(pthread_mutex_lock(m), "pthread_mutex_lock");
}

void xpthread_mutex_unlock(pthread_mutex_t *m)
{
	TST_X(pthread_mutex_unlock(m), "pthread_mutex_unlock");
}

void xpthread_mutex_consistent(pthread_mutex_t *m)
{
	TST_X(pthread_mutex_consistent(m), "pthread_mutex_consistent");
}

void xpthread_spin_lock(pthread_spinlock_t *s)
{
	TST_X(pthread_spin_lock(s), "pthread_spin_lock");
}

void xpthread_spin_unlock(pthread_spinlock_t *s)
{
	TST_X(pthread_spin_unlock(s), "pthread_spin_unlock");
}

void xpthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	TST_X(pthread_cond_wait(c, m), "pthread_cond_wait");
}

void xpthread_cond_signal(pthread_cond_t *c)
{
	TST_X(pthread_cond_signal(c), "pthread_cond_signal");
}

pthread_t xpthread_create(pthread_attr_t *attr, void *(*fn)(void *),
			  void *arg)
{
	pthread_t t;

	TST_X(pthread_create(&t, attr, fn, arg), "pthread_create");
	return t;
}

void xpthread_detach(pthread_t t)
{
	TST_X(pthread_detach(t), "pthread_detach");
}

/* futexsim ends the run here: cancellation is not simulated */
void xpthread_cancel(pthread_t t)
{
	TST_X(pthread_cancel(t), "pthread_cancel");
}

void *xpthread_join(pthread_t t)
{
	void *ret;

	TST_X(pthread_join(t, &ret), "pthread_join");
	return ret;
}

void xpthread_once(pthread_once_t *o, void (*fn)(void))
{
	TST_X(pthread_once(o, fn), "pthread_once");
}

void xpthread_attr_init(pthread_attr_t *a)
{
	TST_X(pthread_attr_init(a), "pthread_attr_init");
}

void xpthread_attr_destroy(pthread_attr_t *a)
{
	TST_X(pthread_attr_destroy(a), "pthread_attr_destroy");
}

void xpthread_attr_setdetachstate(pthread_attr_t *a, int st)
{
	TST_X(pthread_attr_setdetachstate(a, st), "pthread_attr_setdetachstate");
}

void xpthread_attr_setstacksize(pthread_attr_t *a, size_t sz)
{
	TST_X(pthread_attr_setstacksize(a, sz), "pthread_attr_setstacksize");
}

void xpthread_rwlock_init(pthread_rwlock_t *rw, const pthread_rwlockattr_t *a)
{
	TST_X(pthread_rwlock_init(rw, a), "pthread_rwlock_init");
}

void xpthread_rwlockattr_init(pthread_rwlockattr_t *a)
{
	TST_X(pthread_rwlockattr_init(a), "pthread_rwlockattr_init");
}

void xpthread_rwlockattr_setkind_np(pthread_rwlockattr_t *a, int pref)
{
	TST_X(pthread_rwlockattr_setkind_np(a, pref),
	      "pthread_rwlockattr_setkind_np");
}

void xpthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
	TST_X(pthread_rwlock_wrlock(rw), "pthread_rwlock_wrlock");
}

void xpthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
	TST_X(pthread_rwlock_rdlock(rw), "pthread_rwlock_rdlock");
}

void xpthread_rwlock_unlock(pthread_rwlock_t *rw)
{
	TST_X(pthread_rwlock_unlock(rw), "pthread_rwlock_unlock");
}

void xpthread_rwlock_destroy(pthread_rwlock_t *rw)
{
	TST_X(pthread_rwlock_destroy(rw), "pthread_rwlock_destroy");
}

pthread_key_t xpthread_key_create(void (*dtor)(void *))
{
	pthread_key_t k;

	TST_X(pthread_key_create(&k, dtor), "pthread_key_create");
	return k;
}

void xpthread_key_delete(pthread_key_t k)
{
	TST_X(pthread_key_delete(k), "pthread_key_delete");
}

static void *tst_delayed_exit(void *arg)
{
	struct timespec ts = { (time_t)(long)arg, 0 };

	nanosleep(&ts, NULL);
	exit(0);
}

/* delayed_exit - end the process with status 0 @seconds from now, from
 * a thread of its own (a test that must hang in a deadlock ends so). */
void delayed_exit(int seconds)
{
	xpthread_detach(xpthread_create(NULL, tst_delayed_exit,
					(void *)(long)seconds));
}

/* A PI mutex's timed lock measures CLOCK_MONOTONIC (Linux 5.14 and
 * later, FUTEX_LOCK_PI2): the simulated kernel is 6.1. */
bool support_mutex_pi_monotonic(void)
{
	return true;
}

size_t support_small_thread_stack_size(void)
{
	return 64 * 1024 > PTHREAD_STACK_MIN ? 64 * 1024 : PTHREAD_STACK_MIN;
}

void support_set_small_thread_stack_size(pthread_attr_t *a)
{
	xpthread_attr_setstacksize(a, support_small_thread_stack_size());
}

/* ---- time --------------------------------------------------------------- */

void xclock_gettime(clockid_t clk, struct timespec *ts)
{
	if (clock_gettime(clk, ts) != 0)
		FAIL_EXIT1("clock_gettime (%d): %m", (int)clk);
}

struct timespec support_timespec_normalize(struct timespec t)
{
	while (t.tv_nsec >= TIMESPEC_HZ) {
		t.tv_nsec -= TIMESPEC_HZ;
		t.tv_sec++;
	}
	while (t.tv_nsec < 0) {
		t.tv_nsec += TIMESPEC_HZ;
		t.tv_sec--;
	}
	return t;
}

struct timespec timespec_add(struct timespec a, struct timespec b)
{
	a.tv_sec += b.tv_sec;
	a.tv_nsec += b.tv_nsec;
	return support_timespec_normalize(a);
}

struct timespec timespec_sub(struct timespec a, struct timespec b)
{
	a.tv_sec -= b.tv_sec;
	a.tv_nsec -= b.tv_nsec;
	return support_timespec_normalize(a);
}

time_t support_timespec_ns(struct timespec t)
{
	return t.tv_sec * TIMESPEC_HZ + t.tv_nsec;
}

static int tst_ts_before(struct timespec a, struct timespec b)
{
	return a.tv_sec < b.tv_sec ||
	       (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

void test_timespec_before_impl(const char *file, int line,
			       struct timespec left, struct timespec right)
{
	if (!tst_ts_before(left, right))
		support_print_failure_impl(file, line,
			"%lld.%09ld not before %lld.%09ld",
			(long long)left.tv_sec, left.tv_nsec,
			(long long)right.tv_sec, right.tv_nsec);
}

void test_timespec_equal_or_after_impl(const char *file, int line,
				       struct timespec left,
				       struct timespec right)
{
	if (tst_ts_before(left, right))
		support_print_failure_impl(file, line,
			"%lld.%09ld before %lld.%09ld",
			(long long)left.tv_sec, left.tv_nsec,
			(long long)right.tv_sec, right.tv_nsec);
}

int support_timespec_check_in_range(struct timespec expected,
				    struct timespec observed, double lower,
				    double upper)
{
	double e = (double)support_timespec_ns(expected);
	double o = (double)support_timespec_ns(observed);

	return e == 0 ? o == 0 : o / e >= lower && o / e <= upper;
}

struct timespec dtotimespec(double sec)
{
	struct timespec t;

	t.tv_sec = (time_t)sec;
	t.tv_nsec = (long)((sec - (double)t.tv_sec) * TIMESPEC_HZ);
	return support_timespec_normalize(t);
}

/* ---- memory, files ------------------------------------------------------ */

void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		FAIL_EXIT1("malloc (%zu) failed", n);
	return p;
}

void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n, s);

	if (!p)
		FAIL_EXIT1("calloc (%zu, %zu) failed", n, s);
	return p;
}

void *xmmap(void *addr, size_t len, int prot, int flags, int fd)
{
	void *p = mmap(addr, len, prot, flags, fd, 0);

	if (p == MAP_FAILED)
		FAIL_EXIT1("mmap of %zu bytes failed", len);
	return p;
}

void xmunmap(void *addr, size_t len)
{
	if (munmap(addr, len) != 0)
		FAIL_EXIT1("munmap of %zu bytes failed", len);
}

void xwrite(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w <= 0)
			FAIL_EXIT1("write of %zu bytes to fd %d failed", n, fd);
		c += w;
		n -= (size_t)w;
	}
}

void write_message(const char *message)
{
	xwrite(STDOUT_FILENO, message, strlen(message));
}

/* A test that wants memory shared with a child gets plain memory: one
 * process here, the tests that fork are skipped. */
void *support_shared_allocate(size_t size)
{
	return xcalloc(1, size);
}

void support_shared_free(void *p)
{
	free(p);
}
