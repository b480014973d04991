import type { BenchRow } from './bench-row.js';

/** One timed operation; `before` and `after` run outside the timed region (setup, teardown). */
export interface TimedOperation {
  readonly before?: () => Promise<void>;
  readonly run: () => Promise<void>;
  readonly after?: () => void;
}

/** What one operation measured, in microseconds per op. */
export interface Sample {
  readonly medianUs: number;
  readonly minUs: number;
  /** This process's CPU time (user + system); a child's own work is not in it. */
  readonly cpuMedianUs: number;
}

/**
 * Runs every operation once per iteration, forwards on even iterations and backwards on odd
 * ones, and times each run on its own: drift on a shared machine (a neighbour's test run) hits
 * every operation alike, and none always runs right after the same other one.
 */
export async function sampleInterleaved<Name extends string>(
  operations: Readonly<Record<Name, TimedOperation>>,
  { iterations, warmup }: { readonly iterations: number; readonly warmup: number },
): Promise<Record<Name, Sample>> {
  const names = Object.keys(operations) as Name[];
  const wall = new Map<Name, number[]>(names.map((name) => [name, []]));
  const cpu = new Map<Name, number[]>(names.map((name) => [name, []]));
  for (let iteration = -warmup; iteration < iterations; iteration += 1) {
    const order = iteration % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const operation = operations[name];
      await operation.before?.();
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      await operation.run();
      const elapsedUs = Number(process.hrtime.bigint() - start) / 1000;
      const { user, system } = process.cpuUsage(cpuStart);
      operation.after?.();
      if (iteration < 0) continue;
      wall.get(name)?.push(elapsedUs);
      cpu.get(name)?.push(user + system);
    }
  }
  const result = {} as Record<Name, Sample>;
  for (const name of names) {
    const times = wall.get(name) ?? [];
    result[name] = {
      medianUs: median(times),
      minUs: Math.min(...times),
      cpuMedianUs: median(cpu.get(name) ?? []),
    };
  }
  return result;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** A median row and a min row for one comparison; `label` names them both. */
export function interleavedRows({
  label,
  subject,
  baseline,
  subjectSample,
  baselineSample,
  target,
}: {
  readonly label: string;
  readonly subject: string;
  readonly baseline: string;
  readonly subjectSample: Sample;
  readonly baselineSample: Sample;
  readonly target?: string;
}): BenchRow[] {
  return (['median', 'min'] as const).map((statistic) => {
    const of = (sample: Sample) => (statistic === 'median' ? sample.medianUs : sample.minUs);
    return {
      name: `${label} (wall ${statistic})`,
      subject,
      baseline,
      subjectUs: of(subjectSample),
      baselineUs: of(baselineSample),
      ratio: of(subjectSample) / of(baselineSample),
      ...(target === undefined ? {} : { target }),
    };
  });
}
