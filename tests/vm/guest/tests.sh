# SPDX-License-Identifier: Apache-2.0
# Guest side of the VM tests: load tenstorrent.ko and check what it made of
# the ivshmem functions the host gave this guest. The host says what to
# expect on the kernel command line:
#   ttvm.name=NAME        prefix of every test case
#   ttvm.version=V        expected /sys/module/tenstorrent/version
#   ttvm.nodes=S:A:B:C,.. functions in slot S (hex) that must become
#                         /dev/tenstorrent/0, 1, ... announced as arch A,
#                         board B, chip C
#   ttvm.others=S,..      functions the driver must leave alone
#   ttvm.model=A:B:C:X:Y:T  node 0 is the chip model that ttsim serves
#                         (ivshmem-doorbell): its identity must say READY,
#                         arch A, board B, chip C (hw/ numbers), grid XxY,
#                         T Tensix, and its doorbell must ring
#   ttvm.libtt=0          do not run libtt's tests against the model
#   ttvm.telem=CARD:SERIAL:BUNDLE:ARC:M3APP:M3BL:FLASH:VMAX:IMAX:PMAX:TMAX
#                         what libtt decoded from node 0's telemetry: its
#                         tt_* attributes and hwmon limits (mV, mA, uW,
#                         millidegrees) must say the same
# Each case prints "@@TAP ok - NAME: what" or "@@TAP not ok - ..."; the host
# numbers them.

arg() { sed -n "s/.*ttvm\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
NAME=$(arg name)
VERSION=$(arg version)
NODES=$(arg nodes | tr , ' ')
OTHERS=$(arg others | tr , ' ')
MODEL=$(arg model | tr : ' ')
TELEM=$(arg telem | tr : ' ')
KO=/tenstorrent.ko
DRV=/sys/bus/pci/drivers/tenstorrent

check() {
	what=$1
	shift
	if "$@" >/tmp/out 2>&1; then
		echo "@@TAP ok - $NAME: $what"
	else
		echo "@@TAP not ok - $NAME: $what"
		sed 's/^/@@TAP # /' /tmp/out
	fi
}

# sub WHAT CMD...: CMD is a ttvm-ioctl check command printing "ok - x" and
# "not ok - x: why" lines; each becomes a case "WHAT: x". A command that
# ran no check or did not exit 0 is a failed case of its own.
sub() {
	local group=$1 st line
	shift
	"$@" >/tmp/sub 2>&1
	st=$?
	while IFS= read -r line; do
		case $line in
		"ok - "*) echo "@@TAP ok - $NAME: $group: ${line#ok - }" ;;
		"not ok - "*) echo "@@TAP not ok - $NAME: $group: ${line#not ok - }" ;;
		*) echo "@@TAP # $line" ;;
		esac
	done </tmp/sub
	if [ $st -ne 0 ] || ! grep -qE '^(not )?ok - ' /tmp/sub; then
		echo "@@TAP not ok - $NAME: $group: ran to the end (status $st)"
	fi
}

# The kselftests (tests/kselftest/README.md), each a program in /kselftest.
# ktap PREFIX STATUS < OUTPUT: one case "PREFIX: TEST" per result of a
# harness program's KTAP output, its "#" lines as the case's diagnostics
# when it fails; a SKIP fails (every scenario has what the tests need).
# Then a case for the program itself: it exited by itself (STATUS: 0, or 1
# with a failed test), printed its plan and one result per planned test,
# numbered in order. LEFT is what it left running (killed), if anything.
ktap() {
	awk -v p="$NAME: $1" -v st="$2" -v left="$3" '
	function diag(ok,   i) {
		for (i = 0; i < nd; i++)
			if (!ok)
				print "@@TAP " d[i]
		nd = 0
	}
	/^TAP version / { next }
	/^1\.\.[0-9]+/ {
		if (plan != "")
			why = why "; a second plan"
		plan = substr($1, 4) + 0
		next
	}
	# Progress lines of the harness: only the name of the test matters.
	/^#  RUN / { name = $3; next }
	/^# +(OK|FAIL) +[^ ]+$/ || /^# Starting [0-9]+ tests/ { next }
	/^#/ { d[nd++] = $0; next }
	/^(not )?ok [0-9]+/ {
		ok = $1 == "ok"
		num = ok ? $2 : $3
		n++
		if (num != n)
			why = why "; result " num " where " n " was due"
		test = $0
		sub(/^(not )?ok [0-9]+ */, "", test)
		directive = ""
		if (match(test, /(^| )# /)) {
			directive = substr(test, RSTART + RLENGTH)
			test = substr(test, 1, RSTART - 1)
		}
		if (test == "")
			test = name
		if (!ok)
			hfail++
		if (ok && directive != "") {
			ok = 0
			d[nd++] = "# " directive ": not a pass (tests/kselftest/README.md)"
		}
		print "@@TAP " (ok ? "ok" : "not ok") " - " p ": " test
		diag(ok)
		next
	}
	{ d[nd++] = "# " $0 }
	END {
		if (plan == "")
			why = why "; no plan"
		else if (n != plan)
			why = why "; planned " plan " tests, " n " results"
		if (st >= 128)
			why = why "; killed by signal " st - 128 \
			    (st == 137 ? " (SIGKILL: the timeout?)" : "")
		else if (!(st == 0 && !hfail) && !(st == 1 && hfail))
			why = why "; exit status " st " after " hfail + 0 " failed tests"
		if (left != "")
			why = why "; left processes running: " left
		print "@@TAP " (why == "" ? "ok" : "not ok") " - " p \
		    ": ran to the end, one result per planned test"
		if (why != "") {
			print "@@TAP # " substr(why, 3)
			diag(0)
		}
	}'
}

# session SID: the live processes (not zombies) of session SID: their
# pids, each followed by a space. Builtins only: it runs per program.
session() {
	local sid=$1 f stat pid
	for f in /proc/[0-9]*/stat; do
		read -r stat 2>/dev/null <$f || continue
		pid=${f#/proc/}
		# After "(comm) ": state ppid pgrp session ...
		set -- ${stat##*) }
		[ "$4" = "$sid" ] && [ "$1" != Z ] && printf '%s ' ${pid%/stat}
	done
}

# kselftests N: every kselftest program against node N (model_* only
# against the live model, multi_* only where there are other nodes), within
# KSELFTEST_TIMEOUT s each (the harness's own per-test timeout is 30 s,
# fuzz.c's 150 s).
KSELFTEST_TIMEOUT=240
kselftests() {
	local prog name left pid st found=
	for prog in /kselftest/*; do
		[ -x "$prog" ] || continue
		found=1
		name=${prog##*/}
		# model_*: they need the live model, which serves node 0 only.
		case $name in
		model_*) [ -n "$MODEL" ] && [ "$1" = 0 ] || continue ;;
		multi_*) [ $(echo $NODES | wc -w) -gt 1 ] || continue ;;
		esac
		# Its own session, so that whatever it leaves behind can be found.
		TT_DEVICE=/dev/tenstorrent/$1 \
			timeout -s KILL $KSELFTEST_TIMEOUT setsid $prog >/tmp/ksft 2>&1 &
		pid=$!
		wait $pid
		st=$?
		left=$(session $pid)
		[ -z "$left" ] || kill -9 $left 2>/dev/null
		left=${left% }
		ktap "kselftest $name node $1" $st "$left" </tmp/ksft
	done
	[ -n "$found" ] ||
		echo "@@TAP not ok - $NAME: kselftests of node $1: none in /kselftest"
}

# libtt's device-layer tests (tests/unit, cmocka, each a program in /libtt
# with its shared libraries) against the live model behind node 0, through
# the kmd transport: TT_TEST_TRANSPORT=kmd selects the cases that apply
# (tests/unit/testcases.h). cmocka_tap PREFIX STATUS < OUTPUT: one case
# "PREFIX: TEST" per result of cmocka's TAP (one plan per group), the
# failure's "#" lines as diagnostics; then one for the program: it exited
# 0 (or 1 with failed tests), each group had as many results as planned,
# none skipped.
cmocka_tap() {
	awk -v p="$NAME: $1" -v st="$2" '
	/^1\.\.[0-9]+/ { plans += substr($1, 4); groups++; next }
	/^# (not )?ok - / { next }
	# Messages of a failure may come before its result or after it.
	/^#/ { if (open_bad) print "@@TAP " $0; else d[nd++] = $0; next }
	/^(not )?ok [0-9]+/ {
		ok = $1 == "ok"
		test = $0
		sub(/^(not )?ok [0-9]+ *-? */, "", test)
		if (match(test, / # /)) {
			ok = 0
			skip++
		}
		n++
		bad += !ok
		print "@@TAP " (ok ? "ok" : "not ok") " - " p ": " test
		for (i = 0; i < nd && !ok; i++)
			print "@@TAP " d[i]
		nd = 0
		open_bad = !ok
		next
	}
	{ if (open_bad) print "@@TAP # " $0; else d[nd++] = "# " $0 }
	END {
		why = ""
		if (!groups)
			why = why "; no plan"
		else if (n != plans)
			why = why "; planned " plans " tests, " n " results"
		if (skip)
			why = why "; " skip " skipped (a skip is a failure here)"
		if (st >= 128)
			why = why "; killed by signal " st - 128
		else if (!(st == 0 && !bad) && !(st > 0 && bad))
			why = why "; exit status " st " after " bad + 0 " failures"
		print "@@TAP " (why == "" ? "ok" : "not ok") " - " p \
		    ": ran to the end, one result per planned test"
		if (why != "")
			print "@@TAP # " substr(why, 3)
		for (i = 0; i < nd && why != ""; i++)
			print "@@TAP " d[i]
	}'
}

# The op library's suites (/libtt/ops, run-vm OP_SUITES) first: they need
# the firmware intact on the cores they run kernels on, which the
# device-layer tests overwrite. They build kernels, and the guest has no
# RISC-V compiler: kernels come from /libtt/kernel-cache, filled on the
# host, against the SDK in /libtt/sdk (docs/kernels.md "Without a
# compiler").
LIBTT_TIMEOUT=120
libtt_tests() {
	local prog st found=
	check "libtt: no RISC-V compiler in the guest" \
		fails command -v riscv64-unknown-elf-gcc
	for prog in /libtt/ops/test_* /libtt/test_*; do
		[ -x "$prog" ] || continue
		found=1
		TT_TEST_TRANSPORT=kmd TT_TRANSPORT=kmd CMOCKA_MESSAGE_OUTPUT=TAP \
			TT_FW_TESTS_DIR=/libtt/kernels \
			TT_KERNEL_CACHE=/libtt/kernel-cache TT_KERNEL_SDK=/libtt/sdk \
			timeout -s KILL $LIBTT_TIMEOUT $prog >/tmp/libtt 2>&1
		st=$?
		cmocka_tap "libtt ${prog##*/} on kmd" $st </tmp/libtt
	done
	[ -n "$found" ] ||
		echo "@@TAP not ok - $NAME: libtt tests: none in /libtt"
}

fails() { ! "$@"; }
bdf() { echo "0000:00:$1.0"; }
dmesg_has() { dmesg | grep -qF "$1"; }
# out_is WANT CMD...: CMD prints exactly WANT
out_is() {
	want=$1
	shift
	got=$("$@")
	[ "$got" = "$want" ] || { echo "got '$got', want '$want'"; return 1; }
}

# node_ok N SLOT: /dev/tenstorrent/N is SLOT's node and the driver owns SLOT
node_ok() {
	dev=/dev/tenstorrent/$1
	sys=/sys/bus/pci/devices/$(bdf $2)
	cls="$sys/tenstorrent/tenstorrent!$1"
	[ -c $dev ] || { echo "$dev is not a character device"; return 1; }
	[ -d "$cls" ] || { echo "no $cls"; return 1; }
	out_is "$(cat "$cls/dev")" \
		printf '%d:%d' 0x$(stat -c %t $dev) 0x$(stat -c %T $dev) || return 1
	readlink $sys/driver | grep -q '/tenstorrent$' || {
		echo "driver of $(bdf $2): $(readlink $sys/driver)"
		return 1
	}
}

# left_alone SLOT: bound to no driver, no node
left_alone() {
	sys=/sys/bus/pci/devices/$(bdf $1)
	[ -e $sys ] || { echo "no PCI function $(bdf $1)"; return 1; }
	[ ! -e $sys/driver ] || { echo "bound to $(readlink $sys/driver)"; return 1; }
	[ ! -e $sys/tenstorrent ] || { echo "has $(ls $sys/tenstorrent)"; return 1; }
}

# node_count N: exactly N nodes and N class devices
node_count() {
	n=$(ls /dev/tenstorrent 2>/dev/null | wc -l)
	c=$(ls /sys/class/tenstorrent 2>/dev/null | wc -l)
	[ $n -eq $1 ] && [ $c -eq $1 ] || { echo "$n nodes, $c class devices"; return 1; }
}

# each_node CMD: CMD ORDINAL SLOT ARCH BOARD CHIP for every expected node
each_node() {
	i=0
	for n in $NODES; do
		"$@" $i $(echo $n | tr : ' ') || return 1
		i=$((i + 1))
	done
}

# pids_of N: /proc/driver/tenstorrent/N/pids, sorted, on one line
pids_of() { sort -n /proc/driver/tenstorrent/$1/pids | tr '\n' ' ' | sed 's/ $//'; }
# sorted PIDS...: the arguments sorted, on one line
sorted() { echo "$@" | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ $//'; }

# wait_line FILE LINE: FILE gets LINE within 5 s
wait_line() {
	local n
	for n in $(seq 50); do
		grep -qxF "$2" $1 2>/dev/null && return 0
		sleep 0.1
	done
	echo "no '$2' in $1: $(cat $1)"
	return 1
}

# procfs N: the pids file follows the open files of node N
procfs() {
	local node=/dev/tenstorrent/$1 pids="node $1: /proc/driver/tenstorrent/$1/pids" h
	[ -c $node ] || { check "$pids: $node exists" false; return; }
	check "$pids is empty with no file open" out_is "" pids_of $1
	exec 4<>$node 5<>$node
	check "$pids lists this shell once per open file" \
		out_is "$$ $$" pids_of $1
	ttvm-ioctl hold $node append 30 >/tmp/hold &
	h=$!
	check "$pids: another process opens the node" wait_line /tmp/hold "open: 0"
	check "$pids lists the other process too" \
		out_is "$(sorted $$ $$ $h)" pids_of $1
	kill $h
	wait $h
	check "$pids drops the killed process" out_is "$$ $$" pids_of $1
	exec 4>&- 5>&-
	check "$pids is empty after close" out_is "" pids_of $1
}

check_node() {
	local dev=/dev/tenstorrent/$1
	check "node $1 is $(bdf $2)" node_ok $1 $2
	check "node $1 announced as $3 $4 chip $5" dmesg_has \
		"tenstorrent $(bdf $2): tenstorrent/$1: $3 $4 chip $5 (mock backend)"
	check "node $1 opens read-write; unknown ioctl is EINVAL" \
		out_is "ioctl: EINVAL" ttvm-ioctl unknown $dev
	kselftests $1
	procfs $1
}

check_other() {
	check "$(bdf $1) left alone" left_alone $1
	check "$(bdf $1) logged one line, at debug level or as an error" \
		out_is 1 sh -c "dmesg | grep -cF 'tenstorrent $(bdf $1):'"
	check "binding $(bdf $1) by hand is refused" \
		fails sh -c "echo $(bdf $1) > $DRV/bind"
}

count=$(echo $NODES | wc -w)

# Loading, and what the first probe made of each function.
check "module loads" insmod $KO dyndbg=+p
check "version is $VERSION" out_is "$VERSION" cat /sys/module/tenstorrent/version
check "class tenstorrent exists" test -d /sys/class/tenstorrent
# Before the kselftests: hotplug announces the node again at each rescan.
if [ -n "$MODEL" ]; then
	set -- $(echo $NODES | cut -d' ' -f1 | tr : ' ')
	check "node 0 announced exactly once" out_is 1 sh -c \
		"dmesg | grep -cF 'tenstorrent $(bdf $1): tenstorrent/0: $2 $3 chip $4'"
fi
each_node check_node
for s in $OTHERS; do
	check_other $s
done
check "exactly $count nodes" node_count $count

# The live model behind node 0: its running firmware's identity through
# mmap, and its doorbell through BAR0 (its one announcement is checked
# above).
if [ -n "$MODEL" ]; then
	set -- $(echo $NODES | cut -d' ' -f1 | tr : ' ')
	sub "node 0 is the running model" \
		ttvm-ioctl model /dev/tenstorrent/0 $(bdf $1) $MODEL
fi

# Telemetry: the tt_* attributes and hwmon against what libtt decoded on
# the host; readings (which move) within their limits.
attr_is() { out_is "$2" cat "/sys/class/tenstorrent/tenstorrent!0/$1"; }
hwmon_dir() { ls -d /sys/bus/pci/devices/$(bdf $1)/hwmon/hwmon* 2>/dev/null; }
# within FILE LO HI: LO <= value <= HI
within() {
	v=$(cat "$1") || return 1
	[ "$v" -ge "$2" ] && [ "$v" -le "$3" ] || {
		echo "$1 = $v, not within $2..$3"
		return 1
	}
}
advances() {
	a=$(cat "$1") && sleep 1 && b=$(cat "$1") || return 1
	[ "$b" -gt "$a" ] || { echo "$1 stayed at $a"; return 1; }
}
if [ -n "$TELEM" ]; then
	s0=$(echo $NODES | cut -d: -f1)
	set -- $TELEM
	check "tt_card_type is $1" attr_is tt_card_type "$1"
	check "tt_serial is the board id $2" attr_is tt_serial "$2"
	check "tt_fw_bundle_ver is $3" attr_is tt_fw_bundle_ver "$3"
	check "tt_arc_fw_ver is $4" attr_is tt_arc_fw_ver "$4"
	check "tt_m3app_fw_ver is $5" attr_is tt_m3app_fw_ver "$5"
	check "tt_m3bl_fw_ver is $6" attr_is tt_m3bl_fw_ver "$6"
	check "tt_ttflash_ver is $7" attr_is tt_ttflash_ver "$7"
	cls="/sys/class/tenstorrent/tenstorrent!0"
	for c in aiclk axiclk arcclk; do
		check "tt_$c is a clock in MHz" within "$cls/tt_$c" 1 10000
	done
	check "tt_asic_id is 16 hex digits" \
		sh -c "grep -qxE '[0-9A-F]{16}' '$cls/tt_asic_id'"
	check "tt_heartbeat advances" advances "$cls/tt_heartbeat"
	hw=$(hwmon_dir $s0)
	check "hwmon under the PCI function" test -d "$hw"
	# The chip family: node 0's arch without its stepping (wormhole_b0).
	family=$(echo $NODES | cut -d' ' -f1 | cut -d: -f2)
	family=${family%_b0}
	check "hwmon name is $family" out_is $family cat "$hw/name"
	check "hwmon labels" out_is "asic1_temp vcore1 current1 power1" sh -c \
		"echo \$(cat $hw/temp1_label $hw/in0_label $hw/curr1_label $hw/power1_label)"
	check "in0_max is $8 mV" out_is "$8" cat "$hw/in0_max"
	check "curr1_max is $9 mA" out_is "$9" cat "$hw/curr1_max"
	check "power1_max is ${10} uW" out_is "${10}" cat "$hw/power1_max"
	check "temp1_max is ${11} millidegrees" out_is "${11}" cat "$hw/temp1_max"
	check "temp1_input within 0..150 C" within "$hw/temp1_input" 0 150000
	check "in0_input within 1..in0_max" within "$hw/in0_input" 1 "$8"
	check "curr1_input within 0..curr1_max" within "$hw/curr1_input" 0 "$9"
	check "power1_input within 0..power1_max" \
		within "$hw/power1_input" 0 "${10}"
	check "fan1 is the fan in RPM" within "$hw/fan1_input" 0 20000
	check "fan1 label" out_is fan1_rpm cat "$hw/fan1_label"
	check "telemetry is read-only" fails sh -c "echo 1 > $cls/tt_aiclk"
elif [ $count -gt 0 ]; then
	s0=$(echo $NODES | cut -d: -f1)
	check "no firmware, no tt_* attributes" \
		fails test -e "/sys/class/tenstorrent/tenstorrent!0/tt_aiclk"
	check "no firmware, no hwmon" fails test -n "$(hwmon_dir $s0)"
fi

# libtt on the live model, through the driver (ttvm.libtt=0: not on this
# board, whose chip libtt's tests do not expect).
[ -z "$MODEL" ] || [ "$(arg libtt)" = 0 ] || libtt_tests

# An open file across unbind, rebind and rmmod.
if [ $count -gt 0 ]; then
	s0=$(echo $NODES | cut -d: -f1)
	exec 3<>/dev/tenstorrent/0
	check "rmmod refused while a file is open" fails rmmod tenstorrent
	check "unbind with a file open" sh -c "echo $(bdf $s0) > $DRV/unbind"
	check "unbind removes node 0" fails test -e /dev/tenstorrent/0
	check "unbind removes /proc/driver/tenstorrent/0" \
		fails test -e /proc/driver/tenstorrent/0
	check "open file after unbind: ioctl is ENODEV" \
		out_is "ioctl: ENODEV" ttvm-ioctl unknown 3
	check "reopening the open file after unbind is ENODEV" \
		out_is "open: ENODEV" ttvm-ioctl unknown /proc/self/fd/3
	exec 3>&-
	check "bind brings node 0 back" sh -c "echo $(bdf $s0) > $DRV/bind"
	check "node 0 is $(bdf $s0) again" node_ok 0 $s0
	check "node 0 has its procfs pids again" \
		test -f /proc/driver/tenstorrent/0/pids
	sub "unbind in use" ttvm-ioctl unbind /dev/tenstorrent/0 $(bdf $s0)
	check "bind after unbind in use" sh -c "echo $(bdf $s0) > $DRV/bind"
	check "node 0 serves again" out_is "ioctl: EINVAL" \
		ttvm-ioctl unknown /dev/tenstorrent/0
fi

# Unload and reload: everything goes, and comes back the same.
check "rmmod" rmmod tenstorrent
check "rmmod removes every node" node_count 0
check "rmmod removes the class" fails test -e /sys/class/tenstorrent
check "rmmod removes the module" fails test -e /sys/module/tenstorrent
check "rmmod removes /proc/driver/tenstorrent" \
	fails test -e /proc/driver/tenstorrent
check "module loads again" insmod $KO
check "same nodes after reload" each_node node_ok
check "rmmod again" rmmod tenstorrent

# Module parameters.
check "max_devices=0 is refused" fails insmod $KO max_devices=0
if [ $count -gt 1 ]; then
	check "max_devices=1 serves one device" insmod $KO max_devices=1
	check "max_devices=1: one node" node_count 1
	check "rmmod after max_devices=1" rmmod tenstorrent
fi
