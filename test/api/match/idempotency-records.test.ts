/**
 * Compact idempotency records (issue 13): an accepted action's record holds its summary and the
 * time it was applied, not the whole answer; a retry's match view is rebuilt from the log at that
 * version. The guarantee is unchanged: a retry with the same key and body gets the same bytes,
 * after the match moved on, after the clock ran, from a cold cache, for the full and the minimal
 * answer, on both databases. Records in the older form (the whole ActionResult) still answer as
 * stored (test/api/match/legacy-match.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, createHotSeat, secondApp, useHarness } from '../helpers.js';

type Seat = 'p1' | 'p2';
const MINIMAL = { prefer: 'return=minimal' };
const FULL = { prefer: 'return=representation' };

interface Sent {
  seat: Seat;
  key: string;
  action: unknown;
  prefer: boolean;
  text: string;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`compact idempotency records [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true });

    /** Plays `moves` first legal actions with a key each, a minute apart, every other one asking for the minimal answer. */
    async function play(id: string, tokens: Record<Seat, string>, moves: number): Promise<Sent[]> {
      const sent: Sent[] = [];
      for (let i = 0; i < moves; i++) {
        const v = (await h.http.get(`/v1/matches/${id}`).expect(200)).body;
        if (v.status !== 'active') break;
        const seat = v.game.pending.seat as Seat;
        const legal = await h.http.get(`/v1/matches/${id}/legal-actions`).set(bearer(tokens[seat])).expect(200);
        const action = legal.body.actions[0].action;
        const key = `k-${i}`;
        const prefer = i % 2 === 1;
        h.t.now += 60_000;
        const res = await h.http
          .post(`/v1/matches/${id}/actions`)
          .set({ ...bearer(tokens[seat]), 'idempotency-key': key, ...(prefer ? MINIMAL : FULL) })
          .send({ action })
          .expect(200);
        sent.push({ seat, key, action, prefer, text: res.text });
      }
      return sent;
    }

    const retry = (id: string, tokens: Record<Seat, string>, s: Sent, prefer: boolean) =>
      h.http
        .post(`/v1/matches/${id}/actions`)
        .set({ ...bearer(tokens[s.seat]), 'idempotency-key': s.key, ...(prefer ? MINIMAL : FULL) })
        .send({ action: s.action })
        .expect(200);

    it('a retry gets the first answer byte for byte, full or minimal, after the match and its clock moved on, from a warm and a cold cache', async () => {
      const { id, tokens } = await createHotSeat(h.http, { timeControl: { kind: 'live', initialSeconds: 3600, incrementSeconds: 5 } });
      const sent = await play(id, tokens, 16);
      expect(sent.length).toBe(16);
      // The last one ends the match (its answer shows the outcome and the seed).
      const last = sent.at(-1)!;
      h.t.now += 60_000;
      const resign = { seat: last.seat, key: 'k-resign', action: { type: 'resign' }, prefer: false, text: '' };
      resign.text = (await retry(id, tokens, resign, false)).text;
      expect(JSON.parse(resign.text).match.status).toBe('finished');
      sent.push(resign);
      h.t.now += 3_600_000 / 2; // the running clock reads differently now: the retry must not
      for (const s of sent) {
        const again = await retry(id, tokens, s, s.prefer);
        expect(again.text, `retry of ${s.key}`).toBe(s.text);
        expect(again.headers['idempotent-replayed']).toBe('true');
      }
      // Another node with a cold cache rebuilds the same bytes.
      const other = await secondApp(h);
      try {
        const cold = other.http;
        for (const s of sent.slice(0, 4)) {
          const again = await cold
            .post(`/v1/matches/${id}/actions`)
            .set({ ...bearer(tokens[s.seat]), 'idempotency-key': s.key, ...(s.prefer ? MINIMAL : FULL) })
            .send({ action: s.action })
            .expect(200);
          expect(again.text, `cold retry of ${s.key}`).toBe(s.text);
        }
      } finally {
        await other.close();
      }
    });

    it('a retry asking for the other representation gets that representation of the same answer', async () => {
      const { id, tokens } = await createHotSeat(h.http);
      const sent = await play(id, tokens, 6);
      for (const s of sent) {
        const first = JSON.parse(s.text);
        const again = (await retry(id, tokens, s, !s.prefer)).body;
        if (s.prefer) {
          // First minimal, now full: the full answer's own fields are the minimal one's.
          expect(again.version).toBe(first.version);
          expect(again.events).toEqual(first.events);
          expect(again.match.status).toBe(first.status);
          expect(again.match.outcome).toEqual(first.outcome);
          expect(again.match.game.pending).toEqual(first.pending);
        } else {
          expect(again).toEqual({
            version: first.version,
            events: first.events,
            status: first.match.status,
            winner: first.match.winner,
            outcome: first.match.outcome,
            pending: first.match.game.pending,
          });
        }
      }
    });

    it('the record holds the summary and the time, not the match view', async () => {
      const { id, tokens } = await createHotSeat(h.http);
      const [s] = await play(id, tokens, 1);
      const record = await h.store.findIdempotency(id, s!.seat, s!.key);
      const stored = JSON.parse(record!.response);
      expect(Object.keys(stored).sort()).toEqual(['at', 'events', 'outcome', 'pending', 'status', 'stored', 'version', 'winner']);
      expect(stored.at).toBe(h.t.now);
      expect(record!.response.length).toBeLessThan(s!.text.length / 4);
    });
  });
}
