// SPDX-License-Identifier: Apache-2.0
/*
 * Reflected CRC-32, polynomial 0xEDB88320, four bits at a time: a 64-byte
 * table instead of a 1 KiB one, fast enough for a few payloads at boot.
 */
#include "fw/crc32.h"

static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1DB71064, 0x3B6E20C8, 0x26D930AC,
	0x76DC4190, 0x6B6B51F4, 0x4DB26158, 0x5005713C,
	0xEDB88320, 0xF00F9344, 0xD6D6A3E8, 0xCB61B38C,
	0x9B64C2B0, 0x86D3D2D4, 0xA00AE278, 0xBDBDF21C,
};

uint32_t crc32(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc_nibble[crc & 0xF];
		crc = (crc >> 4) ^ crc_nibble[crc & 0xF];
	}
	return ~crc;
}
