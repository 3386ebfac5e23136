/**
 * The contract, operation by operation (issue 34, "Done means"): every operation of the committed
 * OpenAPI document is called against the real app with realistic inputs, valid (a match in play,
 * an open seat, a finished match, players and their tokens, webhooks, a challenge, a seek, a
 * tournament, a bulk pairing) and invalid (no token, a bad token, a token without the scope, an
 * unknown id, a body off its schema, an unknown query parameter, a path segment too long, a body
 * that is not JSON or too large). Every answer must be one the document declares for that
 * operation: status, media type, body schema (document.ts, contractViolations), and the headers
 * that carry meaning (ETag, Location, Retry-After, Idempotent-Replayed, WWW-Authenticate,
 * Preference-Applied) must be documented for that status. Then every status the document lists
 * must have been produced, except the few in NOT_PROVOKED, each with why.
 */
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, pglite, STARTERS, useHarness } from '../api/helpers.js';
import { contractViolations, operations, resolve, type Operation } from './document.js';

/** Documented statuses this suite does not provoke, per operation id ('*': every operation), and why. */
const NOT_PROVOKED: Record<string, { statuses: string[]; why: string }[]> = {
  '*': [
    { statuses: ['500'], why: 'an internal error is a bug: none may be provoked' },
    { statuses: ['503'], why: 'database unavailable, server busy, shutting down: test/api/http/hardening.test.ts and test/chaos' },
    { statuses: ['429'], why: 'rate limits are off in this app: test/api/http/rate-limit.test.ts, test/api/live/live-limits.test.ts' },
  ],
  // Limits and states this walk does not build up (each suite named covers it).
  registerWebhook: [
    { statuses: ['409'], why: 'too-many-webhooks needs WEBHOOK_MAX_PER_SEAT endpoints: test/api/webhooks/webhooks.test.ts' },
  ],
  registerAccountWebhook: [{ statuses: ['409'], why: 'too-many-webhooks per account: test/api/webhooks/account-webhooks.test.ts' }],
  redeliverWebhook: [
    { statuses: ['202', '409'], why: 'needs a settled delivery (a delivery worker and a receiver): test/api/webhooks/webhooks.test.ts' },
  ],
  redeliverAccountWebhook: [{ statuses: ['202', '409'], why: 'needs a settled delivery: test/api/webhooks/account-webhooks.test.ts' }],
  postSeek: [{ statuses: ['409'], why: 'too-many-seeks needs the per-player cap of open seeks: test/api/lobby/seeks.test.ts' }],
  offerRematch: [{ statuses: ['409'], why: 'a rematch of a match still in play, or offered twice: test/api/lobby/rematch.test.ts' }],
  declineRematch: [{ statuses: ['409'], why: 'nothing offered to decline: test/api/lobby/rematch.test.ts' }],
  streamEvents: [{ statuses: ['204'], why: 'an SSE reconnect to a finished match: test/api/live/sse.test.ts' }],
  replaceSeatToken: [
    { statuses: ['404'], why: 'a live seat token names its own match, so an unknown id is 401 invalid-token first: not provoked' },
  ],
  createTournament: [
    { statuses: ['404', '422'], why: 'an invited handle unknown, a deck the game refuses: test/api/tournaments/tournaments.test.ts' },
  ],
  createBulkPairing: [{ statuses: ['404', '422'], why: 'an unknown game, a deck the game refuses: test/api/lobby/bulk-pairings.test.ts' }],
  withdrawFromTournament: [{ statuses: ['422'], why: 'documented for the tournament routes alike; not provoked here' }],
  startTournament: [{ statuses: ['422'], why: 'too few players to start: test/api/tournaments/tournaments.test.ts' }],
  cancelTournament: [{ statuses: ['422'], why: 'documented for the tournament routes alike; not provoked here' }],
};

/** Response headers with a meaning a client acts on: each must be documented where it is sent. */
const MEANINGFUL = ['etag', 'location', 'retry-after', 'idempotent-replayed', 'www-authenticate', 'preference-applied'];

interface Call {
  op: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw body with its content type (for the 413/415 probes). */
  raw?: { text: string; type: string };
}

interface Answer {
  status: number;
  contentType: string | null;
  headers: Headers;
  text: string | null;
}

function send(base: string, method: string, c: Call): Promise<Answer> {
  const headers: Record<string, string> = { ...c.headers };
  let payload: string | undefined;
  if (c.raw) {
    headers['content-type'] = c.raw.type;
    payload = c.raw.text;
  } else if (c.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(c.body);
  }
  return new Promise((resolvePromise, reject) => {
    const r = http.request(`${base}${c.path}`, { method, headers, agent: false }, (res) => {
      const h = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
      const contentType = h.get('content-type');
      const answer = { status: res.statusCode ?? 0, contentType, headers: h };
      // A live stream never ends on its own: its status and headers are the answer.
      if (contentType?.startsWith('application/x-ndjson') && (c.path.startsWith('/v1/me/events') || /\/stream(\?|$)/.test(c.path))) {
        res.destroy();
        resolvePromise({ ...answer, text: null });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (x: Buffer) => chunks.push(x));
      res.on('end', () =>
        resolvePromise({ ...answer, text: Buffer.concat(chunks).toString(contentType?.startsWith('image/png') ? 'latin1' : 'utf8') }),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(payload);
  });
}

const byId = new Map(operations.map((o) => [o.operationId, o]));

/** A well-formed id nothing has, per path parameter (the document's patterns). */
function unknownId(op: Operation, name: string): string {
  if (name === 'webhookId') return 'wh_unknown0000000000';
  if (name === 'deliveryId') return `msg_${'0'.repeat(32)}`;
  if (name === 'tokenId') return 'tok_unknown000000000';
  if (name === 'seekId') return 'sk_unknown0000000000';
  const prefix =
    ({ challenges: 'ch_', tournaments: 'tn_', 'bulk-pairings': 'bp_' } as Record<string, string>)[op.path.split('/')[2] ?? ''] ?? '';
  return `${prefix}unknown0000000000000`;
}

/** The operation's path with its parameters filled from `values` (else an unknown, well-formed id). */
function pathOf(op: Operation, values: Record<string, string> = {}, query = ''): string {
  const filled = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? unknownId(op, name)));
  return query ? `${filled}?${query}` : filled;
}

describe('every operation answers only as the document says (issue 34)', () => {
  const h = useHarness(pglite, { webhooks: { allowPrivate: true, worker: false } });
  const produced = new Map<string, Set<string>>();
  const violations: string[] = [];
  const called = new Set<string>();
  /** A body each operation accepted (2xx), for the probes that must get past body validation. */
  const validBody = new Map<string, unknown>();

  async function call(c: Call): Promise<Answer> {
    const op = byId.get(c.op);
    if (!op) throw new Error(`no operation ${c.op}`);
    called.add(op.operationId);
    const a = await send(h.baseUrl(), op.method, c);
    const where = `${op.operationId} ${op.method} ${c.path} → ${a.status}`;
    for (const v of contractViolations(op, a)) violations.push(`${where}: ${v}`);
    if (a.status >= 500) violations.push(`${where}: server error ${a.text?.slice(0, 200)}`);
    const declared = op.responses[String(a.status)];
    const documented = new Set(Object.keys((declared?.headers as Record<string, unknown> | undefined) ?? {}).map((k) => k.toLowerCase()));
    for (const name of MEANINGFUL) {
      if (a.headers.has(name) && declared && !documented.has(name))
        violations.push(`${where}: sends ${name}, not documented for ${a.status}`);
    }
    // The document's own global answers (404 unknown route, 405) are not this operation's.
    if (a.status < 300 && c.body !== undefined && !validBody.has(op.operationId)) validBody.set(op.operationId, c.body);
    if (process.env.OPS_DEBUG) console.log(where, a.status >= 400 ? a.text?.slice(0, 160) : '');
    if (!produced.has(op.operationId)) produced.set(op.operationId, new Set());
    produced.get(op.operationId)!.add(String(a.status));
    return a;
  }
  const json = (a: Answer) => JSON.parse(a.text ?? 'null') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  const fx: Record<string, string> = {};
  const decks = { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } };
  const CORR = { kind: 'correspondence', daysPerMove: 3 };

  beforeAll(async () => {
    const player = async (handle: string) => (await h.http.post('/v1/players').send({ handle }).expect(201)).body.token as string;
    fx.alice = await player('op-alice');
    fx.bob = await player('op-bob');
    fx.carol = await player('op-carol');
    fx.dave = await player('op-dave');
    fx.readOnly = (
      await h.http
        .post('/v1/me/tokens')
        .set(bearer(fx.alice))
        .send({ scopes: ['match:read'] })
        .expect(201)
    ).body.token;
    fx.tokensOnly = (
      await h.http
        .post('/v1/me/tokens')
        .set(bearer(fx.alice))
        .send({ scopes: ['token:write'] })
        .expect(201)
    ).body.token;
    // What players give a bulk pairer: pairing:play alone.
    const delegated = async (token: string) =>
      (
        await h.http
          .post('/v1/me/tokens')
          .set(bearer(token))
          .send({ scopes: ['pairing:play'] })
          .expect(201)
      ).body.token as string;
    fx.bobPairing = await delegated(fx.bob);
    fx.carolPairing = await delegated(fx.carol);
  });

  it('walks every operation with valid and invalid requests', async () => {
    const A = bearer(fx.alice!);
    const B = bearer(fx.bob!);
    // A match in play, its seats' tokens.
    const live = json(await call({ op: 'createMatch', path: '/v1/matches', body: { handle: 'op-x', opponentHandle: 'op-y', decks } }));
    const mid = live.id as string;
    const P1 = bearer(live.tokens.p1);
    const P2 = bearer(live.tokens.p2);
    // An open seat, joined; another left open.
    const open = json(
      await call({ op: 'createMatch', path: '/v1/matches', body: { handle: 'op-o', openSeat: true, decks: { p1: decks.p1 } } }),
    );
    await call({ op: 'joinMatch', path: `/v1/matches/${open.id}/join`, body: { handle: 'op-j', deck: decks.p2 } });
    await call({ op: 'joinMatch', path: `/v1/matches/${open.id}/join`, body: { handle: 'op-k', deck: decks.p2 } }); // 409 seat taken
    await call({ op: 'joinMatch', path: `/v1/matches/${open.id}/join`, body: { deck: { starter: 'no-such-deck' } } });
    const open2 = json(await call({ op: 'createMatch', path: '/v1/matches', body: { openSeat: true, decks: { p1: decks.p1 } } }));
    await call({ op: 'joinMatch', path: `/v1/matches/${open2.id}/join`, body: { deck: { starter: 'no-such-deck' } } }); // 422
    await call({ op: 'createMatch', path: '/v1/matches', body: { decks: { p1: { starter: 'no-such-deck' }, p2: decks.p2 } } }); // 422
    await call({ op: 'createMatch', path: '/v1/matches', body: { handle: 'op-alice', opponentHandle: 'z', decks } }); // 409 handle-reserved
    await call({ op: 'createMatch', path: '/v1/matches', headers: bearer('evp_nope'), body: { decks } }); // 401
    await call({ op: 'createMatch', path: '/v1/matches', headers: bearer(fx.readOnly!), body: { decks } }); // 403
    // Players' rated open seat (for a player-token join).
    const pm = json(await call({ op: 'createMatch', path: '/v1/matches', headers: A, body: { openSeat: true, decks: { p1: decks.p1 } } }));
    await call({ op: 'joinMatch', path: `/v1/matches/${pm.id}/join`, headers: bearer(fx.readOnly!), body: { deck: decks.p2 } }); // 403
    await call({ op: 'joinMatch', path: `/v1/matches/${pm.id}/join`, headers: B, body: { deck: decks.p2 } });

    // Reads of the live match, as a spectator and as a seat; caching.
    const view = await call({ op: 'getMatch', path: `/v1/matches/${mid}`, headers: P1 });
    await call({ op: 'getMatch', path: `/v1/matches/${mid}`, headers: { ...P1, 'if-none-match': view.headers.get('etag')! } });
    await call({ op: 'getMatch', path: `/v1/matches/${mid}` });
    await call({ op: 'getMatch', path: `/v1/matches/${mid}`, headers: bearer(fx.readOnly!.slice(0, -2)) }); // 401 invalid
    await call({ op: 'getMatch', path: `/v1/matches/${mid}?at=999` }); // 400
    const legal = json(await call({ op: 'listLegalActions', path: `/v1/matches/${mid}/legal-actions`, headers: P1 }));
    await call({ op: 'listLegalActions', path: `/v1/matches/${mid}/legal-actions` });
    await call({ op: 'listEvents', path: `/v1/matches/${mid}/events?after=0&limit=5`, headers: P2 });
    await call({ op: 'exportMatch', path: `/v1/matches/${mid}/export` });
    await call({ op: 'getBoardSvg', path: `/v1/matches/${mid}/board.svg`, headers: P1 });
    const png = await call({ op: 'getBoardPng', path: `/v1/matches/${mid}/board.png?size=400` });
    await call({
      op: 'getBoardPng',
      path: `/v1/matches/${mid}/board.png?size=400`,
      headers: { 'if-none-match': png.headers.get('etag')! },
    });
    const svg = await call({ op: 'getBoardSvg', path: `/v1/matches/${mid}/board.svg` });
    await call({ op: 'getBoardSvg', path: `/v1/matches/${mid}/board.svg`, headers: { 'if-none-match': svg.headers.get('etag')! } });
    await call({ op: 'streamEvents', path: `/v1/matches/${mid}/stream`, headers: P1 });
    await call({ op: 'listMyMatches', path: '/v1/me/matches', headers: P1 });
    await call({ op: 'listMyMatches', path: '/v1/me/matches', headers: A });
    await call({ op: 'listMatches', path: '/v1/matches?handle=op-x&limit=2' });
    await call({ op: 'listMatches', path: '/v1/matches?cursor=not-a-cursor' });

    // Moves: a legal one (If-Match, Idempotency-Key, Prefer), its replay, a stale one, an illegal one, the other seat.
    const seat = json(view).game.pending.seat as 'p1' | 'p2';
    const mover = seat === 'p1' ? P1 : P2;
    const moverLegal =
      seat === 'p1' ? legal : json(await call({ op: 'listLegalActions', path: `/v1/matches/${mid}/legal-actions`, headers: P2 }));
    const action = moverLegal.actions[0].action;
    const key = { 'idempotency-key': 'op-move-1' };
    await call({
      op: 'submitAction',
      path: `/v1/matches/${mid}/actions`,
      headers: { ...mover, ...key, 'if-match': `"${json(view).version}"`, prefer: 'return=representation' },
      body: { action },
    });
    await call({
      op: 'submitAction',
      path: `/v1/matches/${mid}/actions`,
      headers: { ...mover, ...key, prefer: 'return=representation' },
      body: { action },
    }); // replayed
    await call({
      op: 'submitAction',
      path: `/v1/matches/${mid}/actions`,
      headers: { ...mover, ...key },
      body: { action: { type: 'resign' } },
    }); // 422 key reused
    await call({ op: 'submitAction', path: `/v1/matches/${mid}/actions`, headers: { ...mover, 'if-match': '"1"' }, body: { action } }); // 409
    await call({ op: 'submitAction', path: `/v1/matches/${mid}/actions`, headers: A, body: { action } }); // 403 no seat
    await call({
      op: 'submitAction',
      path: `/v1/matches/${mid}/actions?include=legal`,
      headers: mover,
      body: { action: { type: 'nonsense-move' } },
    });

    // Seat token replaced.
    const replaced = json(await call({ op: 'replaceSeatToken', path: `/v1/matches/${mid}/seat-token`, headers: P2 }));
    const P2b = bearer(replaced.token);
    await call({ op: 'replaceSeatToken', path: `/v1/matches/${mid}/seat-token`, headers: A }); // 403 seat-token-required

    // Seat webhooks.
    const wh = json(
      await call({
        op: 'registerWebhook',
        path: `/v1/matches/${mid}/webhooks`,
        headers: P1,
        body: { url: 'http://127.0.0.1:9/hook', events: ['your-turn'] },
      }),
    );
    await call({
      op: 'registerWebhook',
      path: `/v1/matches/${mid}/webhooks`,
      headers: P1,
      body: { url: 'not a url', events: ['your-turn'] },
    });
    await call({ op: 'listWebhooks', path: `/v1/matches/${mid}/webhooks`, headers: P1 });
    await call({ op: 'rotateWebhookSecret', path: `/v1/matches/${mid}/webhooks/${wh.id}/rotate-secret`, headers: P1 });
    await call({ op: 'listWebhookDeliveries', path: `/v1/matches/${mid}/webhooks/${wh.id}/deliveries`, headers: P1 });
    await call({
      op: 'redeliverWebhook',
      path: `/v1/matches/${mid}/webhooks/${wh.id}/deliveries/msg_0123456789abcdef0123456789abcdef/redeliver`,
      headers: P1,
    });
    await call({ op: 'deleteWebhook', path: `/v1/matches/${mid}/webhooks/${wh.id}`, headers: P1 });

    // The match ends; rematch.
    await call({ op: 'submitAction', path: `/v1/matches/${mid}/actions`, headers: P1, body: { action: { type: 'resign' } } });
    await call({ op: 'submitAction', path: `/v1/matches/${mid}/actions`, headers: P1, body: { action: { type: 'resign' } } }); // 409 finished
    await call({ op: 'acceptRematch', path: `/v1/matches/${mid}/rematch/accept`, headers: P2b }); // 409 no offer
    await call({ op: 'offerRematch', path: `/v1/matches/${mid}/rematch`, headers: P1 });
    await call({ op: 'declineRematch', path: `/v1/matches/${mid}/rematch/decline`, headers: P2b });
    await call({ op: 'offerRematch', path: `/v1/matches/${mid}/rematch`, headers: P1 });
    await call({ op: 'acceptRematch', path: `/v1/matches/${mid}/rematch/accept`, headers: P2b });
    await call({ op: 'claimRematchSeat', path: `/v1/matches/${mid}/rematch/seat`, headers: P1 });
    await call({ op: 'claimRematchSeat', path: `/v1/matches/${mid}/rematch/seat`, headers: P1 });

    // Catalogue, probes, players.
    for (const op of ['getHealth', 'getReadiness', 'listGames', 'listCards', 'listDecks']) {
      await call({ op, path: byId.get(op)!.path });
    }
    await call({ op: 'listGameCards', path: '/v1/games/evons/cards' });
    await call({ op: 'listGameDecks', path: '/v1/games/universus/decks' });
    await call({ op: 'listGameDecks', path: '/v1/games/no-such-game/decks' });
    await call({ op: 'registerPlayer', path: '/v1/players', body: { handle: 'op-erin' } });
    await call({ op: 'registerPlayer', path: '/v1/players', body: { handle: 'op-erin' } }); // 409
    await call({ op: 'getPlayer', path: '/v1/players/op-alice' });
    await call({ op: 'getLeaderboard', path: '/v1/leaderboard?game=evons&timeControl=correspondence' });
    await call({ op: 'exportPlayerMatches', path: '/v1/players/op-alice/matches/export' });
    await call({ op: 'getMe', path: '/v1/me', headers: A });
    await call({ op: 'getMe', path: '/v1/me', headers: P1 }); // 401: a seat token
    await call({ op: 'listMyTokens', path: '/v1/me/tokens', headers: A });
    const tok = json(await call({ op: 'createMyToken', path: '/v1/me/tokens', headers: A, body: { label: 'op', scopes: ['match:read'] } }));
    await call({ op: 'createMyToken', path: '/v1/me/tokens', headers: bearer(fx.readOnly!), body: { scopes: ['match:read'] } }); // 403
    await call({ op: 'revokeMyToken', path: `/v1/me/tokens/${tok.tokenInfo.id}`, headers: A });
    await call({ op: 'revokeMyToken', path: `/v1/me/tokens/${tok.tokenInfo.id}`, headers: A }); // 404

    // Account webhooks and the account feed.
    const awh = json(
      await call({ op: 'registerAccountWebhook', path: '/v1/me/webhooks', headers: A, body: { url: 'http://127.0.0.1:9/account' } }),
    );
    await call({ op: 'listAccountWebhooks', path: '/v1/me/webhooks', headers: A });
    await call({ op: 'rotateAccountWebhookSecret', path: `/v1/me/webhooks/${awh.id}/rotate-secret`, headers: A });
    await call({ op: 'listAccountWebhookDeliveries', path: `/v1/me/webhooks/${awh.id}/deliveries`, headers: A });
    await call({
      op: 'redeliverAccountWebhook',
      path: `/v1/me/webhooks/${awh.id}/deliveries/msg_0123456789abcdef0123456789abcdef/redeliver`,
      headers: A,
    });
    await call({ op: 'deleteAccountWebhook', path: `/v1/me/webhooks/${awh.id}`, headers: A });
    await call({ op: 'streamAccountEvents', path: '/v1/me/events', headers: A });
    await call({ op: 'streamAccountEvents', path: '/v1/me/events?after=1-1', headers: A }); // 400 invalid-cursor

    // Challenges.
    const ch = json(await call({ op: 'createChallenge', path: '/v1/challenges', headers: A, body: { to: 'op-bob' } }));
    await call({ op: 'createChallenge', path: '/v1/challenges', headers: A, body: { to: 'op-nobody' } }); // 404
    await call({ op: 'createChallenge', path: '/v1/challenges', headers: A, body: { settings: { blockZoneRule: 'ADJACENT_ONLY' } } }); // 422
    await call({ op: 'getChallenge', path: `/v1/challenges/${ch.id}` });
    await call({ op: 'listMyChallenges', path: '/v1/me/challenges', headers: B });
    await call({ op: 'acceptChallenge', path: `/v1/challenges/${ch.id}/accept`, headers: B, body: { deck: { starter: 'no-such-deck' } } }); // 422
    await call({ op: 'acceptChallenge', path: `/v1/challenges/${ch.id}/accept`, headers: B, body: { deck: decks.p2 } });
    await call({ op: 'acceptChallenge', path: `/v1/challenges/${ch.id}/accept`, headers: B, body: { deck: decks.p2 } }); // 409
    const ch2 = json(await call({ op: 'createChallenge', path: '/v1/challenges', headers: A, body: { to: 'op-bob' } }));
    await call({ op: 'declineChallenge', path: `/v1/challenges/${ch2.id}/decline`, headers: B, body: { reason: 'later' } });
    await call({ op: 'declineChallenge', path: `/v1/challenges/${ch2.id}/decline`, headers: B, body: {} }); // 409
    const ch3 = json(await call({ op: 'createChallenge', path: '/v1/challenges', headers: A, body: { to: 'op-bob' } }));
    await call({ op: 'cancelChallenge', path: `/v1/challenges/${ch3.id}/cancel`, headers: A });
    await call({ op: 'cancelChallenge', path: `/v1/challenges/${ch3.id}/cancel`, headers: A }); // 409

    // Seeks.
    const seek = json(await call({ op: 'postSeek', path: '/v1/seeks', headers: A, body: { timeControl: CORR, deck: decks.p1 } }));
    await call({ op: 'postSeek', path: '/v1/seeks', headers: A, body: { timeControl: CORR, deck: { starter: 'no-such-deck' } } }); // 422
    await call({ op: 'listSeeks', path: '/v1/seeks' });
    await call({ op: 'listMySeeks', path: '/v1/me/seeks', headers: A });
    await call({ op: 'cancelSeek', path: `/v1/seeks/${seek.id}`, headers: A });
    await call({ op: 'cancelSeek', path: `/v1/seeks/${seek.id}`, headers: A }); // 409

    // Tournaments.
    const t = json(
      await call({
        op: 'createTournament',
        path: '/v1/tournaments',
        headers: A,
        body: { name: 'Op Cup', format: 'round-robin', timeControl: CORR },
      }),
    );
    await call({ op: 'listTournaments', path: '/v1/tournaments' });
    await call({ op: 'joinTournament', path: `/v1/tournaments/${t.id}/join`, headers: B, body: {} });
    await call({ op: 'joinTournament', path: `/v1/tournaments/${t.id}/join`, headers: B, body: {} }); // 409
    await call({
      op: 'joinTournament',
      path: `/v1/tournaments/${t.id}/join`,
      headers: bearer(fx.carol!),
      body: { deck: { starter: 'no-such-deck' } },
    }); // 422
    await call({ op: 'joinTournament', path: `/v1/tournaments/${t.id}/join`, headers: bearer(fx.carol!), body: {} });
    await call({ op: 'withdrawFromTournament', path: `/v1/tournaments/${t.id}/withdraw`, headers: bearer(fx.carol!) });
    await call({ op: 'withdrawFromTournament', path: `/v1/tournaments/${t.id}/withdraw`, headers: bearer(fx.dave!) }); // not entered
    await call({ op: 'startTournament', path: `/v1/tournaments/${t.id}/start`, headers: B }); // 403 not the organizer
    await call({ op: 'joinTournament', path: `/v1/tournaments/${t.id}/join`, headers: bearer(fx.dave!), body: {} });
    await call({ op: 'startTournament', path: `/v1/tournaments/${t.id}/start`, headers: A });
    await call({ op: 'startTournament', path: `/v1/tournaments/${t.id}/start`, headers: A }); // 409
    await call({ op: 'getTournament', path: `/v1/tournaments/${t.id}` });
    await call({ op: 'getTournamentStandings', path: `/v1/tournaments/${t.id}/standings` });
    await call({ op: 'exportTournamentStandingsCsv', path: `/v1/tournaments/${t.id}/standings.csv` });
    await call({ op: 'cancelTournament', path: `/v1/tournaments/${t.id}/cancel`, headers: A });
    await call({ op: 'cancelTournament', path: `/v1/tournaments/${t.id}/cancel`, headers: A }); // 409
    const t2 = json(
      await call({
        op: 'createTournament',
        path: '/v1/tournaments',
        headers: A,
        body: { name: 'Op Cup 2', format: 'round-robin', timeControl: CORR },
      }),
    );
    await call({ op: 'cancelTournament', path: `/v1/tournaments/${t2.id}/cancel`, headers: A });
    await call({
      op: 'createTournament',
      path: '/v1/tournaments',
      headers: A,
      body: { name: 'Bad deck', format: 'round-robin', timeControl: CORR, deck: { starter: 'no-such-deck' } },
    }); // 422

    // Bulk pairings (seat tokens of players' tokens).
    const bp = json(
      await call({
        op: 'createBulkPairing',
        path: '/v1/bulk-pairings',
        headers: A,
        body: {
          pairs: [{ p1: fx.bobPairing, p2: fx.carolPairing }],
          timeControl: CORR,
          pairAt: new Date(Date.now() + 3_600_000).toISOString(),
        },
      }),
    );
    await call({
      op: 'createBulkPairing',
      path: '/v1/bulk-pairings',
      headers: A,
      body: { pairs: [{ p1: fx.bobPairing, p2: 'evp_unknown-token' }], timeControl: CORR },
    });
    await call({ op: 'listBulkPairings', path: '/v1/bulk-pairings', headers: A });
    await call({ op: 'getBulkPairing', path: `/v1/bulk-pairings/${bp.id}`, headers: A });
    await call({ op: 'cancelBulkPairing', path: `/v1/bulk-pairings/${bp.id}/cancel`, headers: A });
    await call({ op: 'cancelBulkPairing', path: `/v1/bulk-pairings/${bp.id}/cancel`, headers: A }); // 409

    // The same invalid requests against every operation.
    const knownFor = (op: Operation): Record<string, string> => {
      const area = op.path.split('/')[2];
      if (area === 'challenges') return { id: ch3.id };
      if (area === 'tournaments') return { id: t.id };
      if (area === 'bulk-pairings') return { id: bp.id };
      if (area === 'seeks') return { seekId: seek.id };
      if (area === 'me') return { webhookId: awh.id, tokenId: tok.tokenInfo.id };
      return { id: mid, handle: 'op-alice', game: 'evons', webhookId: wh.id };
    };
    for (const op of operations) {
      const known = knownFor(op);
      const needsToken = !op.security.some((s) => Object.keys(s).length === 0) && op.security.length > 0;
      const hasPath = op.parameters.some((p) => p.in === 'path');
      const base: Call = { op: op.operationId, path: pathOf(op, known) };
      const bodyOk = op.body ? { body: validBody.get(op.operationId) ?? {} } : {};
      if (needsToken) await call({ ...base, ...bodyOk });
      if (op.security.length > 0) await call({ ...base, ...bodyOk, headers: bearer('evp_not-a-live-token') });
      if (op.security.some((s) => 'playerToken' in s)) {
        await call({ ...base, ...bodyOk, headers: bearer(fx.readOnly!) });
        await call({ ...base, ...bodyOk, headers: bearer(fx.tokensOnly!) });
      }
      if (hasPath) {
        await call({ op: op.operationId, path: pathOf(op), headers: A, ...bodyOk });
        await call({
          op: op.operationId,
          path: pathOf(op, Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, 'x'.repeat(500)]))),
          headers: A,
        });
      }
      await call({ ...base, path: `${base.path}${base.path.includes('?') ? '&' : '?'}zz-unknown=1`, headers: A, ...bodyOk });
      if (hasPath) {
        const malformed = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, 'not an id!']));
        await call({ op: op.operationId, path: pathOf(op, { ...known, ...malformed }), headers: A, ...bodyOk });
      }
      if (op.body) await call({ ...base, headers: A, body: { 'zz-unknown': true } });
      // Any POST may be sent a body, documented or not: one not JSON, one too large.
      if (op.body || op.method === 'POST') {
        await call({ ...base, headers: A, raw: { text: 'x', type: 'text/plain' } });
        await call({ ...base, headers: A, raw: { text: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }), type: 'application/json' } });
      }
    }

    expect(violations).toEqual([]);
    expect(operations.filter((o) => !called.has(o.operationId)).map((o) => o.operationId)).toEqual([]);
    const missing: string[] = [];
    for (const op of operations) {
      const skip = new Set([...(NOT_PROVOKED['*'] ?? []), ...(NOT_PROVOKED[op.operationId] ?? [])].flatMap((x) => x.statuses));
      const got = produced.get(op.operationId) ?? new Set();
      for (const status of Object.keys(op.responses)) {
        if (status === 'default' || skip.has(status) || got.has(status)) continue;
        missing.push(
          `${op.operationId} ${status} (${String(resolve<{ description?: string }>(op.responses[status]).description ?? '').slice(0, 60)})`,
        );
      }
    }
    expect(missing, 'documented statuses never produced: provoke them, or list them in NOT_PROVOKED with why').toEqual([]);
  }, 600_000);
});
