// The answers' serializer: JSON.stringify's text for every payload, with the text of a remembered
// (deeply frozen) read reused, and nothing else reused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../store/db.js';
import { readsUntilChanged } from '../store/read-cache.js';
import { answerJson, envelopedData } from './answer-json.js';

let store: Store;
beforeAll(() => {
  store = openStore('sqlite::memory:');
});
afterAll(async () => {
  await store.close();
});

/** A value as a remembered read gives it: deeply frozen. */
async function remembered<T extends object>(value: T): Promise<T> {
  const read = readsUntilChanged<T>(10);
  return (await read(store.db, Math.random().toString(), () => Promise.resolve(value)))!;
}

describe('answerJson', () => {
  it('writes what JSON.stringify writes', () => {
    const payloads: unknown[] = [
      { data: { a: 1, b: 'x"y', c: null, d: [1, { e: 2 }], f: undefined, g: () => 1 } },
      { member: { roles: ['admin'] }, request_id: 'r', status_code: 200 },
      [1, 'two', { three: 3 }],
      { data: { when: new Date(0), nested: { deeper: { deepest: { n: 1 } } } } },
      { data: Object.assign(Object.create(null) as object, { k: 'v' }) },
      { data: { json: { toJSON: () => 'custom' } } },
      {},
    ];
    for (const payload of payloads) expect(answerJson(payload)).toBe(JSON.stringify(payload));
  });

  it('serializes a remembered object once and reuses its text', async () => {
    const member = await remembered({ member_id: 'm', roles: [{ role_id: 'admin' }] });
    const answer = (id: string) => ({ data: { member, request_id: id, status_code: 200 } });
    expect(answerJson(answer('1'))).toBe(JSON.stringify(answer('1')));
    const stringify = vi.spyOn(JSON, 'stringify');
    const text = answerJson(answer('2'));
    const serializedAgain = stringify.mock.calls.some(([value]) => value === member);
    stringify.mockRestore();
    expect(serializedAgain).toBe(false);
    expect(text).toBe(JSON.stringify(answer('2')));
  });

  it('does not reuse the text of an object frozen only on the outside', () => {
    const inner = { n: 1 };
    const shallow = Object.freeze({ inner });
    expect(answerJson({ data: { shallow } })).toBe('{"data":{"shallow":{"inner":{"n":1}}}}');
    inner.n = 2;
    expect(answerJson({ data: { shallow } })).toBe('{"data":{"shallow":{"inner":{"n":2}}}}');
  });

  it('writes a remembered result with its request id as JSON.stringify writes the envelope', async () => {
    const result = await remembered({
      member: { member_id: 'm', roles: ['admin'] },
      session_jwt: 'a.b.c',
      member_authenticated: true,
      mfa_required: null,
      skipped: undefined,
      '7': 'an index-like key',
    });
    const answer = (id: string) => ({ data: envelopedData(result, id) });
    for (const id of ['request-1', 'request-"2"\u2028']) {
      expect(answerJson(answer(id))).toBe(JSON.stringify(answer(id)));
    }
    const stringify = vi.spyOn(JSON, 'stringify');
    answerJson(answer('request-3'));
    const serializedAgain = stringify.mock.calls.some(([value]) => value === result);
    stringify.mockRestore();
    expect(serializedAgain).toBe(false);
    // Flat, as the management API answers.
    expect(answerJson(envelopedData(result, 'r'))).toBe(JSON.stringify(envelopedData(result, 'r')));
  });

  it('writes a copy of a remembered envelope with its own fields, and keeps the envelope unchanged', async () => {
    const result = await remembered({ member: { member_id: 'm' }, session_jwt: 'a.b.c' });
    const enveloped = envelopedData(result, 'request-1');
    const copy = { ...enveloped, session_jwt: 'changed', added: true };
    expect(answerJson({ data: copy })).toBe(JSON.stringify({ data: copy }));
    expect(answerJson({ data: copy })).toContain('"session_jwt":"changed"');
    expect(() => {
      (enveloped as { session_jwt: string }).session_jwt = 'changed';
    }).toThrow(TypeError);
    expect(answerJson({ data: enveloped })).toBe(JSON.stringify({ data: enveloped }));
    expect(enveloped).toEqual({ ...result, request_id: 'request-1', status_code: 200 });
  });

  it('writes an empty remembered result, and results it cannot reuse, as JSON.stringify does', async () => {
    const empty = await remembered({});
    expect(answerJson({ data: envelopedData(empty, 'r') })).toBe(
      '{"data":{"request_id":"r","status_code":200}}',
    );
    const mutable = { member_id: 'm' };
    expect(answerJson({ data: envelopedData(mutable, 'r') })).toBe(
      JSON.stringify({ data: { member_id: 'm', request_id: 'r', status_code: 200 } }),
    );
    mutable.member_id = 'changed';
    expect(answerJson({ data: envelopedData(mutable, 's') })).toContain('"member_id":"changed"');
    // A result that names its own request id keeps it, as the spread does.
    const named = await remembered({ a: 1, request_id: 'inner' });
    expect(answerJson({ data: envelopedData(named, 'outer') })).toBe(
      JSON.stringify({ data: { a: 1, request_id: 'outer', status_code: 200 } }),
    );
  });
});
