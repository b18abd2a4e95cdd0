/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * The tile coprocessor of a Tensix node, and its circular-buffer counters.
 *
 * Two register pages, on Tensix nodes only:
 *
 *   TT_REG_TENSIX  0xFFB1_6000  the coprocessor: operand registers and a
 *                               command register
 *   TT_REG_CB      0xFFB1_7000  circular-buffer counters, TT_CB_COUNT CBs
 *
 * The coprocessor stands for the unpacker, the matrix unit (FPU), the vector
 * unit (SFPU) and the packer. It holds the destination registers, DST:
 * TT_DST_TILES_16 tiles of 32x32 in 16-bit mode, TT_DST_TILES_32 with fp32
 * accumulation (CFG.FP32_DST). Operands are tiles in L1 in any data format
 * of common/dataformat.h (TT-Metal numbering); format conversion happens on
 * the way in (unpack) and out (pack), so the math sees values, never
 * encodings.
 *
 * To run an operation: write the operand registers it uses, then write
 * TT_TX_CMD. The write returns when the operation is done (the model runs
 * it to completion before the store retires); STATUS then holds 0 or a
 * TT_TX_ERR_* code. An operation that fails also refuses the CMD store, so
 * a hart that issues a bad command halts with a store access fault and
 * the reason is in the device error log (hw/host.h) -- kernels need not
 * check STATUS.
 *
 * Numerics:
 *  - Unpack into the FPU's source registers (A, B) keeps at most TF32
 *    precision (10 mantissa bits, truncated); TT_TX_COPY into DST keeps
 *    full fp32 when CFG.FP32_DST is set.
 *  - DST in 16-bit mode holds bfloat16 (Float16 if operand A is Float16):
 *    every result written to DST is rounded to nearest even.
 *  - Math fidelity (CFG.FIDELITY) applies to MUL, MATMUL and REDUCE SUM/AVG:
 *    the multiplier sees A with 4 (LoFi) or 8 (HiFi2 and up) mantissa bits
 *    and B with 6 (LoFi, HiFi2) or 10 (HiFi3 adds A's top 4 bits times B's
 *    next 4; HiFi4 all of them), as in TT-Metal's
 *    tech_reports/matrix_engine/matrix_engine.md. ADD, SUB and REDUCE MAX
 *    ignore fidelity.
 *  - The vector unit computes in fp32; CFG.APPROX selects faster
 *    approximations of exp, log, sqrt, reciprocal, gelu, sigmoid, tanh.
 *
 * Besides commands, the vector unit runs single instructions on its own
 * vector registers and DST (hw/sfpi.h): write one to TT_TX_SFPI. It
 * reports like a command (STATUS, a refused store) and counts in OPS
 * (and in FLOPS, 32 per ADD, SUB, MUL or MAD).
 */
#ifndef TT_HW_TENSIX_H
#define TT_HW_TENSIX_H

#include "bits.h"
#include "tile.h"

#define TT_DST_TILES_16 16u /* DST capacity, 16-bit mode */
#define TT_DST_TILES_32 8u /* DST capacity, fp32 accumulation */

/* Coprocessor page (TT_REG_TENSIX). All registers RW unless marked. */
#define TT_TX_CFG 0x00 /* configuration, below */
#define TT_TX_A_ADDR 0x04 /* operand A: L1 address */
#define TT_TX_A_FMT 0x08 /*   its data format */
#define TT_TX_B_ADDR 0x0C /* operand B */
#define TT_TX_B_FMT 0x10
#define TT_TX_OUT_ADDR 0x14 /* PACK destination */
#define TT_TX_OUT_FMT 0x18
#define TT_TX_DST 0x1C /* DST tile index */
#define TT_TX_ARG0 0x20 /* operation arguments, per command */
#define TT_TX_ARG1 0x24
#define TT_TX_ARG2 0x28
#define TT_TX_ARG3 0x2C
#define TT_TX_CMD 0x30 /* write: run a command (below); reads 0 */
#define TT_TX_STATUS 0x34 /* RO: TT_TX_ERR_* of the last command */
#define TT_TX_OPS_LO 0x38 /* RO: commands run since reset */
#define TT_TX_OPS_HI 0x3C
#define TT_TX_FLOPS_LO 0x40 /* RO: multiply-adds done, for telemetry */
#define TT_TX_FLOPS_HI 0x44
#define TT_TX_DST_TILES 0x48 /* RO: DST capacity in the current mode */
/* write: run one vector-unit instruction (hw/sfpi.h); reads 0 */
#define TT_TX_SFPI 0x4C

/* TT_TX_CFG */
#define TT_TX_CFG_FP32_DST TT_BIT(0) /* 32-bit DST, half the tiles */
#define TT_TX_CFG_FIDELITY_MASK TT_GENMASK(3, 1) /* enum tt_tx_fidelity */
#define TT_TX_CFG_APPROX TT_BIT(4) /* approximate vector functions */

enum tt_tx_fidelity {
	TT_TX_LOFI = 0,
	TT_TX_HIFI2 = 2,
	TT_TX_HIFI3 = 3,
	TT_TX_HIFI4 = 4,
};

/*
 * TT_TX_CMD: [7:0] enum tt_tx_op, [15:8] sub-operation, [23:16] flags.
 * "tile at X" is one tile in X's format at X's address; DST[d] is DST
 * tile d = TT_TX_DST.
 */
#define TT_TX_CMD_OP_MASK TT_GENMASK(7, 0)
#define TT_TX_CMD_SUB_MASK TT_GENMASK(15, 8)
#define TT_TX_CMD_FLAGS_MASK TT_GENMASK(23, 16)
#define TT_TX_COMMAND(op, sub, flags) \
	((uint32_t)(op) | (uint32_t)(sub) << 8 | (uint32_t)(flags) << 16)

enum tt_tx_op {
	/* DST[d .. d + ARG0) = 0 (ARG0 = 0 means 1). */
	TT_TX_ZERO = 1,
	/* DST[d] = tile at A; flag TRANSPOSE transposes it. */
	TT_TX_COPY = 2,
	/* DST[d] = tile at A <sub> tile at B (enum tt_tx_binary: ADD, SUB,
	 * MUL), B broadcast by flag BCAST_ROW (B's row 0 to every row),
	 * BCAST_COL (column 0 to every column) or BCAST_SCALAR (element
	 * (0,0)); flag ACC adds the result to DST[d] instead. */
	TT_TX_ELTWISE = 3,
	/* Block matrix product, accumulated: for r < RT, c < CT:
	 *   DST[d + r*CT + c] += sum over k < KT of A(r,k) x B(k,c)
	 * with ARG0 = RT | CT << 8 | KT << 16 (each 1..255; RT*CT tiles of
	 * DST), A(r,k) the tile at A_ADDR + (r*ARG1 + k) * tile size, B(k,c)
	 * the tile at B_ADDR + (k*ARG2 + c) * tile size: ARG1 and ARG2 are
	 * the row strides, in tiles, of the A and B blocks. Flag TRANSPOSE
	 * transposes every B tile. */
	TT_TX_MATMUL = 4,
	/* Reduce the tile at A, times the scalar at element (0,0) of the
	 * tile at B, into DST[d] (sub: enum tt_tx_reduce; flags REDUCE_ROW:
	 * each row to column 0, REDUCE_COL: each column to row 0,
	 * REDUCE_SCALAR: all to element (0,0)). SUM and AVG add to DST[d];
	 * MAX keeps the larger (a DST tile zeroed since it was last written
	 * counts as -inf). Other DST elements are left as they are. */
	TT_TX_REDUCE = 5,
	/* DST[d] = f(DST[d]) elementwise (sub: enum tt_tx_sfpu), with ARG0
	 * an fp32 parameter (the exponent of POWER, the value of FILL, the
	 * slope of LEAKY_RELU). */
	TT_TX_SFPU = 6,
	/* DST[d] = DST[d] <sub> DST[ARG0] (enum tt_tx_binary). */
	TT_TX_SFPU_BINARY = 7,
	/* Tile at OUT = DST[d], in OUT_FMT; flag UNTILIZE writes the 32x32
	 * values row-major instead, rows ARG0 bytes apart. */
	TT_TX_PACK = 8,
	/* DST[d] = 32 rows of 32 values at A, row-major, rows ARG0 bytes
	 * apart (on-device tilize); A_FMT must not be a block format. */
	TT_TX_TILIZE = 9,
	TT_TX_OP_COUNT
};

/* Flags, TT_TX_CMD [23:16] */
#define TT_TX_F_TRANSPOSE 0x01u
#define TT_TX_F_BCAST_ROW 0x02u
#define TT_TX_F_BCAST_COL 0x04u
#define TT_TX_F_BCAST_SCALAR 0x08u
#define TT_TX_F_ACC 0x10u
#define TT_TX_F_UNTILIZE 0x20u
#define TT_TX_F_REDUCE_ROW 0x02u
#define TT_TX_F_REDUCE_COL 0x04u
#define TT_TX_F_REDUCE_SCALAR 0x08u

enum tt_tx_binary {
	TT_TX_ADD = 0,
	TT_TX_SUB = 1, /* a - b */
	TT_TX_MUL = 2,
	TT_TX_DIV = 3, /* SFPU_BINARY only */
	TT_TX_MAX = 4, /* SFPU_BINARY only */
	TT_TX_MIN = 5, /* SFPU_BINARY only */
	TT_TX_RSUB = 6, /* b - a, SFPU_BINARY only */
	TT_TX_POW = 7, /* a^b, SFPU_BINARY only */
};

enum tt_tx_reduce {
	TT_TX_REDUCE_SUM = 0,
	TT_TX_REDUCE_AVG = 1, /* SUM; the scaler carries 1/N */
	TT_TX_REDUCE_MAX = 2,
};

enum tt_tx_sfpu {
	TT_TX_EXP = 0,
	TT_TX_LOG = 1,
	TT_TX_SQRT = 2,
	TT_TX_RECIP = 3,
	TT_TX_RELU = 4,
	TT_TX_GELU = 5,
	TT_TX_SIGMOID = 6,
	TT_TX_TANH = 7,
	TT_TX_ABS = 8,
	TT_TX_SQUARE = 9,
	TT_TX_NEG = 10,
	TT_TX_POWER = 11, /* x^ARG0 */
	TT_TX_RSQRT = 12,
	TT_TX_EXP2 = 13,
	TT_TX_SILU = 14,
	TT_TX_SIN = 15,
	TT_TX_COS = 16,
	TT_TX_SIGN = 17,
	TT_TX_FILL = 18, /* ARG0 */
	TT_TX_LEAKY_RELU = 19, /* slope ARG0 */
	TT_TX_EXPM1 = 20,
	TT_TX_ERF = 21,
	TT_TX_SFPU_COUNT
};

/* TT_TX_STATUS */
enum tt_tx_err {
	TT_TX_OK = 0,
	TT_TX_ERR_OP = 1, /* unknown command or sub-operation, bad flags */
	TT_TX_ERR_DST = 2, /* DST index (or block) beyond the capacity */
	TT_TX_ERR_FORMAT = 3, /* unknown format, or none for this use */
	TT_TX_ERR_ADDR = 4, /* an operand outside L1 */
	TT_TX_ERR_ARG = 5, /* bad ARG value (block size, row stride) */
	TT_TX_ERR_CC = 6, /* TT_TX_SFPI: condition stack over/underflow */
};

/*
 * Circular-buffer counters (TT_REG_CB), TT-Metal's tiles-received and
 * tiles-acked: 16-bit, wrapping. CB i's registers at TT_CB_REG(i, reg):
 *
 *   RECEIVED      RW  pages pushed, mod 2^16 (writes keep bits [15:0])
 *   ACKED         RW  pages popped, mod 2^16
 *   RECEIVED_INC  WO  adds the value written to RECEIVED (push)
 *   ACKED_INC     WO  adds the value written to ACKED (pop)
 *
 * Pages available to the consumer = (uint16_t)(RECEIVED - ACKED); free
 * to the producer = capacity - that. The counters are written by the
 * node's harts and by other nodes over the NOC; a hart waiting on one (the
 * wait hint, hw/hart.h) is woken by every change. A chip reset zeroes
 * them; whoever launches a program zeroes those of the CBs it uses before
 * the program's kernels start (hw/l1.h).
 */
#define TT_CB_COUNT 32u
#define TT_CB_STRIDE 0x10u
#define TT_CB_RECEIVED 0x0
#define TT_CB_ACKED 0x4
#define TT_CB_RECEIVED_INC 0x8
#define TT_CB_ACKED_INC 0xC
#define TT_CB_REG(i, reg) ((i) * TT_CB_STRIDE + (reg))

#endif /* TT_HW_TENSIX_H */
