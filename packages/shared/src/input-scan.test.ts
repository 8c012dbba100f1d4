import { describe, expect, it } from 'vitest';
import { NAME_MESSAGES } from './names';
import { scanInput } from './input-scan';

describe('the request input scan', () => {
  it('finds a refused string at any depth, in values and keys, on any object prototype', () => {
    const query = Object.create(Object.create(null) as object) as Record<string, unknown>;
    query.q = 'a\u0000';
    expect(scanInput(query, 'querystring', false)).toEqual({ path: 'querystring.q', message: NAME_MESSAGES.text });
    expect(scanInput({ files: [{ path: 'ok' }, { path: 'x\uD800' }] }, 'body', true)?.path).toBe('body.files.1.path');
    expect(scanInput({ 'k\u0000': 1 }, 'body', true)?.message).toBe(NAME_MESSAGES.text);
    expect(scanInput({ text: 'line\n\tline' }, 'body', true)).toBeNull();
    expect(scanInput({ text: 'line\nline' }, 'querystring', false)).not.toBeNull();
  });

  it('walks a deeply nested body without recursing, and leaves bytes alone', () => {
    let deep: unknown = 'x\u0001';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(scanInput(deep, 'body', true)?.message).toBe(NAME_MESSAGES.text);
    expect(scanInput(Buffer.from([0, 1, 2]), 'body', true)).toBeNull();
  });
});
