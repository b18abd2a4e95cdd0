# SPDX-License-Identifier: Apache-2.0
"""Boot the guest under QEMU and read its serial console.

TCG only: KVM hangs on the machines this runs on. A guest that does not
power off within the timeout is killed; the caller sees timed_out.
"""
import subprocess
import time


RAM_MIB = 512


def command(kernel, initrd, append, shm, doorbell=(), ram=None):
    """The QEMU command line; shm is a list of (slot, image file, size):
    one ivshmem-plain function per image, in PCI slot `slot` of bus 0;
    doorbell a list of (slot, socket): one ivshmem-doorbell function per
    ivshmem server socket (ttsim --ivshmem), with the one vector ttsim
    uses; ram the file of the guest's RAM that ttsim made (--guest-ram,
    RAM_MIB), so that the model reaches it for DMA."""
    cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-m', f'{RAM_MIB}M']
    if ram:
        cmd += ['-object', f'memory-backend-file,id=ram0,size={RAM_MIB}M,'
                f'mem-path={ram},share=on',
                '-machine', 'pc,memory-backend=ram0']
    cmd += ['-nodefaults', '-display', 'none', '-serial', 'stdio',
           '-no-reboot', '-kernel', kernel, '-initrd', initrd,
           '-append', 'console=ttyS0 quiet panic=-1 ' + append]
    for slot, path, size in shm:
        mem = f'shm{slot:x}'
        cmd += ['-object', f'memory-backend-file,id={mem},share=on,'
                f'mem-path={path},size={size}',
                '-device', f'ivshmem-plain,memdev={mem},addr={slot:#x}']
    for slot, sock in doorbell:
        chardev = f'ivs{slot:x}'
        cmd += ['-chardev', f'socket,path={sock},id={chardev}',
                '-device', f'ivshmem-doorbell,chardev={chardev},vectors=1,'
                f'addr={slot:#x}']
    return cmd


def boot(cmd, timeout):
    """Run QEMU; return (console output, timed_out, exit status, seconds
    it ran)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        out, _ = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        timed_out = True
    # The serial console ends lines with CR LF.
    log = out.decode(errors='replace').replace('\r\n', '\n')
    return log, timed_out, p.returncode, time.monotonic() - t0
