// SPDX-License-Identifier: GPL-2.0
/*
 * sim/arch/kcsan.c - the KCSAN interface of an instrumented kernel build
 * (make INSTR=1): what include/linux/kcsan-checks.h declares when
 * CONFIG_KCSAN is set, served by the race oracle (sim/explore/race.h).
 *
 * Stage: kernel -> trace/report.  With INSTR=1 the kernel files are
 * compiled with CONFIG_KCSAN (the Makefile's KINSTR), so their
 * data_race(), ASSERT_EXCLUSIVE_*() and instrument_*() calls come here;
 * in a normal build nothing calls these functions.  The semantics are
 * KCSAN's (Documentation/dev-tools/kcsan.rst):
 *
 *   kcsan_disable_current()/enable   data_race(): while the depth is
 *                                    not 0, the task's accesses are not
 *                                    looked at
 *   kcsan_atomic_next(n)             its next n plain accesses marked
 *   kcsan_{nestable,flat}_atomic_*   accesses inside marked
 *   __kcsan_check_access()           an access as the flags say; with
 *                                    KCSAN_ACCESS_ASSERT an assertion
 *                                    (ASSERT_EXCLUSIVE_WRITER, _ACCESS)
 *   kcsan_begin/end_scoped_access()  the _SCOPED assertions: a
 *                                    watchpoint until the scope ends
 *   __kcsan_mb() and friends         nothing (KCSAN's weak-memory
 *                                    modelling; memory= is the model here)
 *   kcsan_set_access_mask()          nothing: ASSERT_EXCLUSIVE_BITS()
 *                                    checks the whole variable's writers
 *                                    by no mask, so it is not asserted at
 *                                    all (no false report)
 *
 * The task's state lives in its task_struct (->kcsan, linux/sched.h).
 */
#ifndef CONFIG_KCSAN	/* the Makefile sets it for this file: the declarations */
#error "sim/arch/kcsan.c is compiled with -DCONFIG_KCSAN=1"
#endif
#include <linux/compiler.h>
#include <linux/kcsan-checks.h>
#include <linux/sched.h>
#include <sim/explore/race_abi.h>
#include <sim/machine/hooks.h>
#include <sim/ksim.h>

static struct ksim_kcsan_ctx *ctx(void)
{
	return sim__hooks_live && current ? &current->kcsan : NULL;
}

void ksim_kcsan_access(const volatile void *p, unsigned int size,
		       unsigned int how, unsigned long pc)
{
	struct ksim_kcsan_ctx *c = ctx();

	if (!c || c->disable_count)
		return;
	if (c->atomic_nest || c->flat_atomic) {
		how |= SIM_RACE_MARKED;
	} else if (c->atomic_next > 0 && !(how & SIM_RACE_MARKED)) {
		c->atomic_next--;
		how |= SIM_RACE_MARKED;
	}
	sim_race_check(p, size, how, pc);
}

static unsigned int how_of(int type)
{
	return (type & KCSAN_ACCESS_WRITE ? SIM_RACE_WRITE : 0) |
	       (type & KCSAN_ACCESS_ATOMIC ? SIM_RACE_MARKED : 0) |
	       (type & KCSAN_ACCESS_ASSERT ? SIM_RACE_ASSERT : 0);
}

void __kcsan_check_access(const volatile void *ptr, size_t size, int type)
{
	if (sim__race_live)
		ksim_kcsan_access(ptr, size, how_of(type),
				  (unsigned long)__builtin_return_address(0));
}

void __kcsan_mb(void)
{
}

void __kcsan_wmb(void)
{
}

void __kcsan_rmb(void)
{
}

void __kcsan_release(void)
{
}

void kcsan_disable_current(void)
{
	struct ksim_kcsan_ctx *c = ctx();

	if (c)
		c->disable_count++;
}

void kcsan_enable_current(void)
{
	struct ksim_kcsan_ctx *c = ctx();

	if (c && !WARN_ON_ONCE(c->disable_count <= 0))
		c->disable_count--;
}

void kcsan_enable_current_nowarn(void)
{
	struct ksim_kcsan_ctx *c = ctx();

	if (c && c->disable_count > 0)
		c->disable_count--;
}

void kcsan_nestable_atomic_begin(void)
{
	struct ksim_kcsan_ctx *c = ctx();

	if (c)
		c->atomic_nest++;
}

void kcsan_nestable_atomic_end(void)
{
	struct ksim_kcsan_ctx *c = ctx();

	if (c && !WARN_ON_ONCE(c->atomic_nest <= 0))
		c->atomic_nest--;
}

void kcsan_flat_atomic_begin(void)
{
	struct ksim_kcsan_ctx *c = ctx();

	if (c)
		c->flat_atomic = 1;
}

void kcsan_flat_atomic_end(void)
{
	struct ksim_kcsan_ctx *c = ctx();

	if (c)
		c->flat_atomic = 0;
}

void kcsan_atomic_next(int n)
{
	struct ksim_kcsan_ctx *c = ctx();

	if (c)
		c->atomic_next = n;
}

void kcsan_set_access_mask(unsigned long mask)
{
}

struct kcsan_scoped_access *
kcsan_begin_scoped_access(const volatile void *ptr, size_t size, int type,
			  struct kcsan_scoped_access *sa)
{
	struct ksim_kcsan_ctx *c = ctx();

	sa->ptr = ptr;
	sa->size = size;
	sa->type = type;
	sa->ip = (unsigned long)__builtin_return_address(0);
	sa->stack_depth = -1;	/* our watchpoint's id */
	if (c && !c->disable_count && sim__race_live)
		sa->stack_depth = sim_race_scope_begin(ptr, size, how_of(type),
						       sa->ip);
	return sa;
}

void kcsan_end_scoped_access(struct kcsan_scoped_access *sa)
{
	sim_race_scope_end(sa->stack_depth);
}
