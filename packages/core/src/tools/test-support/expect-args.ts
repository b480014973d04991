import { expect } from 'vitest';
import { ToolArgsInvalidError } from '../../errors.js';
import type { AnyToolDef } from '../../tool-def.js';

/** A value no message may echo: errors name fields, never values. */
export const CANARY = 'sk-canary-9f8e7d6c5b4a';

/** Asserts `raw` fails `parseArgs` naming `field`, with no argument value in the message. */
export function expectArgsRejected(tool: AnyToolDef, raw: unknown, field: string): void {
  let caught: unknown;
  try {
    tool.parseArgs(raw);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ToolArgsInvalidError);
  const error = caught as ToolArgsInvalidError;
  expect(error.fields).toContain(field);
  for (const value of stringLeaves(raw)) {
    if (value.length >= 3) expect(error.message).not.toContain(value);
  }
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).flatMap(stringLeaves);
  }
  return [];
}
