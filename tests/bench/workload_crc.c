// SPDX-License-Identifier: Apache-2.0
/*
 * A compute-bound workload for bench-hart: each round fills a buffer from
 * a xorshift generator, takes its bitwise CRC-32, insertion-sorts an array
 * and mixes in a few multiplies and divides. Freestanding (no libc), so
 * the same source builds for the RV32IM image and for the host.
 */
#include "rv32/workload.h"

#define BUF_BYTES 2048
#define SORT_N 128

static uint8_t buf[BUF_BYTES];
static uint32_t arr[SORT_N];

static uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

static uint32_t crc32(const uint8_t *p, uint32_t n, uint32_t crc)
{
	crc = ~crc;
	for (uint32_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

static void insertion_sort(uint32_t *a, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		uint32_t v = a[i], j = i;

		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

uint32_t workload(uint32_t rounds)
{
	uint32_t seed = 0x12345678, acc = 0;

	for (uint32_t r = 0; r < rounds; r++) {
		for (uint32_t i = 0; i < BUF_BYTES; i += 4) {
			uint32_t v = xorshift(&seed);

			buf[i] = (uint8_t)v;
			buf[i + 1] = (uint8_t)(v >> 8);
			buf[i + 2] = (uint8_t)(v >> 16);
			buf[i + 3] = (uint8_t)(v >> 24);
		}
		acc = crc32(buf, BUF_BYTES, acc);
		for (uint32_t i = 0; i < SORT_N; i++)
			arr[i] = xorshift(&seed) % 100000;
		insertion_sort(arr, SORT_N);
		acc += arr[r % SORT_N] ^ arr[SORT_N / 2];
		acc = acc * 2654435761u + (acc / (r + 3)) % 1000;
	}
	return acc;
}
