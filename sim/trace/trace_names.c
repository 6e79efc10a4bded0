/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace_names.c - the names of --trace: the events and their groups
 * (parsed for trace-events= and --trace-events, printed back), the
 * futex, TP and qspinlock ops, the errno values, the task names; and the
 * trace file's format and per-lock path.
 *
 * Stage: trace/report, beside the flow.  Called by sim/scenario/scenario.c and
 * sim/cli/cli.c (sim_trace_parse_events(), sim_trace_format_events(),
 * sim_trace_format_of(), sim_trace_lock_path()), and by the writers
 * sim/trace/trace_text.c, trace_json.c and trace_narrate.c (the sim__trace_*()
 * names of sim/trace/trace_writer.h).  Calls libc only, and reads the machine's
 * task table (sim/machine/machine.h) for a task's name.
 *
 * Every name is a function of its value only: the same in every build.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>

#include "futex/tp_abi.h"
#include "sim/machine/machine.h"
#include "sim/report/symbols.h"
#include "sim/trace/trace_writer.h"

static const char *const event_names[SIM_TEV_NR] = {
	[SIM_TEV_SCHED_SWITCH]		= "sched_switch",
	[SIM_TEV_SCHED_WAKING]		= "sched_waking",
	[SIM_TEV_SCHED_WAKEUP]		= "sched_wakeup",
	[SIM_TEV_SCHED_WAKEUP_NEW]	= "sched_wakeup_new",
	[SIM_TEV_FUTEX_ENTER]		= "futex_enter",
	[SIM_TEV_FUTEX_EXIT]		= "futex_exit",
	[SIM_TEV_NANOSLEEP_ENTER]	= "nanosleep_enter",
	[SIM_TEV_NANOSLEEP_EXIT]	= "nanosleep_exit",
	[SIM_TEV_CONTENTION_BEGIN]	= "contention_begin",
	[SIM_TEV_CONTENTION_END]	= "contention_end",
	[SIM_TEV_QSPINLOCK]		= "qspinlock",
	[SIM_TEV_TP]			= "tp",
	[SIM_TEV_CACHE]			= "cache",
	[SIM_TEV_UATOMIC]		= "atomic",
	[SIM_TEV_UATOMIC_OTHER]		= "atomic_other",
	[SIM_TEV_SCHED_PI_SETPRIO]	= "sched_pi_setprio",
};

#define B(ev)	SIM_TRACE_BIT(SIM_TEV_##ev)
static const struct {
	const char *name;
	unsigned int mask;
} groups[] = {
	{ "sched", B(SCHED_SWITCH) | B(SCHED_WAKING) | B(SCHED_WAKEUP) |
		   B(SCHED_WAKEUP_NEW) | B(SCHED_PI_SETPRIO) },
	{ "futex", B(FUTEX_ENTER) | B(FUTEX_EXIT) },
	{ "nanosleep", B(NANOSLEEP_ENTER) | B(NANOSLEEP_EXIT) },
	{ "lock", B(CONTENTION_BEGIN) | B(CONTENTION_END) },
	{ "atomic_all", B(UATOMIC) | B(UATOMIC_OTHER) },
};
#undef B
#define NR_GROUPS	(sizeof(groups) / sizeof(groups[0]))

/* ---- names ------------------------------------------------------------- */

const char *sim__trace_event_name(enum sim_trace_event ev)
{
	return event_names[ev];
}

const char *sim_trace_event_help(void)
{
	return "all, sched, futex, nanosleep, lock, qspinlock, sched_switch, "
	       "sched_waking, sched_wakeup, sched_wakeup_new, sched_pi_setprio, "
	       "futex_enter, "
	       "futex_exit, nanosleep_enter, nanosleep_exit, contention_begin, "
	       "contention_end, tp, atomic; cache, atomic_other, atomic_all "
	       "(not in all)";
}

static int name_mask(const char *name, size_t len, unsigned int *mask)
{
	size_t i;

	if (len == 3 && !strncmp(name, "all", 3)) {
		*mask |= SIM_TRACE_ALL;
		return 0;
	}
	for (i = 0; i < NR_GROUPS; i++)
		if (strlen(groups[i].name) == len &&
		    !strncmp(name, groups[i].name, len)) {
			*mask |= groups[i].mask;
			return 0;
		}
	for (i = 0; i < SIM_TEV_NR; i++)
		if (strlen(event_names[i]) == len &&
		    !strncmp(name, event_names[i], len)) {
			*mask |= SIM_TRACE_BIT(i);
			return 0;
		}
	return -1;
}

int sim_trace_parse_events(const char *list, unsigned int *mask)
{
	unsigned int m = 0;
	const char *p = list, *comma;

	for (;;) {
		comma = strchr(p, ',');
		if (name_mask(p, comma ? (size_t)(comma - p) : strlen(p), &m))
			return -1;
		if (!comma)
			break;
		p = comma + 1;		/* never NULL + 1: undefined */
	}
	*mask = m;
	return 0;
}

static void append(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? "," : "", name);
}

const char *sim_trace_format_events(unsigned int mask, char *buf, size_t len)
{
	size_t i;

	buf[0] = '\0';
	if ((mask & SIM_TRACE_ALL) == SIM_TRACE_ALL) {
		append(buf, len, "all");
		mask &= ~SIM_TRACE_ALL;
	}
	for (i = 0; i < NR_GROUPS; i++)
		if ((mask & groups[i].mask) == groups[i].mask) {
			append(buf, len, groups[i].name);
			mask &= ~groups[i].mask;
		}
	for (i = 0; i < SIM_TEV_NR; i++)
		if (mask & SIM_TRACE_BIT(i))
			append(buf, len, event_names[i]);
	return buf;
}

const char *sim__trace_addr_name(uint64_t addr, char *buf, size_t len)
{
	return sim_sym_name(addr, buf, len);
}

const char *sim__trace_comm(int tid)
{
	int i = tid - SIM_TID_BASE;

	if (!tid)
		return "<idle>";
	if (i < 0 || i >= sim.nr_tasks)
		return "<...>";
	return sim.tasks[i]->name;
}

const char *sim__trace_tp_op(unsigned int op)
{
	static const char *const names[SIM_TP_NR_OPS] = {
		[SIM_TP_STEAL] = "steal", [SIM_TP_TOP_WAITER] = "top-waiter",
		[SIM_TP_SPIN_START] = "spin-start", [SIM_TP_SPIN_STOP] = "spin-stop",
		[SIM_TP_SLEEP] = "sleep",
		[SIM_TP_HANDOFF_REQUEST] = "handoff-request",
		[SIM_TP_HANDOFF_GRANT] = "handoff-grant",
		[SIM_TP_ACQUIRE] = "acquire", [SIM_TP_UNLOCK] = "unlock",
		[SIM_TP_STATE_ALLOC] = "state-alloc",
		[SIM_TP_STATE_FREE] = "state-free",
		[SIM_TP_MUTEX_ENQUEUE] = "mutex-enqueue",
		[SIM_TP_TIMEOUT] = "timeout",
		[SIM_TP_OWNER_DIED] = "owner-died",
		[SIM_TP_USER_ACQUIRE] = "user-acquire",
		[SIM_TP_USER_RELEASE] = "user-release",
	};

	return op < SIM_TP_NR_OPS ? names[op] : "?";
}

const char *sim__trace_access(unsigned int kind)
{
	switch (kind) {
	case SIM_LOAD:
		return "load";
	case SIM_STORE:
		return "store";
	case SIM_RMW:
		return "rmw";
	}
	return "?";
}

const char *sim__trace_tier(unsigned int tier)
{
	static const char *const names[] = {
		"self", "smt", "socket", "remote", "2hop", "l3",
	};

	return tier < sizeof(names) / sizeof(names[0]) ? names[tier] : "?";
}

const char *sim__trace_qspin_op(unsigned int op)
{
	static const char *const names[SIM_QS_NR_OPS] = {
		[SIM_QS_SLOWPATH] = "slowpath", [SIM_QS_LOCK] = "lock",
		[SIM_QS_TRYLOCK] = "trylock", [SIM_QS_TRYFAIL] = "trylock-fail",
		[SIM_QS_UNLOCK] = "unlock",
	};

	return op < SIM_QS_NR_OPS ? names[op] : "?";
}

static const char *futex_op_name(unsigned int op, char *buf, size_t len)
{
	/* the TP futex's private ops (futex/tp_abi.h) */
	static const char *const tp_cmds[] = {
		"TP_LOCK", "TP_UNLOCK", "TP_LOCK_SHARED", "TP_UNLOCK_SHARED",
	};
	static const char *const cmds[] = {
		"WAIT", "WAKE", "FD", "REQUEUE", "CMP_REQUEUE", "WAKE_OP",
		"LOCK_PI", "UNLOCK_PI", "TRYLOCK_PI", "WAIT_BITSET",
		"WAKE_BITSET", "WAIT_REQUEUE_PI", "CMP_REQUEUE_PI", "LOCK_PI2",
	};
	unsigned int cmd = op & FUTEX_CMD_MASK;

	if (cmd >= FUTEX_TP_LOCK && cmd <= FUTEX_TP_UNLOCK_SHARED)
		snprintf(buf, len, "FUTEX_%s%s", tp_cmds[cmd - FUTEX_TP_LOCK],
			 op & FUTEX_PRIVATE_FLAG ? "_PRIVATE" : "");
	else if (cmd >= sizeof(cmds) / sizeof(cmds[0]))
		snprintf(buf, len, "0x%x", op);
	else
		snprintf(buf, len, "FUTEX_%s%s%s", cmds[cmd],
			 op & FUTEX_PRIVATE_FLAG ? "_PRIVATE" : "",
			 op & FUTEX_CLOCK_REALTIME ? "|FUTEX_CLOCK_REALTIME" : "");
	return buf;
}

int sim__trace_futex_waits(unsigned int op)
{
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
	case FUTEX_WAIT_REQUEUE_PI:
		return 1;
	}
	return 0;
}

/* The names of the usual ops are made once. */
const char *sim__trace_futex_op(unsigned int op, char *buf, size_t len)
{
	static char names[512][40];

	if (op >= 512)
		return futex_op_name(op, buf, len);
	if (!names[op][0])
		futex_op_name(op, names[op], sizeof(names[op]));
	return names[op];
}

const char *sim__trace_errno(long ret)
{
	switch (-ret) {
	case EAGAIN:		return "EAGAIN";
	case ETIMEDOUT:		return "ETIMEDOUT";
	case EINTR:		return "EINTR";
	case EINVAL:		return "EINVAL";
	case EPERM:		return "EPERM";
	case ESRCH:		return "ESRCH";
	case EDEADLK:		return "EDEADLK";
	case EFAULT:		return "EFAULT";
	case ENOMEM:		return "ENOMEM";
	case ENOSYS:		return "ENOSYS";
	case EBUSY:		return "EBUSY";
	case EOWNERDEAD:	return "EOWNERDEAD";
	case ENOTRECOVERABLE:	return "ENOTRECOVERABLE";
	case 512:		return "ERESTARTSYS";
	case 513:		return "ERESTARTNOINTR";
	case 514:		return "ERESTARTNOHAND";
	case 516:		return "ERESTART_RESTARTBLOCK";
	}
	return NULL;
}

/* ---- files ------------------------------------------------------------- */

static int ends_with(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);

	return n > e && path[n - e - 1] != '/' && !strcmp(path + n - e, ext);
}

enum sim_trace_format sim_trace_format_of(const char *path)
{
	if (ends_with(path, ".txt"))
		return SIM_TRACE_TEXT;
	if (ends_with(path, ".json"))
		return SIM_TRACE_JSON;
	if (ends_with(path, ".html"))
		return SIM_TRACE_HTML;
	return SIM_TRACE_NONE;
}

int sim_trace_lock_path(const char *path, const char *lock, int nr_locks,
			char *out, size_t len)
{
	const char *dot = strrchr(path, '.');
	int n;

	if (nr_locks == 1 || !dot)
		n = snprintf(out, len, "%s", path);
	else
		n = snprintf(out, len, "%.*s.%s%s", (int)(dot - path), path,
			     lock, dot);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
