/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/coro_x86_64.S - the x86-64 coroutine switch (the "asm" backend of
 * sim/host/coro.h).
 *
 * Stage: machine (lowest level).  Called through sim_coro_switch() by
 * sim/machine/machine.c, and directly by the benchmark and tests/test_coro.c.
 * Calls nothing but the entry function of a fresh coroutine.
 *
 * A suspended coroutine's stack holds, from its saved stack pointer up:
 *
 *	sp[0] r15   sp[1] r14   sp[2] r13   sp[3] r12
 *	sp[4] rbx   sp[5] rbp   sp[6] return address
 *
 * sim/host/coro.c builds this frame for a fresh coroutine (r12 = entry,
 * r13 = arg, return address = sim__coro_start) and reads it back for the
 * failure report; keep the three in step.
 *
 * Only the SysV callee-saved integer registers and rsp are switched: the
 * caller of sim_coro_switch_asm() already assumes every other register
 * is clobbered by a call.  The x87 control word and the MXCSR control
 * bits are callee-saved too, but they are deliberately NOT switched: no
 * code in the simulator changes the rounding mode or the FP exception
 * masks, so every coroutine runs with the process's values and saving
 * them would only add ~10 cycles (ldmxcsr/fldcw are slow) to every switch.
 * A task that changed them would leak its setting to the next coroutine
 * on this host thread; if that is ever wanted, push them here (fnstcw,
 * stmxcsr) and grow the frame above by one word.
 *
 * Built with AddressSanitizer (SIM_CORO_ASAN, sim/host/coro.h) this code is
 * sim__coro_switch_asm(), and sim_coro_switch_asm() and sim_coro_switch()
 * are C wrappers in sim/host/coro.c that tell ASan about the switch.
 */
#include "sim/host/coro.h"

#ifdef SIM_CORO_ASAN
#define CORO_SWITCH	sim__coro_switch_asm
#else
#define CORO_SWITCH	sim_coro_switch_asm
#endif

	.text

/*
 * void sim_coro_switch_asm(struct sim_coro *from, struct sim_coro *to)
 * rdi = from, rsi = to; struct sim_coro::sp is at offset 0.
 *
 * It leaves through "ret", which keeps the return-stack predictor in
 * step with the stacks.  Every task of the simulator switches from one
 * call site (resume(), sim/machine/machine.c), so the ret's predicted
 * target, @from's return address, is @to's as well; the returns that
 * follow up @to's stack are predicted from @from's frames, right as far
 * as the two stacks share callers (sim__dispatch(), hook_all()).  A
 * "pop; jmp *reg" exit instead leaves the call's entry on the predictor's
 * stack, and every return after a switch mispredicts.  Measured on this
 * project's 2-core guest, user seconds, best of 3 or more alternating runs,
 * the same outputs: tiny4 ww 8 threads 1,000,000 operations 0.93 against
 * 1.07; a TO-futex tp run (to-futex-256-tp.scn, 2,000,000 operations)
 * 2.10 against 2.41; the 8-task qspinlock-x86 cell of spin-2014-node.scn
 * 0.80 against 0.93; explore of the 2-task ww 1.51 against 1.59.  Two
 * coroutines that switch from two different call sites pay a
 * misprediction at every ret (bench/bench.c switches from one, as the
 * simulator does).
 */
	.globl	CORO_SWITCH
	.type	CORO_SWITCH, @function
	.p2align 4
CORO_SWITCH:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	movq	%rsp, (%rdi)		/* from->sp */
	movq	(%rsi), %rsp		/* to->sp: from here on, @to's stack */
	popq	%r15
	.cfi_adjust_cfa_offset -8
	popq	%r14
	.cfi_adjust_cfa_offset -8
	popq	%r13
	.cfi_adjust_cfa_offset -8
	popq	%r12
	.cfi_adjust_cfa_offset -8
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	CORO_SWITCH, .-CORO_SWITCH

/*
 * The build-selected switch is this very code: no wrapper, no indirect
 * call (sim/host/coro.c defines sim_coro_switch() for the ucontext backend).
 * With neither macro defined, asm is the default, as in sim/host/coro.c.
 */
#if !defined(SIM_CORO_ucontext) && !defined(SIM_CORO_ASAN)
	.globl	sim_coro_switch
	.type	sim_coro_switch, @function
	.set	sim_coro_switch, sim_coro_switch_asm
#endif

/*
 * sim__coro_start - first code of a fresh coroutine, entered by the "ret"
 * of its first switch with r12 = entry, r13 = arg and rsp 16-byte aligned,
 * so that the call below gives entry() the ABI's alignment.  The return
 * address is undefined for the unwinder: stacks end here.  entry() must
 * not return; if it does, ud2 traps (SIGILL) rather than run off.
 */
	.globl	sim__coro_start
	.type	sim__coro_start, @function
	.p2align 4
sim__coro_start:
	.cfi_startproc
	.cfi_undefined rip
	movq	%r13, %rdi
	callq	*%r12
	ud2
	.cfi_endproc
	.size	sim__coro_start, .-sim__coro_start

	.section .note.GNU-stack, "", @progbits
