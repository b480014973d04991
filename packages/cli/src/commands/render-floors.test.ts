import type { ContainmentDescription, SandboxDescription } from '@toolhost/node/process';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../config/resolve-settings.js';
import {
  renderMcpReach,
  renderNetwork,
  renderSandboxLines,
  renderSandboxOffNotice,
  renderSeccomp,
} from './render-floors.js';

const required: SandboxDescription = {
  mode: 'required',
  available: true,
  version: 'bubblewrap 0.8.0',
  filesystem: 'allowlist: workspace',
  network: 'none',
  seccomp: 'on',
  deniedSyscalls: ['ptrace', 'bpf'],
  capabilities: 'all dropped',
};

const containment = (sandbox: SandboxDescription): ContainmentDescription => ({
  containment: 'pid-namespace',
  mechanism: 'bwrap',
  budgets: 'prlimit',
  treeBudgets: 'unenforced',
  sandbox,
});

const settings = (sandbox?: 'required' | 'off') =>
  resolveSettings('/w/app', { config: {} }, sandbox === undefined ? {} : { sandbox });

describe('renderSandboxLines', () => {
  it('names bwrap and each floor of a sandboxed command', () => {
    const lines = renderSandboxLines(containment(required), settings('required'));

    expect(lines).toEqual([
      'sandbox:    required (bubblewrap 0.8.0)',
      '  filesystem:   allowlist: workspace',
      '  network:      none (loopback inside the sandbox only)',
      '  seccomp:      on (2 syscalls denied)',
      '  capabilities: all dropped',
    ]);
  });

  it('says why a required sandbox cannot start and how to fix it', () => {
    const missing: SandboxDescription = {
      ...required,
      available: false,
      why: 'bwrap_not_found',
      seccomp: 'off',
      deniedSyscalls: [],
    };

    const [first] = renderSandboxLines(containment(missing), settings('required'));

    expect(first).toMatch(/required but unavailable \(bwrap_not_found\).*fails closed/);
    expect(first).toMatch(/install bubblewrap.*--sandbox off/);
  });

  it('says who turned the sandbox off', () => {
    const off: SandboxDescription = { ...required, mode: 'off', capabilities: 'host' };

    const [first] = renderSandboxLines(containment(off), settings('off'));

    expect(first).toMatch(/^sandbox: {4}off \(--sandbox off\): .*run on the host/);
  });
});

describe('renderSandboxOffNotice', () => {
  it('is silent while the sandbox is required', () => {
    expect(renderSandboxOffNotice({ sandbox: 'required', sandboxSource: 'flag' })).toBeUndefined();
  });

  it.each([
    ['flag', /\(--sandbox off\)/],
    ['config', /process\.sandbox "off"/],
    ['default', /on this platform/],
  ] as const)('names the %s that turned it off', (sandboxSource, expected) => {
    expect(renderSandboxOffNotice({ sandbox: 'off', sandboxSource })).toMatch(expected);
  });
});

describe('renderNetwork and renderSeccomp', () => {
  it('lists the allowed hosts of a network allowance', () => {
    const text = renderNetwork({ mode: 'required', network: { allowedDomains: ['example.com'] } });

    expect(text).toBe("https to example.com only (through the host's proxy)");
  });

  it("calls an unsandboxed command's network the host's", () => {
    expect(renderNetwork({ mode: 'off', network: { allowedDomains: ['*'] } })).toMatch(/host/);
  });

  it('says when no filter exists for this CPU', () => {
    const text = renderSeccomp({ ...required, seccomp: 'unavailable_for_arch' });

    expect(text).toMatch(/^unavailable for /);
  });
});

describe('renderMcpReach', () => {
  it('lists the declared paths and hosts of a sandboxed server', () => {
    const text = renderMcpReach({
      server: 'docs',
      sandbox: 'required',
      network: { allowedDomains: ['api.example.com'] },
      readOnlyPaths: ['/opt/docs'],
      readWritePaths: ['/var/cache/docs'],
    });

    expect(text).toBe(
      'docs: sandbox required; the workspace view + read-only /opt/docs + read-write /var/cache/docs; network https to api.example.com',
    );
  });

  it('says an unsandboxed server reaches what the user can', () => {
    const text = renderMcpReach({
      server: 'local',
      sandbox: 'off',
      network: 'host',
      readOnlyPaths: [],
      readWritePaths: [],
    });

    expect(text).toBe('local: sandbox off, on the host: your filesystem and network');
  });
});
