/**
 * A live stream does not buffer without bound for a reader that does not read (issue 33): past
 * STREAM_BUFFER_MAX_BYTES waiting, the next write ends the stream with a `slow-consumer` problem
 * line instead, and `drained` (what the follower waits on between pages of a backlog) resolves
 * only once the reader has taken what it was given. The PassThrough is the route's own kind of
 * stream, here with no socket reading it.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { drained, frame, writeOrCut } from '../../../src/http/routes/stream.js';

const problem = () => ({
  type: 'urn:evons:problem:slow-consumer',
  title: 'Slow consumer',
  status: 503,
  code: 'slow-consumer',
  detail: 'behind',
});
const line = (n: number) => JSON.stringify({ seq: n, pad: 'x'.repeat(200) }) + '\n';

describe('stream backpressure', () => {
  it('past the cap, ends the stream with slow-consumer and takes nothing more', () => {
    const out = new PassThrough();
    frame(out, false);
    let n = 0;
    while (writeOrCut(out, [line(++n)], problem, 4096)) if (n > 10_000) throw new Error('never cut');
    expect(out.writableLength).toBeLessThan(4096 + 2 * line(n).length + 512);
    expect(writeOrCut(out, [line(++n)], problem, 4096)).toBe(false);
    const text = out.read()?.toString() as string;
    const last = JSON.parse(text.trimEnd().split('\n').at(-1)!);
    expect(last).toEqual({ error: expect.objectContaining({ code: 'slow-consumer' }) });
    expect(out.writableEnded).toBe(true);
  });

  it('a reader that keeps up is never cut, however much it reads', async () => {
    const out = new PassThrough();
    frame(out, false);
    let read = 0;
    let sent = 0;
    out.on('data', (c: Buffer) => (read += c.length));
    for (let page = 0; page < 50; page++) {
      // A page of a backlog at once (40 KB, over the cap of 16 KB), then wait as the follower does.
      const chunks = Array.from({ length: 200 }, (_, i) => line(page * 200 + i));
      expect(writeOrCut(out, chunks, problem, 16 * 1024)).toBe(true);
      sent += chunks.reduce((n, c) => n + c.length, 0);
      await drained(out);
    }
    await new Promise((r) => setImmediate(r));
    expect(read).toBe(sent);
    expect(out.writableEnded).toBe(false);
  });

  it('drained waits for the reader, and resolves when the stream closes', async () => {
    const out = new PassThrough({ highWaterMark: 1024 });
    out.write('y'.repeat(4096));
    let done = false;
    const wait = drained(out).then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    out.read();
    await wait;
    expect(done).toBe(true);
    const other = new PassThrough({ highWaterMark: 1024 });
    other.write('z'.repeat(4096));
    const closed = drained(other);
    other.destroy();
    await closed;
  });
});
