/**
 * A cap on the challenges waiting for one player (issue 33 item 6): without it anyone could pile
 * thousands of open challenges on a player. Past CHALLENGE_MAX_PENDING_PER_RECIPIENT (here 2)
 * open, unexpired challenges addressed to one player, one more to them is 429
 * too-many-challenges, whoever sends it; a decline or an expiry frees a place; open challenges
 * (to anyone) and other recipients are not affected. Both databases.
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, expectProblem, registerPlayer, useHarness } from '../helpers.js';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`pending challenges per recipient [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true, challenges: { perHour: 100, maxPendingPerRecipient: 2 } });

    it('one more than the cap to a player is 429 too-many-challenges; a decline or an expiry frees a place', async () => {
      const alice = await registerPlayer(h.http, 'alice');
      const carol = await registerPlayer(h.http, 'carol');
      const dave = await registerPlayer(h.http, 'dave');
      const bob = await registerPlayer(h.http, 'bob');
      const erin = await registerPlayer(h.http, 'erin');
      const send = (from: { token: string }, body: Record<string, unknown>) =>
        h.http.post('/v1/challenges').set(bearer(from.token)).send(body);
      const first = (await send(alice, { to: bob.handle }).expect(201)).body;
      await send(carol, { to: bob.handle }).expect(201);
      const refused = await send(dave, { to: bob.handle });
      const p = expectProblem(refused, 429, 'too-many-challenges');
      expect(refused.headers['retry-after']).toBeDefined();
      expect((p as { detail?: string }).detail).toContain(bob.handle);
      // Other recipients and open challenges are not affected.
      await send(dave, { to: erin.handle }).expect(201);
      await send(dave, {}).expect(201);
      // A decline frees a place.
      await h.http.post(`/v1/challenges/${first.id}/decline`).set(bearer(bob.token)).send({ reason: 'later' }).expect(200);
      await send(dave, { to: bob.handle }).expect(201);
      expectProblem(await send(alice, { to: bob.handle }), 429, 'too-many-challenges');
      // Expired ones do not count (even before the sweep writes them expired).
      (h as unknown as { t: { now: number } }).t.now += 2 * 3_600_000;
      await send(alice, { to: bob.handle }).expect(201);
    });
  });
}
