/**
 * Contract fuzz aimed at UniVersus (the generic fuzz's fixtures are Evons matches): UniVersus
 * actions from the document's schema, and actions made of real instance ids (own hand, the other
 * hand, decks, stages) sent by either seat or none to a live, a waiting and a finished UniVersus
 * match; create bodies from the UniVersus request schema (settings, decks, positions); joins with
 * any deck. A response fails the run when it is a 5xx, has a status the document does not list,
 * differs from the document, or (for actions) names a card the sender was never shown.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Seat } from '../../src/core/ruleset.js';
import { backends, prng, useHarness } from '../api/helpers.js';
import { assertUvsNoLeak, uvsTruth } from '../api/secrecy/universus-secrecy.js';
import { invalidBody, valid } from './arbitraries.js';
import { contractViolations, doc, operations, type Operation } from './document.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

const op = (id: string): Operation => operations.find((o) => o.operationId === id)!;
const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const components = (doc.components as { schemas: Record<string, unknown> }).schemas;

interface Fixture {
  id: string;
  tokens: Partial<Record<Seat, string>>;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`UniVersus contract fuzz [${backend.name}] (seed ${SEED}, ${RUNS} runs)`, () => {
    const h = useHarness(backend);
    const fx: Record<'live' | 'open' | 'finished', Fixture> = {} as never;

    const create = async (body: object): Promise<Fixture> => {
      const r = await h.http
        .post('/v1/matches')
        .send({ game: 'universus', ...body })
        .expect(201);
      return { id: r.body.id, tokens: r.body.tokens };
    };

    beforeAll(async () => {
      fx.live = await create({ decks: { p1: { starter: 'scouts' }, p2: { starter: 'shifters' } } });
      fx.open = await create({ openSeat: true, decks: { p1: { starter: 'garrison' } } });
      // A finished match: 12-card decks exhaust within a few dozen random moves.
      fx.finished = await create({
        settings: { minDeckSize: 12, cycleRemoveCount: 2 },
        decks: {
          p1: {
            cards: [
              { card: 'C02', count: 1 },
              { card: 'F04', count: 8 },
              { card: 'A07', count: 4 },
            ],
          },
          p2: {
            cards: [
              { card: 'C01', count: 1 },
              { card: 'F01', count: 8 },
              { card: 'A03', count: 4 },
            ],
          },
        },
      });
      const rand = prng(SEED);
      for (let n = 0; n < 400; n++) {
        const v = await h.http.get(`/v1/matches/${fx.finished.id}`).expect(200);
        if (v.body.status !== 'active') break;
        const seat = v.body.game.pending.seat as Seat;
        const auth = { authorization: `Bearer ${fx.finished.tokens[seat]}` };
        const legal = await h.http.get(`/v1/matches/${fx.finished.id}/legal-actions`).set(auth).expect(200);
        const options = legal.body.actions as { action: unknown }[];
        await h.http
          .post(`/v1/matches/${fx.finished.id}/actions`)
          .set(auth)
          .send({ action: options[Math.floor(rand() * options.length)]!.action })
          .expect(200);
      }
      expect((await h.http.get(`/v1/matches/${fx.finished.id}`).expect(200)).body.status).toBe('finished');
    });

    async function send(method: string, path: string, body: { raw: string; contentType: string }, token?: string) {
      const res = await fetch(h.baseUrl() + path, {
        method,
        headers: { 'content-type': body.contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body.raw,
      });
      return { status: res.status, contentType: res.headers.get('content-type'), headers: res.headers, text: await res.text() };
    }

    /** Collects distinct failures (one request each) instead of stopping at the first. */
    function collector() {
      const failures = new Map<string, unknown>();
      return {
        failures,
        check(operation: Operation, res: Awaited<ReturnType<typeof send>>, req: unknown, extra: string[] = []) {
          const problems = [...extra, ...contractViolations(operation, res)];
          if (res.status >= 500) problems.unshift(`server error ${res.status}: ${res.text.slice(0, 200)}`);
          for (const p of problems) {
            const signature = p.replace(/: .*$/s, '');
            if (!failures.has(signature)) failures.set(signature, { req, status: res.status, detail: p });
          }
        },
      };
    }

    it('submitAction: UniVersus actions from the schema and from real ids, by any seat, on live, waiting and finished matches', async () => {
      const submit = op('submitAction');
      const c = collector();
      const names = ['live', 'open', 'finished'] as const;
      const ids = async () => Object.keys((await uvsTruth(h.app.service, fx.live.id)).state.cards);
      let pool = await ids();
      const realAction = fc
        .tuple(
          fc.constantFrom('PlayCard', 'Block', 'CommitForCheck', 'ChooseMomentum', 'NoBlock', 'PassCombat', 'DeclineCommit'),
          fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 0, maxLength: 4 }),
        )
        .map(([type, picks]) => {
          const chosen = picks.map((i) => pool[i % pool.length]!);
          if (type === 'PlayCard' || type === 'Block') return { type, cardId: chosen[0] ?? pool[0]! };
          if (type === 'CommitForCheck') return { type, foundationIds: chosen };
          if (type === 'ChooseMomentum') return { type, attackIds: chosen };
          return { type };
        });
      const body = fc.oneof(
        {
          arbitrary: fc
            .oneof(realAction, valid(schema('UniVersusAction')), valid(schema('Action')))
            .map((action) => ({ raw: JSON.stringify({ action }), contentType: 'application/json' })),
          weight: 4,
        },
        { arbitrary: invalidBody(submit.body), weight: 1 },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...names),
          fc.constantFrom<Seat | undefined>('p1', 'p2', undefined),
          body,
          async (which, seat, b) => {
            const m = fx[which];
            const token = seat ? m.tokens[seat] : undefined;
            const before = which === 'live' && seat ? await uvsTruth(h.app.service, m.id) : null;
            const res = await send('POST', `/v1/matches/${m.id}/actions`, b, token);
            const extra: string[] = [];
            if (before && seat && res.status !== 200) {
              // An error names no card the sender was never shown, except those it sent.
              const s = before.secrets(seat);
              const sent = b.raw;
              const secrets = {
                ...s,
                neverShown: new Set([...s.neverShown].filter((id) => !sent.includes(id))),
                hiddenNow: new Set<string>(),
              };
              try {
                assertUvsNoLeak(res.text, secrets, 'problem body', { view: false });
              } catch (e) {
                extra.push(`leak: ${(e as Error).message}`);
              }
            }
            if (res.status === 200) pool = await ids();
            c.check(submit, res, { which, seat, body: b.raw.slice(0, 300) }, extra);
          },
        ),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect([...c.failures.values()], `seed ${SEED}`).toEqual([]);
    });

    it('createMatch: UniVersus bodies from the schema (settings, decks, positions) and near misses', async () => {
      const createOp = op('createMatch');
      const c = collector();
      const uvsBody = schema('UniVersusCreateMatchRequestInput');
      expect(components.UniVersusCreateMatchRequestInput).toBeDefined();
      const body = fc.oneof(
        valid(uvsBody).map((v) => ({ raw: JSON.stringify(v), contentType: 'application/json' })),
        invalidBody(uvsBody),
      );
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const res = await send('POST', '/v1/matches', b);
          c.check(createOp, res, b.raw.slice(0, 400));
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect([...c.failures.values()], `seed ${SEED}`).toEqual([]);
    });

    /** Plays up to `max` random legal moves through HTTP, checking each answer against the document. */
    async function playChecked(
      c: ReturnType<typeof collector>,
      id: string,
      tokens: Record<Seat, string>,
      rand: () => number,
      max: number,
      req: unknown,
    ) {
      for (let n = 0; n < max; n++) {
        const v = await fetch(`${h.baseUrl()}/v1/matches/${id}`);
        const vt = await v.text();
        c.check(op('getMatch'), { status: v.status, contentType: v.headers.get('content-type'), headers: v.headers, text: vt }, req);
        const mv = JSON.parse(vt) as { status: string; game: { pending: { seat: Seat } | null } | null };
        if (mv.status !== 'active' || !mv.game?.pending) return;
        const seat = mv.game.pending.seat;
        const l = await fetch(`${h.baseUrl()}/v1/matches/${id}/legal-actions?text=true`, {
          headers: { authorization: `Bearer ${tokens[seat]}` },
        });
        const lt = await l.text();
        c.check(
          op('listLegalActions'),
          { status: l.status, contentType: l.headers.get('content-type'), headers: l.headers, text: lt },
          req,
        );
        const options = (JSON.parse(lt) as { actions: { action: unknown }[] }).actions;
        if (options.length === 0) {
          c.check(
            op('listLegalActions'),
            { status: l.status, contentType: l.headers.get('content-type'), headers: l.headers, text: lt },
            req,
            ['the deciding seat has no legal action'],
          );
          return;
        }
        const action = options[Math.floor(rand() * options.length)]!.action;
        const res = await send(
          'POST',
          `/v1/matches/${id}/actions`,
          { raw: JSON.stringify({ action }), contentType: 'application/json' },
          tokens[seat],
        );
        c.check(op('submitAction'), res, req, res.status === 200 ? [] : [`a legal action was refused: ${res.text.slice(0, 200)}`]);
      }
    }

    it('U-SETUP-1 any settings the schema allows (with decks that fit minDeckSize) deal and play', async () => {
      const c = collector();
      const starters = fc.constantFrom('scouts', 'garrison', 'shifters');
      const settings = fc
        .tuple(valid(schema('UniVersusSettingsInput')), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 70 }))
        .map(([sv, minDeckSize, cycleRemoveCount]) => ({ ...(sv as object), minDeckSize, cycleRemoveCount }));
      const rand = prng(SEED);
      let created = 0;
      await fc.assert(
        fc.asyncProperty(settings, starters, starters, async (st, a, b) => {
          const raw = JSON.stringify({ game: 'universus', settings: st, decks: { p1: { starter: a }, p2: { starter: b } } });
          const res = await send('POST', '/v1/matches', { raw, contentType: 'application/json' });
          c.check(op('createMatch'), res, raw, res.status === 201 ? [] : [`refused: ${res.text.slice(0, 200)}`]);
          if (res.status !== 201) return;
          created++;
          const m = JSON.parse(res.text) as { id: string; tokens: Record<Seat, string> };
          await playChecked(c, m.id, m.tokens, rand, 25, raw);
        }),
        { numRuns: Math.max(10, Math.floor(RUNS / 4)), seed: SEED, endOnFailure: true },
      );
      expect(created).toBeGreaterThan(0);
      expect([...c.failures.values()], `seed ${SEED}`).toEqual([]);
    });

    it('sandbox positions made of real cards in any zone (health above 0) open and play as documented', async () => {
      const c = collector();
      const all = ['C01', 'C02', 'C03', 'A01', 'A02', 'A03', 'A04', 'A05', 'A06', 'A07', 'A08', 'F01', 'F02', 'F03', 'F04', 'F05', 'F06'];
      const card = fc.constantFrom(...all.filter((x) => !x.startsWith('C')));
      const player = fc.record({
        character: fc.constantFrom('C01', 'C02', 'C03'),
        health: fc.integer({ min: 1, max: 26 }),
        hand: fc.array(card, { maxLength: 8 }),
        deck: fc.array(card, { maxLength: 12 }),
        discard: fc.array(card, { maxLength: 12 }),
        removed: fc.array(card, { maxLength: 3 }),
        cardPool: fc.array(fc.record({ card, role: fc.constantFrom('PLAYED', 'BLOCK'), dealtDamage: fc.boolean(), built: fc.boolean() }), {
          maxLength: 3,
        }),
        stage: fc.array(fc.record({ card, committed: fc.boolean() }), { maxLength: 4 }),
        momentum: fc.array(card, { maxLength: 2 }),
      });
      const position = fc.record({
        format: fc.constant('universus-position/1'),
        config: fc
          .tuple(valid(schema('UniVersusSettingsInput')), fc.integer({ min: 0, max: 6 }))
          .map(([sv, cycleRemoveCount]) => ({ ...(sv as object), cycleRemoveCount })),
        turnPlayer: fc.constantFrom('p1', 'p2'),
        turnNumber: fc.integer({ min: 1, max: 30 }),
        players: fc.record({ p1: player, p2: player }),
      });
      const rand = prng(SEED + 1);
      await fc.assert(
        fc.asyncProperty(position, async (pos) => {
          const raw = JSON.stringify({ game: 'universus', position: pos });
          const res = await send('POST', '/v1/matches', { raw, contentType: 'application/json' });
          c.check(op('createMatch'), res, raw.slice(0, 600), res.status === 201 ? [] : [`refused: ${res.text.slice(0, 200)}`]);
          if (res.status !== 201) return;
          const m = JSON.parse(res.text) as { id: string; tokens: Record<Seat, string> };
          await playChecked(c, m.id, m.tokens, rand, 25, raw.slice(0, 600));
        }),
        { numRuns: Math.max(10, Math.floor(RUNS / 4)), seed: SEED, endOnFailure: true },
      );
      expect([...c.failures.values()], `seed ${SEED}`).toEqual([]);
    });

    it('joinMatch: any deck for a waiting UniVersus match (one join wins; every answer as documented)', async () => {
      const join = op('joinMatch');
      const c = collector();
      const body = fc.oneof(
        valid(join.body).map((v) => ({ raw: JSON.stringify(v), contentType: 'application/json' })),
        invalidBody(join.body),
      );
      let open = fx.open;
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const res = await send('POST', `/v1/matches/${open.id}/join`, b);
          c.check(join, res, b.raw.slice(0, 400));
          // A successful join closes the seat: open another for the next requests.
          if (res.status === 200) open = await create({ openSeat: true, decks: { p1: { starter: 'scouts' } } });
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect([...c.failures.values()], `seed ${SEED}`).toEqual([]);
    });
  });
}
