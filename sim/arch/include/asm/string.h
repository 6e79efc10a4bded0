/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/string.h - string functions of "arch sim".
 *
 * Stage: kernel (library).  Included by linux/string.h.
 * Contract: no arch versions; the memcpy()/memset()/str*() that
 * linux/string.h declares resolve at link time to the host C library
 * (the kernel TUs are linked into the simulator binary).
 */
#ifndef _SIM_ASM_STRING_H
#define _SIM_ASM_STRING_H

#endif /* _SIM_ASM_STRING_H */
