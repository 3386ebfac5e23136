/**
 * Contract, UniVersus: a whole UniVersus match played by the client generated from the committed
 * OpenAPI document, against the real app on a random port: the catalogue, create with an open
 * seat, join, random legal actions (If-Match, Idempotency-Key) to the end, the event log, the
 * stream, the history, a sandbox position, and the errors of a game-aware API. Every call is
 * type-checked against the document by tsc, and every response is checked against what the
 * document declares for it (the UniVersus branches of MatchView, Action, CreateMatchRequest).
 */
import { describe, expect, it } from 'vitest';
import { universus } from '../../src/games/universus/index.js';
import type { UniversusState } from '../../src/games/universus/index.js';
import { backends, prng } from '../api/helpers.js';
import { auth, useClient } from './client.js';
import { contractViolations, operations } from './document.js';
import type { components } from './generated/api.js';

type UvsView = components['schemas']['UniVersusView'];
type Action = components['schemas']['Action'];

const MAX_ACTIONS = 400;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`generated client plays UniVersus [${backend.name}]`, () => {
    const s = useClient(backend);

    /** The UniVersus view of a MatchView, or a failure when the response is another game's. */
    const uvs = (mv: components['schemas']['MatchView'] | undefined): UvsView => {
      if (!mv || mv.gameId !== 'universus' || !mv.game) throw new Error(`not a running UniVersus match: ${JSON.stringify(mv)}`);
      return mv.game;
    };

    it('U-SETUP-1 U-CHECK-1 U-WIN-1/2: catalogue, open seat, join, random legal actions to the end, events, stream, history — every response as documented', async () => {
      const seed = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000);
      const rand = prng(seed);
      const label = `contract uvs seed ${seed}`;
      const { client } = s;

      const games = await client.GET('/v1/games');
      expect(games.data!.games.map((g) => g.id)).toContain('universus');
      const cards = await client.GET('/v1/games/{game}/cards', { params: { path: { game: 'universus' } } });
      expect(cards.response.status).toBe(200);
      const decks = await client.GET('/v1/games/{game}/decks', { params: { path: { game: 'universus' } } });
      expect(decks.data!.decks.map((d) => d.id)).toEqual(['scouts', 'garrison', 'shifters']);

      const created = await client.POST('/v1/matches', {
        body: { game: 'universus', handle: 'uvs-c1', openSeat: true, decks: { p1: { starter: 'scouts' } } },
      });
      expect(created.response.status, JSON.stringify(created.error)).toBe(201);
      const id = created.data!.id;
      const waiting = await client.GET('/v1/matches/{id}', { params: { path: { id } } });
      expect(waiting.data!.gameId).toBe('universus');
      expect(waiting.data!.game).toBeNull();

      const joined = await client.POST('/v1/matches/{id}/join', {
        params: { path: { id } },
        body: { handle: 'uvs-c2', deck: { cards: decks.data!.decks.find((d) => d.id === 'shifters')!.cards } },
      });
      expect(joined.response.status).toBe(200);
      const tokens = { p1: created.data!.token, p2: joined.data!.token };
      const again = await client.POST('/v1/matches/{id}/join', { params: { path: { id } }, body: { deck: { starter: 'garrison' } } });
      expect(again.response.status).toBe(409);
      expect(again.error!.code).toBe('seat-taken');

      let version = joined.data!.version;
      let status: string = joined.data!.status;
      let actions = 0;
      while (status === 'active' && actions < MAX_ACTIONS) {
        const view = await client.GET('/v1/matches/{id}', { params: { path: { id } } });
        expect(view.response.status).toBe(200);
        const seat = uvs(view.data).pending!.seat;
        const mine = await client.GET('/v1/matches/{id}', { params: { path: { id } }, headers: auth(tokens[seat]) });
        expect(uvs(mine.data).players[seat].hand).not.toBeNull();
        const legal = await client.GET('/v1/matches/{id}/legal-actions', {
          params: { path: { id }, query: { text: 'true' } },
          headers: auth(tokens[seat]),
        });
        expect(legal.response.status).toBe(200);
        const options = legal.data!.actions;
        expect(options.length, `${label}: no legal action`).toBeGreaterThan(0);
        const choice = options[Math.floor(rand() * options.length)]!;
        const key = `uc-${actions}`;
        const res = await client.POST('/v1/matches/{id}/actions', {
          // The whole view (Prefer: return=representation), so both answers are checked against the document.
          params: { path: { id }, header: { 'if-match': `"${version}"`, 'idempotency-key': key, prefer: 'return=representation' } },
          headers: auth(tokens[seat]),
          body: { action: choice.action },
        });
        expect(res.response.status, `${label}: ${choice.text} → ${JSON.stringify(res.error)}`).toBe(200);
        if (actions === 0) {
          const retry = await client.POST('/v1/matches/{id}/actions', {
            params: { path: { id }, header: { 'idempotency-key': key, prefer: 'return=representation' } },
            headers: auth(tokens[seat]),
            body: { action: choice.action },
          });
          expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
          expect(retry.data).toEqual(res.data);
          // An illegal UniVersus action: the engine's code, the shared illegal-action type, the version.
          const other = seat === 'p1' ? 'p2' : 'p1';
          const illegal = await client.POST('/v1/matches/{id}/actions', {
            params: { path: { id } },
            headers: auth(tokens[other]),
            // Refused whatever the other seat may do now (no card has this id).
            body: { action: { type: 'PlayCard', cardId: 'no-such-card' } },
          });
          expect(illegal.response.status).toBe(422);
          expect(illegal.error!.type).toBe('urn:evons:problem:illegal-action');
          expect(illegal.error!.version).toBe(res.data!.version);
        }
        version = res.data!.version;
        const answer = res.data!;
        if (!('match' in answer)) throw new Error('the full ActionResult was asked for');
        status = answer.match.status;
        actions++;
      }
      expect(status, `${label}: no end within ${MAX_ACTIONS} actions`).toBe('finished');
      const final = await client.GET('/v1/matches/{id}', { params: { path: { id } } });
      expect(['HEALTH_ZERO', 'EXHAUSTED']).toContain(uvs(final.data).winReason);
      expect(uvs(final.data).seed).toMatch(/^[0-9a-f]{64}$/);

      const stale = await client.POST('/v1/matches/{id}/actions', {
        params: { path: { id }, header: { 'if-match': '"1"' } },
        headers: auth(tokens.p1),
        body: { action: { type: 'PassCombat' } },
      });
      expect(stale.response.status).toBe(409);
      expect(stale.error!.version).toBe(version);

      const history = await client.GET('/v1/matches', { params: { query: { handle: 'uvs-c2', status: 'finished' } } });
      expect(history.data!.matches.find((m) => m.id === id)?.gameId).toBe('universus');

      const seqs: number[] = [];
      for (let after = 0, more = true; more;) {
        const page = await client.GET('/v1/matches/{id}/events', {
          params: { path: { id }, query: { after, limit: 100 } },
          headers: auth(tokens.p2),
        });
        expect(page.response.status).toBe(200);
        seqs.push(...page.data!.events.map((e) => e.seq));
        after = page.data!.next;
        more = page.data!.hasMore;
      }
      const stream = await client.GET('/v1/matches/{id}/stream', { params: { path: { id } }, headers: auth(tokens.p2), parseAs: 'text' });
      expect(stream.response.status).toBe(200);
      const lines = (stream.data as string).split('\n').filter((l) => l.trim() !== '');
      expect(JSON.parse(lines.at(-1)!)).toEqual({ end: 'finished' });
      expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(seqs);
      console.info(`[contract ${backend.name}] ${label}: ${actions} actions, version ${version}`);
      expect(s.violations, 'responses that differ from openapi/openapi.json').toEqual([]);
    });

    it('the check is not vacuous: the document refuses a UniVersus view with a broken or an extra field', async () => {
      const created = await s.client.POST('/v1/matches', {
        body: { game: 'universus', decks: { p1: { starter: 'scouts' }, p2: { starter: 'garrison' } } },
      });
      const res = await fetch(`${s.baseUrl}/v1/matches/${created.data!.id}`, { headers: auth(created.data!.tokens.p1!) });
      const text = await res.text();
      const getMatch = operations.find((o) => o.operationId === 'getMatch')!;
      const observed = (body: string) => ({ status: 200, contentType: 'application/json', headers: res.headers, text: body });
      expect(contractViolations(getMatch, observed(text))).toEqual([]);
      const view = JSON.parse(text) as { game: { players: { p2: Record<string, unknown> } } };
      const broken = structuredClone(view);
      broken.game.players.p2.hand = 'secret';
      expect(contractViolations(getMatch, observed(JSON.stringify(broken)))).not.toEqual([]);
      const extra = structuredClone(view);
      extra.game.players.p2.deck = ['x'];
      expect(contractViolations(getMatch, observed(JSON.stringify(extra)))).not.toEqual([]);
    });

    it('sandbox positions and create errors (Evons settings, unknown starter, unknown game) are documented responses', async () => {
      const { client } = s;
      const sandbox = await client.POST('/v1/matches', {
        body: {
          game: 'universus',
          position: universus.positions.toPosition(dealtState()) as components['schemas']['UniVersusCreateMatchRequestInput']['position'],
        },
      });
      expect(sandbox.response.status, JSON.stringify(sandbox.error)).toBe(201);
      const sb = await client.GET('/v1/matches/{id}', {
        params: { path: { id: sandbox.data!.id } },
        headers: auth(sandbox.data!.tokens.p1!),
      });
      expect(sb.data!.sandbox).toBe(true);
      const firstMove: Action = { type: 'PassCombat' };
      const seat = uvs(sb.data).pending!.seat;
      const moved = await client.POST('/v1/matches/{id}/actions', {
        params: { path: { id: sandbox.data!.id } },
        headers: auth(sandbox.data!.tokens[seat]!),
        body: { action: firstMove },
      });
      expect(moved.response.status).toBe(200);

      const decks = { p1: { starter: 'scouts' }, p2: { starter: 'scouts' } };
      const badStarter = await client.POST('/v1/matches', {
        // @ts-expect-error -- not a starter deck: outside the document's enum, and the server refuses it (422 invalid-deck).
        body: { game: 'universus', decks: { ...decks, p2: { starter: 'no-such-deck' } } },
      });
      expect(badStarter.response.status).toBe(422);
      expect(badStarter.error!.code).toBe('invalid-deck');
      const evonsSettings = await client.POST('/v1/matches', {
        // @ts-expect-error -- handLimit is an Evons setting: the UniVersus settings schema has no such field.
        body: { game: 'universus', settings: { handLimit: 3 }, decks },
      });
      expect([400, 422]).toContain(evonsSettings.response.status);
      expect(JSON.stringify(evonsSettings.error)).toContain('handLimit');
      const unknownGame = await client.POST('/v1/matches', {
        // @ts-expect-error -- not a hosted game: the document's enum refuses it, and so must the server.
        body: { game: 'chess', decks },
      });
      expect(unknownGame.response.status).toBe(400);
      expect(unknownGame.error!.code).toBe('validation-failed');
      expect(s.violations, 'responses that differ from openapi/openapi.json').toEqual([]);
    });
  });
}

/** A dealt UniVersus state from the engine itself (the sandbox position's source). */
function dealtState(): UniversusState {
  const deck = (id: string) =>
    universus.starterDecks.find((d) => d.id === id)!.cards.flatMap(({ card, count }) => Array<string>(count).fill(card));
  const r = universus.create({
    config: universus.configSchema.parse({}),
    decks: { p1: deck('garrison'), p2: deck('scouts') },
    seed: 'contract-sandbox',
  });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.state;
}
