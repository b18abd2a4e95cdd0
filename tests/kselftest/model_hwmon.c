// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest against the live model only (tests/kselftest/README.md): the
 * driver's hwmon device and tt_* attributes say what the management
 * firmware's telemetry table says. The test decodes the table itself from
 * the device image through BAR2, with nothing but the hardware contract
 * (hw/telemetry.h, hw/arc.h, hw/host.h, hw/tile.h): the ARC node of the
 * node table, its scratch RAM's pointers to the table and the values, the
 * entries (tag | offset << 16; the first entry of a tag counts, entries
 * outside the ARC's memory do not). It converts to hwmon's units itself:
 * m°C (temp, from signed 16.16 °C, rounded toward minus infinity, or
 * whole °C), mV (in), mA (curr; the precise mA tag when published, else
 * whole A), µW (power; the precise mW tag, else whole W) and rpm (fan).
 *
 * The firmware rewrites the values every 100 ms, so each comparison reads
 * the table, then the file, then the table again, and accepts the file if
 * it equals what either table gives; a value that moved twice during one
 * read is retried, up to RETRIES times.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <dirent.h>

#include <hw/arc.h>
#include <hw/telemetry.h>
#include <hw/tile.h>

#include <kselftest_harness.h>

#define RETRIES 10

/* The table as decoded: the first value of each tag. */
struct telem {
	uint32_t value[TT_TAG_COUNT_MAX];
	bool have[TT_TAG_COUNT_MAX];
};

/* Where the table is, and where the driver shows it. */
struct source {
	int fd;
	uint32_t arch;
	volatile uint8_t *regs; /* the ARC's reset-unit page (scratch RAM) */
	size_t regs_len;
	size_t regs_in; /* the page's first byte in the mapping */
	volatile uint8_t *csm; /* the ARC's memory, from TT_ARC_CSM_BASE */
	size_t csm_len;
	size_t csm_in;
	uint64_t csm_size;
	char cls[PATH_MAX]; /* the class device's directory */
	char hwmon[PATH_MAX + 300]; /* the hwmon device's directory, or "" */
};

/* Map `len` bytes of the image from `off`, whatever its alignment. */
static volatile uint8_t *map_image(int fd, uint64_t off, uint64_t len,
				   size_t *map_len, size_t *in, int *err)
{
	uint64_t first = off & ~(uint64_t)(PAGE - 1);

	*in = off - first;
	*map_len = (*in + len + PAGE - 1) & ~(PAGE - 1);
	return map(fd, TENSTORRENT_MMAP_BAR2_UC + first, *map_len, MAP_SHARED,
		   err);
}

static int find_hwmon(struct source *s)
{
	char pci[PATH_MAX], dir[PATH_MAX + 8];
	struct dirent *e;
	DIR *d;
	int ret = sysfs_dir_of(tt_device(), true, pci);

	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s/hwmon", pci);
	d = opendir(dir);
	if (!d)
		return 0; /* no hwmon device: s->hwmon stays "" */
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "hwmon", 5))
			snprintf(s->hwmon, sizeof(s->hwmon), "%s/%s", dir,
				 e->d_name);
	closedir(d);
	return 0;
}

static void source_open(struct __test_metadata *_metadata, struct source *s)
{
	struct tt_node_desc *table, arc = { 0 };
	struct tt_identity id;
	int err;

	s->fd = -1;
	ASSERT_OPEN_DEVICE(s->fd, 0);
	ASSERT_EQ(0, read_node_table(s->fd, &id, &table));
	for (uint32_t i = 0; i < id.grid_x * id.grid_y; i++)
		if (table[i].type == TT_NODE_ARC && arc.type != TT_NODE_ARC)
			arc = table[i];
	free(table);
	s->arch = id.arch;
	ASSERT_EQ(TT_NODE_ARC, arc.type) TH_LOG("no ARC node in the image");
	ASSERT_EQ(TT_ARC_CSM_BASE, arc.mem_base);
	ASSERT_LE(8, arc.mem_size);
	ASSERT_GE(TT_ARC_CSM_SIZE, arc.mem_size);
	ASSERT_GE(id.image_size, arc.mem_off + arc.mem_size);
	ASSERT_GE(id.image_size, arc.regs_off + TT_REG_BLOCK_SIZE);
	s->regs = map_image(s->fd,
			    arc.regs_off + TT_REG_ARC_RESET * TT_REG_PAGE_SIZE,
			    TT_REG_PAGE_SIZE, &s->regs_len, &s->regs_in, &err);
	ASSERT_NE(NULL, s->regs) TH_LOG("%s", err_name(err));
	s->csm = map_image(s->fd, arc.mem_off, arc.mem_size, &s->csm_len,
			   &s->csm_in, &err);
	ASSERT_NE(NULL, s->csm) TH_LOG("%s", err_name(err));
	s->csm_size = arc.mem_size;
	ASSERT_EQ(0, sysfs_dir_of(tt_device(), false, s->cls));
	ASSERT_EQ(0, find_hwmon(s));
}

static void source_close(struct source *s)
{
	if (s->regs)
		munmap((void *)s->regs, s->regs_len);
	if (s->csm)
		munmap((void *)s->csm, s->csm_len);
	if (s->fd >= 0)
		close(s->fd);
}

static uint32_t scratch_ram(const struct source *s, unsigned int n)
{
	return *(volatile uint32_t *)(s->regs + s->regs_in +
				      TT_ARC_SCRATCH_RAM(n));
}

/* The CSM word at local address `addr`, if `len` bytes fit there. */
static bool csm_fits(const struct source *s, uint64_t addr, uint64_t len)
{
	return addr >= TT_ARC_CSM_BASE && addr % 4 == 0 &&
	       addr - TT_ARC_CSM_BASE <= s->csm_size &&
	       len <= s->csm_size - (addr - TT_ARC_CSM_BASE);
}

static uint32_t csm_word(const struct source *s, uint64_t addr)
{
	return *(volatile uint32_t *)(s->csm + s->csm_in +
				      (addr - TT_ARC_CSM_BASE));
}

/* Decode the table as the firmware publishes it now: 0 or -EPROTO. */
static int decode(const struct source *s, struct telem *t)
{
	uint32_t table = scratch_ram(s, TT_ARC_SR_TELEM_TABLE);
	uint32_t data = scratch_ram(s, TT_ARC_SR_TELEM_DATA);
	uint32_t count;

	memset(t, 0, sizeof(*t));
	if (!csm_fits(s, table, 8) || csm_word(s, table) != TT_TELEM_VERSION)
		return -EPROTO;
	count = csm_word(s, table + 4);
	if (count > TT_TELEM_MAX_ENTRIES || !csm_fits(s, table, 8 + 4 * count))
		return -EPROTO;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t e = csm_word(s, table + 8 + 4 * i);
		uint32_t tag = TT_TELEM_ENTRY_TAG(e);
		uint64_t addr = data + 4ull * TT_TELEM_ENTRY_OFF(e);

		if (tag >= TT_TAG_COUNT_MAX || t->have[tag] ||
		    !csm_fits(s, addr, 4))
			continue;
		t->value[tag] = csm_word(s, addr);
		t->have[tag] = true;
	}
	return 0;
}

/* --- hwmon ------------------------------------------------------------- */

/* Not hw/telemetry.h's conversions, on purpose: an independent oracle. */
enum conv { RAW, MILLI, MICRO, S16_16_TO_MILLI, HIGH_HALF };

static int64_t convert(enum conv c, uint32_t raw)
{
	int64_t q;

	switch (c) {
	case MILLI:
		return (int64_t)raw * 1000;
	case MICRO:
		return (int64_t)raw * 1000000;
	case S16_16_TO_MILLI:
		/* floor(raw / 65536 * 1000), without relying on >> of a
		 * negative number */
		q = (int64_t)(int32_t)raw * 1000;
		return q >= 0 ? q / 65536 : -((-q + 65535) / 65536);
	case HIGH_HALF:
		return raw >> 16;
	default:
		return raw;
	}
}

/* One hwmon file and the tags behind it (hwmon sysfs ABI units). */
struct channel {
	const char *file;
	uint16_t tag;
	enum conv conv;
	uint16_t precise; /* read instead of tag when published; 0: none */
	enum conv precise_conv;
};

/* What `c` must read given table `t`; false if neither tag is there. */
static bool expected(const struct channel *c, const struct telem *t,
		     int64_t *v)
{
	if (c->precise && t->have[c->precise])
		*v = convert(c->precise_conv, t->value[c->precise]);
	else if (t->have[c->tag])
		*v = convert(c->conv, t->value[c->tag]);
	else
		return false;
	return true;
}

static const struct channel channels[] = {
	{ "temp1_input", TT_TAG_ASIC_TEMPERATURE, S16_16_TO_MILLI, 0, RAW },
	{ "temp1_max", TT_TAG_THM_LIMIT_THROTTLE, MILLI, 0, RAW },
	{ "in0_input", TT_TAG_VCORE, RAW, 0, RAW },
	{ "in0_max", TT_TAG_VDD_LIMITS, HIGH_HALF, 0, RAW },
	{ "curr1_input", TT_TAG_TDC, MILLI, TT_TAG_CURRENT_MA, RAW },
	{ "curr1_max", TT_TAG_TDC_LIMIT_MAX, MILLI, 0, RAW },
	{ "power1_input", TT_TAG_TDP, MICRO, TT_TAG_POWER_MW, MILLI },
	{ "power1_max", TT_TAG_TDP_LIMIT_MAX, MICRO, 0, RAW },
	{ "fan1_input", TT_TAG_FAN_RPM, RAW, 0, RAW },
};

#define NCHANNELS (sizeof(channels) / sizeof(channels[0]))

/* The label of each kind of channel, tt-kmd's Wormhole set, and the input
 * whose presence it follows. */
static const struct {
	const char *file, *label, *input;
} labels[] = {
	{ "temp1_label", "asic1_temp", "temp1_input" },
	{ "in0_label", "vcore1", "in0_input" },
	{ "curr1_label", "current1", "curr1_input" },
	{ "power1_label", "power1", "power1_input" },
	{ "fan1_label", "fan1_rpm", "fan1_input" },
};

#define NLABELS (sizeof(labels) / sizeof(labels[0]))

static const struct channel *channel_of(const char *file)
{
	for (unsigned int i = 0; i < NCHANNELS; i++)
		if (!strcmp(channels[i].file, file))
			return &channels[i];
	return NULL;
}

static int read_in(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX + 400];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return read_sysfs(path, buf, len);
}

static bool file_in(const char *dir, const char *file)
{
	char path[PATH_MAX + 400];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return path_exists(path);
}

FIXTURE(model_hwmon) {
	struct source s;
};

FIXTURE_SETUP(model_hwmon)
{
	source_open(_metadata, &self->s);
	ASSERT_NE(0, self->s.hwmon[0]) TH_LOG("no hwmon device");
}

FIXTURE_TEARDOWN(model_hwmon)
{
	source_close(&self->s);
}

/* hwmon's chip name: the family, as tt-kmd names it. */
static const char *family(uint32_t arch)
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

TEST_F(model_hwmon, name_is_the_chip_family)
{
	char got[64];

	ASSERT_LE(0, read_in(self->s.hwmon, "name", got, sizeof(got)));
	EXPECT_STREQ(family(self->s.arch), got);
}

TEST_F(model_hwmon, labels_are_tt_kmds)
{
	char got[64];

	for (unsigned int i = 0; i < NLABELS; i++) {
		int ret;

		if (!file_in(self->s.hwmon, labels[i].input))
			continue;
		ret = read_in(self->s.hwmon, labels[i].file, got, sizeof(got));
		EXPECT_LE(0, ret) TH_LOG("%s: %s", labels[i].file,
					 err_name(-ret));
		if (ret >= 0) {
			EXPECT_STREQ(labels[i].label, got)
			TH_LOG("%s", labels[i].file);
		}
	}
}

/* Every channel whose tags are published, a label for every input, and
 * nothing else. */
TEST_F(model_hwmon, offers_exactly_the_published_channels)
{
	const struct channel *c;
	struct dirent *e;
	struct telem t;
	int64_t v;
	DIR *d;

	ASSERT_EQ(0, decode(&self->s, &t));
	for (unsigned int i = 0; i < NCHANNELS; i++) {
		EXPECT_EQ(expected(&channels[i], &t, &v),
			  file_in(self->s.hwmon, channels[i].file))
		TH_LOG("%s", channels[i].file);
	}
	for (unsigned int i = 0; i < NLABELS; i++) {
		EXPECT_EQ(file_in(self->s.hwmon, labels[i].input),
			  file_in(self->s.hwmon, labels[i].file))
		TH_LOG("%s", labels[i].file);
	}
	d = opendir(self->s.hwmon);
	ASSERT_NE(NULL, d);
	while ((e = readdir(d))) {
		bool known = !strcmp(e->d_name, "name") ||
			     !strcmp(e->d_name, "uevent") ||
			     e->d_type != DT_REG;

		c = channel_of(e->d_name);
		for (unsigned int i = 0; i < NLABELS && !known; i++)
			known = !strcmp(labels[i].file, e->d_name);
		EXPECT_TRUE(known || c) TH_LOG("unexpected %s", e->d_name);
	}
	closedir(d);
}

/*
 * The units, from another side than the value tests: each input read
 * against the whole-unit tag (°C, A, W) that the driver does not use when
 * a finer one is there. A reading off by a factor of 1000 fails.
 */
TEST_F(model_hwmon, inputs_are_in_hwmon_units)
{
	static const struct {
		const char *file;
		uint16_t tag;
		int64_t scale, slack;
	} whole[] = {
		{ "temp1_input", TT_TAG_ASIC_TEMPERATURE, 1000, 1000 },
		{ "curr1_input", TT_TAG_TDC, 1000, 1000 },
		{ "power1_input", TT_TAG_TDP, 1000000, 1000000 },
	};

	for (unsigned int i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
		int64_t got = 0, want = 0;
		char buf[64];
		struct telem t;
		int ret = 0;

		for (int n = 0; n < RETRIES; n++) {
			ASSERT_EQ(0, decode(&self->s, &t));
			ret = read_in(self->s.hwmon, whole[i].file, buf,
				      sizeof(buf));
			if (!t.have[whole[i].tag] || ret < 0)
				break;
			got = strtoll(buf, NULL, 10);
			/* whole degrees of 16.16; amperes; watts */
			want = whole[i].tag == TT_TAG_ASIC_TEMPERATURE ?
				       (int32_t)t.value[whole[i].tag] / 65536 :
				       (int64_t)t.value[whole[i].tag];
			want *= whole[i].scale;
			if (llabs(got - want) <= whole[i].slack)
				break;
		}
		if (!t.have[whole[i].tag])
			continue;
		EXPECT_LE(0, ret) TH_LOG("%s: %s", whole[i].file,
					 err_name(-ret));
		EXPECT_GE(whole[i].slack, llabs(got - want))
		TH_LOG("%s = %lld, tag %u says about %lld", whole[i].file,
		       (long long)got, whole[i].tag, (long long)want);
	}
}

/* One case per hwmon value file. */
FIXTURE(hwmon_value) {
	struct source s;
};

FIXTURE_VARIANT(hwmon_value) {
	const char *file;
};

FIXTURE_VARIANT_ADD(hwmon_value, temp1_input) { .file = "temp1_input" };
FIXTURE_VARIANT_ADD(hwmon_value, temp1_max) { .file = "temp1_max" };
FIXTURE_VARIANT_ADD(hwmon_value, in0_input) { .file = "in0_input" };
FIXTURE_VARIANT_ADD(hwmon_value, in0_max) { .file = "in0_max" };
FIXTURE_VARIANT_ADD(hwmon_value, curr1_input) { .file = "curr1_input" };
FIXTURE_VARIANT_ADD(hwmon_value, curr1_max) { .file = "curr1_max" };
FIXTURE_VARIANT_ADD(hwmon_value, power1_input) { .file = "power1_input" };
FIXTURE_VARIANT_ADD(hwmon_value, power1_max) { .file = "power1_max" };
FIXTURE_VARIANT_ADD(hwmon_value, fan1_input) { .file = "fan1_input" };

FIXTURE_SETUP(hwmon_value)
{
	source_open(_metadata, &self->s);
	ASSERT_NE(0, self->s.hwmon[0]) TH_LOG("no hwmon device");
}

FIXTURE_TEARDOWN(hwmon_value)
{
	source_close(&self->s);
}

TEST_F(hwmon_value, equals_the_decoded_telemetry)
{
	const struct channel *c = channel_of(variant->file);
	struct telem before, after;
	int64_t got = 0, want[2] = { 0, 0 };
	bool have[2] = { false, false };
	char buf[64], *end;
	int ret = 0;

	ASSERT_NE(NULL, c);
	for (int n = 0; n < RETRIES; n++) {
		ASSERT_EQ(0, decode(&self->s, &before));
		ret = read_in(self->s.hwmon, c->file, buf, sizeof(buf));
		ASSERT_EQ(0, decode(&self->s, &after));
		have[0] = expected(c, &before, &want[0]);
		have[1] = expected(c, &after, &want[1]);
		if (ret < 0)
			break;
		got = strtoll(buf, &end, 10);
		ASSERT_TRUE(buf[0] && !*end) TH_LOG("%s: \"%s\"", c->file, buf);
		if ((have[0] && got == want[0]) || (have[1] && got == want[1]))
			return;
	}
	ASSERT_TRUE(have[0] || have[1]) TH_LOG("the firmware publishes none "
					       "of %s's tags", c->file);
	ASSERT_LE(0, ret) TH_LOG("%s: %s", c->file, err_name(-ret));
	EXPECT_TRUE(false)
	TH_LOG("%s = %lld; the table gave %lld before and %lld after",
	       c->file, (long long)got, (long long)want[0],
	       (long long)want[1]);
}

/* --- tt_* attributes of the class device ------------------------------- */

enum fmt { DECIMAL, VERSION, ETH_VERSION, HEX64, CARD };

/* Card names by the type in BOARD_ID_HIGH [19:4] (tt-kmd's telemetry.c). */
/* tt-kmd's table, not hw/card.h's, on purpose: an independent oracle. */
static const char *card_name(uint32_t board_id_high)
{
	switch ((board_id_high >> 4) & 0xFFFF) {
	case 0x14: return "n300";
	case 0x18: return "n150";
	case 0x35: return "galaxy-wormhole";
	case 0x36: return "p100";
	case 0x40: return "p150a";
	case 0x41: return "p150b";
	case 0x42: return "p150c";
	case 0x43: return "p100a";
	case 0x44: return "p300b";
	case 0x45: return "p300a";
	case 0x46: return "p300c";
	case 0x47: return "galaxy-blackhole";
	default: return "unknown";
	}
}

/* What attribute `tag`/`fmt` must read given `t`; false if not published. */
static bool attr_text(uint16_t tag, enum fmt fmt, const struct telem *t,
		      char *buf, size_t len)
{
	uint32_t v = t->value[tag];

	if (!t->have[tag] || (fmt == HEX64 && !t->have[tag + 1]))
		return false;
	switch (fmt) {
	case VERSION:
		snprintf(buf, len, "%u.%u.%u.%u", v >> 24, (v >> 16) & 0xFF,
			 (v >> 8) & 0xFF, v & 0xFF);
		break;
	case ETH_VERSION:
		snprintf(buf, len, "%u.%u.%u", (v >> 16) & 0xFF,
			 (v >> 12) & 0xF, v & 0xFFF);
		break;
	case HEX64:
		snprintf(buf, len, "%08X%08X", v, t->value[tag + 1]);
		break;
	case CARD:
		snprintf(buf, len, "%s", card_name(v));
		break;
	default:
		snprintf(buf, len, "%u", v);
	}
	return true;
}

FIXTURE(tt_attribute) {
	struct source s;
};

FIXTURE_VARIANT(tt_attribute) {
	const char *name;
	uint16_t tag;
	enum fmt fmt;
};

#define TT_ATTR(_name, _tag, _fmt)                                           \
	FIXTURE_VARIANT_ADD(tt_attribute, _name) {                           \
		.name = #_name, .tag = _tag, .fmt = _fmt                     \
	}

TT_ATTR(tt_aiclk, TT_TAG_AICLK, DECIMAL);
TT_ATTR(tt_axiclk, TT_TAG_AXICLK, DECIMAL);
TT_ATTR(tt_arcclk, TT_TAG_ARCCLK, DECIMAL);
TT_ATTR(tt_serial, TT_TAG_BOARD_ID_HIGH, HEX64);
TT_ATTR(tt_card_type, TT_TAG_BOARD_ID_HIGH, CARD);
TT_ATTR(tt_fw_bundle_ver, TT_TAG_FLASH_BUNDLE_VERSION, VERSION);
TT_ATTR(tt_m3app_fw_ver, TT_TAG_DM_APP_FW_VERSION, VERSION);
TT_ATTR(tt_m3bl_fw_ver, TT_TAG_DM_BL_FW_VERSION, VERSION);
TT_ATTR(tt_arc_fw_ver, TT_TAG_CM_FW_VERSION, VERSION);
TT_ATTR(tt_eth_fw_ver, TT_TAG_ETH_FW_VERSION, ETH_VERSION);
TT_ATTR(tt_ttflash_ver, TT_TAG_TT_FLASH_VERSION, VERSION);
TT_ATTR(tt_asic_id, TT_TAG_ASIC_ID_HIGH, HEX64);
TT_ATTR(tt_heartbeat, TT_TAG_TIMER_HEARTBEAT, DECIMAL);
TT_ATTR(tt_therm_trip_count, TT_TAG_THERM_TRIP_COUNT, DECIMAL);

FIXTURE_SETUP(tt_attribute)
{
	source_open(_metadata, &self->s);
}

FIXTURE_TEARDOWN(tt_attribute)
{
	source_close(&self->s);
}

/* Present exactly when its tags are published, and equal to them. */
TEST_F(tt_attribute, equals_the_decoded_telemetry)
{
	char got[128] = "", want[2][128] = { "", "" };
	struct telem before, after;
	bool have[2] = { false, false };
	int ret = 0;

	for (int n = 0; n < RETRIES; n++) {
		ASSERT_EQ(0, decode(&self->s, &before));
		ret = read_in(self->s.cls, variant->name, got, sizeof(got));
		ASSERT_EQ(0, decode(&self->s, &after));
		have[0] = attr_text(variant->tag, variant->fmt, &before,
				    want[0], sizeof(want[0]));
		have[1] = attr_text(variant->tag, variant->fmt, &after,
				    want[1], sizeof(want[1]));
		if (!have[0] && !have[1]) {
			EXPECT_FALSE(file_in(self->s.cls, variant->name))
			TH_LOG("%s without its tag", variant->name);
			return;
		}
		if (ret < 0)
			break;
		if ((have[0] && !strcmp(got, want[0])) ||
		    (have[1] && !strcmp(got, want[1])))
			return;
	}
	ASSERT_LE(0, ret) TH_LOG("%s: %s", variant->name, err_name(-ret));
	EXPECT_TRUE(false)
	TH_LOG("%s = \"%s\"; the table gave \"%s\" before and \"%s\" after",
	       variant->name, got, want[0], want[1]);
}

TEST_HARNESS_MAIN
