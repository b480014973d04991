import { assembleBpf, jump, label, stmt, type Item } from './assemble-bpf.js';

/** CPU architectures the filter is generated for. */
export type SeccompArch = 'x64' | 'arm64';

/** The architecture of this Node process if a filter can be generated for it, else undefined. */
export function seccompArchFor(nodeArch: string): SeccompArch | undefined {
  return nodeArch === 'x64' || nodeArch === 'arm64' ? nodeArch : undefined;
}

/**
 * The compiled classic-BPF program (an array of struct sock_filter, 8 bytes each, little-endian),
 * exactly what `bwrap --seccomp FD` reads from FD. A refused call fails with an errno; nothing
 * is killed, so a tool that probes for a feature sees "not permitted" and falls back.
 */
export function buildSeccompFilter(arch: SeccompArch): Buffer {
  let program = compiled.get(arch);
  if (program === undefined) {
    program = assembleBpf(filterFor(ARCHES[arch]));
    compiled.set(arch, program);
  }
  // A copy: the cached program serves every later spawn, and a caller writing into the buffer
  // it was handed must not weaken them all.
  return Buffer.from(program);
}

/** Names of the syscalls the filter refuses outright, on the architectures that have them. */
export const SECCOMP_DENIED_SYSCALLS: readonly string[] = Object.freeze(
  denied().map((syscall) => syscall.name),
);

const compiled = new Map<SeccompArch, Buffer>();

interface DeniedSyscall {
  readonly name: string;
  /** From arch/x86/entry/syscalls/syscall_64.tbl; absent where x86_64 has no such call. */
  readonly x64?: number;
  /** From include/uapi/asm-generic/unistd.h; absent where aarch64 has no such call. */
  readonly arm64?: number;
  /** The refusal, when not EPERM. */
  readonly errno?: 'ENOSYS';
}

function denied(): readonly DeniedSyscall[] {
  return [
    // Kernel attack surface behind many recent local privilege escalations, unused by tools.
    // io_uring also performs operations (socket, openat, …) the filter never sees as syscalls.
    { name: 'io_uring_setup', x64: 425, arm64: 425 },
    { name: 'io_uring_enter', x64: 426, arm64: 426 },
    { name: 'io_uring_register', x64: 427, arm64: 427 },
    { name: 'bpf', x64: 321, arm64: 280 },
    { name: 'perf_event_open', x64: 298, arm64: 241 },
    // Lets an exploit pause the kernel mid-copy, turning a narrow race into a reliable one.
    { name: 'userfaultfd', x64: 323, arm64: 282 },
    // Keyrings are not namespaced: the user's keyring is shared with the host's sessions.
    { name: 'keyctl', x64: 250, arm64: 219 },
    { name: 'add_key', x64: 248, arm64: 217 },
    { name: 'request_key', x64: 249, arm64: 218 },

    // Reading or steering another process: memory, file descriptors, kernel object identity.
    { name: 'ptrace', x64: 101, arm64: 117 },
    { name: 'process_vm_readv', x64: 310, arm64: 270 },
    { name: 'process_vm_writev', x64: 311, arm64: 271 },
    { name: 'pidfd_getfd', x64: 438, arm64: 438 },
    { name: 'kcmp', x64: 312, arm64: 272 },

    // The mount view bwrap built is the sandbox; none of it may be rearranged from inside.
    { name: 'mount', x64: 165, arm64: 40 },
    { name: 'umount2', x64: 166, arm64: 39 },
    { name: 'pivot_root', x64: 155, arm64: 41 },
    { name: 'chroot', x64: 161, arm64: 51 },
    { name: 'fsopen', x64: 430, arm64: 430 },
    { name: 'fsconfig', x64: 431, arm64: 431 },
    { name: 'fsmount', x64: 432, arm64: 432 },
    { name: 'fspick', x64: 433, arm64: 433 },
    { name: 'move_mount', x64: 429, arm64: 429 },
    { name: 'open_tree', x64: 428, arm64: 428 },
    { name: 'open_tree_attr', x64: 467, arm64: 467 },
    { name: 'mount_setattr', x64: 442, arm64: 442 },
    // A file handle opens an inode without a path, so it ignores the mount view ("shocker").
    { name: 'open_by_handle_at', x64: 304, arm64: 265 },
    { name: 'name_to_handle_at', x64: 303, arm64: 264 },

    // A new user namespace hands back every capability `--cap-drop ALL` took away.
    { name: 'unshare', x64: 272, arm64: 97 },
    { name: 'setns', x64: 308, arm64: 268 },

    // Whole-machine state: the kernel itself, its modules, swap, accounting, quotas, its log
    // (which leaks kernel addresses past KASLR).
    { name: 'kexec_load', x64: 246, arm64: 104 },
    { name: 'kexec_file_load', x64: 320, arm64: 294 },
    { name: 'init_module', x64: 175, arm64: 105 },
    { name: 'finit_module', x64: 313, arm64: 273 },
    { name: 'delete_module', x64: 176, arm64: 106 },
    { name: 'reboot', x64: 169, arm64: 142 },
    { name: 'swapon', x64: 167, arm64: 224 },
    { name: 'swapoff', x64: 168, arm64: 225 },
    { name: 'syslog', x64: 103, arm64: 116 },
    { name: 'acct', x64: 163, arm64: 89 },
    { name: 'quotactl', x64: 179, arm64: 60 },
    { name: 'quotactl_fd', x64: 443, arm64: 443 },
    // Removed in Linux 6.8; on older kernels it turns a cookie into any path on the machine.
    { name: 'lookup_dcookie', x64: 212, arm64: 18 },

    // x86 only: raw I/O ports, the a.out loader, and the LDT (a recurring source of kernel bugs;
    // only 16-bit code and Wine use it).
    { name: 'iopl', x64: 172 },
    { name: 'ioperm', x64: 173 },
    { name: 'uselib', x64: 134 },
    { name: 'modify_ldt', x64: 154 },

    // Its flags sit behind a pointer the filter cannot read, so namespace flags would pass
    // unseen; ENOSYS (not EPERM) makes glibc fall back to `clone`, whose flags are checked.
    { name: 'clone3', x64: 435, arm64: 435, errno: 'ENOSYS' },
  ];
}

/** What differs per architecture; the syscalls named here are checked by their arguments. */
interface ArchSpec {
  readonly auditArch: number;
  /** x86_64 also dispatches the x32 ABI: the same arch value, numbers with bit 30 set. */
  readonly hasX32: boolean;
  readonly syscall: (row: DeniedSyscall) => number | undefined;
  readonly clone: number;
  readonly socket: number;
  readonly socketpair: number;
  readonly ioctl: number;
  readonly personality: number;
}

const ARCHES: Readonly<Record<SeccompArch, ArchSpec>> = {
  x64: {
    auditArch: 0xc000003e,
    hasX32: true,
    syscall: (row) => row.x64,
    clone: 56,
    socket: 41,
    socketpair: 53,
    ioctl: 16,
    personality: 135,
  },
  arm64: {
    auditArch: 0xc00000b7,
    hasX32: false,
    syscall: (row) => row.arm64,
    clone: 220,
    socket: 198,
    socketpair: 199,
    ioctl: 29,
    personality: 92,
  },
};

const EPERM = 1;
const ENOSYS = 38;

const X32_SYSCALL_BIT = 0x40000000;
const CLONE_NAMESPACE_FLAGS =
  0x00020000 | // CLONE_NEWNS
  0x02000000 | // CLONE_NEWCGROUP
  0x04000000 | // CLONE_NEWUTS
  0x08000000 | // CLONE_NEWIPC
  0x10000000 | // CLONE_NEWUSER
  0x20000000 | // CLONE_NEWPID
  0x40000000; // CLONE_NEWNET
const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
// TIOCSTI and TIOCLINUX push keystrokes into a terminal another process reads; TIOCSETD loads a
// line discipline, the entry point of several pty exploits (n_gsm, n_hdlc).
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const TIOCSETD = 0x5423;
const PER_LINUX = 0;
const PERSONALITY_QUERY = 0xffffffff;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;

// Classic BPF opcodes (linux/bpf_common.h): class | size | mode, class | op | source.
const BPF_LD_W_ABS = 0x00 | 0x00 | 0x20;
const BPF_JMP_JEQ_K = 0x05 | 0x10 | 0x00;
const BPF_JMP_JSET_K = 0x05 | 0x40 | 0x00;
const BPF_RET_K = 0x06 | 0x00;

// struct seccomp_data: u32 nr, u32 arch, u64 instruction_pointer, u64 args[6].
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const ARGS_OFFSET = 16;

/**
 * The filter, top to bottom: foreign ABI, refused numbers, then the argument checks. Every
 * number not named here reaches `allow` having read only `nr` and `arch`, which lets the kernel
 * (5.11+) cache it as always-allowed and skip running the filter for it at all.
 */
function filterFor(arch: ArchSpec): Item[] {
  const refused = denied().flatMap((row) => {
    const nr = arch.syscall(row);
    return nr === undefined ? [] : [{ nr, deny: row.errno === 'ENOSYS' ? 'enosys' : 'eperm' }];
  });
  return [
    // i386 `int 0x80` (and AArch32) arrive with another arch value and another numbering.
    load(ARCH_OFFSET),
    jump(BPF_JMP_JEQ_K, arch.auditArch, 'next', 'eperm'),
    load(NR_OFFSET),
    ...(arch.hasX32 ? [jump(BPF_JMP_JSET_K, X32_SYSCALL_BIT, 'eperm', 'next')] : []),
    ...refused.map(({ nr, deny }) => jump(BPF_JMP_JEQ_K, nr, deny, 'next')),
    jump(BPF_JMP_JEQ_K, arch.clone, 'clone', 'next'),
    jump(BPF_JMP_JEQ_K, arch.socket, 'socket', 'next'),
    jump(BPF_JMP_JEQ_K, arch.socketpair, 'socket', 'next'),
    jump(BPF_JMP_JEQ_K, arch.ioctl, 'ioctl', 'next'),
    jump(BPF_JMP_JEQ_K, arch.personality, 'personality', 'allow'),

    // Threads and fork pass; a namespace would undo the sandbox as `unshare` would.
    label('clone'),
    loadArgument(0),
    jump(BPF_JMP_JSET_K, CLONE_NAMESPACE_FLAGS, 'eperm', 'allow'),

    // Local servers and loopback clients keep working; netlink, packet, vsock, crypto, … do not.
    label('socket'),
    loadArgument(0),
    jump(BPF_JMP_JEQ_K, AF_UNIX, 'allow', 'next'),
    jump(BPF_JMP_JEQ_K, AF_INET, 'allow', 'next'),
    jump(BPF_JMP_JEQ_K, AF_INET6, 'allow', 'eperm'),

    label('ioctl'),
    loadArgument(1),
    jump(BPF_JMP_JEQ_K, TIOCSTI, 'eperm', 'next'),
    jump(BPF_JMP_JEQ_K, TIOCLINUX, 'eperm', 'next'),
    jump(BPF_JMP_JEQ_K, TIOCSETD, 'eperm', 'allow'),

    // Querying is harmless; setting ADDR_NO_RANDOMIZE or READ_IMPLIES_EXEC weakens ASLR and NX
    // for whatever the process runs next.
    label('personality'),
    loadArgument(0),
    jump(BPF_JMP_JEQ_K, PER_LINUX, 'allow', 'next'),
    jump(BPF_JMP_JEQ_K, PERSONALITY_QUERY, 'allow', 'eperm'),

    label('enosys'),
    ret(SECCOMP_RET_ERRNO | ENOSYS),
    label('eperm'),
    ret(SECCOMP_RET_ERRNO | EPERM),
    label('allow'),
    ret(SECCOMP_RET_ALLOW),
  ];
}

function load(offset: number): Item {
  return stmt(BPF_LD_W_ABS, offset);
}

// The low half of a 64-bit argument (little-endian: it comes first). The kernel reads these
// arguments as 32-bit ints, so high bits set by the caller change nothing and must not either.
function loadArgument(index: number): Item {
  return load(ARGS_OFFSET + 8 * index);
}

function ret(action: number): Item {
  return stmt(BPF_RET_K, action);
}
