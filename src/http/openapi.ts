/**
 * OpenAPI document metadata and the final touches @fastify/swagger cannot express per route:
 * problem+json media types, security per operation, the headers the server reads and sends, the
 * 500/503 every operation may answer, the event stream's two media types (NDJSON, SSE). The result must lint clean with
 * `npm run lint:openapi` (Redocly and Spectral).
 */
import { operationKey, type OperationFacts, type OperationFactsMap } from './operation-facts.js';
import type { FeedKind } from '../contract/kinds.js';
import { GAME_IDS } from '../games/registry.js';

/** The service's version, package.json's (test/api/http/http-contract.test.ts checks the two agree). */
export const SERVICE_VERSION = '0.1.0';

export const openapiInfo = {
  title: 'Evons match service',
  version: SERVICE_VERSION,
  description:
    'Game-as-a-service API for two-player card games: **Evons** (a grid card game) and **UniVersus** (attack, block, ' +
    'damage). `GET /v1/games` lists them; a match is of one game, and its view (`gameId`), actions and events (`type`) ' +
    "are that game's own: each game names them freely. Every event comes in an envelope whose `source` says whose it is: " +
    "`game` (the game's own) or `match` (a record of the match itself: its clock, an ending outside the game's rules).\n\n" +
    '* **Seats, players and tokens.** Creating or joining a match returns seat tokens (32 random bytes, base64url; the ' +
    'server keeps only their sha256). Send one as `Authorization: Bearer <token>` to see and act as that seat; without a ' +
    'token you are a spectator. Play needs no account: a *handle* chosen at create/join is then only a label. Players ' +
    'may also register (`POST /v1/players`): their handle is theirs (shown as verified), and their player tokens, with ' +
    'scopes (match:read, match:play, match:create, webhook:write, token:write, pairing:play), create, join and act as their seat in ' +
    'each of their matches; ratings and profiles belong to registered players.\n' +
    '* **Versions and caching.** A match version is the number of stored events. Reads return it in the body; ' +
    'their `ETag` is `"<version>.<viewer>"` (viewer p1, p2 or spectator), since each caller sees another body. ' +
    'Poll `GET /v1/matches/{id}` with `If-None-Match` to get 304 until the match moves. Bodies that depend on the ' +
    'caller are sent with `Vary: Authorization` and `Cache-Control: private` (`no-store` for the event stream); ' +
    'the card set and starter decks are public and cacheable. Send the version as `If-Match` with an action to ' +
    'fail with 409 instead of acting on a stale view.\n' +
    '* **Retries.** Send `Idempotency-Key` with actions: a retry by the same seat with the same key and body gets ' +
    'the stored response byte for byte (with `Idempotent-Replayed: true`); the same key with another body is a 422.\n' +
    '* **Errors.** Every error is `application/problem+json` (RFC 9457) with a stable `code`. Besides the statuses ' +
    'listed per operation, any path answers 404 `not-found` for an unknown route, 405 `method-not-allowed` (with ' +
    '`Allow`) for a method the path does not support, and 431 `headers-too-large` for oversized ' +
    'headers. A 500 `internal` never carries internal details: quote its `X-Request-Id`. A 503 is ' +
    '`database-unavailable` (with `Retry-After`: the database is unreachable), `overloaded` (with `Retry-After`: the ' +
    'database or the connection pool is saturated, not down) or `shutting-down` (retry, another node will answer).\n' +
    '* **Rate limits.** When the server runs with a limit, every response except the health probes carries ' +
    '`x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset` (seconds), and a 429 `rate-limited` ' +
    'carries `Retry-After` (seconds). A client is its seat token when that token is valid, else its address. ' +
    'Each address also has a ceiling over all its credentials. Costly work (time travel, exports, event pages, ' +
    "pictures not yet cached, standings, bulk pairing, the computer's decisions, large GraphQL documents) is charged " +
    'by its size in work units (about 1 ms of server CPU each) against a budget per client and per address ' +
    '(docs/api.md, Work budgets): over it 429 `rate-limited` with `Retry-After`, nothing changed. An address may ' +
    'hold only so many live streams open (429 `too-many-streams`: close one first). Past 5 refusals a second, an ' +
    'address gets each further one (any 429, a 413, a GraphQL document refused by its limits) after a pause of up to ' +
    'its `Retry-After`: asking again at once gains nothing. A 503 `server-busy` (with ' +
    '`Retry-After`) means this node is already drawing or building as many pictures and exports as it may.\n' +
    '* **Browsers on other origins (CORS).** Preflights are answered for every operation; answers (problems ' +
    'included) expose `ETag`, `Location`, `Retry-After`, the rate-limit headers, `Preference-Applied`, ' +
    '`Idempotent-Replayed`, `X-Request-Id` and `Allow` to script, and vary on `Origin`. Allowed origins are a ' +
    'server setting (any by default); credentials mode is never allowed: tokens are bearer headers.\n' +
    '* **Request ids.** Every response carries `X-Request-Id`; send your own (`X-Request-Id` request header) to ' +
    'correlate logs.\n' +
    '* **Pagination.** New list routes take `cursor` + `limit` and answer `nextCursor` (null after the last page); the ' +
    'event log pages by `after` (a seq) → `next`/`hasMore` (docs/api.md, Pagination).\n' +
    '* **Webhooks.** A seat can register an endpoint for your-turn, opponent-joined, match-ended and deadline-near; the ' +
    "deliveries (Standard Webhooks, signed) are described in this document's `webhooks` section.\n" +
    '* **GraphQL.** The same data and the `createMatch`, `joinMatch` and `submitAction` mutations are at `POST /graphql`; ' +
    'subscriptions over WebSocket at the same path.',
  license: { name: 'MIT', identifier: 'MIT' },
};

/** Relative, so the document served by a node describes that node (and Swagger UI calls it). */
export const openapiServers = [{ url: '/', description: 'The server that serves this document.' }];

/**
 * The pattern If-Match must match (parseIfMatch in routes/matches.ts): `*`, or a version, optionally
 * quoted (a weak one is well-formed but never matches). test/api/http/openapi.test.ts checks the two agree.
 */
export const IF_MATCH_PATTERN = '^\\s*(\\*|(W/)?"?[0-9]{1,9}(\\.(p1|p2|spectator))?"?)\\s*$';

type Json = Record<string, unknown>;

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '304': 'Not modified: the match is still at the version of If-None-Match (no body).',
  '400':
    'Invalid request (malformed JSON, wrong types, unknown fields, values out of range, match settings included: validation-failed; bad id or cursor)',
  '401': 'Missing, malformed, unknown or revoked token (missing-token, invalid-token)',
  '403': 'A valid token that may not do this: insufficient-scope (a player token without the scope), no-seat, rated-needs-player',
  '404': 'No such match',
  '409': 'Version conflict, seat taken, or the match is not in play (body has the current version)',
  '413': 'Body larger than 256 KiB',
  '415': 'Unsupported media type (send application/json)',
  '422':
    'Illegal action, invalid deck or position, settings the game refuses past the request schema, or an Idempotency-Key reused with another body',
  '429':
    'Rate limited (code rate-limited): wait Retry-After seconds; or too many costly requests of one address at once (code too-many-at-once): wait for an answer first; or too many live streams open (code too-many-streams): close one first',
  '503': 'Database unavailable',
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const PROBLEM = { $ref: '#/components/schemas/Problem' };

/** Reusable pieces the transform refers to. */
const COMPONENTS = {
  headers: {
    RequestId: {
      description: 'The request id: the one sent in X-Request-Id, else a fresh UUID. Quote it when reporting a problem.',
      required: true,
      schema: { type: 'string' },
    },
    ETag: {
      description: 'The match version for this caller: `"<version>.<viewer>"` (viewer p1, p2 or spectator).',
      schema: { type: 'string' },
    },
    ETagPicture: {
      description:
        'The picture for this caller: `"<version>.<viewer>.<format>.r<renderer>"` (e.g. `"31.spectator.svg.r2"`, `"31.p1.png-800.r2"`).',
      schema: { type: 'string' },
    },
    ETagEventPage: {
      description:
        'The match version for this caller, `"<version>.<viewer>"`, as on the view: it names the match, not this page ' +
        "(after, limit), so this route answers no 304; compare it with the view's to know whether the match moved.",
      schema: { type: 'string' },
    },
    ProblemVersion: {
      description:
        'The match version, `"<version>"`, when the problem carries it (`version` in the body: a version conflict, a match not in play).',
      schema: { type: 'string' },
    },
    PreferenceApplied: {
      description: 'The Prefer preference this answer follows: `return=representation` or `return=minimal` (sent when Prefer was).',
      schema: { type: 'string', enum: ['return=representation', 'return=minimal'] },
    },
    Location: { description: 'The new match: /v1/matches/{id}.', schema: { type: 'string' } },
    IdempotentReplayed: {
      description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key.',
      schema: { type: 'string', enum: ['true'] },
    },
    RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
    RateLimitLimit: {
      description: 'Requests allowed per minute (only when a limit is configured).',
      schema: { type: 'integer', minimum: 0 },
    },
    RateLimitRemaining: { description: 'Requests left in the current minute.', schema: { type: 'integer', minimum: 0 } },
    RateLimitReset: { description: 'Seconds until the budget is refilled.', schema: { type: 'integer', minimum: 0 } },
    CacheControlPrivate: {
      description: '`private` (or `no-store`): the body depends on the caller and must not be shared between callers.',
      schema: { type: 'string' },
    },
    CacheControlPublic: { description: 'Public and cacheable (`public, max-age=300`).', schema: { type: 'string' } },
    Link: {
      description: 'RFC 8288: `<url>; rel="next"`, the next part of this answer, when there is more (absent on the last part).',
      schema: { type: 'string' },
    },
    Vary: { description: '`Authorization`: the body depends on the seat token (and `Origin`, for CORS).', schema: { type: 'string' } },
    WwwAuthenticate: {
      description:
        'The challenge (RFC 6750): `Bearer` when no token was sent, `Bearer error="invalid_token"` when the one sent is malformed, unknown or revoked.',
      required: true,
      schema: { type: 'string', pattern: '^Bearer( error="invalid_token")?$' },
    },
  },
  parameters: {
    RequestId: {
      name: 'X-Request-Id',
      in: 'header',
      required: false,
      description: 'Your id for this request; echoed in the X-Request-Id response header and the server logs.',
      schema: { type: 'string' },
    },
  },
  responses: {
    PayloadTooLarge: {
      description: 'Body larger than 256 KiB (code body-too-large).',
      headers: { 'X-Request-Id': ref('headers', 'RequestId') },
      content: { 'application/problem+json': { schema: PROBLEM } },
    },
    UriTooLong: {
      description: 'A path segment is longer than the server accepts (code uri-too-long).',
      headers: { 'X-Request-Id': ref('headers', 'RequestId') },
      content: { 'application/problem+json': { schema: PROBLEM } },
    },
    UnsupportedMediaType: {
      description: 'A body that is not application/json (code unsupported-media-type).',
      headers: { 'X-Request-Id': ref('headers', 'RequestId') },
      content: { 'application/problem+json': { schema: PROBLEM } },
    },
    InternalError: {
      description: 'Internal error (code internal): nothing internal is revealed; quote the X-Request-Id.',
      headers: { 'X-Request-Id': ref('headers', 'RequestId') },
      content: { 'application/problem+json': { schema: PROBLEM } },
    },
    ServiceUnavailable: {
      description:
        'Unavailable: code database-unavailable (the database did not answer; retry after Retry-After seconds), ' +
        "overloaded (the database or this node's connection pool has no room now: a pooled connection not free in time, " +
        'a statement or lock timeout, the server out of connection slots; retry after Retry-After seconds), ' +
        'server-busy (this node draws or builds as many pictures and exports as it may; retry after Retry-After seconds), ' +
        'tournament-busy (joins or withdrawals kept changing the field while a start paired it; nothing started; retry after Retry-After seconds) or ' +
        'shutting-down (this node is stopping; retry).',
      headers: { 'X-Request-Id': ref('headers', 'RequestId'), 'Retry-After': ref('headers', 'RetryAfter') },
      content: { 'application/problem+json': { schema: PROBLEM } },
    },
  },
};

/** The Standard Webhooks headers every delivery carries (src/service/webhooks/signing.ts). */
const WEBHOOK_HEADERS = [
  { name: 'webhook-id', description: 'The delivery id (msg_…): the same on every attempt and on a redelivery; deduplicate on it.' },
  { name: 'webhook-timestamp', description: 'Seconds since the epoch when this attempt was signed: refuse old ones (replays).' },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per signing secret ' +
      '(two for 24 h after a rotation). Any Standard Webhooks library verifies it.',
  },
].map((h) => ({ ...h, in: 'header', required: true, schema: { type: 'string' } }));

const WEBHOOK_KINDS: Record<string, string> = {
  'your-turn': 'The decision passed to your seat (not again after each of its own decisions).',
  'opponent-joined': 'Someone took the open seat (sent to the creator).',
  'match-ended': "The match is over: the game's result, a timeout or an abort (sent to both seats).",
  'deadline-near': "Your running clock ends within the endpoint's deadlineLeadMinutes (dropped if the match moves first).",
};

/** What an account webhook (POST /v1/me/webhooks) is sent, per kind of feed entry. */
const ACCOUNT_WEBHOOK_KINDS: Record<FeedKind, string> = {
  'match-started': 'A match of yours started (a challenge accepted, a seek paired, a rematch accepted, your open seat joined).',
  'your-turn': 'A match of yours now waits for your decision.',
  'match-ended': 'A match of yours ended.',
  'challenge-received': 'Someone challenged you (or named you in an open challenge).',
  'challenge-accepted': 'Your challenge was accepted: data.matchId is the new match.',
  'challenge-declined': 'Your challenge was declined (data.declineReason says why).',
  'challenge-canceled': 'A challenge to you was cancelled by its challenger.',
  'challenge-expired': 'A challenge from or to you expired unanswered.',
  'rematch-offered': 'Your opponent in a finished match offered a rematch.',
  'seek-paired': 'Your seek was paired: data.matchId is the new match.',
  'tournament-round-started': 'A round of a tournament you play in started: data has your pairing (match, seat, opponent) or your bye.',
  'tournament-finished': 'A tournament you entered finished: data has your final rank and points.',
};

/**
 * The top-level `webhooks` (OpenAPI 3.1): what this server POSTs to a seat's endpoint, one entry per
 * kind, with the signed body (WebhookDeliveryBody, its `type` the kind) and the signature headers;
 * then what it POSTs to an account's endpoint, one entry per kind of feed entry (account-<kind>,
 * AccountWebhookDeliveryBody).
 */
function webhooksSection(): Json {
  const account = Object.entries(ACCOUNT_WEBHOOK_KINDS).map(([kind, when]) => [
    `account-${kind}`,
    {
      post: {
        operationId: `account${kind.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase())}Webhook`,
        tags: ['webhooks'],
        summary: `Account delivery: ${kind}`,
        description:
          `${when} Sent to the URL a player registered (POST /v1/me/webhooks) for this kind, as \`type: "${kind}"\`: the entry ` +
          'of the account feed (GET /v1/me/events), its id as data.entryId. At least once: a 2xx within 5 s acknowledges it; ' +
          'anything else is retried with backoff for up to 24 h, with the same webhook-id and body.',
        security: [],
        parameters: WEBHOOK_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'AccountWebhookDeliveryBody') } } },
        responses: {
          '200': { description: 'Any 2xx acknowledges the delivery (the answer body is ignored, and not read past 4 KB).' },
          default: { description: 'Any other status, or no answer within 5 s, is a failure: the delivery is retried.' },
        },
      },
    },
  ]);
  const seat = Object.entries(WEBHOOK_KINDS).map(([kind, when]) => [
    kind,
    {
      post: {
        operationId: `${kind.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())}Webhook`,
        tags: ['webhooks'],
        summary: `Delivery: ${kind}`,
        description:
          `${when} Sent to the URL a seat registered (POST /v1/matches/{id}/webhooks, or \`webhook\` in create/join) ` +
          `for this kind, as \`type: "${kind}"\`. At least once: a 2xx within 5 s acknowledges it; anything else is retried ` +
          'with backoff for up to 24 h, with the same webhook-id and body.',
        security: [],
        parameters: WEBHOOK_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'WebhookDeliveryBody') } } },
        responses: {
          '200': { description: 'Any 2xx acknowledges the delivery (the answer body is ignored, and not read past 4 KB).' },
          default: { description: 'Any other status, or no answer within 5 s, is a failure: the delivery is retried.' },
        },
      },
    },
  ]);
  return Object.fromEntries([...seat, ...account]);
}

/**
 * Problem responses are served as application/problem+json; reads of a match carry an ETag;
 * operations that take a seat token declare the bearer scheme (optional where spectators may read),
 * the others `security: []`.
 */
export function finishOpenapi<T>(doc: T, facts: OperationFactsMap): T {
  const d = doc as Json;
  d.servers = openapiServers;
  const paths = (d.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const [url, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) finishOperation(method, op, facts.get(operationKey(method, url)) ?? {});
  }
  d.webhooks = webhooksSection();
  const components = (d.components ?? {}) as Json;
  d.components = components;
  for (const [kind, entries] of Object.entries(COMPONENTS)) {
    components[kind] = { ...(components[kind] as Json | undefined), ...entries };
  }
  pruneComponents(d);
  stripIds(components.schemas);
  // By name: the document must not depend on the order in which modules registered their schemas.
  for (const [kind, entries] of Object.entries(components)) {
    if (entries && typeof entries === 'object')
      components[kind] = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return doc;
}

/** Which credentials an operation takes: none, a seat token, a player token (some: either, or neither). */
function securityOf(facts: OperationFacts, readsAuthorization: boolean): Json[] {
  if (!readsAuthorization) return [];
  const seat = { seatToken: [] };
  const player = { playerToken: [] };
  switch (facts.credentials ?? 'any') {
    case 'player':
      return [player];
    case 'optional-player':
      return [{}, player];
    case 'seat-or-player':
      return [seat, player];
    case 'any':
      return [{}, seat, player];
  }
}

/** The 200 body of a route whose answer is not JSON (facts.media). */
const MEDIA: Record<NonNullable<OperationFacts['media']>, Json> = {
  svg: { 'image/svg+xml': { schema: { type: 'string', description: 'A self-contained SVG document.' } } },
  png: { 'image/png': { schema: { type: 'string', format: 'binary', contentMediaType: 'image/png', description: 'A PNG image.' } } },
  csv: { 'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row, CRLF line ends, UTF-8.' } } },
  'ndjson-export': {
    'application/x-ndjson': {
      schema: {
        description: 'One line: a MatchSummary, or with ?events=true a MatchReplay.',
        oneOf: [{ $ref: '#/components/schemas/MatchSummary' }, { $ref: '#/components/schemas/MatchReplay' }],
      },
    },
  },
  'event-stream': {
    'application/x-ndjson': {
      // As is usual for NDJSON, the schema describes one line.
      schema: {
        description:
          'One line: a MatchEvent as the caller may see it; the last line, when the server ends the stream, is a ' +
          'StreamEnd saying why. Blank lines are keep-alives.',
        oneOf: [{ $ref: '#/components/schemas/MatchEvent' }, { $ref: '#/components/schemas/StreamEnd' }],
      },
    },
    'text/event-stream': {
      // With Accept: text/event-stream. The schema describes the text; each `data:` is one of the objects above.
      schema: {
        type: 'string',
        description:
          'Server-Sent Events: per event `id: <seq>`, `event: match-event`, `data: <MatchEvent JSON>`; last `event: end` ' +
          'with `data: <StreamEnd JSON>`; `: keep-alive` comments.',
      },
      example:
        'id: 7\nevent: match-event\ndata: {"seq":7,"actingSeat":"p1","event":{"type":"Passed","seat":"p1","auto":false,"stalled":false}}\n\n',
    },
  },
  'account-feed': {
    'application/x-ndjson': {
      schema: {
        description:
          'One line: the FeedSnapshot first on a fresh connection, then FeedEntry lines; the last line, when the server ' +
          'ends the feed, is a FeedEnd saying why. Blank lines are keep-alives.',
        oneOf: [
          { $ref: '#/components/schemas/FeedSnapshot' },
          { $ref: '#/components/schemas/FeedEntry' },
          { $ref: '#/components/schemas/FeedEnd' },
        ],
      },
    },
    'text/event-stream': {
      schema: {
        type: 'string',
        description:
          'Server-Sent Events named by the message type (`event: snapshot`, `event: your-turn`, …, last `event: end`), ' +
          'each entry with `id:` (its id), `data:` the same object as the NDJSON line; `: keep-alive` comments.',
      },
      example: `id: 1234-56\nevent: your-turn\ndata: {"id":"1234-56","type":"your-turn","at":"2026-01-01T00:00:00.000Z","data":{"matchId":"V1StGXR8_Z5jdHi6B-myT","game":"${GAME_IDS[0]}","seat":"p2","status":"active","rated":false,"timeControl":"none","toMove":"p2","version":12,"deadline":null,"opponent":"alice","winner":null,"ending":null}}\n\n`,
    },
  },
};

function finishOperation(method: string, op: Json, facts: OperationFacts): void {
  const params = (op.parameters ?? []) as Json[];
  const auth = params.find((p) => p.in === 'header' && String(p.name).toLowerCase() === 'authorization');
  const rest = params.filter((p) => p !== auth);
  for (const p of rest) {
    if (p.in === 'header' && p.name === 'if-match') (p.schema as Json).pattern = IF_MATCH_PATTERN;
  }
  op.parameters = [...rest, ref('parameters', 'RequestId')];
  op.security = securityOf(facts, !!auth);
  const perCaller = !!auth;

  const responses = (op.responses ?? {}) as Record<string, Json>;
  for (const [status, res] of Object.entries(responses)) {
    const code = Number(status);
    if (res.description === 'Default Response' && STATUS_TEXT[status]) res.description = STATUS_TEXT[status];
    const content = res.content as Record<string, unknown> | undefined;
    if (code >= 400 && content?.['application/json']) {
      res.content = { 'application/problem+json': content['application/json'] };
    }
    if (code === 304) delete res.content;
    if (code === 200 && facts.media) res.content = MEDIA[facts.media];
    const headers: Json = { ...(res.headers as Json | undefined), 'X-Request-Id': ref('headers', 'RequestId') };
    if (!facts.probe) {
      headers['x-ratelimit-limit'] = ref('headers', 'RateLimitLimit');
      headers['x-ratelimit-remaining'] = ref('headers', 'RateLimitRemaining');
      headers['x-ratelimit-reset'] = ref('headers', 'RateLimitReset');
    }
    if (code === 429) headers['Retry-After'] = ref('headers', 'RetryAfter');
    if (code === 401) headers['WWW-Authenticate'] = ref('headers', 'WwwAuthenticate');
    // A problem that carries the match version sends it as the ETag too (sendProblem).
    if ((code === 409 || code === 422) && !headers.ETag) headers.ETag = ref('headers', 'ProblemVersion');
    if (code === 200 && rest.some((p) => p.in === 'header' && p.name === 'prefer'))
      headers['Preference-Applied'] = ref('headers', 'PreferenceApplied');
    if (facts.etag && (code < 300 || code === 304 || code === 409 || code === 422)) {
      headers.ETag = ref('headers', facts.etag === 'picture' ? 'ETagPicture' : facts.etag === 'event-page' ? 'ETagEventPage' : 'ETag');
    }
    if (code === 201 && facts.location) headers.Location = ref('headers', 'Location');
    if ((code === 200 || code === 201) && facts.idempotent) headers['Idempotent-Replayed'] = ref('headers', 'IdempotentReplayed');
    if (code === 200 && facts.paged) headers.Link = ref('headers', 'Link');
    if (method === 'get' && (code === 200 || code === 304)) {
      if (perCaller) {
        headers['Cache-Control'] = ref('headers', 'CacheControlPrivate');
        headers.Vary = ref('headers', 'Vary');
      } else if (facts.publicCache) {
        headers['Cache-Control'] = ref('headers', 'CacheControlPublic');
      }
    }
    res.headers = headers;
  }
  // What the transport refuses before a route runs: a body too large or not JSON (any POST may be
  // sent one, documented or not), a path segment too long.
  if (op.requestBody || method === 'post') {
    responses['413'] = ref('responses', 'PayloadTooLarge');
    responses['415'] = ref('responses', 'UnsupportedMediaType');
  }
  if (params.some((p) => p.in === 'path')) responses['414'] = ref('responses', 'UriTooLong');
  // Any operation may fail inside or find the database (or the node) unavailable.
  responses['500'] = ref('responses', 'InternalError');
  responses['503'] = ref('responses', 'ServiceUnavailable');
  op.responses = responses;
}

/** Every registered schema carries `$id: "#/components/schemas/X"` from Zod: not a valid $id, and redundant. */
function stripIds(schemas: unknown): void {
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    const o = v as Json;
    if (typeof o.$id === 'string' && o.$id.startsWith('#')) delete o.$id;
    Object.values(o).forEach(visit);
  };
  visit(schemas);
}

/** Drops component schemas nothing refers to (every registered schema gets an input and an output copy). */
function pruneComponents(doc: Json): void {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, unknown>;
  const used = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith('#/components/schemas/')) {
        const name = x.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(x);
    }
  };
  visit(doc.paths);
  visit(doc.webhooks);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
