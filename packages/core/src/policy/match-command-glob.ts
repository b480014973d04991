/**
 * Whole-string glob match of a command: `*` matches any run (spaces included), `?` one UTF-16
 * code unit, everything else itself. No regex is built from the pattern, so an author's glob
 * can never backtrack exponentially: the pattern is split at `*` and each piece is found at its
 * earliest position once, left to right (earliest is always right for `*`).
 */
export function matchCommandGlob(glob: string, command: string): boolean {
  const pieces = glob.split('*');
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return first.length === command.length && pieceAt(first, command, 0);
  const last = pieces[pieces.length - 1] ?? '';
  const end = command.length - last.length;
  if (first.length > end) return false;
  if (!pieceAt(first, command, 0) || !pieceAt(last, command, end)) return false;
  let position = first.length;
  for (let index = 1; index < pieces.length - 1; index++) {
    const piece = pieces[index] ?? '';
    if (piece === '') continue;
    const found = findPiece(piece, command, position, end);
    if (found === -1) return false;
    position = found + piece.length;
  }
  return true;
}

function pieceAt(piece: string, text: string, start: number): boolean {
  for (let index = 0; index < piece.length; index++) {
    const want = piece.charCodeAt(index);
    // 63 is `?`.
    if (want !== 63 && want !== text.charCodeAt(start + index)) return false;
  }
  return true;
}

// The earliest start ≥ `from` where `piece` matches and ends by `end`, else -1.
function findPiece(piece: string, text: string, from: number, end: number): number {
  if (!piece.includes('?')) {
    const found = text.indexOf(piece, from);
    return found !== -1 && found + piece.length <= end ? found : -1;
  }
  for (let start = from; start + piece.length <= end; start++) {
    if (pieceAt(piece, text, start)) return start;
  }
  return -1;
}
