import { describe, expect, it } from 'vitest';

import { checkSandboxAllowance, type SandboxNetworkOptions } from './sandbox-options.js';

const network = (caps: Partial<SandboxNetworkOptions>): SandboxNetworkOptions => ({
  allowedDomains: ['registry.npmjs.org'],
  ...caps,
});

describe('checkSandboxAllowance, the network connection caps', () => {
  it.each([
    ['zero', 0],
    ['negative', -256],
    ['fractional', 0.5],
    ['NaN', Number.NaN],
    ['infinite', Number.POSITIVE_INFINITY],
    ['a string', '256'],
  ])('refuses a %s cap, naming the option', (_case, value) => {
    for (const name of ['maxConnectionsPerSandbox', 'maxConnections'] as const) {
      const check = () =>
        checkSandboxAllowance({ network: network({ [name]: value as number }) }, 'process');

      expect(check).toThrow(
        new TypeError(`toolhost: process network.${name} must be a positive integer`),
      );
    }
  });

  it('refuses a sandbox cap above the total, given or default', () => {
    const given = () =>
      checkSandboxAllowance(
        { network: network({ maxConnectionsPerSandbox: 65, maxConnections: 64 }) },
        'process',
      );
    const byDefault = () =>
      checkSandboxAllowance({ network: network({ maxConnectionsPerSandbox: 1025 }) }, 'process');

    expect(given).toThrow(/maxConnectionsPerSandbox must not exceed maxConnections/);
    expect(byDefault).toThrow(/maxConnectionsPerSandbox must not exceed maxConnections/);
  });

  it('accepts raised caps', () => {
    const check = () =>
      checkSandboxAllowance(
        { network: network({ maxConnectionsPerSandbox: 2048, maxConnections: 8192 }) },
        'process',
      );

    expect(check).not.toThrow();
  });
});
