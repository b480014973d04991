import { afterEach, describe, expect, it, vi } from 'vitest';

import type { SandboxEgressDecision } from './egress-proxy-decision.js';
import { createRefusalReporter } from './egress-proxy-refusals.js';

const refused = (limit: 'sandbox' | 'host', count: number): SandboxEgressDecision => ({
  host: '',
  port: 0,
  outcome: 'denied',
  reason: 'connection_limit',
  connectionLimit: limit,
  refusedConnections: count,
});

describe('createRefusalReporter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports the first refusal at once', () => {
    const events: SandboxEgressDecision[] = [];
    const reporter = createRefusalReporter((event) => events.push(event), 1_000);

    reporter.count('sandbox');

    expect(events).toEqual([refused('sandbox', 1)]);
    reporter.close();
  });

  it('sums the refusals of a window into one event per cap', () => {
    vi.useFakeTimers();
    const events: SandboxEgressDecision[] = [];
    const reporter = createRefusalReporter((event) => events.push(event), 1_000);

    for (let index = 0; index < 500; index += 1) reporter.count('sandbox');
    for (let index = 0; index < 7; index += 1) reporter.count('host');
    vi.advanceTimersByTime(1_000);

    expect(events).toEqual([refused('sandbox', 1), refused('sandbox', 499), refused('host', 7)]);
    reporter.close();
  });

  it('reports at most one summary a window while a flood goes on', () => {
    vi.useFakeTimers();
    const events: SandboxEgressDecision[] = [];
    const reporter = createRefusalReporter((event) => events.push(event), 1_000);

    for (let tick = 0; tick < 10; tick += 1) {
      for (let index = 0; index < 100; index += 1) reporter.count('sandbox');
      vi.advanceTimersByTime(1_000);
    }

    expect(events).toHaveLength(11);
    expect(events.reduce((sum, event) => sum + (event.refusedConnections ?? 0), 0)).toBe(1_000);
    reporter.close();
  });

  it('reports what it still counts on close, and nothing after a quiet window', () => {
    vi.useFakeTimers();
    const events: SandboxEgressDecision[] = [];
    const reporter = createRefusalReporter((event) => events.push(event), 1_000);
    reporter.count('sandbox');
    reporter.count('sandbox');

    reporter.close();
    vi.advanceTimersByTime(5_000);

    expect(events).toEqual([refused('sandbox', 1), refused('sandbox', 1)]);
  });
});
