// SPDX-License-Identifier: Apache-2.0
/*
 * Numerics and operands shared by the coprocessor's units: fidelity, the
 * L1 and format checks of tile operands, unpacking a tile.
 *
 * Math fidelity is modelled by what the multiplier sees of each operand,
 * mantissas truncated (Ax: A with x mantissa bits):
 *
 *   LoFi    A4 x B6
 *   HiFi2   A8 x B6
 *   HiFi3   A8 x B6 + A4 x (B10 - B6)
 *   HiFi4   A8 x B10
 *
 * Products of such operands are exact in fp32.
 */
#include "tensix_impl.h"

bool tx_fidelity(unsigned fid, struct tx_passes *p)
{
	switch (fid) {
	case TT_TX_LOFI:
		*p = (struct tx_passes){ 4, 6, false };
		return true;
	case TT_TX_HIFI2:
		*p = (struct tx_passes){ 8, 6, false };
		return true;
	case TT_TX_HIFI3:
		*p = (struct tx_passes){ 8, 6, true };
		return true;
	case TT_TX_HIFI4:
		*p = (struct tx_passes){ 8, 10, false };
		return true;
	default:
		return false;
	}
}

bool tx_in_l1(const struct tx_cmd *c, uint64_t addr, uint64_t len)
{
	return addr <= c->l1_size && len <= c->l1_size - addr;
}

bool tx_fmt_ok(uint32_t fmt)
{
	return df_is_supported((enum df_format)fmt);
}

enum tt_tx_err tx_tile_check(const struct tx_cmd *c, uint32_t addr,
			     uint32_t fmt)
{
	if (!tx_fmt_ok(fmt))
		return TT_TX_ERR_FORMAT;
	if (!tx_in_l1(c, addr, df_tile_bytes((enum df_format)fmt)))
		return TT_TX_ERR_ADDR;
	return TT_TX_OK;
}

void tx_tile_load(const struct tx_cmd *c, uint64_t addr, uint32_t fmt,
		  float *out)
{
	enum df_format f = (enum df_format)fmt;

	df_untilize_convert(DF_FLOAT32, out, sizeof(float) * TX_ELEMS, f,
			    c->l1 + addr, df_tile_bytes(f), TX_DIM, TX_DIM);
}

void tx_to_src(float *t)
{
	for (unsigned i = 0; i < TX_ELEMS; i++)
		t[i] = tx_keep(t[i], TX_TF32_BITS);
}

void tx_transpose(float *dst, const float *src)
{
	for (unsigned r = 0; r < TX_DIM; r++)
		for (unsigned k = 0; k < TX_DIM; k++)
			dst[r * TX_DIM + k] = src[k * TX_DIM + r];
}
