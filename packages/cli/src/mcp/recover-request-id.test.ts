import { describe, expect, it } from 'vitest';
import { recoverRequestId } from './recover-request-id.js';

describe('recoverRequestId', () => {
  it('takes the id that closes the frame (the SDK client writes it last)', () => {
    expect(
      recoverRequestId('{"method":"tools/call","params":{"a":"', 'aaa"}},"jsonrpc":"2.0","id":12}'),
    ).toBe(12);
  });

  it('takes the id that opens the frame, after jsonrpc or alone', () => {
    expect(
      recoverRequestId('{"jsonrpc":"2.0","id":"abc","method":"x","params":{"a":"', 'aaa"}}'),
    ).toBe('abc');
    expect(recoverRequestId('{ "id" : 3 , "method":"x"', '"}}')).toBe(3);
  });

  it('never takes an id nested deeper, or one inside a string', () => {
    expect(recoverRequestId('{"method":"x","params":{"a":"', '"id":5}}')).toBeUndefined();
    expect(recoverRequestId('{"method":"x","params":{"a":"', 'x\\",\\"id\\":5}"}')).toBeUndefined();
  });

  it('answers nothing for a frame that names no method (a notification-less response or junk)', () => {
    expect(recoverRequestId('{"result":{"a":"', '"},"jsonrpc":"2.0","id":4}')).toBeUndefined();
  });
});
