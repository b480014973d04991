/** One line of the benchmark table: a subject against its baseline, in microseconds per op. */
export interface BenchRow {
  readonly name: string;
  readonly subject: string;
  readonly baseline: string;
  readonly subjectUs: number;
  readonly baselineUs: number;
  /** subjectUs / baselineUs. */
  readonly ratio: number;
  /** The target ratio, e.g. `≤1.5x`. */
  readonly target?: string;
}

/**
 * Times `operation` after a warm-up: the median of `rounds` rounds, in microseconds per op.
 * `clock: 'cpu'` counts this process's CPU time instead of wall time: on a shared, loaded
 * machine wall time mostly measures the neighbours.
 */
export async function measureUs(
  operation: () => Promise<unknown>,
  {
    iterations = 200,
    rounds = 5,
    warmup = 50,
    clock = 'wall',
  }: { iterations?: number; rounds?: number; warmup?: number; clock?: 'wall' | 'cpu' } = {},
): Promise<number> {
  for (let index = 0; index < warmup; index += 1) await operation();
  const now = (): number => {
    if (clock === 'wall') return Number(process.hrtime.bigint()) / 1000;
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const perRound: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = now();
    for (let index = 0; index < iterations; index += 1) await operation();
    perRound.push((now() - start) / iterations);
  }
  perRound.sort((a, b) => a - b);
  return perRound[Math.floor(perRound.length / 2)] ?? Number.NaN;
}
