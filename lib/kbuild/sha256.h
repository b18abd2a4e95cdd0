/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SHA-256 (FIPS 180-4), for content-addressed caches: small and
 * dependency-free, not hardened against timing side channels (it hashes
 * nothing secret).
 */
#ifndef TT_LIB_SHA256_H
#define TT_LIB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define TT_SHA256_LEN 32
#define TT_SHA256_HEX_LEN 64

struct tt_sha256 {
	uint32_t h[8];
	uint64_t bytes; /* message length so far */
	uint8_t block[64];
	size_t fill; /* bytes waiting in block */
};

void tt_sha256_init(struct tt_sha256 *s);
void tt_sha256_update(struct tt_sha256 *s, const void *data, size_t len);
/* Finish: the digest goes to out; s must be initialised again for reuse. */
void tt_sha256_final(struct tt_sha256 *s, uint8_t out[TT_SHA256_LEN]);

/* One-shot digest of data[0..len). */
void tt_sha256(const void *data, size_t len, uint8_t out[TT_SHA256_LEN]);

/* Lower-case hex of a digest, NUL-terminated (TT_SHA256_HEX_LEN + 1). */
void tt_sha256_hex(const uint8_t d[TT_SHA256_LEN],
		   char hex[TT_SHA256_HEX_LEN + 1]);

#endif /* TT_LIB_SHA256_H */
