import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { constants as fsConstants, existsSync, readFileSync } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSeccompFilter,
  SECCOMP_DENIED_SYSCALLS,
  seccompArchFor,
  type SeccompArch,
} from './seccomp-filter.js';

const execFileAsync = promisify(execFile);

const ALLOW = 0x7fff0000;
const ERRNO_EPERM = 0x00050001;
const ERRNO_ENOSYS = 0x00050026;
const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
const FOREIGN_ARCH = { x64: 0x40000003, arm64: 0x40000028 } as const; // i386, AArch32
const X64_ONLY = ['iopl', 'ioperm', 'uselib', 'modify_ldt'];

// Syscall numbers straight from this machine's kernel headers, independent of the module's table.
const HEADERS: Readonly<Record<SeccompArch, string>> = {
  x64: '/usr/include/x86_64-linux-gnu/asm/unistd_64.h',
  arm64: '/usr/include/asm-generic/unistd.h',
};

describe('seccompArchFor', () => {
  it.each([
    ['x64', 'x64'],
    ['arm64', 'arm64'],
    ['ia32', undefined],
    ['arm', undefined],
    ['riscv64', undefined],
    ['ppc64', undefined],
  ])('maps %s to %s', (nodeArch, expected) => {
    expect(seccompArchFor(nodeArch)).toBe(expected);
  });
});

describe('SECCOMP_DENIED_SYSCALLS', () => {
  it('names every syscall the sandbox promises to refuse', () => {
    const promised = [
      ...['io_uring_setup', 'io_uring_enter', 'io_uring_register', 'ptrace', 'process_vm_readv'],
      ...['process_vm_writev', 'bpf', 'perf_event_open', 'userfaultfd', 'keyctl', 'add_key'],
      ...['request_key', 'mount', 'umount2', 'pivot_root', 'unshare', 'setns', 'fsopen'],
      ...['fsconfig', 'fsmount', 'fspick', 'move_mount', 'open_tree', 'mount_setattr', 'chroot'],
      ...['open_by_handle_at', 'name_to_handle_at', 'kexec_load', 'kexec_file_load'],
      ...['init_module', 'finit_module', 'delete_module', 'reboot', 'swapon', 'swapoff'],
      ...['syslog', 'acct', 'quotactl', 'lookup_dcookie', 'kcmp', 'iopl', 'ioperm', 'uselib'],
      'clone3',
    ];

    expect(SECCOMP_DENIED_SYSCALLS).toEqual(expect.arrayContaining(promised));
    expect(new Set(SECCOMP_DENIED_SYSCALLS).size).toBe(SECCOMP_DENIED_SYSCALLS.length);
    expect(Object.isFrozen(SECCOMP_DENIED_SYSCALLS)).toBe(true);
  });
});

describe('buildSeccompFilter', () => {
  it.each(['x64', 'arm64'] as const)('compiles a well-formed program for %s', (arch) => {
    const program = buildSeccompFilter(arch);
    const instructions = decode(program);

    expect(program.length % 8).toBe(0);
    expect(instructions.length).toBeGreaterThan(40);
    expect(instructions.length).toBeLessThan(4096);
    expect(instructions.at(-1)).toEqual({ code: BPF_RET_K, jt: 0, jf: 0, k: ALLOW });
    for (const [index, { code, jt, jf, k }] of instructions.entries()) {
      expect(KNOWN_CODES).toContain(code);
      if (code === BPF_LD_W_ABS) {
        expect(k === 0 || k === 4 || (k >= 16 && k < 64 && k % 4 === 0)).toBe(true);
      }
      if (code === BPF_JMP_JEQ_K || code === BPF_JMP_JSET_K) {
        expect(index + 1 + Math.max(jt, jf)).toBeLessThan(instructions.length);
      }
    }
  });

  it('hands out the same bytes on every call, unharmed by a caller writing into its copy', () => {
    const first = buildSeccompFilter('x64');
    const pristine = Buffer.from(first);

    first.fill(0);
    const second = buildSeccompFilter('x64');

    expect(second).not.toBe(first);
    expect(second.equals(pristine)).toBe(true);
    expect(buildSeccompFilter('x64').equals(second)).toBe(true);
  });

  it.each(['x64', 'arm64'] as const)('refuses every other ABI on %s', (arch) => {
    const program = buildSeccompFilter(arch);

    expect(evaluate(program, { arch: FOREIGN_ARCH[arch], nr: 20 })).toBe(ERRNO_EPERM);
    expect(evaluate(program, { arch: AUDIT_ARCH[arch], nr: 20 })).toBe(ALLOW);
  });

  it('refuses the x32 ABI on x64', () => {
    const program = buildSeccompFilter('x64');

    expect(evaluate(program, { arch: AUDIT_ARCH.x64, nr: 0x40000000 | 39 })).toBe(ERRNO_EPERM);
  });

  // What the aarch64 filter does, where no aarch64 kernel is at hand to ask.
  it.each([
    ['ptrace', { nr: 117 }, ERRNO_EPERM],
    ['unshare', { nr: 97 }, ERRNO_EPERM],
    ['mount', { nr: 40 }, ERRNO_EPERM],
    ['nanosleep (x64 ptrace is 101)', { nr: 101 }, ALLOW],
    ['clone3', { nr: 435 }, ERRNO_ENOSYS],
    ['clone with CLONE_NEWUSER', { nr: 220, args: [0x10000000n | 17n] }, ERRNO_EPERM],
    ['clone with high bits over CLONE_NEWNET', { nr: 220, args: [0x1_4000_0000n] }, ERRNO_EPERM],
    ['clone for a thread', { nr: 220, args: [0x003d0f00n] }, ALLOW],
    ['socket AF_NETLINK', { nr: 198, args: [16n] }, ERRNO_EPERM],
    ['socket AF_INET6', { nr: 198, args: [10n] }, ALLOW],
    ['socketpair AF_VSOCK', { nr: 199, args: [40n] }, ERRNO_EPERM],
    ['ioctl TIOCSTI', { nr: 29, args: [0n, 0x5412n] }, ERRNO_EPERM],
    ['ioctl TIOCSTI with high bits', { nr: 29, args: [0n, 0xffff_ffff_0000_5412n] }, ERRNO_EPERM],
    ['ioctl FIONREAD', { nr: 29, args: [0n, 0x541bn] }, ALLOW],
    ['personality ADDR_NO_RANDOMIZE', { nr: 92, args: [0x0040000n] }, ERRNO_EPERM],
    ['personality query', { nr: 92, args: [0xffffffffn] }, ALLOW],
  ])('decides aarch64 %s', (_case, call, expected) => {
    const program = buildSeccompFilter('arm64');

    expect(evaluate(program, { arch: AUDIT_ARCH.arm64, ...call })).toBe(expected);
  });

  describe.each(['x64', 'arm64'] as const)('against the %s kernel headers', (arch) => {
    const numbers = existsSync(HEADERS[arch]) ? syscallNumbers(HEADERS[arch]) : undefined;

    it.runIf(numbers !== undefined)('refuses each denied syscall by its header number', () => {
      const known = SECCOMP_DENIED_SYSCALLS.filter((name) => numbers?.has(name));
      const missing = SECCOMP_DENIED_SYSCALLS.filter((name) => !numbers?.has(name));

      const decisions = known.map((name) => [name, decide(arch, numbers?.get(name))]);

      expect(decisions).toEqual(
        known.map((name) => [name, name === 'clone3' ? ERRNO_ENOSYS : ERRNO_EPERM]),
      );
      // Only x86 extras, and calls newer than the installed headers, may be missing.
      const allowedMissing = [...(arch === 'x64' ? [] : X64_ONLY), 'open_tree_attr'];
      expect(allowedMissing).toEqual(expect.arrayContaining(missing));
    });

    it.runIf(numbers !== undefined)('lets everyday syscalls through', () => {
      const everyday = ['read', 'write', 'openat', 'munmap', 'execve', 'futex', 'getpid', 'wait4'];

      const decisions = everyday.map((name) => [name, decide(arch, numbers?.get(name))]);

      expect(decisions).toEqual(everyday.map((name) => [name, ALLOW]));
    });
  });
});

const BWRAP = '/usr/bin/bwrap';
const SANDBOX = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all'];
const HARDENING = ['--die-with-parent', '--cap-drop', 'ALL'];
const nativeArch = seccompArchFor(process.arch);
const sandboxMissing = await whyNoSandbox();

describe.skipIf(sandboxMissing !== undefined)(
  `under bwrap --seccomp${sandboxMissing === undefined ? '' : ` (skipped: ${sandboxMissing})`}`,
  () => {
    const filter = nativeArch === undefined ? Buffer.alloc(0) : buildSeccompFilter(nativeArch);
    let directory = '';
    let probe = '';
    let filtered: ProbeReport = emptyReport();
    let unfiltered: ProbeReport = emptyReport();

    beforeAll(async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'toolhost-seccomp-'));
      probe = path.join(directory, 'probe');
      await writeFile(`${probe}.c`, PROBE_SOURCE);
      await execFileAsync('cc', ['-O0', '-pthread', '-o', probe, `${probe}.c`]);
      filtered = parseProbe(await runInSandbox([probe], filter));
      unfiltered = parseProbe(await runInSandbox([probe], undefined));
    });
    afterEach(stopAll);
    afterAll(async () => {
      stopAll();
      await rm(directory, { recursive: true, force: true });
    });

    it('survives every refused call and reaches its last line', () => {
      expect(filtered.run).toMatchObject({ exitCode: 0, signal: null, stderr: '' });
      expect(filtered.finished).toBe(true);
      // What the kernel itself lacks is absent with or without the filter: a kernel built
      // without IA32 emulation has no `int 0x80` entry (the i386 case below then skips).
      const kernelLacks = unfiltered.absent.filter((name) => name === 'int80');
      expect(filtered.absent).toEqual(
        nativeArch === 'x64' ? kernelLacks : [...X64_ONLY, 'x32', 'int80'],
      );
    });

    it.for(SECCOMP_DENIED_SYSCALLS.filter((name) => name !== 'clone3'))(
      'refuses %s with EPERM',
      (name, context) => {
        if (filtered.absent.includes(name)) context.skip(`${name} does not exist on this arch`);

        expect(filtered.outcomes.get(name)).toEqual({ ret: -1, errno: 'EPERM' });
      },
    );

    it('answers clone3 with ENOSYS so that glibc falls back to clone', () => {
      expect(filtered.outcomes.get('clone3')).toEqual({ ret: -1, errno: 'ENOSYS' });
    });

    it.each([
      ...['newns', 'newcgroup', 'newuts', 'newipc', 'newuser', 'newpid', 'newnet'].map(
        (flag) => `clone:${flag}`,
      ),
      'clone:newuser-high-bits',
      ...['netlink', 'netlink-high-bits', 'packet', 'vsock', 'alg', 'key', 'xdp', 'bluetooth'].map(
        (family) => `socket:${family}`,
      ),
      'socketpair:netlink',
      ...['tiocsti', 'tiocsti-high-bits', 'tioclinux', 'tiocsetd'].map(
        (request) => `ioctl:${request}`,
      ),
      'personality:no-randomize',
    ])('refuses %s with EPERM', (name) => {
      expect(filtered.outcomes.get(name)).toEqual({ ret: -1, errno: 'EPERM' });
    });

    it.each(['socket:unix', 'socket:inet', 'socket:inet6', 'socketpair:unix'])(
      'allows %s',
      (name) => {
        expect(filtered.outcomes.get(name)).toMatchObject({ errno: undefined });
        expect(filtered.outcomes.get(name)?.ret).toBeGreaterThanOrEqual(0);
      },
    );

    it.each([
      ['a raw clone without namespace flags', 'clone:fork', { ret: 7, errno: undefined }],
      ["glibc's fork", 'fork', { ret: 7, errno: undefined }],
      ['a thread (clone3 refused, clone used)', 'pthread_create', { ret: 0, errno: undefined }],
      ['FIONREAD on a pipe', 'ioctl:fionread', { ret: 0, errno: undefined }],
      [
        'TIOCGWINSZ, refused only by the tty layer',
        'ioctl:tiocgwinsz',
        { ret: -1, errno: 'ENOTTY' },
      ],
      ['personality PER_LINUX', 'personality:linux', { ret: 0, errno: undefined }],
      ['the personality query', 'personality:query', { ret: 0, errno: undefined }],
    ])('allows %s', (_case, name, expected) => {
      expect(filtered.outcomes.get(name)).toEqual(expected);
    });

    it('refuses an x32 syscall', (context) => {
      if (nativeArch !== 'x64') context.skip('x32 exists only on x86_64');

      expect(filtered.outcomes.get('x32')).toEqual({ ret: -1, errno: 'EPERM' });
      expect(unfiltered.outcomes.get('x32')).not.toEqual({ ret: -1, errno: 'EPERM' });
    });

    it('refuses an i386 syscall made through int 0x80', (context) => {
      if (nativeArch !== 'x64') context.skip('int 0x80 exists only on x86');
      if (unfiltered.absent.includes('int80')) context.skip('this kernel has no IA32 emulation');

      expect(unfiltered.outcomes.get('int80')).toEqual({ ret: 0, errno: undefined });
      expect(filtered.outcomes.get('int80')).toEqual({ ret: -1, errno: 'EPERM' });
    });

    // The same probe without the filter: these answers prove the filter, not bwrap's dropped
    // capabilities or the kernel, is what said EPERM above.
    it.for([
      ['io_uring_setup', { ret: -1, errno: 'EFAULT' }],
      ['unshare', { ret: 0, errno: undefined }],
      ['kcmp', { ret: 0, errno: undefined }],
      ['modify_ldt', { ret: 0, errno: undefined }],
      ['clone3', { ret: -1, errno: 'EINVAL' }],
      ['clone:newuser', { ret: 7, errno: undefined }],
      ['ioctl:tiocsti', { ret: -1, errno: 'ENOTTY' }],
      ['ioctl:tiocsti-high-bits', { ret: -1, errno: 'ENOTTY' }],
      ['personality:no-randomize', { ret: 0, errno: undefined }],
    ] as const)(
      'sees %s answered by the kernel without the filter',
      ([name, expected], context) => {
        if (unfiltered.absent.includes(name)) context.skip(`${name} does not exist on this arch`);

        expect(unfiltered.run).toMatchObject({ exitCode: 0, signal: null });
        expect(unfiltered.outcomes.get(name)).toEqual(expected);
      },
    );

    it.each(['socket:netlink', 'socket:netlink-high-bits'])(
      'opens %s without the filter',
      (name) => {
        expect(unfiltered.outcomes.get(name)?.ret).toBeGreaterThanOrEqual(0);
      },
    );

    it('runs a node server on loopback under the filter', async () => {
      const script =
        "require('net').createServer().listen(0,'127.0.0.1',function(){console.log('ok');this.close()})";

      const run = await runInSandbox(['/usr/bin/node', '-e', script], filter);

      expect(run).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    });

    it('runs a shell under the filter', async () => {
      const run = await runInSandbox(['/bin/sh', '-c', 'echo hi'], filter);

      expect(run).toMatchObject({ exitCode: 0, stdout: 'hi\n', stderr: '' });
    });

    it('runs git under the filter', async () => {
      const run = await runInSandbox(['git', '--version'], filter);

      expect(run).toMatchObject({ exitCode: 0, stderr: '' });
      expect(run.stdout).toMatch(/^git version \d/);
    });
  },
);

interface SandboxRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

const running = new Set<ChildProcess>();

// bwrap reads the filter from fd 3 until EOF, so the whole program is written and the pipe shut.
function runInSandbox(command: readonly string[], filter: Buffer | undefined): Promise<SandboxRun> {
  const seccomp = filter === undefined ? [] : ['--seccomp', '3'];
  const child = spawn(BWRAP, [...SANDBOX, ...HARDENING, ...seccomp, '--', ...command], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  const filterPipe = child.stdio[3];
  if (filterPipe instanceof Writable) {
    // bwrap refusing its arguments exits before reading; its exit status tells that story.
    filterPipe.on('error', () => {});
    filterPipe.end(filter);
  }
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const deadline = setTimeout(() => stop(child), 20_000);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(deadline);
      running.delete(child);
      reject(error);
    });
    child.once('close', (exitCode, signal) => {
      clearTimeout(deadline);
      running.delete(child);
      resolve({ exitCode, signal, stdout, stderr });
    });
  });
}

function stopAll(): void {
  for (const child of running) stop(child);
}

function stop(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(child.pid, 'SIGKILL');
  } catch {
    // Already gone; `--die-with-parent` takes the sandboxed command with bwrap.
  }
}

async function whyNoSandbox(): Promise<string | undefined> {
  if (process.platform !== 'linux') return 'bwrap and seccomp are Linux only';
  if (nativeArch === undefined) return `no filter is generated for ${process.arch}`;
  const hasBwrap = await access(BWRAP, fsConstants.X_OK).then(
    () => true,
    () => false,
  );
  if (!hasBwrap) return `${BWRAP} is not installed`;
  const hasCompiler = await execFileAsync('cc', ['--version']).then(
    () => true,
    () => false,
  );
  if (!hasCompiler) return 'no C compiler (cc) for the probe';
  return undefined;
}

interface Outcome {
  readonly ret: number;
  readonly errno: string | undefined;
}

interface ProbeReport {
  readonly run: SandboxRun | undefined;
  readonly outcomes: ReadonlyMap<string, Outcome>;
  readonly absent: readonly string[];
  readonly finished: boolean;
}

function emptyReport(): ProbeReport {
  return { run: undefined, outcomes: new Map(), absent: [], finished: false };
}

// Lines are `name ret errno`, `absent name`, and a final `done`.
function parseProbe(run: SandboxRun): ProbeReport {
  const outcomes = new Map<string, Outcome>();
  const absent: string[] = [];
  const lines = run.stdout.split('\n').filter((line) => line !== '');
  for (const line of lines) {
    const [first = '', second = '', third = '0'] = line.split(' ');
    if (first === 'absent') absent.push(second);
    else if (first !== 'done')
      outcomes.set(first, { ret: Number(second), errno: errnoName(third) });
  }
  return { run, outcomes, absent, finished: lines.at(-1) === 'done' };
}

function errnoName(value: string): string | undefined {
  const number = Number(value);
  if (number === 0) return undefined;
  return Object.entries(constants.errno).find(([, errno]) => errno === number)?.[0] ?? value;
}

function syscallNumbers(header: string): Map<string, number> {
  const text = readFileSync(header, 'utf8');
  return new Map(
    [...text.matchAll(/^#define __NR_(\w+)\s+(\d+)\s*$/gm)].map(([, name = '', number]) => [
      name,
      Number(number),
    ]),
  );
}

function decide(arch: SeccompArch, nr: number | undefined): number | undefined {
  return nr === undefined
    ? undefined
    : evaluate(buildSeccompFilter(arch), { arch: AUDIT_ARCH[arch], nr });
}

const BPF_LD_W_ABS = 0x20;
const BPF_JMP_JEQ_K = 0x15;
const BPF_JMP_JSET_K = 0x45;
const BPF_RET_K = 0x06;
const KNOWN_CODES = [BPF_LD_W_ABS, BPF_JMP_JEQ_K, BPF_JMP_JSET_K, BPF_RET_K];

interface Instruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

function decode(program: Buffer): Instruction[] {
  return Array.from({ length: Math.floor(program.length / 8) }, (_, index) => ({
    code: program.readUInt16LE(index * 8),
    jt: program.readUInt8(index * 8 + 2),
    jf: program.readUInt8(index * 8 + 3),
    k: program.readUInt32LE(index * 8 + 4),
  }));
}

// A reference interpreter for the four opcodes the filter uses, as the kernel runs them on a
// struct seccomp_data, so the aarch64 program is checked for behaviour and not only shape.
function evaluate(
  program: Buffer,
  call: { readonly arch: number; readonly nr: number; readonly args?: readonly bigint[] },
): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(call.nr >>> 0, 0);
  data.writeUInt32LE(call.arch, 4);
  call.args?.forEach((argument, index) => data.writeBigUInt64LE(argument, 16 + 8 * index));
  const instructions = decode(program);
  let accumulator = 0;
  for (let pc = 0; pc < instructions.length;) {
    const instruction = instructions[pc];
    if (instruction === undefined) break;
    const { code, jt, jf, k } = instruction;
    if (code === BPF_RET_K) return k;
    if (code === BPF_LD_W_ABS) accumulator = data.readUInt32LE(k);
    else if (code === BPF_JMP_JEQ_K) pc += accumulator === k ? jt : jf;
    else if (code === BPF_JMP_JSET_K) pc += (accumulator & k) !== 0 ? jt : jf;
    else throw new Error(`unexpected opcode ${code}`);
    pc += 1;
  }
  throw new Error('the program ran off its end');
}

// Calls each syscall with arguments that are harmless even when nothing refuses them (bad fds,
// NULL pointers, invalid flags, bogus pids), and prints `name ret errno` for each.
const PROBE_SOURCE = String.raw`
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Newer than some distributions' headers; one number on every architecture. */
#ifndef SYS_open_tree_attr
#define SYS_open_tree_attr 467
#endif

#define HIGH_BITS 0x100000000UL
#define BOGUS_PID 0x3fffffffL
#define BAD_FLAGS 0xffffffffUL

static void report(const char *name, long ret) {
  printf("%s %ld %d\n", name, ret, ret == -1 ? errno : 0);
}

static void absent(const char *name) { printf("absent %s\n", name); }

#define PROBE(name, ...) (errno = 0, report(name, syscall(__VA_ARGS__)))

/* The child leaves at once with status 7; the parent reports that status. */
static void probe_fork(const char *name, long ret) {
  if (ret == 0) _exit(7);
  if (ret == -1) { report(name, ret); return; }
  int status = 0;
  waitpid((pid_t)ret, &status, 0);
  printf("%s %d 0\n", name, WIFEXITED(status) ? WEXITSTATUS(status) : -2);
}

#define PROBE_CLONE(name, flags) \
  (errno = 0, probe_fork(name, syscall(SYS_clone, (unsigned long)(flags) | SIGCHLD, 0, 0, 0, 0)))

static void *thread_main(void *argument) { return argument; }

#ifdef __x86_64__
/* i386 getpid (20) through the 32-bit entry; from a child, since without IA32 emulation the
   instruction faults. The child's status carries the errno, 0 for success. */
static void probe_int80(void) {
  pid_t child = fork();
  if (child == 0) {
    long ret = 20;
    __asm__ volatile("int $0x80" : "+a"(ret) : : "memory", "r8", "r9", "r10", "r11");
    _exit(ret > 0 ? 0 : (int)-ret);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status)) { absent("int80"); return; }
  printf("int80 %d %d\n", WEXITSTATUS(status) == 0 ? 0 : -1, WEXITSTATUS(status));
}
#endif

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);

  PROBE("io_uring_setup", SYS_io_uring_setup, 0, NULL);
  PROBE("io_uring_enter", SYS_io_uring_enter, -1, 0, 0, 0, NULL, 0);
  PROBE("io_uring_register", SYS_io_uring_register, -1, 0, NULL, 0);
  PROBE("bpf", SYS_bpf, 0x7fff, NULL, 0);
  PROBE("perf_event_open", SYS_perf_event_open, NULL, 0, -1, -1, 0);
  PROBE("userfaultfd", SYS_userfaultfd, BAD_FLAGS);
  PROBE("keyctl", SYS_keyctl, 0x7fff, 0, 0, 0, 0);
  PROBE("add_key", SYS_add_key, NULL, NULL, NULL, 0, 0);
  PROBE("request_key", SYS_request_key, NULL, NULL, NULL, 0);
  PROBE("ptrace", SYS_ptrace, 2 /* PTRACE_PEEKDATA */, BOGUS_PID, NULL, NULL);
  PROBE("process_vm_readv", SYS_process_vm_readv, BOGUS_PID, NULL, 0, NULL, 0, 1);
  PROBE("process_vm_writev", SYS_process_vm_writev, BOGUS_PID, NULL, 0, NULL, 0, 1);
  PROBE("pidfd_getfd", SYS_pidfd_getfd, -1, 0, 0);
  PROBE("kcmp", SYS_kcmp, getpid(), getpid(), 1 /* KCMP_VM */, 0, 0);
  PROBE("mount", SYS_mount, NULL, NULL, NULL, 0, NULL);
  PROBE("umount2", SYS_umount2, NULL, BAD_FLAGS);
  PROBE("pivot_root", SYS_pivot_root, NULL, NULL);
  PROBE("chroot", SYS_chroot, NULL);
  PROBE("fsopen", SYS_fsopen, NULL, BAD_FLAGS);
  PROBE("fsconfig", SYS_fsconfig, -1, 0x7fff, NULL, NULL, 0);
  PROBE("fsmount", SYS_fsmount, -1, BAD_FLAGS, 0);
  PROBE("fspick", SYS_fspick, -1, NULL, BAD_FLAGS);
  PROBE("move_mount", SYS_move_mount, -1, NULL, -1, NULL, BAD_FLAGS);
  PROBE("open_tree", SYS_open_tree, -1, NULL, BAD_FLAGS);
  PROBE("open_tree_attr", SYS_open_tree_attr, -1, NULL, BAD_FLAGS, NULL, 0);
  PROBE("mount_setattr", SYS_mount_setattr, -1, NULL, BAD_FLAGS, NULL, 0);
  PROBE("open_by_handle_at", SYS_open_by_handle_at, -1, NULL, 0);
  PROBE("name_to_handle_at", SYS_name_to_handle_at, -1, NULL, NULL, NULL, BAD_FLAGS);
  PROBE("unshare", SYS_unshare, 0);
  PROBE("setns", SYS_setns, -1, 0);
  PROBE("kexec_load", SYS_kexec_load, 0, 0, NULL, BAD_FLAGS);
  PROBE("kexec_file_load", SYS_kexec_file_load, -1, -1, 0, NULL, BAD_FLAGS);
  PROBE("init_module", SYS_init_module, NULL, 0, NULL);
  PROBE("finit_module", SYS_finit_module, -1, NULL, BAD_FLAGS);
  PROBE("delete_module", SYS_delete_module, NULL, 0);
  PROBE("reboot", SYS_reboot, 0, 0, 0, NULL);
  PROBE("swapon", SYS_swapon, NULL, 0);
  PROBE("swapoff", SYS_swapoff, NULL);
  PROBE("syslog", SYS_syslog, 0x7fff, NULL, 0);
  PROBE("acct", SYS_acct, (const char *)1);
  PROBE("quotactl", SYS_quotactl, 0x7fffffff, NULL, 0, NULL);
  PROBE("quotactl_fd", SYS_quotactl_fd, -1, 0, 0, NULL);
  PROBE("lookup_dcookie", SYS_lookup_dcookie, 0, NULL, 0);
#ifdef __x86_64__
  PROBE("iopl", SYS_iopl, 99);
  PROBE("ioperm", SYS_ioperm, 0, 0, 0);
  PROBE("uselib", SYS_uselib, NULL);
  PROBE("modify_ldt", SYS_modify_ldt, 0, NULL, 0);
#else
  absent("iopl");
  absent("ioperm");
  absent("uselib");
  absent("modify_ldt");
#endif
  PROBE("clone3", SYS_clone3, NULL, 0);

  PROBE_CLONE("clone:newns", 0x00020000);
  PROBE_CLONE("clone:newcgroup", 0x02000000);
  PROBE_CLONE("clone:newuts", 0x04000000);
  PROBE_CLONE("clone:newipc", 0x08000000);
  PROBE_CLONE("clone:newuser", 0x10000000);
  PROBE_CLONE("clone:newpid", 0x20000000);
  PROBE_CLONE("clone:newnet", 0x40000000);
  PROBE_CLONE("clone:newuser-high-bits", HIGH_BITS | 0x10000000);
  PROBE_CLONE("clone:fork", 0);
  probe_fork("fork", fork());
  pthread_t thread;
  void *joined = NULL;
  int created = pthread_create(&thread, NULL, thread_main, (void *)1);
  if (created == 0) pthread_join(thread, &joined);
  printf("pthread_create %d %d\n", created == 0 && joined == (void *)1 ? 0 : -1, created);

  PROBE("socket:unix", SYS_socket, AF_UNIX, SOCK_STREAM, 0);
  PROBE("socket:inet", SYS_socket, AF_INET, SOCK_STREAM, 0);
  PROBE("socket:inet6", SYS_socket, AF_INET6, SOCK_STREAM, 0);
  PROBE("socket:netlink", SYS_socket, AF_NETLINK, SOCK_RAW, 0);
  PROBE("socket:netlink-high-bits", SYS_socket, HIGH_BITS | AF_NETLINK, SOCK_RAW, 0);
  PROBE("socket:packet", SYS_socket, AF_PACKET, SOCK_RAW, 0);
  PROBE("socket:vsock", SYS_socket, AF_VSOCK, SOCK_STREAM, 0);
  PROBE("socket:alg", SYS_socket, AF_ALG, SOCK_SEQPACKET, 0);
  PROBE("socket:key", SYS_socket, AF_KEY, SOCK_RAW, 2 /* PF_KEY_V2 */);
  PROBE("socket:xdp", SYS_socket, AF_XDP, SOCK_RAW, 0);
  PROBE("socket:bluetooth", SYS_socket, AF_BLUETOOTH, SOCK_RAW, 0);
  int pair[2];
  PROBE("socketpair:unix", SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, pair);
  PROBE("socketpair:netlink", SYS_socketpair, AF_NETLINK, SOCK_RAW, 0, pair);

  /* /dev/null, not an inherited terminal: TIOCSTI must reach no real tty if unfiltered. */
  int null_fd = open("/dev/null", O_RDWR);
  char byte = 'x';
  int discipline = 0;
  struct winsize size;
  PROBE("ioctl:tiocsti", SYS_ioctl, null_fd, TIOCSTI, &byte);
  PROBE("ioctl:tiocsti-high-bits", SYS_ioctl, null_fd, HIGH_BITS | TIOCSTI, &byte);
  PROBE("ioctl:tioclinux", SYS_ioctl, null_fd, TIOCLINUX, &byte);
  PROBE("ioctl:tiocsetd", SYS_ioctl, null_fd, TIOCSETD, &discipline);
  PROBE("ioctl:tiocgwinsz", SYS_ioctl, null_fd, TIOCGWINSZ, &size);
  int pipe_fds[2];
  int queued = 0;
  if (pipe(pipe_fds) == 0) PROBE("ioctl:fionread", SYS_ioctl, pipe_fds[0], FIONREAD, &queued);

  /* Set, then restore: unfiltered, the first call really changes this process. */
  PROBE("personality:no-randomize", SYS_personality, 0x0040000 /* ADDR_NO_RANDOMIZE */);
  PROBE("personality:linux", SYS_personality, 0);
  PROBE("personality:query", SYS_personality, BAD_FLAGS);

#ifdef __x86_64__
  PROBE("x32", 0x40000000L | SYS_getpid);
  probe_int80();
#else
  absent("x32");
  absent("int80");
#endif

  printf("done\n");
  return 0;
}
`;
