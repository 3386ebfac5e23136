/**
 * The HTTP floor's server (started by bench/floor.ts, not by hand): Fastify with the app's request
 * options, serving recorded answers of the real server on the two routes a move uses. No engine,
 * no database, no validation: each answer is a parsed object serialised per request, as the real
 * server serialises its views. What a move's two requests cost before the service does anything.
 *
 *   FLOOR_ANSWERS=<file written by bench/floor.ts> PORT=… node --import tsx bench/floor-server.ts
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import Fastify from 'fastify';

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface RecordedAnswers {
  legal: RecordedAnswer[];
  post: RecordedAnswer[];
}

/** Headers Node's HTTP server writes itself. */
const OWN_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

const answers = JSON.parse(fs.readFileSync(process.env.FLOOR_ANSWERS ?? '', 'utf8')) as RecordedAnswers;
const app = Fastify({ logger: false, bodyLimit: 64 * 1024, requestIdHeader: 'x-request-id', genReqId: () => randomUUID() });

function replay(list: RecordedAnswer[]) {
  let i = 0;
  return (_req: unknown, reply: { code(n: number): unknown; header(k: string, v: string): unknown; send(b: unknown): unknown }) => {
    const a = list[i++ % list.length]!;
    reply.code(a.status);
    for (const [k, v] of Object.entries(a.headers)) if (!OWN_HEADERS.has(k)) reply.header(k, v);
    return reply.send(a.body);
  };
}

app.get('/v1/matches/:id/legal-actions', replay(answers.legal));
app.post('/v1/matches/:id/actions', replay(answers.post));
app.get('/readyz', async () => ({ status: 'ready' }));

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
