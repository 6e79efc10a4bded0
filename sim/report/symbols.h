/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/symbols.h - a user program's addresses by name: the
 * variable, its member or element, and where it is declared
 * ("mtx.word (prog.c:14)", "slots[3]", "counter+8"), a heap block by
 * where it was allocated ("malloc'd at prog.c:40 +8").
 *
 * Stage: trace/report.  Called by the trace's writers and narration
 * (sim/trace/trace_names.c), --lock-stat, the report's "futex words"
 * section and the wait-for cycle; sim_sym_heap_block() by the program's
 * allocator (workloads/libsim/sys.c).  Reads the executable
 * (/proc/self/exe) once, lazily, at the first name asked for: its ELF
 * .symtab (<elf.h>) for any object, and the DWARF of the program's own
 * compile units (those before the simulator's first one), as `readelf
 * --debug-dump=info` prints it, for variables, members and declaration
 * lines.  No binutils, no debug info: names from .symtab only, or none.
 *
 * Contract: a name is a function of the address and the executable only
 * (the -no-pie program's globals and the arena are at fixed addresses),
 * so it is the same in every run; no host address is printed.  Memory is
 * fixed but for the DWARF read once (freed by nothing: the process ends).
 */
#ifndef SIM_REPORT_SYMBOLS_H
#define SIM_REPORT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/*
 * sim_sym_name - @addr named: "var.member[2] (file.c:LINE)" from DWARF,
 * "sym+OFF" from .symtab, "malloc'd at file.c:LINE +OFF" for a heap
 * block whose allocation site is known, else "0x..." (its hex).
 * Return: @buf.
 */
const char *sim_sym_name(uint64_t addr, char *buf, size_t len);
/* sim_sym_known - @addr has a name other than its hex. */
int sim_sym_known(uint64_t addr);
/* sim_sym_heap_block - the program allocated [@addr, @addr + @size) at
 * return address @site (its caller's PC); remembered for names. */
void sim_sym_heap_block(uint64_t addr, uint64_t size, uint64_t site);
/* sim_sym_set_resolver - names for what neither the executable nor the
 * heap blocks name (the layer's own objects: workloads/program.c); @fn
 * returns 1 with the name in @buf, else 0.  NULL: none. */
void sim_sym_set_resolver(int (*fn)(uint64_t addr, char *buf, size_t len));
/* sim_sym_reset - forget the heap blocks (a program's run begins). */
void sim_sym_reset(void);

#endif /* SIM_REPORT_SYMBOLS_H */
