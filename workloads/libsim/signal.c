/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/signal.c - POSIX signals inside the simulated process:
 * handlers, masks, thread- and process-directed sending, sigwait() and
 * pause(), delivered where the kernel delivers them (docs/programs.md,
 * "Signals").
 *
 * Stage: user program -> futex(2) boundary -> kernel.  Called by the
 * program through workloads/libsim/futexsim.h; by the futex(2) boundary
 * (sim/syscall/syscall.c), through sim_signal_hook, when a signal ended a
 * blocking call with one of the kernel's restart returns; by the layer's
 * other system calls and atomics (wl_prog_signal_check()) on their way
 * back to the program.  Calls the kernel side (ksim_signal_send() and
 * ksim_signal_clear() of sched/kapi.c) to make a signal pending for the
 * real futex code: signal_pending() then ends its interruptible sleep.
 *
 * Model:
 *  - Signals 1 to 64; a sigset_t's first 64 bits.  Each thread has a
 *    blocked mask and a pending set; the process has a pending set for
 *    the signals kill() sent while every thread blocked them.
 *  - Sending (pthread_kill(), raise(), kill() to the process): an ignored
 *    signal (SIG_IGN, or SIG_DFL of a signal whose default is to ignore)
 *    is dropped.  A process-directed one goes to the first thread in
 *    sigwait() for it, else the first that does not block it, else stays
 *    pending on the process, as complete_signal() chooses.  A pending
 *    signal the thread does not block marks the thread's task_struct
 *    (ksim_signal_send()): its interruptible sleep ends, the futex call
 *    returns -ERESTARTSYS (or its restart block's return).
 *  - Delivery, at the return to the program: after each system call and
 *    atomic of the layer, and before raise(), pthread_sigmask() and
 *    sigprocmask() return.  Each deliverable signal, lowest first: its
 *    handler runs on the thread's stack with sa_mask and the signal
 *    (unless SA_NODEFER) blocked, SA_RESETHAND honoured, SA_SIGINFO's
 *    handler given si_signo and si_code SI_TKILL or SI_USER; a signal
 *    whose default is to terminate ends the program with status 128 + N
 *    and a line on stderr.
 *  - A futex call a handled signal interrupted is restarted as the
 *    kernel restarts it: -ERESTARTSYS if every handler had SA_RESTART,
 *    -ERESTARTNOINTR always, -ERESTARTNOHAND and
 *    -ERESTART_RESTARTBLOCK only when no handler ran; else the call
 *    returns EINTR.  pause() and sigsuspend() return EINTR once a handler
 *    ran, never restarted.
 *  - Timers (alarm(), setitimer(), timer_create(): timer.c) send from
 *    a machine event, which makes no system call: a thread in sigwait()
 *    for the signal has its wait ended instead of woken.
 *  - Not simulated: stop and continue, core dumps,
 *    sigaltstack(), real-time signal queues (a pending signal is a bit:
 *    a second one while pending is merged).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <string.h>

#include "sim/machine/hooks.h"
#include "sim/syscall/syscall.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/ulock/uatomic.h"

#define SIG_MAX		64
#define BIT(sig)	(1ULL << ((sig) - 1))

static uint64_t set_bits(const sigset_t *s)
{
	return s ? (uint64_t)s->__val[0] : 0;
}

static void set_from_bits(sigset_t *s, uint64_t v)
{
	if (!s)
		return;
	memset(s, 0, sizeof(*s));
	s->__val[0] = (unsigned long)v;
}

/* The signals the kernel never lets a thread block or catch. */
#define SIG_UNBLOCKABLE	(BIT(SIGKILL) | BIT(SIGSTOP))

/* The default action of @sig is to ignore it (SIGCHLD, SIGURG, SIGWINCH,
 * SIGCONT: nothing to continue here). */
static int default_ignores(int sig)
{
	return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH ||
	       sig == SIGCONT;
}

static int ignored(int sig)
{
	const struct sigaction *a = &wl_prog.sig_act[sig];

	return a->sa_handler == SIG_IGN ||
	       (a->sa_handler == SIG_DFL && default_ignores(sig));
}

/* Is anything of @t deliverable now?  Sets or clears the kernel's mark. */
static uint64_t deliverable(struct wl_prog_thread *t)
{
	return (t->sig_pending | wl_prog.sig_proc_pending) & ~t->sig_blocked;
}

static void mark(struct wl_prog_thread *t)
{
	if (!t->task || !t->tid_word)
		return;
	if (deliverable(t))
		ksim_signal_send(t->task->kt);
	else
		ksim_signal_clear(t->task->kt);
}

/* A signal in @t's sigwait() set arrived: wake it. */
static void wake_waiter(struct wl_prog_thread *t)
{
	uatomic_fetch_add(&t->sig_word, 1);
	wl_prog_futex(&t->sig_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* @sig to thread @t (thread-directed); @timer: from a timer's event,
 * where no system call can be made. */
static void send_to(struct wl_prog_thread *t, int sig, int code, int timer)
{
	if (ignored(sig))
		return;
	t->sig_pending |= BIT(sig);
	t->sig_code[sig] = code;
	wl_prog.sig_any = 1;
	if (!(t->sig_waiting & BIT(sig)))
		mark(t);
	else if (timer)
		ksim_signal_send(t->task->kt);	/* its wait returns EINTR */
	else
		wake_waiter(t);
}

/* @sig to the process: a thread that waits for it, or does not block
 * it, or the process's pending set. */
static void send_to_process(int sig, int timer)
{
	struct wl_prog_thread *t, *pick = NULL;
	int i;

	if (ignored(sig))
		return;
	for (i = 0; i < wl_prog.nr_threads && !pick; i++) {
		t = wl_prog.threads[i];
		if (t->tid_word && (t->sig_waiting & BIT(sig)))
			pick = t;
	}
	for (i = 0; i < wl_prog.nr_threads && !pick; i++) {
		t = wl_prog.threads[i];
		if (t->tid_word && !(t->sig_blocked & BIT(sig)))
			pick = t;
	}
	if (pick) {
		send_to(pick, sig, timer ? SI_KERNEL : SI_USER, timer);
		return;
	}
	wl_prog.sig_proc_pending |= BIT(sig);
	wl_prog.sig_proc_code[sig] = timer ? SI_KERNEL : SI_USER;
	wl_prog.sig_any = 1;
}

/* Take the lowest signal of @from from @t's pending set, else the
 * process's; *@code (if not NULL): how it was sent (si_code). */
static int take(struct wl_prog_thread *t, uint64_t from, int *code)
{
	uint64_t own = t->sig_pending & from, all = own ? own :
		       wl_prog.sig_proc_pending & from;
	int sig = __builtin_ctzll(all) + 1;

	if (own)
		t->sig_pending &= ~BIT(sig);
	else
		wl_prog.sig_proc_pending &= ~BIT(sig);
	if (code)
		*code = own ? t->sig_code[sig] : wl_prog.sig_proc_code[sig];
	return sig;
}

static void __attribute__((noreturn)) terminate(int sig)
{
	futexsim_dprintf(2, "futexsim: the program was killed by signal %d (%s)\n",
			 sig, strsignal(sig));
	futexsim__exit(128 + sig);
}

/* Run the handler of @sig on this thread (code: how it was sent). */
static void run_handler(struct wl_prog_thread *t, int sig, int code)
{
	struct sigaction *a = &wl_prog.sig_act[sig];
	struct sigaction now = *a;
	uint64_t saved = t->sig_blocked;
	siginfo_t info;

	if (now.sa_handler == SIG_DFL)
		terminate(sig);
	t->sig_blocked |= (set_bits(&now.sa_mask) |
			   (now.sa_flags & SA_NODEFER ? 0 : BIT(sig))) &
			  ~SIG_UNBLOCKABLE;
	if (now.sa_flags & SA_RESETHAND) {
		a->sa_handler = SIG_DFL;
		a->sa_flags &= ~SA_SIGINFO;
	}
	mark(t);
	t->sig_handled = 1;
	if (now.sa_flags & SA_SIGINFO) {
		memset(&info, 0, sizeof(info));
		info.si_signo = sig;
		info.si_code = code;
		info.si_pid = 1;	/* the simulated process's PID */
		now.sa_sigaction(sig, &info, NULL);
	} else {
		now.sa_handler(sig);
	}
	t->sig_blocked = saved;
	mark(t);
}

/*
 * Deliver what @t may receive now.  Return: -1 if no handler ran, 1 if
 * every handler that ran had SA_RESTART, 0 if one did not.
 */
static int deliver(struct wl_prog_thread *t)
{
	int res = -1, sig, code;
	uint64_t d;

	while ((d = deliverable(t)) != 0) {
		sig = take(t, d, &code);
		if (ignored(sig))
			continue;
		if (res == -1)
			res = 1;
		if (!(wl_prog.sig_act[sig].sa_flags & SA_RESTART))
			res = 0;
		run_handler(t, sig, code);
	}
	mark(t);
	if (t->sig_norestart && res != -1)
		res = 0;	/* pause(), sigsuspend(): EINTR */
	/* what sigwait() waits for came (from a timer): its wait ends */
	if (res == -1 && (t->sig_waiting & (t->sig_pending |
					    wl_prog.sig_proc_pending)))
		res = 0;
	return res;
}

/* The boundary's hook (sim_signal_hook): the current thread's signals. */
static int boundary_deliver(void)
{
	struct wl_prog_thread *t = wl_prog_self();

	return t ? deliver(t) : -1;
}

/* A timer's signal to the process (timer.c), from its event. */
void wl_prog_signal_from_timer(int sig)
{
	send_to_process(sig, 1);
}

void wl_prog_signal_start(void)
{
	sim_signal_hook = boundary_deliver;
	wl_prog_timer_start();
}

void wl_prog_signal_check(void)
{
	struct wl_prog_thread *t;

	if (!wl_prog.sig_any)
		return;		/* the common case: no signal ever */
	t = wl_prog_self();
	if (t && t->tid_word && deliverable(t))
		deliver(t);
}

/* ---- the calls ----------------------------------------------------------- */

static int bad_signal(int sig)
{
	return sig < 1 || sig > SIG_MAX;
}

int futexsim_sigaction(int sig, const struct sigaction *act,
		       struct sigaction *old)
{
	if (bad_signal(sig) || (act && (sig == SIGKILL || sig == SIGSTOP))) {
		errno = EINVAL;
		return -1;
	}
	if (old)
		*old = wl_prog.sig_act[sig];
	if (act) {
		wl_prog.sig_act[sig] = *act;
		/* a signal made ignored is dropped where it is pending */
		if (ignored(sig)) {
			wl_prog.sig_proc_pending &= ~BIT(sig);
			for (int i = 0; i < wl_prog.nr_threads; i++)
				wl_prog.threads[i]->sig_pending &= ~BIT(sig);
		}
	}
	return 0;
}

__sighandler_t futexsim_signal(int sig, __sighandler_t fn)
{
	struct sigaction a, old;

	memset(&a, 0, sizeof(a));
	a.sa_handler = fn;
	a.sa_flags = SA_RESTART;	/* glibc's signal(): BSD semantics */
	if (futexsim_sigaction(sig, &a, &old))
		return SIG_ERR;
	return old.sa_handler;
}

int futexsim_pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	struct wl_prog_thread *t = wl_prog_self();
	uint64_t v = set_bits(set) & ~SIG_UNBLOCKABLE;

	if (!t)
		wl_prog_fail("pthread_sigmask() outside a simulated program");
	if (set && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
		return EINVAL;
	set_from_bits(old, t->sig_blocked);
	if (set)
		t->sig_blocked = how == SIG_BLOCK ? t->sig_blocked | v :
				 how == SIG_UNBLOCK ? t->sig_blocked & ~v : v;
	mark(t);
	deliver(t);	/* what was unblocked, before the call returns */
	return 0;
}

int futexsim_sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int r = futexsim_pthread_sigmask(how, set, old);

	if (r) {
		errno = r;
		return -1;
	}
	return 0;
}

int futexsim_sigpending(sigset_t *set)
{
	struct wl_prog_thread *t = wl_prog_self();

	if (!t)
		wl_prog_fail("sigpending() outside a simulated program");
	set_from_bits(set, (t->sig_pending | wl_prog.sig_proc_pending) &
			   t->sig_blocked);
	return 0;
}

/* The thread of @th, NULL if it has exited. */
static struct wl_prog_thread *thread_of(pthread_t th)
{
	struct wl_prog_thread *t = (struct wl_prog_thread *)th;

	for (int i = 0; i < wl_prog.nr_threads; i++)
		if (wl_prog.threads[i] == t)
			return t->tid_word ? t : NULL;
	return NULL;
}

int futexsim_pthread_kill(pthread_t th, int sig)
{
	struct wl_prog_thread *t = thread_of(th), *self = wl_prog_self();

	if (sig && bad_signal(sig))
		return EINVAL;
	if (!t)
		return ESRCH;
	if (!sig)
		return 0;
	if (sig == SIGKILL || sig == SIGSTOP)
		terminate(sig);	/* the whole process, as the kernel does */
	send_to(t, sig, SI_TKILL, 0);
	if (t == self)
		deliver(self);	/* on tgkill()'s return */
	return 0;
}

int futexsim_raise(int sig)
{
	int r = futexsim_pthread_kill(futexsim_pthread_self(), sig);

	if (r) {
		errno = r;
		return -1;
	}
	return 0;
}

int futexsim_kill(pid_t pid, int sig)
{
	struct wl_prog_thread *self = wl_prog_self();

	if (!self)
		wl_prog_fail("kill() outside a simulated program");
	if (sig && bad_signal(sig)) {
		errno = EINVAL;
		return -1;
	}
	/* the one process: its PID, 0 and -1 name it */
	if (pid != futexsim_getpid() && pid != 0 && pid != -1) {
		errno = ESRCH;
		return -1;
	}
	if (!sig)
		return 0;
	if (sig == SIGKILL || sig == SIGSTOP)
		terminate(sig);
	send_to_process(sig, 0);
	wl_prog_signal_check();
	return 0;
}

int futexsim_sigwait(const sigset_t *set, int *sig)
{
	struct wl_prog_thread *t = wl_prog_self();
	uint64_t want = set_bits(set) & ~SIG_UNBLOCKABLE;
	uint32_t seen;

	if (!t)
		wl_prog_fail("sigwait() outside a simulated program");
	if (!want)
		return EINVAL;
	for (;;) {
		if ((t->sig_pending | wl_prog.sig_proc_pending) & want) {
			*sig = take(t, want, NULL);
			t->sig_waiting = 0;
			return 0;
		}
		t->sig_waiting = want;
		seen = uatomic_load(&t->sig_word);
		if (!((t->sig_pending | wl_prog.sig_proc_pending) & want))
			wl_prog_futex(&t->sig_word, FUTEX_WAIT_PRIVATE, seen,
				      NULL, NULL, 0);
		/* a handler for another signal may have run meanwhile */
	}
}

/* Sleep until a handler has run (pause(), sigsuspend()): in a futex
 * wait nobody wakes, which a signal ends (its handler run by the
 * boundary, the call not restarted).  Return: -1, errno EINTR. */
static int until_handled(struct wl_prog_thread *t)
{
	uint32_t never = 0;

	t->sig_norestart = 1;
	t->sig_handled = 0;
	deliver(t);
	while (!t->sig_handled)
		wl_prog_futex(&never, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	t->sig_norestart = 0;
	errno = EINTR;
	return -1;
}

int futexsim_pause(void)
{
	struct wl_prog_thread *t = wl_prog_self();

	if (!t)
		wl_prog_fail("pause() outside a simulated program");
	wl_prog_cancel_point();
	return until_handled(t);
}

int futexsim_sigsuspend(const sigset_t *mask)
{
	struct wl_prog_thread *t = wl_prog_self();
	uint64_t saved;
	int r;

	if (!t)
		wl_prog_fail("sigsuspend() outside a simulated program");
	saved = t->sig_blocked;
	t->sig_blocked = set_bits(mask) & ~SIG_UNBLOCKABLE;
	mark(t);
	r = until_handled(t);
	t->sig_blocked = saved;
	mark(t);
	return r;
}
