// SPDX-License-Identifier: GPL-2.0-only
/*
 * ttvm_canary: deliberate bugs, one per checker of the debug kernel, each
 * switched on by a module parameter. tests/vm/run-vm loads it in its own
 * guest boot and expects every report; that proves that a real bug of the
 * driver would be reported and would fail the run. Never loaded with the
 * driver's tests, and not part of the driver.
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>

static bool oob;
module_param(oob, bool, 0444);
MODULE_PARM_DESC(oob, "read one byte past a slab object (KASAN)");

static bool leak;
module_param(leak, bool, 0444);
MODULE_PARM_DESC(leak, "lose the only pointer to a slab object (kmemleak)");

static bool ubsan;
module_param(ubsan, bool, 0444);
MODULE_PARM_DESC(ubsan, "shift a 32-bit value by 40 (UBSAN)");

static bool lockdep;
module_param(lockdep, bool, 0444);
MODULE_PARM_DESC(lockdep, "take two mutexes in both orders (lockdep)");

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN once");

/*
 * Read through READ_ONCE so that the compiler cannot see the values and
 * neither warns at build time nor folds the bugs away.
 */
static size_t obj_size = 16;
static unsigned int shift = 40;

#define CANARY_LEAKS 4

static DEFINE_MUTEX(lock_a);
static DEFINE_MUTEX(lock_b);

/*
 * Out of line and outside .init.text, so that every report names the
 * function (init code is freed before kmemleak prints its backtraces).
 */

static noinline int canary_oob(void)
{
	size_t n = READ_ONCE(obj_size);
	u8 *p = kzalloc(n, GFP_KERNEL);
	u8 past;

	if (!p)
		return -ENOMEM;
	past = READ_ONCE(p[n]);
	pr_info("ttvm_canary: read byte %zu of a %zu-byte object: %u\n", n, n,
		past);
	kfree(p);
	return 0;
}

static noinline int canary_leak(void)
{
	int i;

	/*
	 * Several zeroed objects: a single one can stay referenced by a stale
	 * copy of its address (the free-list link in an older object, a dead
	 * stack slot), and zeroing keeps their own stale links from chaining.
	 */
	for (i = 0; i < CANARY_LEAKS; i++)
		if (!kzalloc(64, GFP_KERNEL))
			return -ENOMEM;
	pr_info("ttvm_canary: leaked %d objects of 64 bytes\n", CANARY_LEAKS);
	return 0;
}

static noinline void canary_ubsan(void)
{
	u32 one = 1;

	pr_info("ttvm_canary: 1 << 40 = %u\n", one << READ_ONCE(shift));
}

static noinline void canary_lockdep(void)
{
	mutex_lock(&lock_a);
	mutex_lock(&lock_b);
	mutex_unlock(&lock_b);
	mutex_unlock(&lock_a);

	mutex_lock(&lock_b);
	mutex_lock(&lock_a);
	mutex_unlock(&lock_a);
	mutex_unlock(&lock_b);
}

/*
 * lockdep first: any report that taints the kernel (KASAN's) turns lock
 * debugging off. KASAN last for the same reason.
 */
static int __init canary_init(void)
{
	int ret = 0;

	if (lockdep)
		canary_lockdep();
	if (ubsan)
		canary_ubsan();
	WARN(warn, "ttvm_canary: deliberate warning\n");
	if (leak)
		ret = canary_leak();
	if (!ret && oob)
		ret = canary_oob();
	return ret;
}

static void __exit canary_exit(void)
{
}

module_init(canary_init);
module_exit(canary_exit);
MODULE_DESCRIPTION("Deliberate bugs that the VM tests' debug kernel must report");
MODULE_LICENSE("GPL");
