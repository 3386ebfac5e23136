/**
 * npm run docs:board — writes docs/board-evons.png, docs/tutorial.md's picture of a board, through
 * the real endpoint: the app on PGlite in memory, a sandbox match opened from a position reached by a
 * seeded random game (the same position every run), then GET /v1/matches/{id}/board.png as a
 * spectator. Only the match id in the corner changes between runs.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { expandDeck } from '../src/core/ruleset.js';
import { evons, randomPlayer } from '../src/games/evons/index.js';
import { openStore } from '../src/persistence/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs', 'board-evons.png');

/** A position in the middle of a game: 60 decisions of a seeded random game, stopped at a play decision. */
function position(): unknown {
  const deck = (i: number) => expandDeck(evons.starterDecks[i]!.cards);
  const created = evons.create({ config: evons.configSchema.parse({}), decks: { p1: deck(0), p2: deck(2) }, seed: 'docs-board' });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let s = created.state;
  const pick = randomPlayer('docs-board-player');
  for (let i = 0; i < 60 || evons.pending(s)?.kind !== 'play'; i++) {
    const d = evons.pending(s);
    if (!d) break;
    const r = evons.apply(s, d.seat, pick(s, evons.legalActions(s, d.seat)));
    if (!r.ok) throw new Error(r.error.message);
    s = r.state;
  }
  return evons.positions.toPosition(s);
}

const opened = await openStore({ kind: 'pglite', dataDir: 'memory://' });
const app = await buildApp({ store: opened.store, logger: false });
try {
  await app.ready();
  const created = await app.inject({
    method: 'POST',
    url: '/v1/matches',
    payload: { handle: 'alice', opponentHandle: 'bob', position: position() },
  });
  if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
  const { id } = created.json() as { id: string };
  const png = await app.inject({ url: `/v1/matches/${id}/board.png?size=1000` });
  if (png.statusCode !== 200 || png.headers['content-type'] !== 'image/png') throw new Error(`board.png: ${png.statusCode} ${png.body}`);
  await writeFile(out, png.rawPayload);
  console.log(`wrote ${path.relative(process.cwd(), out)} (${png.rawPayload.length} bytes, ETag ${String(png.headers.etag)})`);
} finally {
  await app.close();
  await opened.close();
}
