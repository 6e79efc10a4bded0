/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/futexsim.h - the user-space ABI of futexsim: force-
 * included (gcc -include) before every translation unit of a user program
 * by `futexsim build`.
 *
 * Stage: user program -> this layer -> futex(2) boundary (sim/syscall/syscall.h)
 * -> kernel -> sched -> machine.  The program's own code is compiled
 * unmodified; this header first includes the libc headers whose functions
 * it takes over, then renames those functions, by the preprocessor, to
 * the futexsim_* functions of workloads/libsim/, which run them on the
 * simulated machine.  Nothing outside the program's own translation
 * units is renamed: libc and the simulator keep the real functions.
 *
 * What the renaming covers (docs/programs.md has the full list):
 *   threads    pthread_create/join/exit/self/detach/equal, attributes,
 *              once, keys; mutexes (the scenario's user lock), condition
 *              variables, reader-writer locks, barriers, spinlocks,
 *              semaphores
 *   syscalls   syscall(SYS_futex | SYS_futex_waitv | SYS_gettid | ...),
 *              gettid(), sched_yield()
 *   time       clock_gettime(), gettimeofday(), time(), nanosleep(),
 *              clock_nanosleep(), usleep(), sleep(): the virtual clock
 *   memory     malloc() and friends, anonymous private mmap(): the
 *              fixed-address arena
 *   output     printf() and friends on stdout and stderr: captured per
 *              task, one whole line at a time
 *   atomics    the __atomic and __sync builtins (and so C11 atomic_*()):
 *              each is a scheduling point with a cache-line cost
 *              (workloads/libsim/futexsim_atomic.h)
 *   process    exit(), _exit(), abort(), getpid(), getenv() (empty
 *              environment), sysconf(_SC_NPROCESSORS_*)
 * Calls the simulator does not model (fork, signals, files, sockets,
 * shared memory) are renamed to functions that end the run with a
 * failure report naming the call (exit status 3).
 *
 * Contract: same program + same scenario + same seed => same output,
 * byte for byte.  Limits: __thread variables are shared by all tasks
 * (one host thread runs them all); plain loads and stores, and operators
 * on _Atomic objects, are not scheduling points (a busy-wait on a plain
 * variable never lets another task run: use an atomic builtin).
 */
#ifndef FUTEXSIM_H
#define FUTEXSIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workloads/libsim/futexsim_atomic.h"

#define FUTEXSIM_PRINTF(f, a)	__attribute__((format(printf, f, a)))

/* ---- threads (workloads/libsim/thread.c) ---- */
int futexsim_pthread_create(pthread_t *th, const pthread_attr_t *attr,
			    void *(*fn)(void *), void *arg);
int futexsim_pthread_join(pthread_t th, void **ret);
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

/* ---- synchronisation (workloads/libsim/sync.c) ---- */
int futexsim_pthread_mutex_init(pthread_mutex_t *m,
				const pthread_mutexattr_t *a);
int futexsim_pthread_mutex_destroy(pthread_mutex_t *m);
int futexsim_pthread_mutex_lock(pthread_mutex_t *m);
int futexsim_pthread_mutex_trylock(pthread_mutex_t *m);
int futexsim_pthread_mutex_timedlock(pthread_mutex_t *m,
				     const struct timespec *abs);
int futexsim_pthread_mutex_unlock(pthread_mutex_t *m);
int futexsim_pthread_mutexattr_init(pthread_mutexattr_t *a);
int futexsim_pthread_mutexattr_destroy(pthread_mutexattr_t *a);
int futexsim_pthread_mutexattr_settype(pthread_mutexattr_t *a, int type);
int futexsim_pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int p);
int futexsim_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a);
int futexsim_pthread_cond_destroy(pthread_cond_t *c);
int futexsim_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int futexsim_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
				    const struct timespec *abs);
int futexsim_pthread_cond_signal(pthread_cond_t *c);
int futexsim_pthread_cond_broadcast(pthread_cond_t *c);
int futexsim_pthread_condattr_init(pthread_condattr_t *a);
int futexsim_pthread_condattr_destroy(pthread_condattr_t *a);
int futexsim_pthread_condattr_setclock(pthread_condattr_t *a, clockid_t c);
int futexsim_pthread_rwlock_init(pthread_rwlock_t *rw,
				 const pthread_rwlockattr_t *a);
int futexsim_pthread_rwlock_destroy(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_rdlock(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_wrlock(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_tryrdlock(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_trywrlock(pthread_rwlock_t *rw);
int futexsim_pthread_rwlock_unlock(pthread_rwlock_t *rw);
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
char *futexsim_getenv(const char *name);
void futexsim_exit(int status) __attribute__((noreturn));
void futexsim_abort(void) __attribute__((noreturn));
/* futexsim_unsupported - end the run with a failure report: @what is
 * not simulated.  The renamed unsupported calls below expand to it (to
 * futexsim_unsupported_ptr() where the call returns a pointer). */
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

#ifndef FUTEXSIM_NO_RENAME

#define pthread_create			futexsim_pthread_create
#define pthread_join			futexsim_pthread_join
#define pthread_exit			futexsim_pthread_exit
#define pthread_self			futexsim_pthread_self
#define pthread_equal			futexsim_pthread_equal
#define pthread_detach			futexsim_pthread_detach
#define pthread_attr_init		futexsim_pthread_attr_init
#define pthread_attr_destroy		futexsim_pthread_attr_destroy
#define pthread_attr_setdetachstate	futexsim_pthread_attr_setdetachstate
#define pthread_attr_setstacksize	futexsim_pthread_attr_setstacksize
#define pthread_attr_setinheritsched	futexsim_pthread_attr_setinheritsched
#define pthread_attr_setschedpolicy	futexsim_pthread_attr_setschedpolicy
#define pthread_attr_setschedparam	futexsim_pthread_attr_setschedparam
#define pthread_once			futexsim_pthread_once
#define pthread_key_create		futexsim_pthread_key_create
#define pthread_key_delete		futexsim_pthread_key_delete
#define pthread_getspecific		futexsim_pthread_getspecific
#define pthread_setspecific		futexsim_pthread_setspecific
#define pthread_mutex_init		futexsim_pthread_mutex_init
#define pthread_mutex_destroy		futexsim_pthread_mutex_destroy
#define pthread_mutex_lock		futexsim_pthread_mutex_lock
#define pthread_mutex_trylock		futexsim_pthread_mutex_trylock
#define pthread_mutex_timedlock		futexsim_pthread_mutex_timedlock
#define pthread_mutex_unlock		futexsim_pthread_mutex_unlock
#define pthread_mutexattr_init		futexsim_pthread_mutexattr_init
#define pthread_mutexattr_destroy	futexsim_pthread_mutexattr_destroy
#define pthread_mutexattr_settype	futexsim_pthread_mutexattr_settype
#define pthread_mutexattr_setprotocol	futexsim_pthread_mutexattr_setprotocol
#define pthread_cond_init		futexsim_pthread_cond_init
#define pthread_cond_destroy		futexsim_pthread_cond_destroy
#define pthread_cond_wait		futexsim_pthread_cond_wait
#define pthread_cond_timedwait		futexsim_pthread_cond_timedwait
#define pthread_cond_signal		futexsim_pthread_cond_signal
#define pthread_cond_broadcast		futexsim_pthread_cond_broadcast
#define pthread_condattr_init		futexsim_pthread_condattr_init
#define pthread_condattr_destroy	futexsim_pthread_condattr_destroy
#define pthread_condattr_setclock	futexsim_pthread_condattr_setclock
#define pthread_rwlock_init		futexsim_pthread_rwlock_init
#define pthread_rwlock_destroy		futexsim_pthread_rwlock_destroy
#define pthread_rwlock_rdlock		futexsim_pthread_rwlock_rdlock
#define pthread_rwlock_wrlock		futexsim_pthread_rwlock_wrlock
#define pthread_rwlock_tryrdlock	futexsim_pthread_rwlock_tryrdlock
#define pthread_rwlock_trywrlock	futexsim_pthread_rwlock_trywrlock
#define pthread_rwlock_unlock		futexsim_pthread_rwlock_unlock
#define pthread_barrier_init		futexsim_pthread_barrier_init
#define pthread_barrier_destroy		futexsim_pthread_barrier_destroy
#define pthread_barrier_wait		futexsim_pthread_barrier_wait
#define pthread_spin_init		futexsim_pthread_spin_init
#define pthread_spin_destroy		futexsim_pthread_spin_destroy
#define pthread_spin_lock		futexsim_pthread_spin_lock
#define pthread_spin_trylock		futexsim_pthread_spin_trylock
#define pthread_spin_unlock		futexsim_pthread_spin_unlock
#define sem_init			futexsim_sem_init
#define sem_destroy			futexsim_sem_destroy
#define sem_wait			futexsim_sem_wait
#define sem_trywait			futexsim_sem_trywait
#define sem_post			futexsim_sem_post
#define sem_getvalue			futexsim_sem_getvalue

#define syscall				futexsim_syscall
#define gettid				futexsim_gettid
#define getpid				futexsim_getpid
#define sched_yield			futexsim_sched_yield
#define clock_gettime			futexsim_clock_gettime
#define gettimeofday			futexsim_gettimeofday
#define time(t)				futexsim_time(t)
#define nanosleep			futexsim_nanosleep
#define clock_nanosleep			futexsim_clock_nanosleep
#define usleep				futexsim_usleep
#define sleep(s)			futexsim_sleep(s)
#define malloc				futexsim_malloc
#define calloc				futexsim_calloc
#define realloc				futexsim_realloc
#define free				futexsim_free
#define posix_memalign			futexsim_posix_memalign
#define aligned_alloc			futexsim_aligned_alloc
#define mmap				futexsim_mmap
#define munmap				futexsim_munmap
#define sysconf				futexsim_sysconf
#define getenv				futexsim_getenv
#define exit(s)				futexsim_exit(s)
#define _exit(s)			futexsim_exit(s)
#define abort()				futexsim_abort()

#define printf				futexsim_printf
#define fprintf				futexsim_fprintf
#define dprintf				futexsim_dprintf
#define vprintf				futexsim_vprintf
#define vfprintf			futexsim_vfprintf
#define puts				futexsim_puts
#define fputs				futexsim_fputs
#define putchar				futexsim_putchar
#define fputc				futexsim_fputc
#define putc				futexsim_fputc
#define fwrite				futexsim_fwrite
#define fflush				futexsim_fflush
#define perror				futexsim_perror
#define write				futexsim_write

/* Not simulated: each call ends the run with a report naming it. */
#define FUTEXSIM_NO(name, why)	futexsim_unsupported(#name "(): " why)
#define FUTEXSIM_NO_PTR(name, why) futexsim_unsupported_ptr(#name "(): " why)
#define fork(...)		FUTEXSIM_NO(fork, "processes are not simulated (one process, its threads)")
#define vfork(...)		FUTEXSIM_NO(vfork, "processes are not simulated")
#define system(...)		FUTEXSIM_NO(system, "processes are not simulated")
#define execv(...)		FUTEXSIM_NO(execv, "processes are not simulated")
#define execvp(...)		FUTEXSIM_NO(execvp, "processes are not simulated")
#define execve(...)		FUTEXSIM_NO(execve, "processes are not simulated")
#define waitpid(...)		FUTEXSIM_NO(waitpid, "processes are not simulated")
#define kill(...)		FUTEXSIM_NO(kill, "signals are not simulated")
#define raise(...)		FUTEXSIM_NO(raise, "signals are not simulated")
#define signal(...)		FUTEXSIM_NO_PTR(signal, "signals are not simulated")
#define sigaction(...)		FUTEXSIM_NO(sigaction, "signals are not simulated")
#define sigprocmask(...)	FUTEXSIM_NO(sigprocmask, "signals are not simulated")
#define pthread_kill(...)	FUTEXSIM_NO(pthread_kill, "signals are not simulated")
#define pthread_sigmask(...)	FUTEXSIM_NO(pthread_sigmask, "signals are not simulated")
#define pthread_cancel(...)	FUTEXSIM_NO(pthread_cancel, "cancellation (a signal) is not simulated")
#define alarm(...)		FUTEXSIM_NO(alarm, "signals are not simulated")
#define open(...)		FUTEXSIM_NO(open, "files are not simulated (stdout and stderr only)")
#define openat(...)		FUTEXSIM_NO(openat, "files are not simulated (stdout and stderr only)")
#define creat(...)		FUTEXSIM_NO(creat, "files are not simulated (stdout and stderr only)")
#define fopen(...)		FUTEXSIM_NO_PTR(fopen, "files are not simulated (stdout and stderr only)")
#define read(...)		FUTEXSIM_NO(read, "input is not simulated")
#define pipe(...)		FUTEXSIM_NO(pipe, "pipes are not simulated")
#define socket(...)		FUTEXSIM_NO(socket, "sockets are not simulated")
#define shmget(...)		FUTEXSIM_NO(shmget, "shared memory segments are not simulated (one process; a futex in one needs an inode key)")
#define shmat(...)		FUTEXSIM_NO_PTR(shmat, "shared memory segments are not simulated")

#endif /* FUTEXSIM_NO_RENAME */
#endif /* FUTEXSIM_H */
