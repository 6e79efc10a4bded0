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
 * It leaves through "pop; jmp *reg" rather than "ret": a ret here always
 * returns somewhere else than the return-stack predictor expects (the
 * call site of @from, not of @to) and pays a misprediction, while the
 * indirect-branch predictor learns switch patterns.  Measured on the
 * 2-core EPYC guest this was written on: 12 ns per switch with ret, 4 ns
 * with the jump (bench/bench.c, "switch_ns").  rcx is caller-saved and
 * free here.
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
	popq	%rcx			/* not "ret": see above */
	.cfi_adjust_cfa_offset -8
	.cfi_register rip, rcx
	jmpq	*%rcx
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
