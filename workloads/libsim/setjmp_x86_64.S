/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/setjmp_x86_64.S - futexsim___sigsetjmp_cancel(): the
 * context save of glibc's pthread_cleanup_push() macro, for a simulated
 * program (workloads/libsim/cancel.c).
 *
 * Stage: user program -> futex(2).  Reached from the program through the
 * macro __sigsetjmp_cancel of workloads/libsim/futexsim.h.
 *
 * The program's objects call __sigsetjmp(), which `futexsim build` links
 * here (--defsym).  A tail jump to the host's _setjmp(), which saves no
 * signal mask: the context saved is the program's frame (the caller's),
 * as a direct call would save it, and nothing is asked of the host
 * kernel.
 */
	.text
	.globl	futexsim___sigsetjmp_cancel
	.type	futexsim___sigsetjmp_cancel, @function
futexsim___sigsetjmp_cancel:
	jmp	_setjmp@PLT
	.size	futexsim___sigsetjmp_cancel, .-futexsim___sigsetjmp_cancel
	.section .note.GNU-stack,"",@progbits
