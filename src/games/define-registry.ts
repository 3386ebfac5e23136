/**
 * What the service derives from a list of game modules: ids, the modules in order, the rules
 * engines, and lookups by id. registry.ts applies it to the hosted games; the fixture registry of
 * the tests (test/fixtures/games/registry.ts) to the same list plus a test-only game.
 */
import type { AnyGameModule } from './game-module.js';

export function defineRegistry<M extends Record<string, AnyGameModule>>(modules: M) {
  type Id = keyof M & string;
  const ids = Object.keys(modules) as Id[];
  if (ids.length < 2) throw new Error('a registry lists at least two games');
  for (const id of ids) if (modules[id]!.ruleset.id !== id) throw new Error(`registry key ${id} holds the game ${modules[id]!.ruleset.id}`);
  const moduleOf = (id: string): AnyGameModule | null => (Object.hasOwn(modules, id) ? modules[id as Id]! : null);
  return {
    GAME_MODULES: modules,
    GAME_IDS: ids,
    /** The modules in registry order (the first is the default game of a create body without `game`). */
    GAME_LIST: ids.map((id) => modules[id]!) as readonly AnyGameModule[],
    /** The rules engines by id. */
    GAMES: Object.fromEntries(ids.map((id) => [id, modules[id]!.ruleset])) as { [G in Id]: M[G]['ruleset'] },
    moduleOf,
    rulesetOf: (id: string): AnyGameModule['ruleset'] | null => moduleOf(id)?.ruleset ?? null,
  };
}
