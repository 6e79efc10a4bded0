/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/program/hostcalls.h - what a user program's objects may keep: the
 * calls and instructions `futexsim build` lets through to the link.
 *
 * Stage: CLI, before the flow.  Called by sim/program/build.c for each
 * undefined symbol (nm -u) and each instruction (objdump -d) of the
 * program's objects; calls nothing.
 *
 * A program runs inside the simulator, on the host's one thread: a call
 * that reaches the host (a file, a signal, the host clock or its
 * randomness) would act outside the simulation and could make two runs
 * of one seed differ.  workloads/libsim/futexsim.h renames every call
 * the layer simulates to a futexsim_* function; what is left must be on
 * the allow list here: functions of libc, libm and libgcc that compute
 * from their arguments alone (string.h, strtol(), qsort(), snprintf()
 * into a buffer, sqrt() ...) and a few data symbols (stdout, stderr,
 * optarg ...).  Everything else is refused at build time.
 */
#ifndef SIM_PROGRAM_HOSTCALLS_H
#define SIM_PROGRAM_HOSTCALLS_H

/*
 * sim_hostcall_allowed - may an object of the program keep the
 * undefined symbol @sym (no version suffix)?
 * Return: 1 for a futexsim_* function of the layer or a symbol of the
 * allow list (the f and l variants of the math functions included),
 * 0 otherwise.
 */
int sim_hostcall_allowed(const char *sym);

/*
 * sim_hostcall_insn - does the disassembled instruction @insn (objdump's
 * text after the address: mnemonic and operands) reach the host or its
 * clock directly: syscall, sysenter, int $0x80, rdtsc, rdtscp, rdrand,
 * rdseed, rdpid, cpuid?
 * Return: the instruction's name ("int $0x80" for that one), or NULL.
 */
const char *sim_hostcall_insn(const char *insn);

#endif /* SIM_PROGRAM_HOSTCALLS_H */
