/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/cancel.c - thread cancellation of a simulated program:
 * pthread_cancel(), its state and type, the cancellation points, and
 * glibc's C cleanup protocol.
 *
 * Stage: user program -> futex(2).  Called by the program through
 * workloads/libsim/futexsim.h (and the pthread_cleanup_push/pop macros of
 * glibc's <pthread.h>), and by the layer's cancellation points; calls
 * the kernel side (ksim_signal_cancel(), sched/kapi.c) to end the
 * target's interruptible sleep as glibc's SIGCANCEL would.
 *
 * A cancel of a thread that has cancellation enabled marks it pending
 * and, as a signal, ends a FUTEX_WAIT or nanosleep it sleeps in: the real
 * futex_wait() sees signal_pending() and returns -ERESTARTSYS, which the
 * syscall boundary gives the layer as EINTR.  The thread acts on the
 * cancel at a cancellation point (pthread_join(), pthread_cond_*wait(),
 * sem_*wait(), sleep(), usleep(), nanosleep(), clock_nanosleep(),
 * pthread_testcancel(), and the first two at their start as well as
 * after the wait); elsewhere (a mutex's wait) the wait goes on.  An
 * asynchronous cancel acts at once when it is the thread's own, or when
 * the type is set to asynchronous with a cancel pending; a cancel of
 * another thread of asynchronous type acts at the target's next atomic
 * or return from its own system call (wl_prog_cancel_async(), where a
 * signal would be delivered), cancellation point or interrupted wait
 * (a program's plain code between scheduling points cannot be stopped:
 * it is not simulated as such).
 *
 * The cleanup protocol of <pthread.h> (C, without exceptions):
 * pthread_cleanup_push() saves a context with __sigsetjmp_cancel() in a
 * __pthread_unwind_buf_t on the caller's stack and registers it
 * (__pthread_register_cancel()); pop unregisters it.  Acting on a
 * cancel, or pthread_exit(), jumps to the newest buffer, whose code runs
 * the handler and calls __pthread_unwind_next(), which jumps to the next;
 * after the last the thread ends (PTHREAD_CANCELED for a cancel).  The
 * buffers are chained through their first spare pointer (__pad[0]), the
 * context is the host's __sigsetjmp() with no signal mask
 * (workloads/libsim/setjmp_x86_64.S): every jump stays on the thread's
 * own stack.
 */
#include <errno.h>
#include <pthread.h>

#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "sim/machine/hooks.h"

static struct wl_prog_thread *self_or_fail(const char *call)
{
	struct wl_prog_thread *t = wl_prog_self();

	if (!t)
		wl_prog_fail(call);
	return t;
}

/* The host's _longjmp() over the cleanup buffer's context, which is the
 * common prefix of a jmp_buf that _setjmp() wrote (no signal mask). */
extern void cancel_longjmp(void *env, int val) __asm__("_longjmp")
	__attribute__((noreturn));

/* The jump to @b: its handler runs, then __pthread_unwind_next(). */
static void __attribute__((noreturn)) jump_to(__pthread_unwind_buf_t *b)
{
	cancel_longjmp(b->__cancel_jmp_buf, 1);
}

void wl_prog_unwind(void *ret)
{
	struct wl_prog_thread *t = wl_prog_self();
	__pthread_unwind_buf_t *b = t->cleanup;

	t->ret = ret;
	t->cancel_off = 1;	/* no second cancel while unwinding */
	if (b) {
		t->cleanup = b->__pad[0];
		jump_to(b);
	}
	wl_prog_thread_end(t, ret);
}

void futexsim___pthread_unwind_next(__pthread_unwind_buf_t *buf)
{
	struct wl_prog_thread *t = self_or_fail("__pthread_unwind_next()");
	__pthread_unwind_buf_t *b = t->cleanup;

	(void)buf;		/* already taken off the chain */
	if (b) {
		t->cleanup = b->__pad[0];
		jump_to(b);
	}
	wl_prog_thread_end(t, t->ret);
}

void futexsim___pthread_register_cancel(__pthread_unwind_buf_t *buf)
{
	struct wl_prog_thread *t = self_or_fail("__pthread_register_cancel()");

	buf->__pad[0] = t->cleanup;
	t->cleanup = buf;
}

void futexsim___pthread_unregister_cancel(__pthread_unwind_buf_t *buf)
{
	struct wl_prog_thread *t = self_or_fail("__pthread_unregister_cancel()");

	t->cleanup = buf->__pad[0];
}

/* The _defer_np forms: deferred type while the handler is pushed. */
void futexsim___pthread_register_cancel_defer(__pthread_unwind_buf_t *buf)
{
	struct wl_prog_thread *t = self_or_fail("__pthread_register_cancel_defer()");

	buf->__pad[1] = (void *)(long)t->cancel_async;
	t->cancel_async = 0;
	futexsim___pthread_register_cancel(buf);
}

void futexsim___pthread_unregister_cancel_restore(__pthread_unwind_buf_t *buf)
{
	struct wl_prog_thread *t = self_or_fail("__pthread_unregister_cancel_restore()");

	futexsim___pthread_unregister_cancel(buf);
	t->cancel_async = (int)(long)buf->__pad[1];
	if (t->cancel_async)
		wl_prog_cancel_point();
}

static int acts(const struct wl_prog_thread *t)
{
	return t->cancel_pending && !t->cancel_off && !t->cancel_acting;
}

static void __attribute__((noreturn)) act(struct wl_prog_thread *t)
{
	t->cancel_acting = 1;
	wl_prog_unwind(PTHREAD_CANCELED);
}

void wl_prog_cancel_async(void)
{
	struct wl_prog_thread *t = wl_prog_self();

	if (t && t->cancel_async && acts(t))
		act(t);
}

int wl_prog_cancel_due(void)
{
	struct wl_prog_thread *t = wl_prog_self();

	return t && acts(t);
}

void wl_prog_cancel_point(void)
{
	struct wl_prog_thread *t = wl_prog_self();

	if (t && acts(t))
		act(t);
}

int futexsim_pthread_cancel(pthread_t th)
{
	struct wl_prog_thread *t = (struct wl_prog_thread *)th, *me;

	me = self_or_fail("pthread_cancel()");
	if (!t || !t->task)
		return ESRCH;
	t->cancel_pending = 1;
	if (t->cancel_off || t->cancel_acting)
		return 0;
	if (t == me) {
		if (t->cancel_async)
			act(t);
		return 0;
	}
	wl_prog.sig_any = 1;	/* its next atomic looks (async cancel) */
	ksim_signal_cancel(t->task->kt);
	return 0;
}

int futexsim_pthread_setcancelstate(int state, int *old)
{
	struct wl_prog_thread *t = self_or_fail("pthread_setcancelstate()");

	if (state != PTHREAD_CANCEL_ENABLE && state != PTHREAD_CANCEL_DISABLE)
		return EINVAL;
	if (old)
		*old = t->cancel_off ? PTHREAD_CANCEL_DISABLE : PTHREAD_CANCEL_ENABLE;
	t->cancel_off = state == PTHREAD_CANCEL_DISABLE;
	if (t->cancel_async && acts(t))
		act(t);
	return 0;
}

int futexsim_pthread_setcanceltype(int type, int *old)
{
	struct wl_prog_thread *t = self_or_fail("pthread_setcanceltype()");

	if (type != PTHREAD_CANCEL_DEFERRED && type != PTHREAD_CANCEL_ASYNCHRONOUS)
		return EINVAL;
	if (old)
		*old = t->cancel_async ? PTHREAD_CANCEL_ASYNCHRONOUS :
					 PTHREAD_CANCEL_DEFERRED;
	t->cancel_async = type == PTHREAD_CANCEL_ASYNCHRONOUS;
	if (t->cancel_async && acts(t))
		act(t);
	return 0;
}

void futexsim_pthread_testcancel(void)
{
	wl_prog_cancel_point();
}
