// The answers' serializer: JSON.stringify's text for every payload, with the text of a remembered
// (deeply frozen) read reused, and nothing else reused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../store/db.js';
import { readsUntilChanged } from '../store/read-cache.js';
import { answerJson } from './answer-json.js';

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
});
