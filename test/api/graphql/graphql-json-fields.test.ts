/**
 * GraphQL's JSON fields (issue 20): each one says which typed schema of /openapi.json its value
 * follows (no JSON field is left undescribed), and the pending decision also has a typed field,
 * `pendingDecision`, beside the JSON `pending` (kept for existing queries) with the same content.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backends, createHotSeat, graphqlRequest, nextMove, bearer, useHarness } from '../helpers.js';

type Json = Record<string, unknown>;
const components = Object.keys(
  ((JSON.parse(readFileSync(new URL('../../../openapi/openapi.json', import.meta.url), 'utf8')) as Json).components as Json)
    .schemas as Json,
);

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface Field {
  name: string;
  description: string | null;
  type: TypeRef;
  args: { name: string; description: string | null; type: TypeRef }[];
}

const INTROSPECT = /* GraphQL */ `
  query {
    __schema {
      types {
        name
        kind
        fields {
          name
          description
          type {
            ...T
          }
          args {
            name
            description
            type {
              ...T
            }
          }
        }
        inputFields {
          name
          description
          type {
            ...T
          }
        }
      }
    }
  }
  fragment T on __Type {
    kind
    name
    ofType {
      kind
      name
      ofType {
        kind
        name
        ofType {
          kind
          name
        }
      }
    }
  }
`;

const named = (t: TypeRef): string | null => t.name ?? (t.ofType ? named(t.ofType) : null);

const PENDING = /* GraphQL */ `
  query ($id: ID!) {
    match(id: $id) {
      pending
      pendingDecision {
        kind
        seat
        cards
        card
        cell
        phase
        defenders
        count
        shortfall
      }
    }
  }
`;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`GraphQL JSON fields [${backend.name}]`, () => {
    const h = useHarness(backend);

    it('every JSON field, input field and argument names the /openapi.json schema its value follows', async () => {
      const res = await graphqlRequest(h, INTROSPECT).expect(200);
      const types = res.body.data.__schema.types as { name: string; fields: Field[] | null; inputFields: Field[] | null }[];
      const jsonPlaces: { where: string; description: string | null }[] = [];
      for (const t of types) {
        if (t.name.startsWith('__')) continue;
        for (const f of [...(t.fields ?? []), ...(t.inputFields ?? [])]) {
          if (named(f.type) === 'JSON') jsonPlaces.push({ where: `${t.name}.${f.name}`, description: f.description });
          for (const a of f.args ?? [])
            if (named(a.type) === 'JSON') jsonPlaces.push({ where: `${t.name}.${f.name}(${a.name})`, description: a.description });
        }
      }
      expect(jsonPlaces.length).toBeGreaterThan(0);
      for (const { where, description } of jsonPlaces) {
        const names = [...(description ?? '').matchAll(/[A-Z][A-Za-z]+/g)].map((m) => m[0]);
        // Request schemas are components with an Input suffix (the document's input copies).
        expect(
          names.filter((n) => components.includes(n) || components.includes(`${n}Input`)),
          `${where}: "${description}" names no component of /openapi.json`,
        ).not.toEqual([]);
      }
    });

    it('pendingDecision is the pending decision, typed, in both games', async () => {
      const seen = new Set<string>();
      for (const extra of [{}, { game: 'universus', decks: { p1: { starter: 'scouts' }, p2: { starter: 'garrison' } } }]) {
        const m = await createHotSeat(h.http, extra);
        for (let i = 0; i < 12; i++) {
          const r = await graphqlRequest(h, PENDING, { id: m.id }).expect(200);
          expect(r.body.errors).toBeUndefined();
          const { pending, pendingDecision } = r.body.data.match as { pending: Json | null; pendingDecision: Json | null };
          expect(pending).not.toBeNull();
          // The typed field carries the same fields; the ones its kind does not have are null.
          const set = Object.fromEntries(Object.entries(pendingDecision!).filter(([, v]) => v !== null));
          expect(set).toEqual(pending);
          seen.add(String(pending!.kind));
          const move = await nextMove(h, m.id, m.tokens);
          await h.http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[move.seat])).send({ action: move.action }).expect(200);
        }
      }
      expect(seen).toContain('play');
      expect(seen).toContain('PLAY');
    });
  });
}
