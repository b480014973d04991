const BPF_MAXINSNS = 4096;

/** A jump target: a label defined later in the program, or the very next instruction. */
export type Target = string;

export type Item =
  | { readonly kind: 'label'; readonly name: string }
  | { readonly kind: 'stmt'; readonly code: number; readonly k: number }
  | {
      readonly kind: 'jump';
      readonly code: number;
      readonly k: number;
      readonly jt: Target;
      readonly jf: Target;
    };

export function label(name: string): Item {
  return { kind: 'label', name };
}

export function stmt(code: number, k: number): Item {
  return { kind: 'stmt', code, k };
}

export function jump(code: number, k: number, jt: Target, jf: Target): Item {
  return { kind: 'jump', code, k, jt, jf };
}

// Resolves labels into the u8 forward offsets classic BPF jumps take (counted from the next
// instruction), refusing any program the kernel would reject or silently misread.
export function assembleBpf(items: readonly Item[]): Buffer {
  const labels = new Map<string, number>();
  const instructions: Exclude<Item, { kind: 'label' }>[] = [];
  for (const item of items) {
    if (item.kind !== 'label') instructions.push(item);
    else if (labels.has(item.name)) throw new Error(`seccomp filter: duplicate label ${item.name}`);
    else labels.set(item.name, instructions.length);
  }
  if (instructions.length > BPF_MAXINSNS) throw new Error('seccomp filter: program too long');
  const offsetTo = (target: Target, from: number): number => {
    if (target === 'next') return 0;
    const to = labels.get(target);
    if (to === undefined) throw new Error(`seccomp filter: unknown label ${target}`);
    const skip = to - from - 1;
    if (skip < 0 || skip > 0xff) throw new Error(`seccomp filter: jump to ${target} out of range`);
    return skip;
  };
  const program = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, index) => {
    const at = index * 8;
    program.writeUInt16LE(instruction.code, at);
    if (instruction.kind === 'jump') {
      program.writeUInt8(offsetTo(instruction.jt, index), at + 2);
      program.writeUInt8(offsetTo(instruction.jf, index), at + 3);
    }
    program.writeUInt32LE(instruction.k >>> 0, at + 4);
  });
  return program;
}
