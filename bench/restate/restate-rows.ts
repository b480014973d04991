import type { BenchRow } from '../bench-row.js';
import type { Sample } from '../sample-interleaved.js';

/** Tool calls in one benchmarked run. */
export const CALLS = 10;

/** The interleaved samples `run` takes, by operation. */
export type Samples = Record<
  | 'bare'
  | 'empty'
  | 'noopStep'
  | 'step'
  | 'dispatch'
  | 'run'
  | 'loop'
  | 'runPerTurn'
  | 'loopPerTurn',
  Sample
>;

interface Row {
  readonly label: string;
  readonly subject: string;
  readonly baseline: string;
  readonly subjectUs: (statistic: Statistic) => number;
  readonly baselineUs: (statistic: Statistic) => number;
  /** Restate steps in the subject: the delta is also shown per step. */
  readonly steps?: number;
  readonly target?: string;
}

type Statistic = 'median' | 'min';

/** The table: a median and a min row per comparison, the delta (and per-step delta) in the name. */
export function restateRows(samples: Samples): BenchRow[] {
  const of = (name: keyof Samples) => (statistic: Statistic) =>
    statistic === 'median' ? samples[name].medianUs : samples[name].minUs;
  const minus = (name: keyof Samples, less: keyof Samples) => (statistic: Statistic) =>
    of(name)(statistic) - of(less)(statistic);
  const inProcess = 'registry.dispatch write_file + SQLite journal, in process';
  const table: Row[] = [
    {
      label: 'ingress round trip (empty handler)',
      subject: 'empty Restate handler via the ingress client',
      baseline: 'fetch to a bare node:http server on loopback',
      subjectUs: of('empty'),
      baselineUs: of('bare'),
    },
    {
      label: 'one no-op ctx.run step',
      subject: 'handler with one empty ctx.run step, via ingress',
      baseline: 'empty Restate handler via ingress',
      subjectUs: of('noopStep'),
      baselineUs: of('empty'),
    },
    {
      label: 'write_file as a durableToolRegistry step, via ingress',
      subject: 'handler dispatching write_file as one ctx.run step',
      baseline: inProcess,
      subjectUs: of('step'),
      baselineUs: of('dispatch'),
    },
    {
      label: 'write_file as a Restate step, ingress round trip subtracted',
      subject: 'step handler − empty handler',
      baseline: inProcess,
      subjectUs: minus('step', 'empty'),
      baselineUs: of('dispatch'),
      target: '+2–4 ms (issue 17)',
    },
    {
      label: `${CALLS}-call run, all calls in one turn (ingress subtracted)`,
      subject: `createToolRunObject run: 2 model-turn steps + ${CALLS} dispatch steps − empty handler`,
      baseline: `runToolCalls over the same ${CALLS} write_file calls, in process`,
      subjectUs: minus('run', 'empty'),
      baselineUs: of('loop'),
      steps: CALLS + 2,
    },
    {
      label: `${CALLS}-call run, one call a turn (ingress subtracted)`,
      subject: `createToolRunObject run: ${CALLS + 1} model-turn steps + ${CALLS} dispatch steps − empty handler`,
      baseline: `${CALLS} runToolCalls of one write_file call each, in process`,
      subjectUs: minus('runPerTurn', 'empty'),
      baselineUs: of('loopPerTurn'),
      steps: 2 * CALLS + 1,
    },
  ];
  return table.flatMap((row) =>
    (['median', 'min'] as const).map((statistic): BenchRow => {
      const subjectUs = row.subjectUs(statistic);
      const baselineUs = row.baselineUs(statistic);
      const deltaMs = (subjectUs - baselineUs) / 1000;
      const perStep = row.steps === undefined ? '' : `, ${signed(deltaMs / row.steps)} ms per step`;
      return {
        name: `restate: ${row.label} (wall ${statistic}, ${signed(deltaMs)} ms${perStep})`,
        subject: row.subject,
        baseline: row.baseline,
        subjectUs,
        baselineUs,
        ratio: subjectUs / baselineUs,
        ...(row.target === undefined ? {} : { target: row.target }),
      };
    }),
  );
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
}
