# SPDX-License-Identifier: Apache-2.0
# The guest's /tests.sh in every boot: guest/init runs it, then prints the
# kernel log for the host (tests/vm/README.md). It runs the driver's cases
# (/driver-tests.sh, which is tests/vm/guest/tests.sh), or in the canary
# boot only the canary module; then the KUnit modules; then, in a kernel
# with kmemleak, a scan whose report the host reads. The host asks on the
# kernel command line:
#   ttvm.canary=P,..  load /ttvm_canary.ko with parameters P (oob=1,leak=1)
#                     instead of running the driver's cases
#   ttvm.bench=1      load /tenstorrent.ko and run every /bench/* program
#                     with /dev/tenstorrent/0 as its argument instead of
#                     the tests; each one's exit status follows its output
#                     as "@@BENCH-EXIT NAME STATUS" (tests/vm/README.md)
#   ttvm.kunit=1      load and unload every /kunit/*_kunit.ko (with
#                     /tenstorrent.ko loaded, whose symbols the driver's
#                     suites use); each runs its suites at load and prints
#                     KTAP to the kernel log
# Markers go to /dev/kmsg so that they sit in the kernel log in order with
# the KTAP lines.

arg() { sed -n "s/.*ttvm\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
kmsg() { echo "ttvm: $*" >/dev/kmsg; }

canary=$(arg canary)
if [ "$(arg bench)" = 1 ]; then
	insmod /tenstorrent.ko
	for b in /bench/*; do
		[ -x "$b" ] || continue
		timeout -s KILL 300 "$b" /dev/tenstorrent/0
		echo "@@BENCH-EXIT ${b##*/} $?"
	done
elif [ -n "$canary" ]; then
	kmsg "canary $canary"
	insmod /ttvm_canary.ko $(echo "$canary" | tr , ' ')
	echo "@@CANARY-LOADED $?"
else
	sh /driver-tests.sh
fi

if [ "$(arg kunit)" = 1 ]; then
	# The driver's suites use tenstorrent.ko's symbols exported for KUnit.
	driver_loaded=
	if [ ! -e /sys/module/tenstorrent ] && [ -e /tenstorrent.ko ]; then
		insmod /tenstorrent.ko && driver_loaded=1
	fi
	for ko in /kunit/*_kunit.ko; do
		[ -e "$ko" ] || continue
		mod=$(basename "$ko" .ko)
		kmsg "kunit-module $mod"
		insmod "$ko" || kmsg "kunit-load-failed $mod"
		rmmod "$mod" || kmsg "kunit-unload-failed $mod"
	done
	kmsg "kunit-end"
	[ -z "$driver_loaded" ] || rmmod tenstorrent
fi

grep -q ' /sys/kernel/debug ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug
if [ -e /sys/kernel/debug/kmemleak ]; then
	# kmemleak reports no object younger than 5 s: let the last ones age.
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	echo "@@KMEMLEAK-BEGIN"
	cat /sys/kernel/debug/kmemleak
	echo "@@KMEMLEAK-END"
fi
