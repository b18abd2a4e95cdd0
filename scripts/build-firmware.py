#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Build the firmware (its own Meson cross project, firmware/) from inside
the host build, and copy the bundle out only when it changed, so the host
build relinks only when the firmware did.

usage: build-firmware.py SRCDIR FWBUILDDIR OUTPUT
"""
import filecmp
import os
import shutil
import subprocess
import sys


def run(cmd):
    # The outer build's Meson environment must not leak into the inner one.
    env = {k: v for k, v in os.environ.items() if not k.startswith("MESON")}
    res = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    if res.returncode:
        sys.stderr.write(res.stdout)
        sys.exit("firmware build failed: " + " ".join(cmd))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, build, out = sys.argv[1:]
    fw_src = os.path.join(src, "firmware")
    cross = os.path.join(fw_src, "cross", "rv32im.ini")
    if not os.path.exists(os.path.join(build, "build.ninja")):
        run(["meson", "setup", "--cross-file", cross, build, fw_src])
    run(["meson", "compile", "-C", build])
    bundle = os.path.join(build, "tt-flash.bin")
    if not os.path.exists(out) or not filecmp.cmp(bundle, out, shallow=False):
        shutil.copyfile(bundle, out + ".tmp")
        os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
