/**
 * Match export (issue 10): GET /v1/matches/{id}/export is a match-replay/1 file for the caller;
 * once the match is over it carries the seed, the deck lists and the actions, and `npm run verify`
 * re-deals and replays it (exit 0), and refuses a tampered copy (exit 1). Both games, both
 * databases; a running match's export hides the seed, decks and actions.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyReplay } from '../../../src/replay/verify.js';
import { runVerify } from '../../replay/verify-command.js';
import { backends, bearer, prng, STARTERS, useHarness } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'evons-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verifyCommand = runVerify;

type Tokens = Record<'p1' | 'p2', string>;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`match export and verification [${backend.name}]`, () => {
    const h = useHarness(backend);

    /** Random legal moves until the match ends (or `cap` moves, then the mover resigns where it can). */
    async function play(id: string, tokens: Tokens, seed: number, cap: number): Promise<void> {
      const rnd = prng(seed);
      for (let i = 0; i < 2000; i++) {
        const v = await h.http.get(`/v1/matches/${id}`).expect(200);
        if (v.body.status === 'finished') return;
        const seat = v.body.game.pending.seat as 'p1' | 'p2';
        const legal = await h.http.get(`/v1/matches/${id}/legal-actions`).set(bearer(tokens[seat])).expect(200);
        const options = legal.body.actions as { action: { type: string } }[];
        const action = i >= cap ? { type: 'resign' } : options[Math.floor(rnd() * options.length)]!.action;
        await h.http
          .post(`/v1/matches/${id}/actions`)
          .set(bearer(tokens[seat]))
          .set('if-match', `"${v.body.version}"`)
          .send({ action })
          .expect(200);
      }
    }

    const cases = [
      { name: 'Evons', body: { decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } } }, cap: 120 },
      { name: 'UniVersus', body: { game: 'universus', decks: { p1: { starter: 'scouts' }, p2: { starter: 'shifters' } } }, cap: 10_000 },
      // Issue 20: resigned by the match (a MatchEnded record), the game itself not over.
      {
        name: 'UniVersus resigned mid-game',
        body: { game: 'universus', decks: { p1: { starter: 'garrison' }, p2: { starter: 'scouts' } } },
        cap: 15,
      },
      {
        name: 'Evons with a correspondence clock and an open seat',
        body: { openSeat: true, timeControl: { kind: 'correspondence', daysPerMove: 2 }, decks: { p1: { starter: STARTERS[1] } } },
        cap: 80,
      },
    ];

    for (const [i, c] of cases.entries()) {
      it(`${c.name}: a finished match exports for each reader and verifies; a tampered copy fails`, async () => {
        const created = await h.http
          .post('/v1/matches')
          .send({ handle: `exp${i}`, ...c.body })
          .expect(201);
        const tokens: Tokens = { p1: created.body.tokens.p1, p2: created.body.tokens.p2 };
        if (!tokens.p2) {
          const j = await h.http
            .post(`/v1/matches/${created.body.id}/join`)
            .send({ deck: { starter: STARTERS[0] } })
            .expect(200);
          tokens.p2 = j.body.token;
        }
        // While it runs: no seed, decks or actions in anyone's export.
        const running = await h.http.get(`/v1/matches/${created.body.id}/export`).set(bearer(tokens.p1)).expect(200);
        expect(running.body.seed).toBeNull();
        expect(running.body.decks).toBeNull();
        expect(running.body.actions).toBeNull();
        expect(verifyReplay(running.body).ok).toBe(false);

        await play(created.body.id, tokens, 1000 + i, c.cap);
        for (const reader of ['p1', 'p2', 'spectator'] as const) {
          const req = h.http.get(`/v1/matches/${created.body.id}/export`);
          const file = (await (reader === 'spectator' ? req : req.set(bearer(tokens[reader]))).expect(200)).body;
          expect(file.format).toBe('match-replay/1');
          expect(file.reader).toBe(reader);
          const report = verifyReplay(file);
          expect(report.ok, JSON.stringify(report.checks.filter((k) => !k.ok))).toBe(true);
        }
        const file = (await h.http.get(`/v1/matches/${created.body.id}/export`).expect(200)).body;
        const path = join(dir, `match-${i}.json`);
        writeFileSync(path, JSON.stringify(file));
        const ok = await verifyCommand(path);
        expect(ok.code, ok.stdout).toBe(0);
        // One public event changed: the file no longer matches a fair deal plus its actions.
        const tampered = structuredClone(file);
        const k = tampered.events.findIndex(
          (e: { event: Record<string, unknown> }) => Object.keys(e.event).length > 1 && e.event.type !== 'ClockSet',
        );
        const ev = tampered.events[k].event as Record<string, unknown>;
        const field = Object.keys(ev).find((f) => f !== 'type')!;
        ev[field] = typeof ev[field] === 'number' ? (ev[field] as number) + 1 : 'forged';
        writeFileSync(path, JSON.stringify(tampered));
        const bad = await verifyCommand(path);
        expect(bad.code, bad.stdout).toBe(1);
      });
    }
  });
}
