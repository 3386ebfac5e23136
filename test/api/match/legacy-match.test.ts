/**
 * Matches stored before keyed random streams (engine 0.1.0, one sfc32 stream, no `rng` in
 * MatchCreated / MatchOpened) still load, play and finish through the service after the change,
 * on both databases: the recorded fixture match is inserted half-played and finished over REST
 * with its recorded actions, and an open seat opened then and joined now is dealt by sfc32.
 * (R-HAND-4 randomness; the seed commitment.)
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import {
  apply,
  createGame,
  dealCards,
  defaultCardSet,
  eventVisibility,
  rulesHash,
  RULES_VERSION,
  type GameEvent,
  type GameState,
  type GeneratorId,
  type Seat,
} from '../../../src/games/evons/index.js';
import { loadMigrations, migrate, openDatabase, openStore, type DatabaseConfig, type NewEvent } from '../../../src/persistence/index.js';
import { DEFAULT_MIGRATIONS_DIR } from '../../../src/persistence/migrate.js';
import { hashToken, newMatchId, newSeatToken } from '../../../src/service/accounts/tokens.js';
import { backends, bearer, STARTERS, useHarness } from '../helpers.js';

const cardSet = defaultCardSet();
const fixture = JSON.parse(readFileSync(new URL('../../games/evons/fixtures/legacy-sfc32-match.json', import.meta.url), 'utf8')) as {
  seed: string;
  actions: { seat: Seat; action: unknown }[];
  events: GameEvent[];
  finalView: Record<string, unknown>;
};
const created = fixture.events[0] as Extract<GameEvent, { type: 'MatchCreated' }>;
const rows = (events: GameEvent[]): NewEvent[] =>
  events.map((e) => ({ source: 'game', type: e.type, payload: e, visibility: eventVisibility(e), actingSeat: null }));

/** How many fixture events exist after each recorded action (computed by replaying the actions). */
function boundaries(): number[] {
  const g = createGame({ cardSet, config: created.config, decks: created.decks, seed: fixture.seed, rng: 'sfc32' });
  if (!g.ok) throw new Error(g.errors.join('; '));
  let state = g.state;
  let n = g.events.length;
  const out = [n];
  for (const { seat, action } of fixture.actions) {
    const r = apply(state, seat, action);
    if (!r.ok) throw new Error(r.error.message);
    state = r.state;
    n += r.events.length;
    out.push(n);
  }
  return out;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`legacy sfc32 matches through the service [${backend.name}]`, () => {
    const h = useHarness(backend);

    it('a half-played legacy match loads with its own rules hash and plays to the recorded end', async () => {
      const bounds = boundaries();
      const half = Math.floor(fixture.actions.length / 2);
      const tokens = { p1: newSeatToken(), p2: newSeatToken() };
      const id = newMatchId();
      const stored = fixture.events.slice(0, bounds[half]);
      await h.store.createMatch(
        {
          id,
          game: 'evons',
          rulesVersion: RULES_VERSION,
          engineVersion: created.engineVersion,
          rulesHash: created.rulesHash,
          config: created.config,
          cardSetId: created.cardSetId,
          cardSetHash: created.cardSetHash,
          seed: fixture.seed,
          seedCommitment: created.seedCommitment,
          status: 'active',
          seats: (['p1', 'p2'] as const).map((seat) => ({ seat, tokenHash: hashToken(tokens[seat]), handle: null })),
          toMove: fixture.actions[half]!.seat,
        },
        rows(stored),
      );
      const got = await h.http.get(`/v1/matches/${id}`).expect(200);
      expect(got.body.engineVersion).toBe('0.1.0');
      expect(got.body.rulesHash).toBe(created.rulesHash);
      // The legacy hash is the hash without a generator; a new match's differs.
      expect(rulesHash(created.config, cardSet)).toBe(created.rulesHash);
      expect(got.body.game.rulesHash).toBe(created.rulesHash);
      expect(JSON.stringify(got.body)).not.toContain(fixture.seed);
      for (let i = half; i < fixture.actions.length; i++) {
        const { seat, action } = fixture.actions[i]!;
        const r = await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[seat])).send({ action });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.version).toBe(bounds[i + 1]);
      }
      const end = await h.http.get(`/v1/matches/${id}`).expect(200);
      expect(end.body.status).toBe('finished');
      // As recorded, but for the engine version and maxChainDepth, maxTurnAbilities, maxTurns (added since): null, no limit, as it was played.
      expect({ ...end.body.game, engineVersion: 'x' }).toEqual({
        ...fixture.finalView,
        config: { ...(fixture.finalView.config as object), maxChainDepth: null, maxTurnAbilities: null, maxTurns: null },
        engineVersion: 'x',
      });
      // The stored log is the recorded one, event for event.
      const all = await h.store.loadEvents(id);
      expect(all.map((e) => e.payload)).toEqual(fixture.events);
    });

    it('an open seat opened before keyed streams and joined now is dealt with sfc32', async () => {
      const deckP1 = cardSet.file.starterDecks.find((d) => d.id === STARTERS[0])!;
      const creatorDeck = deckP1.cards.flatMap((c) => Array<string>(c.count).fill(c.card));
      const config = created.config;
      const seed = 'legacy-open-seat-seed';
      const token = newSeatToken();
      const id = newMatchId();
      // The MatchOpened row as engine 0.1.0 wrote it: no rng field.
      const opened = { type: 'MatchOpened', creatorSeat: 'p1', deck: creatorDeck, position: null, config };
      await h.store.createMatch(
        {
          id,
          game: 'evons',
          rulesVersion: RULES_VERSION,
          engineVersion: '0.1.0',
          rulesHash: rulesHash(config, cardSet),
          config,
          cardSetId: cardSet.id,
          cardSetHash: cardSet.hash,
          seed,
          seedCommitment: created.seedCommitment,
          status: 'waiting',
          seats: [
            { seat: 'p1', tokenHash: hashToken(token), handle: 'old' },
            { seat: 'p2', tokenHash: null, handle: null },
          ],
        },
        [{ source: 'match', type: 'MatchOpened', payload: opened, visibility: 'server', actingSeat: 'p1' }],
      );
      const joined = await h.http
        .post(`/v1/matches/${id}/join`)
        .send({ handle: 'new', deck: { starter: STARTERS[1] } })
        .expect(200);
      expect(joined.body.seat).toBe('p2');
      const events = await h.store.loadEvents(id);
      const mc = events.find((e) => e.type === 'MatchCreated')!.payload as Extract<GameEvent, { type: 'MatchCreated' }>;
      expect(mc.rng).toBeUndefined();
      expect(mc.rulesHash).toBe(rulesHash(config, cardSet));
      const state = (await h.app.service.load(id, undefined)).state as GameState;
      expect(state.rng).toBe('sfc32');
      const legacy = dealCards(seed, mc.decks, config, 'sfc32');
      expect(state.cards).toEqual(legacy.cards);
      const other: GeneratorId = 'chacha20';
      expect(state.cards).not.toEqual(dealCards(seed, mc.decks, config, other).cards);
      // Playable through the service.
      const view = await h.http.get(`/v1/matches/${id}`).set(bearer(token)).expect(200);
      expect(view.body.status).toBe('active');
      expect(view.body.game.rulesHash).toBe(rulesHash(config, cardSet));
    });

    it('a match opened now records the current generator and is dealt with it at join', async () => {
      const res = await h.http
        .post('/v1/matches')
        .send({ openSeat: true, decks: { p1: { starter: STARTERS[0] } } })
        .expect(201);
      await h.http
        .post(`/v1/matches/${res.body.id}/join`)
        .send({ deck: { starter: STARTERS[1] } })
        .expect(200);
      const events = await h.store.loadEvents(res.body.id);
      expect((events[0]!.payload as { rng?: string }).rng).toBe('chacha20');
      const mc = events.find((e) => e.type === 'MatchCreated')!.payload as Extract<GameEvent, { type: 'MatchCreated' }>;
      expect(mc.rng).toBe('chacha20');
      const row = await h.http.get(`/v1/matches/${res.body.id}`).expect(200);
      expect(row.body.rulesHash).toBe(rulesHash(mc.config, cardSet, 'chacha20'));
      expect(row.body.game.rulesHash).toBe(row.body.rulesHash);
    });
  });
}

/**
 * The migration that records each match's game and rules version, tested on a database written
 * by the version before it: migrated up to the previous migration, a half-played match inserted
 * with the columns of that time, then opened by the current server (which migrates it) and
 * played to its recorded end.
 */
for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`upgrading a database written before match.game [${backend.name}]`, () => {
    const cleanup: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const f of cleanup.reverse()) await f();
    });

    it('existing matches become Evons under their rules version, and still load and play', async () => {
      // PGlite in memory lives as long as its connection: use a directory so it survives reopening.
      let config: DatabaseConfig;
      if (backend.name === 'pglite') {
        const dir = mkdtempSync(join(tmpdir(), 'evons-upgrade-'));
        cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
        config = { kind: 'pglite', dataDir: dir };
      } else {
        const db = await backend.fresh();
        cleanup.push(() => db.dispose());
        config = db.config;
      }
      const all = loadMigrations();
      const added = all.findIndex((m) => m.name.endsWith('_match_game_rules_version'));
      expect(added).toBeGreaterThan(0);
      const before = mkdtempSync(join(tmpdir(), 'evons-migrations-'));
      cleanup.push(() => rmSync(before, { recursive: true, force: true }));
      for (const m of all.slice(0, added)) cpSync(join(DEFAULT_MIGRATIONS_DIR, m.name), join(before, m.name), { recursive: true });

      const bounds = boundaries();
      const half = Math.floor(fixture.actions.length / 2);
      const tokens = { p1: newSeatToken(), p2: newSeatToken() };
      const id = newMatchId();
      const old = await openDatabase(config);
      try {
        await migrate(old, { dir: before });
        await old.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO "match" (id, engine_version, rules_hash, config, card_set_id, card_set_hash, seed, seed_commitment, status, to_move, version)
             VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, 'active', $9, $10)`,
            [
              id,
              created.engineVersion,
              created.rulesHash,
              JSON.stringify(created.config),
              created.cardSetId,
              created.cardSetHash,
              fixture.seed,
              created.seedCommitment,
              fixture.actions[half]!.seat,
              bounds[half],
            ],
          );
          for (const seat of ['p1', 'p2'] as const) {
            await tx.query('INSERT INTO "seat" (match_id, seat, token_hash) VALUES ($1, $2, $3)', [id, seat, hashToken(tokens[seat])]);
          }
          const events = fixture.events.slice(0, bounds[half]);
          for (const [i, e] of events.entries()) {
            await tx.query('INSERT INTO "event" (match_id, seq, type, payload, visibility) VALUES ($1, $2, $3, $4::jsonb, $5)', [
              id,
              i + 1,
              e.type,
              JSON.stringify(e),
              eventVisibility(e),
            ]);
          }
        });
      } finally {
        await old.close();
      }

      const opened = await openStore(config);
      const app = await buildApp({ store: opened.store, logger: false });
      cleanup.push(async () => {
        await app.close();
        await opened.close();
      });
      await app.ready();
      const row = await opened.store.getMatch(id);
      expect(row).toMatchObject({
        game: 'evons',
        rulesVersion: 'evons-set00-v1.0/r1',
        rulesHash: created.rulesHash,
        version: bounds[half],
      });
      const http = supertest(app.server);
      for (let i = half; i < fixture.actions.length; i++) {
        const { seat, action } = fixture.actions[i]!;
        const r = await http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[seat])).send({ action });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      expect((await http.get(`/v1/matches/${id}`).expect(200)).body.status).toBe('finished');
      expect((await opened.store.loadEvents(id)).map((e) => e.payload)).toEqual(fixture.events);
    });
  });
}
