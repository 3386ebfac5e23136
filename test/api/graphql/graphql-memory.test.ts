/**
 * GraphQL's parsed-document cache keeps bounded bytes (issue 21, item 1: 300 unique documents of
 * about 160 KB took a server from 1.2 to 3.6 GiB, about 8 MB kept per document). Many unique
 * documents just under the size cap, some within the token cap (parsed, answered, cached) and
 * some over it (refused while parsing), must leave the heap about where it was: measured as bytes
 * still reachable after a full garbage collection, not as time, so a loaded machine gives the
 * same answer.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { pglite, useHarness } from '../helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap bytes still reachable, after collecting everything that is not. */
function retained(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

const MAX_BYTES = 16 * 1024;
const MAX_TOKENS = 1_000;
const MiB = 1024 * 1024;

/**
 * A unique document of `tokens` lexical tokens (a JSON argument of numbers) padded with a comment
 * to just under the size cap: the most a document within the caps can make the server keep.
 */
function documentOf(i: number, numbers: number): string {
  const body = `mutation Q${i} { submitAction(matchId: "m${i}", action: [${'7 '.repeat(numbers)}]) { version } }`;
  return `${body}\n#${'x'.repeat(MAX_BYTES - body.length - 100)}`;
}

describe('GraphQL document cache memory', () => {
  const h = useHarness(pglite, { webhooks: { worker: false } });

  const send = async (query: string) => {
    const r = await h.app.inject({ method: 'POST', url: '/graphql', payload: { query } });
    return { status: r.statusCode, codes: (r.json().errors as { extensions: { code: string } }[]).map((e) => e.extensions.code) };
  };

  it('300 unique documents just under the size cap leave less than 40 MiB behind', async () => {
    // Warm up (code paths, the schema, the first allocations) before the baseline.
    for (let i = 0; i < 20; i++) await send(documentOf(-1 - i, 10));
    const before = retained();
    for (let i = 0; i < 150; i++) {
      // Within the caps: parsed, validated, cached, and answered (the action is refused by the resolver).
      const within = await send(documentOf(i, MAX_TOKENS - 20));
      expect(within.codes).toEqual(['validation-failed']);
      // Over the token cap (the same size): refused while parsing, nothing kept.
      const over = await send(documentOf(1_000 + i, 6_000));
      expect(over.status).toBe(400);
      expect(over.codes).toEqual(['too-many-tokens']);
    }
    const grown = retained() - before;
    // Without the caps and the bounded cache every one of them stayed (about 700 MB here).
    expect(grown / MiB).toBeLessThan(40);
  });
});
