/**
 * A game is one folder (docs/architecture.md): every registered module is whole, and outside
 * src/games no code names a game or imports a game's folder, except the two places that are
 * about one game on purpose (listed below, with why).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GAME_IDS, GAME_LIST } from '../../src/games/registry.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SRC = join(ROOT, 'src');

/** Files outside src/games that may name a game, and why. */
const ALLOWED: Record<string, string> = {
  'service/accounts/reserved-handles.ts': 'game names are handles nobody may register',
  'http/routes/catalog.ts': "/v1/cards and /v1/decks predate the catalogue and serve Evons's card set, as documented",
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return p.includes('generated') || p === join(SRC, 'games') ? [] : files(p);
    return /\.(ts|js)$/.test(p) ? [p] : [];
  });
}

describe('the game seam', () => {
  it('every registered module is whole: its docs page and watch script exist, its type prefix is its own', () => {
    const prefixes = new Set<string>();
    for (const m of GAME_LIST) {
      expect(existsSync(join(ROOT, m.docs)), `${m.ruleset.id}: ${m.docs}`).toBe(true);
      expect(existsSync(fileURLToPath(m.watch.script)), `${m.ruleset.id}: ${m.watch.script.href}`).toBe(true);
      expect(prefixes.has(m.typePrefix), m.typePrefix).toBe(false);
      prefixes.add(m.typePrefix);
    }
  });

  it('outside src/games, no code names a game or imports a game folder', () => {
    const names = new RegExp(`['"\`](${GAME_IDS.join('|')})['"\`]|games/(${GAME_IDS.join('|')})/`);
    const found = files(SRC)
      .map((f) => relative(SRC, f))
      .filter((f) => !(f in ALLOWED))
      .flatMap((f) =>
        readFileSync(join(SRC, f), 'utf8')
          .split('\n')
          // Comments may name games as examples.
          .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && names.test(line))
          .map((line) => `${f}: ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });

  it('the scan finds a game named in code (guards the scanner)', () => {
    const names = new RegExp(`['"\`](${GAME_IDS.join('|')})['"\`]`);
    expect(names.test("if (state.game === 'universus')")).toBe(true);
  });
});
