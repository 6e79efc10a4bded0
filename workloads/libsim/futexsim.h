/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/futexsim.h - the user-space ABI of futexsim: force-
 * included (gcc -include) before every translation unit of a user program
 * by `futexsim build`.
 *
 * Stage: user program -> this layer -> futex(2) boundary (sim/syscall/syscall.h)
 * -> kernel -> sched -> machine.  The program's own code is compiled
 * unmodified; this header first includes the libc headers whose functions
 * it takes over, then redeclares each of those functions with an
 * assembler name, FUTEXSIM_AS(malloc) being
 *	extern __typeof__(malloc) malloc __asm__("futexsim_malloc");
 * so that every call, every address taken (&malloc) and every call the
 * compiler makes up itself (printf("x\n") becomes puts(), which gcc
 * emits under puts's assembler name) reaches the futexsim_* function of
 * workloads/libsim/ that runs it on the simulated machine.  The names
 * themselves are left alone: a struct member named write or time, and
 * __attribute__((format(printf, 1, 2))) or __attribute__((malloc)) in
 * the program's headers, mean what they say.  Two settings make that
 * hold: glibc's extern inline wrappers are turned off (__NO_INLINE__:
 * clang refuses an assembler name after a definition), and so is
 * _FORTIFY_SOURCE (its __printf_chk and friends run on the host).
 * Nothing outside the program's own translation units is renamed: libc
 * and the simulator keep the real functions.  The calls that are not
 * simulated, and a few builtins, are function-like macros instead (end
 * of this file).
 *
 * What the renaming covers (docs/programs.md has the full list):
 *   threads    pthread_create/join/exit/self/detach/equal, the _np joins,
 *              attributes, once, keys; mutexes (the scenario's user
 *              lock), condition variables, reader-writer locks, barriers,
 *              spinlocks, semaphores (named ones too), with their timed
 *              and clock variants and attributes; C11 <threads.h>
 *   syscalls   syscall(SYS_futex | SYS_futex_waitv | SYS_gettid | ...),
 *              gettid(), sched_yield()
 *   time       clock_gettime(), gettimeofday(), time(), nanosleep(),
 *              clock_nanosleep(), usleep(), sleep(): the virtual clock
 *   memory     malloc() and friends, anonymous private mmap(): the
 *              fixed-address arena
 *   output     printf() and friends on stdout and stderr: captured per
 *              task, one whole line at a time; the variables stdout
 *              and stderr are the program's own (an assignment such as
 *              stdout = stderr moves its output, not the report)
 *   atomics    the __atomic and __sync builtins (and so C11 atomic_*()):
 *              each is a scheduling point with a cache-line cost
 *              (workloads/libsim/futexsim_atomic.h)
 *   process    exit(), _exit(), abort(), assert(), getpid(), getenv()
 *              (empty environment), sysconf(_SC_NPROCESSORS_*)
 *   random     getrandom(), getentropy(), arc4random*(): the run's PRNG;
 *              rand(), random(), *rand48(): a stream of the program
 *              seeded from the run's seed (workloads/libsim/rand.c)
 *   CPU time   clock(), __rdtsc(), __rdtscp(): the virtual clock
 * Calls the simulator does not model (fork, signals, files, sockets,
 * shared memory) are renamed to functions that end the run with a
 * failure report naming the call (exit status 3).  Any other call left
 * in an object that is not on the allow list of sim/program/build.c is
 * refused by `futexsim build`, as are instructions that reach the host
 * (syscall, rdtsc, cpuid ...) in the program's code.
 *
 * Contract: same program + same scenario + same seed => same output,
 * byte for byte.  Limits: __thread variables are shared by all tasks
 * (one host thread runs them all; `futexsim build` names each); plain
 * loads and stores, and operators on _Atomic objects, are not
 * scheduling points (a busy-wait on a plain variable never lets another
 * task run: use an atomic builtin), unless the program is built with
 * --instrument (workloads/libsim/instrument.c).
 */
#ifndef FUTEXSIM_H
#define FUTEXSIM_H

#ifndef FUTEXSIM_NO_RENAME	/* before any libc header (see above) */
#ifndef __NO_INLINE__
#define __NO_INLINE__ 1
#endif
#undef _FORTIFY_SOURCE
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <assert.h>
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/shm.h>
#include <sys/time.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <malloc.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#include "workloads/libsim/futexsim_atomic.h"

#define FUTEXSIM_PRINTF(f, a)	__attribute__((format(printf, f, a)))

/* ---- threads (workloads/libsim/thread.c) ---- */
int futexsim_pthread_create(pthread_t *th, const pthread_attr_t *attr,
			    void *(*fn)(void *), void *arg);
int futexsim_pthread_join(pthread_t th, void **ret);
int futexsim_pthread_tryjoin_np(pthread_t th, void **ret);
int futexsim_pthread_timedjoin_np(pthread_t th, void **ret,
				  const struct timespec *abs);
int futexsim_pthread_clockjoin_np(pthread_t th, void **ret, clockid_t clk,
				  const struct timespec *abs);
void futexsim_pthread_exit(void *ret) __attribute__((noreturn));
pthread_t futexsim_pthread_self(void);
int futexsim_pthread_equal(pthread_t a, pthread_t b);
int futexsim_pthread_detach(pthread_t th);
int futexsim_pthread_attr_init(pthread_attr_t *a);
int futexsim_pthread_attr_destroy(pthread_attr_t *a);
int futexsim_pthread_attr_setdetachstate(pthread_attr_t *a, int st);
int futexsim_pthread_attr_setstacksize(pthread_attr_t *a, size_t sz);
int futexsim_pthread_attr_setinheritsched(pthread_attr_t *a, int inh);
int futexsim_pthread_attr_setschedpolicy(pthread_attr_t *a, int pol);
int futexsim_pthread_attr_setschedparam(pthread_attr_t *a,
					const struct sched_param *p);
int futexsim_pthread_once(pthread_once_t *once, void (*fn)(void));
int futexsim_pthread_key_create(pthread_key_t *k, void (*dtor)(void *));
int futexsim_pthread_key_delete(pthread_key_t k);
void *futexsim_pthread_getspecific(pthread_key_t k);
int futexsim_pthread_setspecific(pthread_key_t k, const void *v);

/* ---- synchronisation (workloads/libsim/mutex.c, cond.c, rwlock.c,
 * barrier.c, sem.c) ---- */
int futexsim_pthread_mutex_init(pthread_mutex_t *m,
				const pthread_mutexattr_t *a);
int futexsim_pthread_mutex_destroy(pthread_mutex_t *m);
int futexsim_pthread_mutex_lock(pthread_mutex_t *m);
int futexsim_pthread_mutex_trylock(pthread_mutex_t *m);
int futexsim_pthread_mutex_timedlock(pthread_mutex_t *m,
				     const struct timespec *abs);
int futexsim_pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk,
				     const struct timespec *abs);
int futexsim_pthread_mutex_unlock(pthread_mutex_t *m);
int futexsim_pthread_mutex_consistent(pthread_mutex_t *m);
int futexsim_pthread_mutexattr_init(pthread_mutexattr_t *a);
int futexsim_pthread_mutexattr_destroy(pthread_mutexattr_t *a);
int futexsim_pthread_mutexattr_settype(pthread_mutexattr_t *a, int type);
int futexsim_pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int p);
int futexsim_pthread_mutexattr_gettype(const pthread_mutexattr_t *a, int *type);
int futexsim_pthread_mutexattr_getprotocol(const pthread_mutexattr_t *a, int *p);
int futexsim_pthread_mutexattr_setprioceiling(pthread_mutexattr_t *a, int c);
int futexsim_pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *a,
					      int *c);
int futexsim_pthread_mutex_getprioceiling(const pthread_mutex_t *m, int *c);
int futexsim_pthread_mutex_setprioceiling(pthread_mutex_t *m, int c, int *old);
int futexsim_pthread_mutexattr_setpshared(pthread_mutexattr_t *a, int ps);
int futexsim_pthread_mutexattr_getpshared(const pthread_mutexattr_t *a, int *ps);
int futexsim_pthread_mutexattr_setrobust(pthread_mutexattr_t *a, int r);
int futexsim_pthread_mutexattr_getrobust(const pthread_mutexattr_t *a, int *r);
int futexsim_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a);
int futexsim_pthread_cond_destroy(pthread_cond_t *c);
int futexsim_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int futexsim_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
				    const struct timespec *abs);
int futexsim_pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m,
				    clockid_t clk, const struct timespec *abs);
int futexsim_pthread_cond_signal(pthread_cond_t *c);
int futexsim_pthread_cond_broadcast(pthread_cond_t *c);
int futexsim_pthread_condattr_init(pthread_condattr_t *a);
int futexsim_pthread_condattr_destroy(pthread_condattr_t *a);
int futexsim_pthread_condattr_setclock(pthread_condattr_t *a, clockid_t c);
int futexsim_pthread_condattr_getclock(const pthread_condattr_t *a,
				       clockid_t *c);
int futexsim_pthread_condattr_setpshared(pthread_condattr_t *a, int ps);
int futexsim_pthread_condattr_getpshared(const pthread_condattr_t *a, int *ps);
int futexsim_pthread_rwlockattr_init(pthread_rwlockattr_t *a);
int futexsim_pthread_rwlockattr_destroy(pthread_rwlockattr_t *a);
int futexsim_pthread_rwlockattr_setkind_np(pthread_rwlockattr_t *a, int k);
int futexsim_pthread_rwlockattr_getkind_np(const pthread_rwlockattr_t *a,
					   int *k);
int futexsim_pthread_rwlockattr_setpshared(pthread_rwlockattr_t *a, int ps);
int futexsim_pthread_rwlockattr_getpshared(const pthread_rwlockattr_t *a,
					   int *ps);
int futexsim_pthread_rwlock_init(pthread_rwlock_t *rw,
				 const pthread_rwlockattr_t *a);
int futexsim_pthread_rwlock_destroy(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_rdlock(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_wrlock(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_tryrdlock(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_trywrlock(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_unlock(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_timedrdlock(pthread_rwlock_t *rw,
					const struct timespec *abs);
int futexsim_pthread_rwlock_timedwrlock(pthread_rwlock_t *rw,
					const struct timespec *abs);
int futexsim_pthread_rwlock_clockrdlock(pthread_rwlock_t *rw, clockid_t clk,
					const struct timespec *abs);
int futexsim_pthread_rwlock_clockwrlock(pthread_rwlock_t *rw, clockid_t clk,
					const struct timespec *abs);
int futexsim_pthread_barrierattr_init(pthread_barrierattr_t *a);
int futexsim_pthread_barrierattr_destroy(pthread_barrierattr_t *a);
int futexsim_pthread_barrierattr_setpshared(pthread_barrierattr_t *a, int ps);
int futexsim_pthread_barrierattr_getpshared(const pthread_barrierattr_t *a,
					    int *ps);
int futexsim_pthread_barrier_init(pthread_barrier_t *b,
				  const pthread_barrierattr_t *a,
				  unsigned int count);
int futexsim_pthread_barrier_destroy(pthread_barrier_t *b);
int futexsim_pthread_barrier_wait(pthread_barrier_t *b);
int futexsim_pthread_spin_init(pthread_spinlock_t *s, int pshared);
int futexsim_pthread_spin_destroy(pthread_spinlock_t *s);
int futexsim_pthread_spin_lock(pthread_spinlock_t *s);
int futexsim_pthread_spin_trylock(pthread_spinlock_t *s);
int futexsim_pthread_spin_unlock(pthread_spinlock_t *s);
int futexsim_sem_init(sem_t *s, int pshared, unsigned int value);
int futexsim_sem_destroy(sem_t *s);
int futexsim_sem_wait(sem_t *s);
int futexsim_sem_trywait(sem_t *s);
int futexsim_sem_post(sem_t *s);
int futexsim_sem_getvalue(sem_t *s, int *v);
int futexsim_sem_timedwait(sem_t *s, const struct timespec *abs);
int futexsim_sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *abs);
sem_t *futexsim_sem_open(const char *name, int oflag, ...);
int futexsim_sem_close(sem_t *s);
int futexsim_sem_unlink(const char *name);

/* ---- C11 <threads.h> (workloads/libsim/c11.c) ---- */
int futexsim_thrd_create(thrd_t *thr, thrd_start_t fn, void *arg);
int futexsim_thrd_equal(thrd_t a, thrd_t b);
thrd_t futexsim_thrd_current(void);
int futexsim_thrd_sleep(const struct timespec *d, struct timespec *rem);
void futexsim_thrd_exit(int res) __attribute__((noreturn));
int futexsim_thrd_detach(thrd_t thr);
int futexsim_thrd_join(thrd_t thr, int *res);
void futexsim_thrd_yield(void);
int futexsim_mtx_init(mtx_t *m, int type);
int futexsim_mtx_lock(mtx_t *m);
int futexsim_mtx_timedlock(mtx_t *m, const struct timespec *abs);
int futexsim_mtx_trylock(mtx_t *m);
int futexsim_mtx_unlock(mtx_t *m);
void futexsim_mtx_destroy(mtx_t *m);
void futexsim_call_once(once_flag *flag, void (*fn)(void));
int futexsim_cnd_init(cnd_t *c);
int futexsim_cnd_signal(cnd_t *c);
int futexsim_cnd_broadcast(cnd_t *c);
int futexsim_cnd_wait(cnd_t *c, mtx_t *m);
int futexsim_cnd_timedwait(cnd_t *c, mtx_t *m, const struct timespec *abs);
void futexsim_cnd_destroy(cnd_t *c);
int futexsim_tss_create(tss_t *k, tss_dtor_t dtor);
void *futexsim_tss_get(tss_t k);
int futexsim_tss_set(tss_t k, void *v);
void futexsim_tss_delete(tss_t k);

/* ---- scheduling (workloads/libsim/sched.c) ---- */
int futexsim_pthread_setschedparam(pthread_t th, int policy,
				   const struct sched_param *p);
int futexsim_pthread_getschedparam(pthread_t th, int *policy,
				   struct sched_param *p);
int futexsim_pthread_setschedprio(pthread_t th, int prio);
int futexsim_pthread_attr_getschedpolicy(const pthread_attr_t *a, int *pol);
int futexsim_pthread_attr_getschedparam(const pthread_attr_t *a,
					struct sched_param *p);
int futexsim_pthread_attr_getinheritsched(const pthread_attr_t *a, int *inh);
int futexsim_sched_setscheduler(pid_t pid, int policy,
				const struct sched_param *p);
int futexsim_sched_getscheduler(pid_t pid);
int futexsim_sched_setparam(pid_t pid, const struct sched_param *p);
int futexsim_sched_getparam(pid_t pid, struct sched_param *p);
int futexsim_sched_get_priority_min(int policy);
int futexsim_sched_get_priority_max(int policy);
int futexsim_setpriority(int which, id_t who, int prio);
int futexsim_getpriority(int which, id_t who);
int futexsim_nice(int inc);

/* ---- system calls, time, memory, process (workloads/libsim/sys.c) ---- */
long futexsim_syscall(long nr, ...);
pid_t futexsim_gettid(void);
pid_t futexsim_getpid(void);
int futexsim_sched_yield(void);
int futexsim_clock_gettime(clockid_t clk, struct timespec *ts);
int futexsim_gettimeofday(struct timeval *tv, void *tz);
time_t futexsim_time(time_t *t);
int futexsim_nanosleep(const struct timespec *req, struct timespec *rem);
int futexsim_clock_nanosleep(clockid_t clk, int flags,
			     const struct timespec *req, struct timespec *rem);
int futexsim_usleep(useconds_t us);
unsigned int futexsim_sleep(unsigned int s);
void *futexsim_malloc(size_t n);
void *futexsim_calloc(size_t n, size_t size);
void *futexsim_realloc(void *p, size_t n);
void futexsim_free(void *p);
int futexsim_posix_memalign(void **p, size_t align, size_t n);
void *futexsim_aligned_alloc(size_t align, size_t n);
void *futexsim_mmap(void *addr, size_t len, int prot, int flags, int fd,
		    off_t off);
int futexsim_munmap(void *addr, size_t len);
long futexsim_sysconf(int name);
int futexsim_get_nprocs(void);		/* the CPUs in use, as sysconf()	*/
int futexsim_sched_getcpu(void);	/* the running task's CPU		*/
void *futexsim_memalign(size_t align, size_t n);
void *futexsim_reallocarray(void *p, size_t n, size_t size);
/* setvbuf(), setbuf() of stdout or stderr: nothing to do (the layer's
 * streams write whole lines); another stream ends the run. */
int futexsim_setvbuf(FILE *f, char *buf, int mode, size_t size);
void futexsim_setbuf(FILE *f, char *buf);
char *futexsim_getenv(const char *name);
/* exit() runs the atexit() and on_exit() handlers, newest first, on the
 * calling task, then ends the program; _exit() and _Exit() do not run
 * them.  Returning from main() is exit(), and so is the last thread's
 * end after main() called pthread_exit(). */
void futexsim_exit(int status) __attribute__((noreturn));
void futexsim__exit(int status) __attribute__((noreturn));

/* ---- cancellation (workloads/libsim/cancel.c) ----
 * pthread_cancel(), pthread_setcancelstate(), pthread_setcanceltype(),
 * pthread_testcancel() and the cleanup protocol of <pthread.h>'s
 * pthread_cleanup_push/pop (the __pthread_*_cancel* calls; the context
 * save __sigsetjmp() is redirected at link time to
 * futexsim___sigsetjmp_cancel(), workloads/libsim/setjmp_x86_64.S). */
int futexsim_pthread_cancel(pthread_t th);
int futexsim_pthread_setcancelstate(int state, int *old);
int futexsim_pthread_setcanceltype(int type, int *old);
void futexsim_pthread_testcancel(void);
void futexsim___pthread_register_cancel(__pthread_unwind_buf_t *buf);
void futexsim___pthread_unregister_cancel(__pthread_unwind_buf_t *buf);
void futexsim___pthread_register_cancel_defer(__pthread_unwind_buf_t *buf);
void futexsim___pthread_unregister_cancel_restore(__pthread_unwind_buf_t *buf);
void futexsim___pthread_unwind_next(__pthread_unwind_buf_t *buf)
	__attribute__((noreturn));
int futexsim_atexit(void (*fn)(void));
int futexsim_on_exit(void (*fn)(int, void *), void *arg);
void futexsim_abort(void) __attribute__((noreturn));
/* clock() - the program's CPU time (CLOCK_PROCESS_CPUTIME_ID) in
 * CLOCKS_PER_SEC units; 0 outside a simulated task. */
clock_t futexsim_clock(void);
/* futexsim_rdtsc - the time stamp counter: the running CPU's virtual
 * clock in nanoseconds (a 1 GHz TSC); __rdtsc(), __builtin_ia32_rdtsc().
 * futexsim_rdtscp also sets *@aux to IA32_TSC_AUX as Linux sets it (the
 * CPU's number, its node << 12).  A read costs 8 ns and is a scheduling
 * point. */
unsigned long long futexsim_rdtsc(void);
unsigned long long futexsim_rdtscp(unsigned int *aux);
char *futexsim_strdup(const char *s);
char *futexsim_strndup(const char *s, size_t n);
/* asprintf(), vasprintf(): the string is malloc()'d in the arena. */
int futexsim_asprintf(char **strp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int futexsim_vasprintf(char **strp, const char *fmt, va_list ap);
/* assert(): a failed assertion is a simulated failure naming it, its
 * file:line and function (exit status 3). */
void futexsim___assert_fail(const char *expr, const char *file,
			    unsigned int line, const char *func)
	__attribute__((noreturn));
void futexsim___assert_perror_fail(int errnum, const char *file,
				   unsigned int line, const char *func)
	__attribute__((noreturn));
void futexsim___assert(const char *expr, const char *file, int line)
	__attribute__((noreturn));

/* ---- signals (workloads/libsim/signal.c) ---- */
int futexsim_sigaction(int sig, const struct sigaction *act,
		       struct sigaction *old);
__sighandler_t futexsim_signal(int sig, __sighandler_t fn);
int futexsim_sigprocmask(int how, const sigset_t *set, sigset_t *old);
int futexsim_pthread_sigmask(int how, const sigset_t *set, sigset_t *old);
int futexsim_sigpending(sigset_t *set);
int futexsim_pthread_kill(pthread_t th, int sig);
int futexsim_raise(int sig);
int futexsim_kill(pid_t pid, int sig);
int futexsim_sigwait(const sigset_t *set, int *sig);
int futexsim_pause(void);
int futexsim_sigsuspend(const sigset_t *mask);

/* ---- timers (workloads/libsim/timer.c) ---- */
unsigned int futexsim_alarm(unsigned int sec);
int futexsim_getitimer(int which, struct itimerval *cur);
int futexsim_setitimer(int which, const struct itimerval *new,
		       struct itimerval *old);
int futexsim_timer_create(clockid_t clk, struct sigevent *sev, timer_t *id);
int futexsim_timer_settime(timer_t id, int flags, const struct itimerspec *new,
			   struct itimerspec *old);
int futexsim_timer_gettime(timer_t id, struct itimerspec *cur);
int futexsim_timer_getoverrun(timer_t id);
int futexsim_timer_delete(timer_t id);

/* ---- files the program creates (workloads/libsim/files.c) ---- */
int futexsim_open(const char *path, int flags, ...);
int futexsim_openat(int dirfd, const char *path, int flags, ...);
int futexsim_creat(const char *path, mode_t mode);
int futexsim_close(int fd);
int futexsim_ftruncate(int fd, off_t len);
int futexsim_unlink(const char *path);
int futexsim_remove(const char *path);

/* ---- SysV shared memory (workloads/libsim/shm.c) ---- */
int futexsim_shmget(key_t key, size_t size, int flags);
void *futexsim_shmat(int id, const void *addr, int flags);
int futexsim_shmdt(const void *addr);
int futexsim_shmctl(int id, int cmd, struct shmid_ds *buf);

/* ---- random numbers (workloads/libsim/rand.c) ---- */
ssize_t futexsim_getrandom(void *buf, size_t len, unsigned int flags);
int futexsim_getentropy(void *buf, size_t len);
int futexsim_rand(void);
void futexsim_srand(unsigned int seed);
long futexsim_random(void);
void futexsim_srandom(unsigned int seed);
double futexsim_drand48(void);
long futexsim_lrand48(void);
long futexsim_mrand48(void);
void futexsim_srand48(long seed);
uint32_t futexsim_arc4random(void);
uint32_t futexsim_arc4random_uniform(uint32_t bound);
void futexsim_arc4random_buf(void *buf, size_t len);
/* futexsim_unsupported - end the run with a failure report: @what is
 * not simulated (futexsim_unsupported_ptr() where the call returns a
 * pointer).  The unsupported calls below reach it. */
long futexsim_unsupported(const char *what) __attribute__((noreturn));
void *futexsim_unsupported_ptr(const char *what) __attribute__((noreturn));

/* ---- output (workloads/libsim/output.c) ---- */
int futexsim_printf(const char *fmt, ...) FUTEXSIM_PRINTF(1, 2);
int futexsim_fprintf(FILE *f, const char *fmt, ...) FUTEXSIM_PRINTF(2, 3);
int futexsim_dprintf(int fd, const char *fmt, ...) FUTEXSIM_PRINTF(2, 3);
int futexsim_vprintf(const char *fmt, va_list ap);
int futexsim_vfprintf(FILE *f, const char *fmt, va_list ap);
int futexsim_puts(const char *s);
int futexsim_fputs(const char *s, FILE *f);
int futexsim_putchar(int c);
int futexsim_fputc(int c, FILE *f);
size_t futexsim_fwrite(const void *p, size_t size, size_t n, FILE *f);
int futexsim_fflush(FILE *f);
void futexsim_perror(const char *s);
ssize_t futexsim_write(int fd, const void *p, size_t n);
void futexsim_error(int status, int errnum, const char *fmt, ...)
	FUTEXSIM_PRINTF(3, 4);
int futexsim_dup2(int oldfd, int newfd);	/* 1 and 2 only		*/

/*
 * The calls the layer refuses at run time, with the reason the failure
 * report gives: FUTEXSIM_UNSUPPORTED(X) expands X(name, why) for each.
 */
#define FUTEXSIM_NO_PROC	"processes are not simulated"
#define FUTEXSIM_NO_FILES	"files are not simulated (stdout and stderr only)"
#define FUTEXSIM_UNSUPPORTED(X)						\
	X(fork, FUTEXSIM_NO_PROC " (one process, its threads)")	\
	X(vfork, FUTEXSIM_NO_PROC)					\
	X(system, FUTEXSIM_NO_PROC)					\
	X(execv, FUTEXSIM_NO_PROC)					\
	X(execvp, FUTEXSIM_NO_PROC)					\
	X(execve, FUTEXSIM_NO_PROC)					\
	X(waitpid, FUTEXSIM_NO_PROC)					\
	X(read, "input is not simulated")				\
	X(pipe, "pipes are not simulated")				\
	X(socket, "sockets are not simulated")

#ifndef FUTEXSIM_NO_RENAME

/* Each function, its calls and its address, to the layer's (see above). */
#define FUTEXSIM_AS(name)	extern __typeof__(name) name __asm__("futexsim_" #name)
#define FUTEXSIM_AS_TO(name, to) extern __typeof__(name) name __asm__(#to)

FUTEXSIM_AS(sigaction);
FUTEXSIM_AS(signal);
FUTEXSIM_AS(sigprocmask);
FUTEXSIM_AS(pthread_sigmask);
FUTEXSIM_AS(sigpending);
FUTEXSIM_AS(pthread_kill);
FUTEXSIM_AS(raise);
FUTEXSIM_AS(kill);
FUTEXSIM_AS(sigwait);
FUTEXSIM_AS(pause);
FUTEXSIM_AS(sigsuspend);
FUTEXSIM_AS(alarm);
FUTEXSIM_AS(getitimer);
FUTEXSIM_AS(setitimer);
FUTEXSIM_AS(timer_create);
FUTEXSIM_AS(timer_settime);
FUTEXSIM_AS(timer_gettime);
FUTEXSIM_AS(timer_getoverrun);
FUTEXSIM_AS(timer_delete);
FUTEXSIM_AS(shmget);
FUTEXSIM_AS(shmat);
FUTEXSIM_AS(shmdt);
FUTEXSIM_AS(shmctl);
FUTEXSIM_AS(pthread_create);
FUTEXSIM_AS(pthread_join);
FUTEXSIM_AS(pthread_exit);
FUTEXSIM_AS(pthread_self);
FUTEXSIM_AS(pthread_equal);
FUTEXSIM_AS(pthread_detach);
FUTEXSIM_AS(pthread_cancel);
FUTEXSIM_AS(pthread_setcancelstate);
FUTEXSIM_AS(pthread_setcanceltype);
FUTEXSIM_AS(pthread_testcancel);
FUTEXSIM_AS(__pthread_register_cancel);
FUTEXSIM_AS(__pthread_unregister_cancel);
FUTEXSIM_AS(__pthread_register_cancel_defer);
FUTEXSIM_AS(__pthread_unregister_cancel_restore);
FUTEXSIM_AS(__pthread_unwind_next);
FUTEXSIM_AS(pthread_attr_init);
FUTEXSIM_AS(pthread_attr_destroy);
FUTEXSIM_AS(pthread_attr_setdetachstate);
FUTEXSIM_AS(pthread_attr_setstacksize);
FUTEXSIM_AS(pthread_attr_setinheritsched);
FUTEXSIM_AS(pthread_attr_setschedpolicy);
FUTEXSIM_AS(pthread_attr_setschedparam);
FUTEXSIM_AS(pthread_attr_getschedpolicy);
FUTEXSIM_AS(pthread_attr_getschedparam);
FUTEXSIM_AS(pthread_attr_getinheritsched);
FUTEXSIM_AS(pthread_setschedparam);
FUTEXSIM_AS(pthread_mutexattr_setprioceiling);
FUTEXSIM_AS(pthread_mutexattr_getprioceiling);
FUTEXSIM_AS(pthread_mutex_getprioceiling);
FUTEXSIM_AS(pthread_mutex_setprioceiling);
FUTEXSIM_AS(pthread_getschedparam);
FUTEXSIM_AS(pthread_setschedprio);
FUTEXSIM_AS(sched_setscheduler);
FUTEXSIM_AS(sched_getscheduler);
FUTEXSIM_AS(sched_setparam);
FUTEXSIM_AS(sched_getparam);
FUTEXSIM_AS(sched_get_priority_min);
FUTEXSIM_AS(sched_get_priority_max);
FUTEXSIM_AS(setpriority);
FUTEXSIM_AS(getpriority);
FUTEXSIM_AS(nice);
FUTEXSIM_AS(pthread_once);
FUTEXSIM_AS(pthread_key_create);
FUTEXSIM_AS(pthread_key_delete);
FUTEXSIM_AS(pthread_getspecific);
FUTEXSIM_AS(pthread_setspecific);
FUTEXSIM_AS(pthread_mutex_init);
FUTEXSIM_AS(pthread_mutex_destroy);
FUTEXSIM_AS(pthread_mutex_lock);
FUTEXSIM_AS(pthread_mutex_trylock);
FUTEXSIM_AS(pthread_mutex_timedlock);
FUTEXSIM_AS(pthread_mutex_unlock);
FUTEXSIM_AS(pthread_mutexattr_init);
FUTEXSIM_AS(pthread_mutexattr_destroy);
FUTEXSIM_AS(pthread_mutexattr_settype);
FUTEXSIM_AS(pthread_mutexattr_setprotocol);
FUTEXSIM_AS(pthread_cond_init);
FUTEXSIM_AS(pthread_cond_destroy);
FUTEXSIM_AS(pthread_cond_wait);
FUTEXSIM_AS(pthread_cond_timedwait);
FUTEXSIM_AS(pthread_cond_signal);
FUTEXSIM_AS(pthread_cond_broadcast);
FUTEXSIM_AS(pthread_condattr_init);
FUTEXSIM_AS(pthread_condattr_destroy);
FUTEXSIM_AS(pthread_condattr_setclock);
FUTEXSIM_AS(pthread_rwlock_init);
FUTEXSIM_AS(pthread_rwlock_destroy);
FUTEXSIM_AS(pthread_rwlock_rdlock);
FUTEXSIM_AS(pthread_rwlock_wrlock);
FUTEXSIM_AS(pthread_rwlock_tryrdlock);
FUTEXSIM_AS(pthread_rwlock_trywrlock);
FUTEXSIM_AS(pthread_rwlock_unlock);
FUTEXSIM_AS(pthread_barrier_init);
FUTEXSIM_AS(pthread_barrier_destroy);
FUTEXSIM_AS(pthread_barrier_wait);
FUTEXSIM_AS(pthread_spin_init);
FUTEXSIM_AS(pthread_spin_destroy);
FUTEXSIM_AS(pthread_spin_lock);
FUTEXSIM_AS(pthread_spin_trylock);
FUTEXSIM_AS(pthread_spin_unlock);
FUTEXSIM_AS(sem_init);
FUTEXSIM_AS(sem_destroy);
FUTEXSIM_AS(sem_wait);
FUTEXSIM_AS(sem_trywait);
FUTEXSIM_AS(sem_post);
FUTEXSIM_AS(sem_getvalue);
/* the calls above with no counterpart in the first list */
FUTEXSIM_AS(pthread_tryjoin_np);
FUTEXSIM_AS(pthread_timedjoin_np);
FUTEXSIM_AS(pthread_clockjoin_np);
FUTEXSIM_AS(pthread_mutex_clocklock);
FUTEXSIM_AS(pthread_mutex_consistent);
FUTEXSIM_AS(pthread_mutexattr_gettype);
FUTEXSIM_AS(pthread_mutexattr_getprotocol);
FUTEXSIM_AS(pthread_mutexattr_setpshared);
FUTEXSIM_AS(pthread_mutexattr_getpshared);
FUTEXSIM_AS(pthread_mutexattr_setrobust);
FUTEXSIM_AS(pthread_mutexattr_getrobust);
FUTEXSIM_AS(pthread_cond_clockwait);
FUTEXSIM_AS(pthread_condattr_getclock);
FUTEXSIM_AS(pthread_condattr_setpshared);
FUTEXSIM_AS(pthread_condattr_getpshared);
FUTEXSIM_AS(pthread_rwlockattr_init);
FUTEXSIM_AS(pthread_rwlockattr_destroy);
FUTEXSIM_AS(pthread_rwlockattr_setkind_np);
FUTEXSIM_AS(pthread_rwlockattr_getkind_np);
FUTEXSIM_AS(pthread_rwlockattr_setpshared);
FUTEXSIM_AS(pthread_rwlockattr_getpshared);
FUTEXSIM_AS(pthread_rwlock_timedrdlock);
FUTEXSIM_AS(pthread_rwlock_timedwrlock);
FUTEXSIM_AS(pthread_rwlock_clockrdlock);
FUTEXSIM_AS(pthread_rwlock_clockwrlock);
FUTEXSIM_AS(pthread_barrierattr_init);
FUTEXSIM_AS(pthread_barrierattr_destroy);
FUTEXSIM_AS(pthread_barrierattr_setpshared);
FUTEXSIM_AS(pthread_barrierattr_getpshared);
FUTEXSIM_AS(sem_timedwait);
FUTEXSIM_AS(sem_clockwait);
FUTEXSIM_AS(sem_open);
FUTEXSIM_AS(sem_close);
FUTEXSIM_AS(sem_unlink);
FUTEXSIM_AS(thrd_create);
FUTEXSIM_AS(thrd_equal);
FUTEXSIM_AS(thrd_current);
FUTEXSIM_AS(thrd_sleep);
FUTEXSIM_AS(thrd_exit);
FUTEXSIM_AS(thrd_detach);
FUTEXSIM_AS(thrd_join);
FUTEXSIM_AS(thrd_yield);
FUTEXSIM_AS(mtx_init);
FUTEXSIM_AS(mtx_lock);
FUTEXSIM_AS(mtx_timedlock);
FUTEXSIM_AS(mtx_trylock);
FUTEXSIM_AS(mtx_unlock);
FUTEXSIM_AS(mtx_destroy);
FUTEXSIM_AS(call_once);
FUTEXSIM_AS(cnd_init);
FUTEXSIM_AS(cnd_signal);
FUTEXSIM_AS(cnd_broadcast);
FUTEXSIM_AS(cnd_wait);
FUTEXSIM_AS(cnd_timedwait);
FUTEXSIM_AS(cnd_destroy);
FUTEXSIM_AS(tss_create);
FUTEXSIM_AS(tss_get);
FUTEXSIM_AS(tss_set);
FUTEXSIM_AS(tss_delete);
FUTEXSIM_AS(syscall);
FUTEXSIM_AS(gettid);
FUTEXSIM_AS(getpid);
FUTEXSIM_AS(sched_yield);
FUTEXSIM_AS(clock_gettime);
FUTEXSIM_AS(gettimeofday);
FUTEXSIM_AS(time);
FUTEXSIM_AS(nanosleep);
FUTEXSIM_AS(clock_nanosleep);
FUTEXSIM_AS(usleep);
FUTEXSIM_AS(sleep);
FUTEXSIM_AS(malloc);
FUTEXSIM_AS(calloc);
FUTEXSIM_AS(realloc);
FUTEXSIM_AS(free);
FUTEXSIM_AS(posix_memalign);
FUTEXSIM_AS(aligned_alloc);
#ifdef __USE_FILE_OFFSET64	/* mmap is already glibc's mmap64 */
#define mmap(...)			futexsim_mmap(__VA_ARGS__)
#else
FUTEXSIM_AS(mmap);
#endif
#ifdef __USE_LARGEFILE64
FUTEXSIM_AS_TO(mmap64, futexsim_mmap);
#endif
FUTEXSIM_AS(munmap);
FUTEXSIM_AS(sysconf);
#ifdef __SC_THREAD_STACK_MIN_VALUE	/* PTHREAD_STACK_MIN calls it */
FUTEXSIM_AS_TO(__sysconf, futexsim_sysconf);
#endif
FUTEXSIM_AS(get_nprocs);
FUTEXSIM_AS_TO(get_nprocs_conf, futexsim_get_nprocs);
FUTEXSIM_AS(sched_getcpu);
FUTEXSIM_AS(memalign);
FUTEXSIM_AS(reallocarray);
FUTEXSIM_AS(setvbuf);
FUTEXSIM_AS(setbuf);
FUTEXSIM_AS(getenv);
FUTEXSIM_AS(exit);
FUTEXSIM_AS_TO(_exit, futexsim__exit);
FUTEXSIM_AS_TO(_Exit, futexsim__exit);
FUTEXSIM_AS(atexit);
FUTEXSIM_AS(on_exit);
FUTEXSIM_AS(abort);
FUTEXSIM_AS(clock);
FUTEXSIM_AS(strdup);
FUTEXSIM_AS(strndup);
FUTEXSIM_AS(asprintf);
FUTEXSIM_AS(vasprintf);
FUTEXSIM_AS(__assert_fail);
FUTEXSIM_AS(__assert_perror_fail);
FUTEXSIM_AS(__assert);

FUTEXSIM_AS(getrandom);
FUTEXSIM_AS(getentropy);
FUTEXSIM_AS(rand);
FUTEXSIM_AS(srand);
FUTEXSIM_AS(random);
FUTEXSIM_AS(srandom);
FUTEXSIM_AS(drand48);
FUTEXSIM_AS(lrand48);
FUTEXSIM_AS(mrand48);
FUTEXSIM_AS(srand48);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 36)
FUTEXSIM_AS(arc4random);
FUTEXSIM_AS(arc4random_uniform);
FUTEXSIM_AS(arc4random_buf);
#endif
/* stdout and stderr are the program's variables (output.c): they name
 * the host's streams at first, and what the program assigns them stays
 * the program's, run after run as from its start */
FUTEXSIM_AS(stdout);
FUTEXSIM_AS(stderr);
FUTEXSIM_AS(printf);
FUTEXSIM_AS(fprintf);
FUTEXSIM_AS(dprintf);
FUTEXSIM_AS(vprintf);
FUTEXSIM_AS(vfprintf);
FUTEXSIM_AS(puts);
FUTEXSIM_AS(fputs);
FUTEXSIM_AS(putchar);
FUTEXSIM_AS(fputc);
FUTEXSIM_AS_TO(putc, futexsim_fputc);
FUTEXSIM_AS(fwrite);
FUTEXSIM_AS(fflush);
FUTEXSIM_AS(perror);
FUTEXSIM_AS(write);
#if defined __extern_always_inline && defined __va_arg_pack
/* <bits/error.h>'s inline error() calls error under other C names
 * that already have an assembler name: the calls are renamed instead */
#define error(...)	futexsim_error(__VA_ARGS__)
#else
FUTEXSIM_AS(error);
#endif
FUTEXSIM_AS(dup2);

/* The time stamp counter: gcc's __rdtsc() and __rdtscp() (ia32intrin.h,
 * included after this header) are inline functions around these
 * builtins; clang's are builtins themselves. */
#define __builtin_ia32_rdtsc()		futexsim_rdtsc()
#define __builtin_ia32_rdtscp(aux)	futexsim_rdtscp(aux)
#ifdef __clang__
#define __rdtsc()			futexsim_rdtsc()
#define __builtin_readcyclecounter()	futexsim_rdtsc()
#endif

/* Not simulated: each call, and a call through its address, ends the
 * run with a report naming it (workloads/libsim/unsupported.c).  They
 * are noreturn, so the code after such a call is gone from the object,
 * with the calls it makes (the build does not refuse those).  Under
 * _FILE_OFFSET_BITS=64 glibc has given the file calls assembler names
 * already: those are macros then, which name calls only. */
#define FUTEXSIM__NO(name, why)	extern __typeof__(name) name	\
	__asm__("futexsim_no_" #name) __attribute__((noreturn));
FUTEXSIM_UNSUPPORTED(FUTEXSIM__NO)
#define FUTEXSIM_NO(name, why)	futexsim_unsupported(#name "(): " why)
#define FUTEXSIM_NO_PTR(name, why) futexsim_unsupported_ptr(#name "(): " why)
/* The files the program creates (workloads/libsim/files.c); under
 * _FILE_OFFSET_BITS=64 glibc has given these assembler names already:
 * macros then. */
#ifndef __USE_FILE_OFFSET64
FUTEXSIM_AS(open);
FUTEXSIM_AS(openat);
FUTEXSIM_AS(creat);
FUTEXSIM_AS(ftruncate);
#else
#define open(...)	futexsim_open(__VA_ARGS__)
#define openat(...)	futexsim_openat(__VA_ARGS__)
#define creat(...)	futexsim_creat(__VA_ARGS__)
#define ftruncate(...)	futexsim_ftruncate(__VA_ARGS__)
#endif
FUTEXSIM_AS(close);
FUTEXSIM_AS(unlink);
FUTEXSIM_AS(remove);
/* glibc declares fopen() malloc, which noreturn may not join */
#define fopen(...)	FUTEXSIM_NO_PTR(fopen, FUTEXSIM_NO_FILES)

#endif /* FUTEXSIM_NO_RENAME */
#endif /* FUTEXSIM_H */
