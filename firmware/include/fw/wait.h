/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The wait hint (hw/hart.h): the only way firmware waits, so that an idle
 * hart costs the host nothing.
 */
#ifndef TT_FW_WAIT_H
#define TT_FW_WAIT_H

#include <stdint.h>

/*
 * "tt.waitne addr, val": sleep while the word at addr equals val, or until
 * the hart's WAKE_AT time. It may return early for any reason, so callers
 * re-check their condition in a loop. Emitted as custom-0 R-type,
 * funct3 0, funct7 0, rd x0, which is TT_INSN_WAIT_NE(rs1, rs2).
 */
static inline void tt_wait_ne(const volatile uint32_t *addr, uint32_t val)
{
	__asm__ volatile(".insn r 0x0B, 0, 0, x0, %0, %1"
			 :
			 : "r"(addr), "r"(val)
			 : "memory");
}

/* Sleep until the word at addr differs from val; no timer. WAKE_AT must
 * be 0 (hart_set_wake_at()) or the loop spins once it has passed. */
static inline uint32_t tt_wait_change(const volatile uint32_t *addr,
				      uint32_t val)
{
	uint32_t now;

	while ((now = *addr) == val)
		tt_wait_ne(addr, val);
	return now;
}

/*
 * "tt.waitge addr, val": sleep while the word at addr is below val in
 * wrapping order, or until WAKE_AT. Custom-0 R-type, funct3 1, funct7 0
 * (TT_INSN_WAIT_GE). It may return early.
 */
static inline void tt_wait_ge(const volatile uint32_t *addr, uint32_t val)
{
	__asm__ volatile(".insn r 0x0B, 1, 0, x0, %0, %1"
			 :
			 : "r"(addr), "r"(val)
			 : "memory");
}

/* Sleep until the counter at addr reaches target (wrapping); returns its
 * value. Woken once, not at every increment. WAKE_AT must be 0. */
static inline uint32_t tt_wait_reach(const volatile uint32_t *addr,
				     uint32_t target)
{
	uint32_t now;

	while ((int32_t)((now = *addr) - target) < 0)
		tt_wait_ge(addr, target);
	return now;
}

#endif /* TT_FW_WAIT_H */
