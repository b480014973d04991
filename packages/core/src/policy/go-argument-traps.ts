import { scanOptions } from './scan-options.js';

/**
 * The go trap check. go flags are single- or double-dash words; `-toolexec` and `-exec` name
 * programs to run and `go generate` runs the commands written in the sources.
 */
export function findGoTrap(args: readonly string[]): string | undefined {
  const scan = scanOptions(args, {
    singleDashLong: true,
    longTraps: {
      toolexec: 'go:-toolexec',
      exec: 'go:-exec',
      overlay: 'go:-overlay',
      modfile: 'go:-modfile',
      // `go vet -vettool=prog` runs prog as the analysis tool.
      vettool: 'go:-vettool',
    },
    shortTraps: { C: 'go:-C' },
  });
  if (scan.trap !== undefined) return scan.trap;
  // The linker's -extld/-extar name the external linker / archiver go then runs.
  if (args.some((arg, index) => isLinkerFlagsWithProgram(arg, args[index + 1]))) {
    return 'go:-ldflags-extld';
  }
  const first = scan.operands[0]?.value;
  // `go env -w GOFLAGS=-toolexec=…` persists a flag every later `go build` obeys.
  if (first === 'env' && args.some((arg) => /^--?w(=|$)/.test(arg))) return 'go:env-write';
  return first === 'generate' ? 'go:generate' : undefined;
}

function isLinkerFlagsWithProgram(arg: string, next: string | undefined): boolean {
  const match = /^--?ldflags(=(.*))?$/s.exec(arg);
  if (match === null) return false;
  const value = match[1] === undefined ? (next ?? '') : (match[2] ?? '');
  return /-extld|-extar/.test(value);
}
