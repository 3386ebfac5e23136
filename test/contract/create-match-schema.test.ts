/**
 * The documented create-match body says what the server requires (issue 34 #13): a deal needs
 * decks, the creator's at least, and both unless the other seat is open or the computer's. For
 * each body here the document's schema (Ajv, from openapi/openapi.json) and the server agree:
 * valid and 201, or invalid and 400. Before, the schema marked nothing required and took `{}`.
 */
import { describe, expect, it } from 'vitest';
import { operations, validatorFor } from './document.js';
import { STARTERS, pglite, useHarness } from '../api/helpers.js';

const [A, B] = [{ starter: STARTERS[0] }, { starter: STARTERS[1] }];

const BODIES: { body: Record<string, unknown>; valid: boolean }[] = [
  { body: {}, valid: false },
  { body: { handle: 'ann' }, valid: false },
  { body: { decks: { p1: A } }, valid: false },
  { body: { decks: { p2: A } }, valid: false },
  { body: { decks: { p1: A, p2: B } }, valid: true },
  { body: { game: 'universus' }, valid: false },
  { body: { seat: 'p2', openSeat: true, decks: { p1: A } }, valid: false },
  { body: { seat: 'p2', openSeat: true, decks: { p2: A } }, valid: true },
  { body: { openSeat: true, decks: { p1: A } }, valid: true },
  { body: { ai: { level: 1 }, decks: { p1: A } }, valid: true },
  { body: { ai: { level: 1 }, seat: 'p2', decks: { p1: A } }, valid: false },
];

describe('the create-match body as documented and as served (PGlite)', () => {
  const h = useHarness(pglite, { ai: false });
  const op = operations.find((o) => o.operationId === 'createMatch')!;
  const validate = validatorFor('createMatch request', op.body!);

  it('every body the document refuses is refused, and every body it takes is taken', async () => {
    for (const { body, valid } of BODIES) {
      expect(validate(body), `schema on ${JSON.stringify(body)}`).toBe(valid);
      const res = await h.http.post('/v1/matches').send(body);
      expect(res.status, `server on ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(valid ? 201 : 400);
    }
  });
});
