/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/futexsim_atomic.h - a user program's atomics as
 * scheduling points of the simulated machine.
 *
 * Stage: user program -> machine (sim_hook()).  Included by
 * workloads/libsim/futexsim.h, i.e. force-included into the program.
 * Each GCC __atomic and __sync builtin is redefined as a macro that first
 * reports the access to the machine, futexsim_atomic(ptr, size, kind),
 * and then performs the builtin itself (a macro's own name is not
 * expanded again inside it).  The report is what workloads/ulock/
 * uatomic.h does for the project's own locks: the access is charged by
 * the cache-line model, and the machine may switch to another CPU before
 * it happens.  gcc's <stdatomic.h> implements atomic_load(),
 * atomic_fetch_add() and the rest with these builtins, so C11 atomics
 * are covered too; operators on _Atomic objects (x++, x = 1) are not.
 *
 * The kinds are those of enum sim_access (sim/machine/hooks.h), checked there.
 */
#ifndef FUTEXSIM_ATOMIC_H
#define FUTEXSIM_ATOMIC_H

#define FUTEXSIM_LOAD	0
#define FUTEXSIM_STORE	1
#define FUTEXSIM_RMW	2
#define FUTEXSIM_RELAX	3
#define FUTEXSIM_FENCE	4

/* futexsim_atomic - the running task is about to access @size bytes at
 * @p (@kind: FUTEXSIM_*); a scheduling point.  Outside a simulated task
 * it does nothing. */
void futexsim_atomic(const volatile void *p, unsigned int size, int kind);

#ifndef FUTEXSIM_NO_RENAME	/* the layer's own files keep the builtins */

#define FUTEXSIM__A(p, kind, op)					\
	__extension__ ({						\
		__auto_type _fs_p = (p);				\
		futexsim_atomic(_fs_p, sizeof(*_fs_p), (kind));		\
		op;							\
	})

#define __atomic_load_n(p, mo)	FUTEXSIM__A(p, FUTEXSIM_LOAD, __atomic_load_n(_fs_p, mo))
#define __atomic_load(p, r, mo)	FUTEXSIM__A(p, FUTEXSIM_LOAD, __atomic_load(_fs_p, r, mo))
#define __atomic_store_n(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_STORE, __atomic_store_n(_fs_p, v, mo))
#define __atomic_store(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_STORE, __atomic_store(_fs_p, v, mo))
#define __atomic_exchange_n(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_exchange_n(_fs_p, v, mo))
#define __atomic_exchange(p, v, r, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_exchange(_fs_p, v, r, mo))
#define __atomic_compare_exchange_n(p, e, d, w, s, f) \
	FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_compare_exchange_n(_fs_p, e, d, w, s, f))
#define __atomic_compare_exchange(p, e, d, w, s, f) \
	FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_compare_exchange(_fs_p, e, d, w, s, f))
#define __atomic_fetch_add(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_fetch_add(_fs_p, v, mo))
#define __atomic_fetch_sub(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_fetch_sub(_fs_p, v, mo))
#define __atomic_fetch_and(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_fetch_and(_fs_p, v, mo))
#define __atomic_fetch_or(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_fetch_or(_fs_p, v, mo))
#define __atomic_fetch_xor(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_fetch_xor(_fs_p, v, mo))
#define __atomic_fetch_nand(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_fetch_nand(_fs_p, v, mo))
#define __atomic_add_fetch(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_add_fetch(_fs_p, v, mo))
#define __atomic_sub_fetch(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_sub_fetch(_fs_p, v, mo))
#define __atomic_and_fetch(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_and_fetch(_fs_p, v, mo))
#define __atomic_or_fetch(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_or_fetch(_fs_p, v, mo))
#define __atomic_xor_fetch(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_xor_fetch(_fs_p, v, mo))
#define __atomic_nand_fetch(p, v, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_nand_fetch(_fs_p, v, mo))
#define __atomic_test_and_set(p, mo) FUTEXSIM__A(p, FUTEXSIM_RMW, __atomic_test_and_set(_fs_p, mo))
#define __atomic_clear(p, mo)	FUTEXSIM__A(p, FUTEXSIM_STORE, __atomic_clear(_fs_p, mo))
#define __atomic_thread_fence(mo) \
	(futexsim_atomic(0, 0, FUTEXSIM_FENCE), __atomic_thread_fence(mo))

#define __sync_fetch_and_add(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_fetch_and_add(_fs_p, v))
#define __sync_fetch_and_sub(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_fetch_and_sub(_fs_p, v))
#define __sync_fetch_and_or(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_fetch_and_or(_fs_p, v))
#define __sync_fetch_and_and(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_fetch_and_and(_fs_p, v))
#define __sync_fetch_and_xor(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_fetch_and_xor(_fs_p, v))
#define __sync_fetch_and_nand(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_fetch_and_nand(_fs_p, v))
#define __sync_add_and_fetch(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_add_and_fetch(_fs_p, v))
#define __sync_sub_and_fetch(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_sub_and_fetch(_fs_p, v))
#define __sync_or_and_fetch(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_or_and_fetch(_fs_p, v))
#define __sync_and_and_fetch(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_and_and_fetch(_fs_p, v))
#define __sync_xor_and_fetch(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_xor_and_fetch(_fs_p, v))
#define __sync_nand_and_fetch(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_nand_and_fetch(_fs_p, v))
#define __sync_bool_compare_and_swap(p, o, n) \
	FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_bool_compare_and_swap(_fs_p, o, n))
#define __sync_val_compare_and_swap(p, o, n) \
	FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_val_compare_and_swap(_fs_p, o, n))
#define __sync_lock_test_and_set(p, v) FUTEXSIM__A(p, FUTEXSIM_RMW, __sync_lock_test_and_set(_fs_p, v))
#define __sync_lock_release(p)	FUTEXSIM__A(p, FUTEXSIM_STORE, __sync_lock_release(_fs_p))
#define __sync_synchronize() \
	(futexsim_atomic(0, 0, FUTEXSIM_FENCE), __sync_synchronize())

/* PAUSE in a spin loop (x86 cpu_relax()): a RELAX scheduling point. */
#define __builtin_ia32_pause() futexsim_atomic(0, 0, FUTEXSIM_RELAX)

#endif /* FUTEXSIM_NO_RENAME */

#endif /* FUTEXSIM_ATOMIC_H */
