/**
 * The Evons view is described in three places besides the engine's own type: the engine builds
 * it (view.ts), REST declares and serialises it (GameViewSchema, Zod), GraphQL exposes it (SDL).
 * This test fails when they drift: every view the engine produces in random games under settings
 * that change what is visible must pass the REST schema unchanged (nothing stripped, nothing
 * mistyped), and every field the engine produces must have its GraphQL field or be listed below
 * as deliberately shaped otherwise.
 */
import { describe, expect, it } from 'vitest';
import {
  apply,
  createGame,
  defaultCardSet,
  expandDeckList,
  legalActions,
  parseConfig,
  pendingDecision,
  randomPlayer,
  view,
  type GameView,
} from '../../src/games/evons/index.js';
import { GameViewSchema } from '../../src/games/evons/view-schema.js';
import { keyPaths, unmappedFields } from './view-fields.js';

const CONFIGS = [{}, { coveredHitByArrow: 'FLIP_OWNERSHIP' }, { growthAutoReveal: true }, { allowDirectBlockPlay: true }];

function views(configInput: Record<string, unknown>, seed: string): GameView[] {
  const cardSet = defaultCardSet();
  const [a, b] = cardSet.file.starterDecks;
  const config = parseConfig(configInput);
  if (!config.ok) throw new Error(config.errors.join('; '));
  const created = createGame({
    cardSet,
    config: config.config,
    decks: { p1: expandDeckList(a!.cards), p2: expandDeckList(b!.cards) },
    seed,
  });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const choose = randomPlayer(`${seed}:player`);
  const out: GameView[] = [];
  for (let i = 0; i < 400; i++) {
    if (i % 7 === 0 || state.result) for (const v of ['p1', 'p2', 'spectator'] as const) out.push(view(state, v));
    const d = pendingDecision(state);
    if (!d || state.result) break;
    const r = apply(state, d.seat, choose(state, legalActions(state, d.seat)));
    if (!r.ok) throw new Error(r.error.message);
    state = r.state;
  }
  return out;
}

const all = CONFIGS.flatMap((c, i) => views(c, `shape-${i}`));

describe('the Evons view: engine, REST schema and GraphQL agree', () => {
  it('covers a real variety of views (guards the generator)', () => {
    const paths = keyPaths(all);
    expect(all.length).toBeGreaterThan(40);
    for (const p of ['[].board[].card.defId', '[].seats.p1.hand[].name', '[].result.scores.p1', '[].seats.p2.graveyard[].defId'])
      expect(paths).toContain(p);
  });

  it('every view passes the REST schema unchanged', () => {
    for (const v of all) expect(GameViewSchema.parse(v)).toEqual(v);
  });

  it('every engine field has its GraphQL field', () => {
    // How the engine's nesting maps onto the GraphQL types.
    const TYPE_OF: Record<string, string> = {
      '': 'EvonsMatch',
      'board[]': 'Cell',
      'board[].card': 'BoardCard',
      'board[].card.boardArrows[]': 'Arrow',
      'seats.*': 'Player',
      'seats.*.hand[]': 'Card',
      'seats.*.graveyard[]': 'Card',
      'removed[]': 'Card',
      result: 'GameResult',
      'result.scores': 'SeatNumbers',
    };
    // Engine fields GraphQL shapes differently, each with the reason.
    const SHAPED: Record<string, string> = {
      viewer: 'the caller is Match.seat',
      engineVersion: 'match metadata (REST MatchView.engineVersion), not per view',
      rulesHash: 'match metadata',
      cardSetId: 'match metadata',
      cardSetHash: 'match metadata',
      status: 'Match.status (waiting/active/finished) covers playing/ended',
      seats: 'Match.players (a list), plus Match.hand and Match.graveyards',
      'board[].cell': 'Cell.name',
      'seats.*.seat': 'Player.seat',
      'seats.*.hand': "Match.hand (the caller's own)",
      'seats.*.graveyard': 'Match.graveyards',
    };
    const { missing } = unmappedFields(all, { seatsKey: 'seats', typeOf: TYPE_OF, shaped: SHAPED, opaque: ['config', 'pending'] });
    expect(missing).toEqual([]);
  });
});
