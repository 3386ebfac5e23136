/**
 * docs/api.md's account feed read with `fetch` (what a browser does, since EventSource cannot send
 * Authorization) runs as written: the snapshot, then an entry as it commits, and a resume with
 * Last-Event-ID from the last id it saw sends only what came after.
 */
import { describe, expect, it } from 'vitest';
import { pglite, useHarness } from '../api/helpers.js';
import { blocks } from './doc-blocks.js';

type Follow = (
  api: string,
  token: string,
  onEntry: (event: string, data: { id?: string; type: string; data: { status?: string } }) => void,
  opts?: { after?: string; signal?: AbortSignal },
) => Promise<string | undefined>;

const code = blocks('docs/api.md').find((b) => b.lang === 'js' && b.code.includes('async function follow('))?.code;

describe('docs/api.md: the account feed with fetch', () => {
  const h = useHarness(pglite);

  it('the example reads the snapshot and the entries, and resumes after the last id', async () => {
    expect(code, 'the example in docs/api.md').toBeTruthy();
    const follow = new Function(`${code}\nreturn follow;`)() as Follow;
    const api = h.baseUrl();
    const register = async (handle: string) =>
      (
        (await (
          await fetch(`${api}/v1/players`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ handle }),
          })
        ).json()) as { token: string }
      ).token;
    const pat = await register('pat-fetch');
    const quinn = await register('quinn-fetch');
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(ok()).toBe(true);
    };
    const post = (path: string, body?: unknown) =>
      fetch(`${api}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${quinn}`, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });

    const seen: string[] = [];
    let last: string | undefined;
    const stop = new AbortController();
    const running = follow(
      api,
      pat,
      (event, data) => {
        seen.push(event);
        if (data.id) last = data.id;
      },
      { signal: stop.signal },
    ).catch((e: Error) => e.name);
    await until(() => seen.includes('snapshot'));
    const { id } = (await (await post('/v1/challenges', { to: 'pat-fetch' })).json()) as { id: string };
    await until(() => seen.includes('challenge-received'));
    stop.abort();
    expect(await running).toBe('AbortError');
    expect(seen).toEqual(['snapshot', 'challenge-received']);

    await post(`/v1/challenges/${id}/cancel`);
    const again: { event: string; status?: string }[] = [];
    const stop2 = new AbortController();
    const resumed = follow(api, pat, (event, data) => again.push({ event, status: data.data.status }), {
      after: last,
      signal: stop2.signal,
    }).catch((e: Error) => e.name);
    await until(() => again.length > 0);
    stop2.abort();
    await resumed;
    expect(again).toEqual([{ event: 'challenge-canceled', status: 'canceled' }]);
  });
});
