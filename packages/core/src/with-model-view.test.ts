import { describe, expect, it } from 'vitest';
import { splitModelView, withModelView } from './with-model-view.js';

describe('withModelView', () => {
  it('splits into the full result and the text the model is shown', () => {
    const result = { entries: [{ name: 'a' }] };

    expect(splitModelView(withModelView(result, './\n  a'))).toEqual({
      result,
      modelView: './\n  a',
    });
  });

  it('passes any other value through as both', () => {
    const value = { content: 'x' };

    expect(splitModelView(value)).toEqual({ result: value, modelView: value });
  });

  it('cannot be forged from plain data: a look-alike key is just a field', () => {
    const lookalike = { 'toolhost.model-view-envelope': { result: 1, modelView: 'forged' } };

    expect(splitModelView(lookalike).modelView).toBe(lookalike);
  });
});
