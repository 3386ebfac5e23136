/**
 * The committed OpenAPI document as a test oracle: its operations, and a check that a response is
 * one the document declares for that operation (status, media type, headers the client relies on,
 * body schema; every error is problem+json).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type Json = Record<string, unknown>;

export const doc = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as Json;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters: Parameter[];
  /** The application/json request body schema, if any. */
  body: Json | null;
  bodyRequired: boolean;
  security: Json[];
  responses: Record<string, Json>;
}

/** Follows local `$ref`s. */
export function resolve<T = Json>(v: unknown): T {
  let x = v as Json;
  while (x && typeof x.$ref === 'string') {
    const pointer = (x.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    x = pointer.reduce<Json>((o, k) => o[k] as Json, doc);
  }
  return x as T;
}

export const operations: Operation[] = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => {
    const body = resolve<Json | undefined>(op.requestBody);
    const content = (body?.content ?? {}) as Record<string, Json>;
    return {
      operationId: op.operationId as string,
      method: method.toUpperCase(),
      path,
      parameters: ((op.parameters ?? []) as unknown[]).map((p) => resolve<Parameter>(p)),
      body: (content['application/json']?.schema as Json | undefined) ?? null,
      bodyRequired: body?.required === true,
      security: (op.security ?? []) as Json[],
      responses: Object.fromEntries(Object.entries(op.responses as Json).map(([k, r]) => [k, resolve(r)])),
    };
  }),
);

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const validators = new Map<string, ValidateFunction>();

/**
 * The document's components, added to Ajv once under their own id: every validator refers to
 * them there, so each component schema is compiled once per process and shared, where copying
 * the components into each root schema made Ajv walk the whole document again for every
 * validator (measured: about 0.25 s per validator, dozens per suite).
 */
const DOC_ID = 'evons-openapi-document';
ajv.addSchema({ $id: DOC_ID, components: doc.components });

/** A copy of `v` whose local refs (`#/...`) point into the document added above. */
function refsIntoDocument(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(refsIntoDocument);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v as Json).map(([k, x]) => [
      k,
      k === '$ref' && typeof x === 'string' && x.startsWith('#/') ? `${DOC_ID}${x}` : refsIntoDocument(x),
    ]),
  );
}

/** A validator for a schema from the document; its `#/components/...` refs resolve inside the document. */
export function validatorFor(key: string, schema: Json): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    const { $schema: _ignored, ...rest } = schema;
    v = ajv.compile(refsIntoDocument(rest) as Json);
    validators.set(key, v);
  }
  return v;
}

export interface Observed {
  status: number;
  contentType: string | null;
  headers: Headers;
  /** The body text; null when not read (a live stream). */
  text: string | null;
}

/** What is wrong with this response for this operation, by the document; empty when nothing. */
export function contractViolations(op: Operation, r: Observed): string[] {
  const out: string[] = [];
  const declared = op.responses[String(r.status)];
  if (!declared) return [`status ${r.status} is not documented for ${op.operationId}`];
  if (!r.headers.get('x-request-id')) out.push('no X-Request-Id header');
  const content = declared.content as Record<string, Json> | undefined;
  const media = (r.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (r.status >= 400 && media !== 'application/problem+json')
    out.push(`error ${r.status} is ${media || 'without a content type'}, not problem+json`);
  if (!content) {
    if (r.text) out.push(`status ${r.status} is documented without a body but has one`);
    return out;
  }
  const entry = content[media];
  if (!entry)
    return [...out, `media type ${media || '(none)'} is not documented for ${r.status} (documented: ${Object.keys(content).join(', ')})`];
  if (r.text === null) return out;
  const lineSchema = entry.schema as { oneOf?: { $ref?: string }[] } | undefined;
  if (media === 'application/x-ndjson' && !lineSchema?.oneOf?.some((s) => s.$ref === '#/components/schemas/MatchEvent')) {
    // Any other NDJSON answer (an export, the account feed): each line is one of the documented schema.
    const validate = validatorFor(`${op.operationId} ${r.status} ndjson line`, entry.schema as Json);
    for (const line of r.text.split('\n').filter((l) => l.trim() !== '')) {
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        out.push(`an NDJSON line is not JSON: ${line.slice(0, 80)}`);
        continue;
      }
      if (!validate(v)) out.push(`an NDJSON line does not match the ${r.status} schema: ${ajv.errorsText(validate.errors)}`);
    }
    return out;
  }
  if (media === 'application/x-ndjson') {
    // The document says: one MatchEvent per line, blank lines are keep-alives, a StreamEnd last.
    const validate = validatorFor('MatchEvent', { $ref: '#/components/schemas/MatchEvent' });
    const validateEnd = validatorFor('StreamEnd', { $ref: '#/components/schemas/StreamEnd' });
    const lines = r.text.split('\n').filter((l) => l.trim() !== '');
    const last = lines.at(-1);
    if (last !== undefined) {
      try {
        if (validateEnd(JSON.parse(last))) lines.pop();
      } catch {
        // judged below with the other lines
      }
    }
    for (const line of lines) {
      let ev: unknown;
      try {
        ev = JSON.parse(line);
      } catch {
        out.push(`an NDJSON line is not JSON: ${line.slice(0, 80)}`);
        continue;
      }
      if (!validate(ev)) out.push(`an NDJSON line is not a MatchEvent: ${ajv.errorsText(validate.errors)}`);
    }
    return out;
  }
  if (!media.endsWith('json')) return out;
  let body: unknown;
  try {
    body = JSON.parse(r.text);
  } catch {
    return [...out, `the ${media} body is not JSON: ${r.text.slice(0, 80)}`];
  }
  const validate = validatorFor(`${op.operationId} ${r.status} ${media}`, entry.schema as Json);
  if (!validate(body)) out.push(`body does not match the ${r.status} schema: ${ajv.errorsText(validate.errors)}`);
  if (r.status >= 400) {
    const p = body as { status?: unknown; code?: unknown };
    if (p.status !== r.status) out.push(`problem status ${String(p.status)} differs from the HTTP status ${r.status}`);
  }
  return out;
}
