/**
 * How one binary parses its options, as far as the trap floor needs: which options are traps,
 * which take a value (so the value is never mistaken for an option), and the parser's quirks.
 */
export interface OptionGrammar {
  /** Long option name (no dashes) → trap name. */
  readonly longTraps?: Readonly<Record<string, string>>;
  /** Short option letter → trap name. */
  readonly shortTraps?: Readonly<Record<string, string>>;
  /** Long options whose value may be the next argument. */
  readonly longValues?: ReadonlySet<string>;
  /** Real, harmless options that are also prefixes of a trap (`--text` of `--textconv`). */
  readonly safeLong?: ReadonlySet<string>;
  /** Short letters that take a value: the rest of the cluster, or else the next argument. */
  readonly shortValues?: ReadonlySet<string>;
  /** getopt_long / parse-options: an unambiguous prefix (`--outp`) selects the option. */
  readonly abbreviations?: boolean;
  /** `--no-<name>` negates a boolean option (`--no-ext-diff` is safe). */
  readonly negations?: boolean;
  /** `--` (and these words) end the options; what follows is data. */
  readonly endOfOptions?: readonly string[];
  /** A single-dash word is a long option (`-toolexec`, `-script-shell`). */
  readonly singleDashLong?: boolean;
}

/** One argument the scan did not consume as an option or an option's value. */
export interface ScannedOperand {
  readonly index: number;
  readonly value: string;
  /** After the end-of-options marker: pure data. */
  readonly afterEnd: boolean;
}

/** What a scan found: the first trap, or the operands in order. */
export interface OptionScan {
  readonly trap?: string;
  readonly operands: readonly ScannedOperand[];
}

/**
 * Walks `args` the way a getopt-style parser does (options may follow operands; `--` ends them)
 * and reports the first trap. When unsure whether an option takes a value, the next argument is
 * scanned as an option too: a false refusal is a precision bug, a missed option is a bypass.
 */
export function scanOptions(args: readonly string[], grammar: OptionGrammar): OptionScan {
  const operands: ScannedOperand[] = [];
  const ends = grammar.endOfOptions ?? ['--'];
  let afterEnd = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (afterEnd || arg === '-' || !arg.startsWith('-')) {
      operands.push({ index, value: arg, afterEnd });
      continue;
    }
    if (ends.includes(arg)) {
      afterEnd = true;
      continue;
    }
    if (arg.startsWith('--') || (grammar.singleDashLong === true && arg.length > 2)) {
      const body = arg.slice(arg.startsWith('--') ? 2 : 1);
      const equals = body.indexOf('=');
      const name = (equals === -1 ? body : body.slice(0, equals)).toLowerCase();
      const trap = matchLong(name, grammar);
      if (trap !== undefined) return { trap, operands };
      if (equals === -1 && grammar.longValues?.has(name) === true) index++;
      continue;
    }
    const cluster = scanShortCluster(arg.slice(1), grammar);
    if (cluster.trap !== undefined) return { trap: cluster.trap, operands };
    if (cluster.valueNext) index++;
  }
  return { operands };
}

/** The trap a long option name selects, honouring abbreviations and negations. */
export function matchLong(name: string, grammar: OptionGrammar): string | undefined {
  const traps = grammar.longTraps ?? {};
  const exact = traps[name];
  if (exact !== undefined) return exact;
  if (grammar.negations === true && name.startsWith('no-') && traps[name.slice(3)] !== undefined) {
    return undefined;
  }
  if (grammar.abbreviations !== true || name === '') return undefined;
  // An exact safe option wins over a prefix of a trap (`--to-stdout` is not `--to-command`).
  if (grammar.longValues?.has(name) === true || grammar.safeLong?.has(name) === true) {
    return undefined;
  }
  for (const [trapName, trap] of Object.entries(traps)) {
    if (trapName.startsWith(name)) return trap;
  }
  return undefined;
}

function scanShortCluster(
  letters: string,
  grammar: OptionGrammar,
): { trap?: string; valueNext: boolean } {
  for (let position = 0; position < letters.length; position++) {
    const letter = letters[position] ?? '';
    const trap = grammar.shortTraps?.[letter];
    if (trap !== undefined) return { trap, valueNext: false };
    // The rest of the cluster is this option's value (`-n20`, `-ffile`), or the next argument.
    if (grammar.shortValues?.has(letter) === true) {
      return { valueNext: position === letters.length - 1 };
    }
  }
  return { valueNext: false };
}
