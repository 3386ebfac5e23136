/** OpenAPI document metadata and the final touches @fastify/swagger cannot express per route. */

export const openapiInfo = {
  title: 'Evons match service',
  version: '1.0.0',
  description:
    'Game-as-a-service API for Evons, a two-player grid card game.\n\n' +
    '* **Seats and tokens.** Creating a match returns seat tokens (32 random bytes, base64url; the server keeps ' +
    'only their sha256). Send one as `Authorization: Bearer <token>` to see and act as that seat; without a token ' +
    'you are a spectator. There are no accounts: a *handle* is a label chosen at create/join, used to list history.\n' +
    '* **Versions.** A match version is the number of stored events. Reads return it in the body and as `ETag`; ' +
    'send it as `If-Match` with an action to fail with 409 instead of acting on a stale view.\n' +
    '* **Retries.** Send `Idempotency-Key` with actions: a retry with the same key and body gets the stored ' +
    'response byte for byte; the same key with another body is a 422.\n' +
    '* **Errors.** Every error is `application/problem+json` (RFC 9457) with a stable `code`.\n' +
    '* **GraphQL.** The same data and the `submitAction` mutation are at `POST /graphql`.',
  license: { name: 'MIT', identifier: 'MIT' },
};

type Json = Record<string, unknown>;

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '400': 'Invalid request (malformed JSON, wrong types, unknown fields, bad id or cursor)',
  '401': 'Missing, malformed or wrong seat token',
  '404': 'No such match',
  '409': 'Version conflict, seat taken, or the match is not in play (body has the current version)',
  '413': 'Body larger than 256 KiB',
  '415': 'Unsupported media type (send application/json)',
  '422': 'Illegal action, invalid deck/settings/position, or an Idempotency-Key reused with another body',
  '503': 'Database unavailable',
};

const ETAG_HEADER = {
  description: 'The match version, quoted ("12").',
  schema: { type: 'string' },
};

/**
 * Problem responses are served as application/problem+json; reads of a match carry an ETag;
 * operations that take a seat token declare the bearer scheme (optional where spectators may read).
 */
export function finishOpenapi<T>(doc: T): T {
  const paths = ((doc as Json).paths ?? {}) as Record<string, Record<string, Json>>;
  for (const [url, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      const responses = (op.responses ?? {}) as Record<string, Json>;
      for (const [status, res] of Object.entries(responses)) {
        if (res.description === 'Default Response' && STATUS_TEXT[status]) res.description = STATUS_TEXT[status];
        const content = res.content as Record<string, unknown> | undefined;
        if (Number(status) >= 400 && content?.['application/json']) {
          res.content = { 'application/problem+json': content['application/json'] };
        }
        if (url.startsWith('/v1/matches/') && Number(status) < 300) {
          res.headers = { ...(res.headers as Json | undefined), ETag: ETAG_HEADER };
        }
      }
      const params = (op.parameters ?? []) as Json[];
      const auth = params.find((p) => p.in === 'header' && String(p.name).toLowerCase() === 'authorization');
      if (auth) {
        op.parameters = params.filter((p) => p !== auth);
        op.security = method === 'post' && url.endsWith('/actions') ? [{ seatToken: [] }] : [{}, { seatToken: [] }];
      }
    }
  }
  pruneComponents(doc as Json);
  return doc;
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
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
