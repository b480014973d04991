import { describe, expect, it } from 'vitest';
import { ToolArgsInvalidError } from '../errors.js';
import { assembleArgs } from './assemble-args.js';
import type { RegisteredTool } from './registered-tool.js';
import { stubTool } from './test-support/stub-tools.js';

const tool: RegisteredTool = { def: stubTool().tool, configOnly: new Set(['cwd', 'timeoutMs']) };

describe('assembleArgs', () => {
  it('layers model args, then inputMapping, then config-only parameters', () => {
    const effective = assembleArgs(
      tool,
      { command: 'ls', text: 'model' },
      {
        inputMapping: { text: 'mapped' },
        parameters: { cwd: 'app', timeoutMs: 5 },
      },
    );

    expect({ ...effective }).toEqual({ command: 'ls', text: 'mapped', cwd: 'app', timeoutMs: 5 });
  });

  it.each([
    ['from the model', { cwd: '/etc' }, {}],
    ['from inputMapping', {}, { inputMapping: { cwd: '/etc' } }],
  ])('drops a config-only key %s', (_case, modelArgs, config) => {
    const effective = assembleArgs(tool, modelArgs, config);

    expect(Object.keys(effective)).toEqual([]);
  });

  it('lets config win over a model value for a pinned key', () => {
    const effective = assembleArgs(tool, { cwd: '/etc' }, { parameters: { cwd: 'app' } });

    expect(effective['cwd']).toBe('app');
  });

  it('takes from parameters only the keys the tool pins', () => {
    const effective = assembleArgs(tool, {}, { parameters: { cwd: 'app', command: 'rm -rf /' } });

    expect({ ...effective }).toEqual({ cwd: 'app' });
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'drops a %s key and never touches a prototype',
    (key) => {
      const modelArgs = JSON.parse(`{"${key}": {"polluted": true}, "text": "ok"}`) as Record<
        string,
        unknown
      >;

      const effective = assembleArgs(tool, modelArgs, {
        inputMapping: JSON.parse(`{"${key}": 1}`) as Record<string, unknown>,
      });

      expect(Object.keys(effective)).toEqual(['text']);
      // Its one prototype is empty, frozen and has none itself: nothing is inherited.
      const prototype: unknown = Object.getPrototypeOf(effective);
      expect(effective instanceof Object).toBe(false);
      expect(Reflect.ownKeys(prototype as object)).toEqual([]);
      expect(Object.isFrozen(prototype)).toBe(true);
      expect(Object.getPrototypeOf(prototype)).toBeNull();
      expect(effective['toString']).toBeUndefined();
      expect(effective['hasOwnProperty']).toBeUndefined();
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    },
  );

  it.each([
    ['a string', 'ls'],
    ['an array', ['ls']],
    ['null', null],
    ['a number', 3],
  ])('refuses %s as model args naming (root)', (_case, modelArgs) => {
    const attempt = (): unknown => assembleArgs(tool, modelArgs, {});

    expect(attempt).toThrow(ToolArgsInvalidError);
    expect(attempt).toThrow(expect.objectContaining({ fields: ['(root)'] }));
  });

  it('treats absent model args as none (a tool node)', () => {
    const effective = assembleArgs(tool, undefined, { inputMapping: { text: 'mapped' } });

    expect({ ...effective }).toEqual({ text: 'mapped' });
  });
});
