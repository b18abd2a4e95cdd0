/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Telemetry: the management firmware's tag table (hw/telemetry.h) as the
 * tt_* attributes of the class device and as hwmon channels.
 */
#ifndef TT_DRIVER_TELEMETRY_H
#define TT_DRIVER_TELEMETRY_H

#include <linux/bitmap.h>
#include <linux/hwmon.h>
#include <linux/types.h>

#include <hw/telemetry.h>

struct attribute_group;
struct tt_device;

/**
 * struct tt_telemetry - the first value of each tag the firmware publishes
 * @value: value of tag t, valid if bit t of @have is set
 * @have: tags found in the table
 */
struct tt_telemetry {
	u32 value[TT_TAG_COUNT_MAX];
	DECLARE_BITMAP(have, TT_TAG_COUNT_MAX);
};

/**
 * struct tt_telem_csm - the management firmware's memory, as a backend
 *	reads it; it starts at local address TT_ARC_CSM_BASE
 * @read32: the word at byte offset @off (aligned, inside @size)
 * @ctx: the backend's, for @read32
 * @size: bytes of the memory
 */
struct tt_telem_csm {
	u32 (*read32)(const struct tt_telem_csm *csm, u32 off);
	void *ctx;
	u64 size;
};

/*
 * Pure, so that KUnit can test them (tt_telemetry_kunit.c): a tag's value
 * in hwmon units, and the table parser that trusts nothing it reads.
 */
long tt_telem_hwmon_value(enum hwmon_sensor_types type, u32 attr,
			  unsigned int tag, u32 raw);
int tt_telem_parse(const struct tt_telem_csm *csm, u32 table_addr,
		   u32 data_addr, struct tt_telemetry *t);

/* Note which tags are published, before the class device is added. */
void tt_telemetry_probe(struct tt_device *tdev);

/* The tt_* attributes, for the class device's groups. */
extern const struct attribute_group *tt_telemetry_groups[];

/* hwmon under the PCI function, if the firmware publishes telemetry. */
void tt_telemetry_hwmon_add(struct tt_device *tdev);

#endif /* TT_DRIVER_TELEMETRY_H */
