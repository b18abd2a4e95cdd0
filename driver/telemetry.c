// SPDX-License-Identifier: GPL-2.0-only
/*
 * Telemetry (reference: tt-kmd's sysfs-attributes and hwmon). Every read
 * takes the table afresh from the device through the backend, under the
 * device lock, and not at all once the device is detached: the values
 * change every few milliseconds, and a reset may move the table.
 *
 * An attribute or channel exists if its tag was published when the device
 * was added (tt_telemetry_probe()); a tag that disappears later reads as
 * -ENODATA.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/hwmon.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <hw/arch.h>
#include <hw/card.h>
#include <hw/tile.h>

#include "tenstorrent.h"
#include "telemetry.h"

/* ---- conversions ---- */

/*
 * Raw value @raw of @tag in the hwmon unit of @type and @attr
 * (Documentation/hwmon/sysfs-interface.rst): millidegrees C, mV, mA, uW,
 * rpm. The encoding is the contract's (hw/telemetry.h); values beyond a
 * long saturate.
 */
long tt_telem_hwmon_value(enum hwmon_sensor_types type, u32 attr,
			  unsigned int tag, u32 raw)
{
	enum tt_telem_enc enc = tt_telem_tag_enc(tag);
	s64 v;

	if (enc == TT_TELEM_ENC_VDD_LIMITS)
		v = type == hwmon_in && attr == hwmon_in_min ?
			    tt_telem_vdd_min_mv(raw) : tt_telem_vdd_max_mv(raw);
	else if (type == hwmon_power)
		v = tt_telem_to_micro(enc, raw);
	else if (type == hwmon_temp || type == hwmon_in || type == hwmon_curr)
		v = tt_telem_to_milli(enc, raw);
	else
		v = tt_telem_num(enc, raw);
	return (long)clamp_t(s64, v, LONG_MIN, LONG_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(tt_telem_hwmon_value);

/* ---- the table (hw/telemetry.h) ---- */

/* Offset in the CSM of local address addr, if len bytes fit there. */
static bool tt_telem_csm_off(const struct tt_telem_csm *csm, u32 addr,
			     u32 len, u32 *off)
{
	u64 rel = (u64)addr - TT_ARC_CSM_BASE;

	if (addr < TT_ARC_CSM_BASE || rel > csm->size ||
	    len > csm->size - rel || addr % 4)
		return false;
	*off = (u32)rel;
	return true;
}

/*
 * Fill @t from the table at @table_addr and the values at @data_addr
 * (local addresses). -ENODATA if there is no valid table: a wrong
 * version, more entries than the format allows, or a table that does not
 * fit the memory. An entry whose tag is out of range or already seen, or
 * whose value lies outside the memory, is skipped.
 */
int tt_telem_parse(const struct tt_telem_csm *csm, u32 table_addr,
		   u32 data_addr, struct tt_telemetry *t)
{
	u32 table, data, count, i;

	if (!tt_telem_csm_off(csm, table_addr, 8, &table) ||
	    csm->read32(csm, table) != TT_TELEM_VERSION)
		return -ENODATA;
	count = csm->read32(csm, table + 4);
	if (count > TT_TELEM_MAX_ENTRIES ||
	    !tt_telem_csm_off(csm, table_addr, 8 + 4 * count, &table))
		return -ENODATA;
	bitmap_zero(t->have, TT_TAG_COUNT_MAX);
	for (i = 0; i < count; i++) {
		u32 e = csm->read32(csm, table + 8 + 4 * i);
		u32 tag = TT_TELEM_ENTRY_TAG(e), off = TT_TELEM_ENTRY_OFF(e);
		u64 addr = (u64)data_addr + 4ull * off;

		if (tag >= TT_TAG_COUNT_MAX || test_bit(tag, t->have) ||
		    addr > U32_MAX ||
		    !tt_telem_csm_off(csm, (u32)addr, 4, &data))
			continue;
		t->value[tag] = csm->read32(csm, data);
		__set_bit(tag, t->have);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tt_telem_parse);

/* ---- reading ---- */

static int tt_telemetry_read(struct tt_device *tdev, struct tt_telemetry *t)
{
	int ret = -ENODATA;

	if (!tdev->backend->telemetry)
		return -ENODATA;
	mutex_lock(&tdev->lock);
	if (!tdev->detached)
		ret = tdev->backend->telemetry(tdev, t);
	mutex_unlock(&tdev->lock);
	return ret;
}

/* The table as the device publishes it now; kfree() it. */
static struct tt_telemetry *tt_telemetry_get(struct tt_device *tdev)
{
	struct tt_telemetry *t = kmalloc(sizeof(*t), GFP_KERNEL);
	int ret;

	if (!t)
		return ERR_PTR(-ENOMEM);
	ret = tt_telemetry_read(tdev, t);
	if (ret) {
		kfree(t);
		return ERR_PTR(ret);
	}
	return t;
}

static int tt_tag(const struct tt_telemetry *t, unsigned int tag, u32 *v)
{
	if (!test_bit(tag, t->have))
		return -ENODATA;
	*v = t->value[tag];
	return 0;
}

/*
 * Which tags the firmware publishes, once, before the device is added:
 * what tt_telemetry_published() says decides which files exist.
 */
void tt_telemetry_probe(struct tt_device *tdev)
{
	struct tt_telemetry *t = tt_telemetry_get(tdev);

	bitmap_zero(tdev->telem_tags, TT_TAG_COUNT_MAX);
	if (IS_ERR(t))
		return;
	bitmap_copy(tdev->telem_tags, t->have, TT_TAG_COUNT_MAX);
	kfree(t);
}

static bool tt_telemetry_published(const struct tt_device *tdev,
				   unsigned int tag)
{
	return test_bit(tag, tdev->telem_tags);
}

/* ---- tt_* attributes ---- */

enum tt_telem_fmt {
	TT_FMT_DECIMAL,
	TT_FMT_VERSION, /* a.b.c.d, one byte each */
	TT_FMT_ETH_VERSION, /* major [23:16], minor [15:12], patch [11:0] */
	TT_FMT_HEX64, /* tag is the high word, tag + 1 the low word */
	TT_FMT_CARD,
};

struct tt_telem_attr {
	struct device_attribute attr;
	u16 tag;
	u16 fmt;
};

#define to_telem_attr(a) container_of(a, struct tt_telem_attr, attr)

static ssize_t tt_telem_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct tt_device *tdev = container_of(dev, struct tt_device, dev);
	const struct tt_telem_attr *ta = to_telem_attr(attr);
	struct tt_telemetry *t = tt_telemetry_get(tdev);
	u32 v, lo = 0;
	ssize_t ret;

	if (IS_ERR(t))
		return PTR_ERR(t);
	ret = tt_tag(t, ta->tag, &v);
	if (!ret && ta->fmt == TT_FMT_HEX64)
		ret = tt_tag(t, ta->tag + 1, &lo);
	kfree(t);
	if (ret)
		return ret;
	switch (ta->fmt) {
	case TT_FMT_VERSION:
		return sysfs_emit(buf, "%u.%u.%u.%u\n", v >> 24, (v >> 16) & 0xFF,
				  (v >> 8) & 0xFF, v & 0xFF);
	case TT_FMT_ETH_VERSION:
		return sysfs_emit(buf, "%u.%u.%u\n", (v >> 16) & 0xFF,
				  (v >> 12) & 0xF, v & 0xFFF);
	case TT_FMT_HEX64:
		return sysfs_emit(buf, "%08X%08X\n", v, lo);
	case TT_FMT_CARD:
		return sysfs_emit(buf, "%s\n",
				  tt_hw_card_name(tt_hw_card_type(v)));
	default:
		return sysfs_emit(buf, "%u\n", v);
	}
}

#define TT_TELEM_ATTR(_name, _tag, _fmt)                                     \
	static struct tt_telem_attr tt_attr_##_name = {                      \
		.attr = __ATTR(_name, 0444, tt_telem_show, NULL),            \
		.tag = _tag,                                                 \
		.fmt = _fmt,                                                 \
	}

TT_TELEM_ATTR(tt_aiclk, TT_TAG_AICLK, TT_FMT_DECIMAL);
TT_TELEM_ATTR(tt_axiclk, TT_TAG_AXICLK, TT_FMT_DECIMAL);
TT_TELEM_ATTR(tt_arcclk, TT_TAG_ARCCLK, TT_FMT_DECIMAL);
TT_TELEM_ATTR(tt_serial, TT_TAG_BOARD_ID_HIGH, TT_FMT_HEX64);
TT_TELEM_ATTR(tt_card_type, TT_TAG_BOARD_ID_HIGH, TT_FMT_CARD);
TT_TELEM_ATTR(tt_fw_bundle_ver, TT_TAG_FLASH_BUNDLE_VERSION, TT_FMT_VERSION);
TT_TELEM_ATTR(tt_m3app_fw_ver, TT_TAG_DM_APP_FW_VERSION, TT_FMT_VERSION);
TT_TELEM_ATTR(tt_m3bl_fw_ver, TT_TAG_DM_BL_FW_VERSION, TT_FMT_VERSION);
TT_TELEM_ATTR(tt_arc_fw_ver, TT_TAG_CM_FW_VERSION, TT_FMT_VERSION);
TT_TELEM_ATTR(tt_eth_fw_ver, TT_TAG_ETH_FW_VERSION, TT_FMT_ETH_VERSION);
TT_TELEM_ATTR(tt_ttflash_ver, TT_TAG_TT_FLASH_VERSION, TT_FMT_VERSION);
TT_TELEM_ATTR(tt_asic_id, TT_TAG_ASIC_ID_HIGH, TT_FMT_HEX64);
TT_TELEM_ATTR(tt_heartbeat, TT_TAG_TIMER_HEARTBEAT, TT_FMT_DECIMAL);
TT_TELEM_ATTR(tt_therm_trip_count, TT_TAG_THERM_TRIP_COUNT, TT_FMT_DECIMAL);

static struct attribute *tt_telemetry_attrs[] = {
	&tt_attr_tt_aiclk.attr.attr,
	&tt_attr_tt_axiclk.attr.attr,
	&tt_attr_tt_arcclk.attr.attr,
	&tt_attr_tt_serial.attr.attr,
	&tt_attr_tt_card_type.attr.attr,
	&tt_attr_tt_fw_bundle_ver.attr.attr,
	&tt_attr_tt_m3app_fw_ver.attr.attr,
	&tt_attr_tt_m3bl_fw_ver.attr.attr,
	&tt_attr_tt_arc_fw_ver.attr.attr,
	&tt_attr_tt_eth_fw_ver.attr.attr,
	&tt_attr_tt_ttflash_ver.attr.attr,
	&tt_attr_tt_asic_id.attr.attr,
	&tt_attr_tt_heartbeat.attr.attr,
	&tt_attr_tt_therm_trip_count.attr.attr,
	NULL,
};

static umode_t tt_telemetry_visible(struct kobject *kobj, struct attribute *a,
				    int n)
{
	struct device *dev = kobj_to_dev(kobj);
	struct tt_device *tdev = container_of(dev, struct tt_device, dev);
	struct device_attribute *da = container_of(a, struct device_attribute,
						   attr);
	const struct tt_telem_attr *ta = to_telem_attr(da);

	if (!tt_telemetry_published(tdev, ta->tag))
		return 0;
	if (ta->fmt == TT_FMT_HEX64 &&
	    !tt_telemetry_published(tdev, ta->tag + 1))
		return 0;
	return a->mode;
}

static const struct attribute_group tt_telemetry_group = {
	.attrs = tt_telemetry_attrs,
	.is_visible = tt_telemetry_visible,
};

const struct attribute_group *tt_telemetry_groups[] = {
	&tt_telemetry_group,
	NULL,
};

/* ---- hwmon ---- */

/*
 * One label set for every chip. A channel reads its precise tag when the
 * firmware publishes one (mA, mW) and the whole-unit tag otherwise; both
 * are converted by tt_telem_hwmon_value().
 */
struct tt_hwmon_channel {
	enum hwmon_sensor_types type;
	u32 attr;
	u16 tag, precise_tag;
};

static const struct tt_hwmon_channel tt_hwmon_channels[] = {
	{ hwmon_temp, hwmon_temp_input, TT_TAG_ASIC_TEMPERATURE, 0 },
	{ hwmon_temp, hwmon_temp_max, TT_TAG_THM_LIMIT_THROTTLE, 0 },
	{ hwmon_in, hwmon_in_input, TT_TAG_VCORE, 0 },
	{ hwmon_in, hwmon_in_max, TT_TAG_VDD_LIMITS, 0 },
	{ hwmon_curr, hwmon_curr_input, TT_TAG_TDC, TT_TAG_CURRENT_MA },
	{ hwmon_curr, hwmon_curr_max, TT_TAG_TDC_LIMIT_MAX, 0 },
	{ hwmon_power, hwmon_power_input, TT_TAG_TDP, TT_TAG_POWER_MW },
	{ hwmon_power, hwmon_power_max, TT_TAG_TDP_LIMIT_MAX, 0 },
	{ hwmon_fan, hwmon_fan_input, TT_TAG_FAN_RPM, 0 },
};

static const char *const tt_hwmon_labels[] = {
	[hwmon_temp] = "asic1_temp",
	[hwmon_in] = "vcore1",
	[hwmon_curr] = "current1",
	[hwmon_power] = "power1",
	[hwmon_fan] = "fan1_rpm",
};

static const struct tt_hwmon_channel *
tt_hwmon_channel(enum hwmon_sensor_types type, u32 attr)
{
	for (size_t i = 0; i < ARRAY_SIZE(tt_hwmon_channels); i++)
		if (tt_hwmon_channels[i].type == type &&
		    tt_hwmon_channels[i].attr == attr)
			return &tt_hwmon_channels[i];
	return NULL;
}

static u32 tt_hwmon_label_attr(enum hwmon_sensor_types type)
{
	switch (type) {
	case hwmon_temp: return hwmon_temp_label;
	case hwmon_in: return hwmon_in_label;
	case hwmon_curr: return hwmon_curr_label;
	case hwmon_power: return hwmon_power_label;
	case hwmon_fan: return hwmon_fan_label;
	default: return U32_MAX;
	}
}

/* The input channel of a type: a label exists if the input does. */
static u32 tt_hwmon_input_attr(enum hwmon_sensor_types type)
{
	switch (type) {
	case hwmon_temp: return hwmon_temp_input;
	case hwmon_in: return hwmon_in_input;
	case hwmon_curr: return hwmon_curr_input;
	case hwmon_power: return hwmon_power_input;
	case hwmon_fan: return hwmon_fan_input;
	default: return U32_MAX;
	}
}

static umode_t tt_hwmon_visible(const void *data,
				enum hwmon_sensor_types type, u32 attr,
				int channel)
{
	struct tt_device *tdev = (struct tt_device *)data;
	const struct tt_hwmon_channel *c;

	if (attr == tt_hwmon_label_attr(type))
		attr = tt_hwmon_input_attr(type);
	c = tt_hwmon_channel(type, attr);
	if (!c || channel)
		return 0;
	if (tt_telemetry_published(tdev, c->tag) ||
	    (c->precise_tag && tt_telemetry_published(tdev, c->precise_tag)))
		return 0444;
	return 0;
}

static int tt_hwmon_read(struct device *dev, enum hwmon_sensor_types type,
			 u32 attr, int channel, long *val)
{
	struct tt_device *tdev = dev_get_drvdata(dev);
	const struct tt_hwmon_channel *c = tt_hwmon_channel(type, attr);
	struct tt_telemetry *t;
	u32 raw;
	int ret;

	if (!c)
		return -EOPNOTSUPP;
	t = tt_telemetry_get(tdev);
	if (IS_ERR(t))
		return PTR_ERR(t);
	if (c->precise_tag && !tt_tag(t, c->precise_tag, &raw)) {
		*val = tt_telem_hwmon_value(type, attr, c->precise_tag, raw);
		ret = 0;
	} else {
		ret = tt_tag(t, c->tag, &raw);
		if (!ret)
			*val = tt_telem_hwmon_value(type, attr, c->tag, raw);
	}
	kfree(t);
	return ret;
}

static int tt_hwmon_read_string(struct device *dev,
				enum hwmon_sensor_types type, u32 attr,
				int channel, const char **str)
{
	if (type >= ARRAY_SIZE(tt_hwmon_labels) || !tt_hwmon_labels[type])
		return -EOPNOTSUPP;
	*str = tt_hwmon_labels[type];
	return 0;
}

static const struct hwmon_ops tt_hwmon_ops = {
	.is_visible = tt_hwmon_visible,
	.read = tt_hwmon_read,
	.read_string = tt_hwmon_read_string,
};

static const struct hwmon_channel_info *tt_hwmon_info[] = {
	HWMON_CHANNEL_INFO(temp, HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_LABEL),
	HWMON_CHANNEL_INFO(in, HWMON_I_INPUT | HWMON_I_MAX | HWMON_I_LABEL),
	HWMON_CHANNEL_INFO(curr, HWMON_C_INPUT | HWMON_C_MAX | HWMON_C_LABEL),
	HWMON_CHANNEL_INFO(power, HWMON_P_INPUT | HWMON_P_MAX | HWMON_P_LABEL),
	HWMON_CHANNEL_INFO(fan, HWMON_F_INPUT | HWMON_F_LABEL),
	NULL,
};

static const struct hwmon_chip_info tt_hwmon_chip = {
	.ops = &tt_hwmon_ops,
	.info = tt_hwmon_info,
};

/* hwmon's chip name: the family, as tt-kmd names it. */
static const char *tt_hwmon_name(u32 arch)
{
	switch (arch) {
	case TT_HW_ARCH_GRAYSKULL:
		return "grayskull";
	case TT_HW_ARCH_WORMHOLE_B0:
		return "wormhole";
	case TT_HW_ARCH_BLACKHOLE:
		return "blackhole";
	default:
		return "tenstorrent";
	}
}

void tt_telemetry_hwmon_add(struct tt_device *tdev)
{
	struct device *hwmon;

	if (!tt_telemetry_published(tdev, TT_TAG_TIMER_HEARTBEAT))
		return;
	hwmon = hwmon_device_register_with_info(&tdev->pdev->dev,
						tt_hwmon_name(tdev->arch), tdev,
						&tt_hwmon_chip, NULL);
	if (IS_ERR(hwmon)) {
		dev_warn(&tdev->pdev->dev, "no hwmon device: %ld\n",
			 PTR_ERR(hwmon));
		return;
	}
	tdev->hwmon = hwmon;
}
