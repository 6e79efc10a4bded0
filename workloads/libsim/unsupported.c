/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/unsupported.c - the calls of a simulated program that
 * the simulator does not model: fork, signals, files, sockets, shared
 * memory.
 *
 * Stage: user program -> failure report.  Called by the program through
 * workloads/libsim/futexsim.h, which gives each such function NAME the
 * assembler name futexsim_no_NAME (FUTEXSIM_UNSUPPORTED there lists
 * them); calls wl_prog_fail().  Each ends the run with a failure report
 * naming the call, exit status 3.  They take no arguments here: they
 * never return, so what the program passed and expects back does not
 * matter.
 */
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

#define WL_PROG_NO(name, why)						\
	void futexsim_no_##name(void) __attribute__((noreturn));	\
	void futexsim_no_##name(void)					\
	{								\
		wl_prog_fail(#name "(): " why);				\
	}

FUTEXSIM_UNSUPPORTED(WL_PROG_NO)
