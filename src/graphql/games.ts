/**
 * The games' parts of the GraphQL API, from each game's `graphql` piece (src/games/game-module.ts):
 * the fields the games add to the shared PendingDecision and ActionInput types, each Match type's
 * resolvers, and the bounds of their list fields. Generic over the registry: no game is named here.
 */
import type { AnyGameModule, GraphqlField, GraphqlMatchSource } from '../games/game-module.js';
import type { MatchSource } from './match-source.js';

/** "a", "a or b", "a, b or c". */
export function listed(items: readonly string[], last = 'or'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;
}

/**
 * The SDL of the fields the games add to one shared type, in registry order. A field two games
 * both add is one field, described by each; it must have the same type in both (a client could
 * not tell which one it gets), else the schema is refused at start-up.
 */
export function gameFieldsSdl(
  games: readonly AnyGameModule[],
  typeName: string,
  fieldsOf: (m: AnyGameModule) => Readonly<Record<string, GraphqlField>>,
): string {
  const merged = new Map<string, { type: string; by: string; descriptions: string[] }>();
  for (const m of games) {
    for (const [name, f] of Object.entries(fieldsOf(m))) {
      const seen = merged.get(name);
      const description = `${m.displayName} ${f.description}`;
      if (!seen) merged.set(name, { type: f.type, by: m.displayName, descriptions: [description] });
      else if (seen.type === f.type) seen.descriptions.push(description);
      else
        throw new Error(
          `GraphQL ${typeName}.${name}: ${seen.by} gives it type ${seen.type}, ${m.displayName} ${f.type}; a field the games share must have one type`,
        );
    }
  }
  return [...merged].map(([name, f]) => `    ${JSON.stringify(f.descriptions.join(' '))}\n    ${name}: ${f.type}\n`).join('');
}

/** The types a game defines: its Match type and those of its own SDL. */
export function ownTypes(m: AnyGameModule): Set<string> {
  return new Set([m.graphql.matchType, ...[...m.graphql.typeDefs.matchAll(/^\s*type\s+(\w+)/gm)].map((x) => x[1]!)]);
}

/** Refuses a game's resolver or bound for a type that is not its own (a shared type, another game's). */
function checkOwn(m: AnyGameModule, own: Set<string>, type: string, what: string): void {
  if (!own.has(type))
    throw new Error(`GraphQL: ${m.displayName} gives ${what} for ${type}, which is not one of its types (${[...own].join(', ')})`);
}

/** What a game's resolvers read, from the service's match view. */
const gameSource = (s: MatchSource): GraphqlMatchSource<unknown> => ({ view: s.mv.game, seat: s.mv.seat, seats: s.mv.seats });

type Resolver = (source: never, ...rest: never[]) => unknown;

/**
 * Each game's Match type (the fields every Match has, then the game's own, read from its view)
 * and the resolvers of its own types (only those: a game resolves nothing shared).
 */
export function gameResolvers(
  games: readonly AnyGameModule[],
  matchFields: Readonly<Record<string, Resolver>> & { config: (s: MatchSource) => unknown },
): Record<string, Record<string, Resolver>> {
  const out: Record<string, Record<string, Resolver>> = {};
  for (const m of games) {
    const g = m.graphql;
    const { settingsOf } = g;
    const own = ownTypes(m);
    out[g.matchType] = {
      ...matchFields,
      ...(settingsOf ? { config: (s: MatchSource) => (s.mv.game === null ? null : settingsOf(s.mv.game)) } : {}),
      ...Object.fromEntries(
        Object.entries(g.matchResolvers).map(([field, resolve]) => [field, (s: MatchSource) => resolve(gameSource(s))]),
      ),
    };
    for (const [type, fields] of Object.entries(g.typeResolvers)) {
      checkOwn(m, own, type, 'resolvers');
      out[type] = { ...fields };
    }
  }
  return out;
}

/** The GraphQL type of a match, by its game id. */
export function matchTypeResolver(games: readonly AnyGameModule[]): (s: MatchSource) => string | undefined {
  const byId = new Map(games.map((m) => [m.ruleset.id, m.graphql.matchType]));
  return (s) => byId.get(s.mv.gameId);
}

/** The games' list bounds, by `Type.field`. */
export function gameListSizes(games: readonly AnyGameModule[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of games) {
    const own = ownTypes(m);
    for (const [key, size] of Object.entries(m.graphql.listSizes)) {
      checkOwn(m, own, key.split('.')[0]!, 'a list size');
      out[key] = size;
    }
  }
  return out;
}
