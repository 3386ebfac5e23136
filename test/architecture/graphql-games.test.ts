/**
 * GraphQL is assembled from the registry (issue 22: a game is one folder): each game's `graphql`
 * piece brings its Match type, its own types and its fields of the shared PendingDecision and
 * ActionInput types; src/graphql names no game. A field two games share must have one type, and
 * a game resolves and bounds only its own types.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, GraphQLInputObjectType, GraphQLInterfaceType, GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { AnyGameModule, GameGraphql } from '../../src/games/game-module.js';
import { GAME_LIST } from '../../src/games/registry.js';
import { gameListSizes, gameResolvers, listed } from '../../src/graphql/games.js';
import { buildTypeDefs } from '../../src/graphql/schema.js';

const [first] = GAME_LIST;

/** A game of its own, with a Match type, one type, and one field of each shared type. */
function fakeGame(graphql: Partial<GameGraphql<unknown>> = {}): AnyGameModule {
  return {
    ...first!,
    ruleset: { ...first!.ruleset, id: 'fake' },
    displayName: 'Fake',
    typePrefix: 'Fake',
    graphql: {
      matchType: 'FakeMatch',
      matchDescription: 'A fake match.',
      matchFields: '    "Its tokens."\n    tokens: [FakeToken!]!\n',
      typeDefs: 'type FakeToken { id: ID! }',
      matchResolvers: { tokens: () => [] },
      typeResolvers: { FakeToken: { id: () => 't1' } },
      pendingKinds: 'MOVE (steps)',
      pendingFields: { steps: { type: 'Int', description: 'MOVE: steps left.' } },
      actionInputFields: { steps: { type: 'Int', description: 'Move: how far.' } },
      listSizes: { 'FakeMatch.tokens': 9 },
      ...graphql,
    },
  };
}

const objectType = (schema: ReturnType<typeof buildSchema>, name: string) => schema.getType(name) as GraphQLObjectType;

describe('GraphQL from the registry', () => {
  it("has each game's Match type, own types and fields of the shared types, with their types", () => {
    const schema = buildSchema(buildTypeDefs(GAME_LIST));
    const match = schema.getType('Match') as GraphQLInterfaceType;
    const pending = objectType(schema, 'PendingDecision').getFields();
    const input = (schema.getType('ActionInput') as GraphQLInputObjectType).getFields();
    for (const m of GAME_LIST) {
      const type = objectType(schema, m.graphql.matchType);
      expect(type.getInterfaces()).toEqual([match]);
      expect(Object.keys(type.getFields())).toEqual(expect.arrayContaining(Object.keys(match.getFields())));
      for (const [name, f] of Object.entries(m.graphql.pendingFields)) expect(String(pending[name]?.type)).toBe(f.type);
      for (const [name, f] of Object.entries(m.graphql.actionInputFields)) expect(String(input[name]?.type)).toBe(f.type);
      for (const type of Object.keys(m.graphql.typeResolvers)) expect(schema.getType(type)).toBeDefined();
    }
  });

  it('a new game needs no change in src/graphql: its types join the schema', () => {
    const schema = buildSchema(buildTypeDefs([...GAME_LIST, fakeGame()]));
    expect(objectType(schema, 'FakeMatch').getInterfaces().map(String)).toEqual(['Match']);
    expect(String(objectType(schema, 'FakeMatch').getFields().tokens?.type)).toBe('[FakeToken!]!');
    expect(objectType(schema, 'PendingDecision').getFields().steps?.description).toBe('Fake MOVE: steps left.');
    expect(schema.getType('Match')?.description).toContain(listed([...GAME_LIST.map((m) => m.graphql.matchType), 'FakeMatch']));
    expect(gameListSizes([...GAME_LIST, fakeGame()])['FakeMatch.tokens']).toBe(9);
  });

  it('a field two games add with one type is one field, described by both', () => {
    const [name, field] = Object.entries(first!.graphql.pendingFields)[0]!;
    const fake = fakeGame({ pendingFields: { [name]: { type: field.type, description: 'MOVE: the same.' } } });
    const schema = buildSchema(buildTypeDefs([...GAME_LIST, fake]));
    const f = objectType(schema, 'PendingDecision').getFields()[name]!;
    expect(f.description).toBe(`${first!.displayName} ${field.description} Fake MOVE: the same.`);
  });

  it('the same field with another type in another game is refused at start-up, naming both', () => {
    const [name, field] = Object.entries(first!.graphql.actionInputFields)[0]!;
    const other = field.type === 'Int' ? 'String' : 'Int';
    const fake = fakeGame({ actionInputFields: { [name]: { type: other, description: 'Move: another meaning.' } } });
    expect(() => buildTypeDefs([...GAME_LIST, fake])).toThrow(
      `GraphQL ActionInput.${name}: ${first!.displayName} gives it type ${field.type}, Fake ${other}; a field the games share must have one type`,
    );
  });

  it('a game resolves and bounds only its own types', () => {
    const matchFields = { config: () => null };
    expect(() => gameResolvers([fakeGame({ typeResolvers: { Query: { match: () => null } } })], matchFields)).toThrow(
      /Fake gives resolvers for Query/,
    );
    const theirs = first!.graphql.matchType;
    expect(() => gameListSizes([fakeGame({ listSizes: { [`${theirs}.hand`]: 1000 } })])).toThrow(
      new RegExp(`Fake gives a list size for ${theirs}`),
    );
    expect(Object.keys(gameResolvers([fakeGame()], matchFields)).sort()).toEqual(['FakeMatch', 'FakeToken']);
  });

  it('src/graphql names no game: no game id, Match type or type of its own', () => {
    const dir = new URL('../../src/graphql', import.meta.url).pathname;
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const);
    expect(sources.length).toBeGreaterThan(5);
    for (const m of GAME_LIST) {
      const own = [m.graphql.matchType, ...Object.keys(m.graphql.typeResolvers)];
      const names = new RegExp(`['"\`]${m.ruleset.id}['"\`]|\\b(${own.join('|')})\\b`);
      for (const [file, text] of sources) expect(names.exec(text)?.[0], `${file} names ${m.displayName}`).toBeUndefined();
    }
  });
});
