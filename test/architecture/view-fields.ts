/**
 * Shared by the per-game drift tests: does every field a game's engine puts in its view have a
 * field in the GraphQL schema, or a stated reason why it is shaped otherwise?
 */
import { buildSchema, GraphQLObjectType } from 'graphql';
import { typeDefs } from '../../src/graphql/schema.js';

/** Every key path in the value (array indices collapsed), e.g. `board[].card.defId`; `opaque` keys are not entered. */
export function keyPaths(v: unknown, opaque: readonly string[] = [], prefix = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) keyPaths(x, opaque, `${prefix}[]`, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      const p = prefix ? `${prefix}.${k}` : k;
      out.add(p);
      if (!opaque.includes(k)) keyPaths(x, opaque, p, out);
    }
  return out;
}

export interface FieldMap {
  /** The per-seat object in the view (`seats`, `players`): its p1/p2 keys are read as `*`. */
  seatsKey: string;
  /** Where each nesting of the view lives in GraphQL ('' = the match type). */
  typeOf: Record<string, string>;
  /** View fields GraphQL shapes otherwise, each with the reason. */
  shaped: Record<string, string>;
  /** Keys whose contents are not walked (JSON in GraphQL). */
  opaque?: readonly string[];
}

const schema = buildSchema(typeDefs);
const fieldsOf = (type: string) => Object.keys((schema.getType(type) as GraphQLObjectType).getFields());

/** View fields without a GraphQL field (`path → Type.field`), and the shaped entries the views used. */
export function unmappedFields(views: readonly unknown[], map: FieldMap): { missing: string[]; shapedUsed: string[] } {
  const missing = new Set<string>();
  const used = new Set<string>();
  const seats = new RegExp(`^${map.seatsKey}\\.p[12]`);
  for (const v of views) {
    for (const path of keyPaths(v, map.opaque)) {
      const generic = path.replace(seats, `${map.seatsKey}.*`);
      if (map.shaped[generic]) {
        used.add(generic);
        continue;
      }
      const dot = generic.lastIndexOf('.');
      const type = map.typeOf[dot < 0 ? '' : generic.slice(0, dot)];
      if (!type) continue; // inside a shaped parent: judged there
      if (!fieldsOf(type).includes(generic.slice(dot + 1))) missing.add(`${generic} → ${type}.${generic.slice(dot + 1)}`);
    }
  }
  return { missing: [...missing], shapedUsed: [...used] };
}
