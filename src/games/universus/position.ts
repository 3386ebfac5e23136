/**
 * Sandbox positions, format `universus-position/1`: card ids per zone (deck top first), at a point
 * where the turn player is free to play (no check, attack or momentum choice in progress).
 */
import { instanceOf } from '../../core/card-instances.js';
import { z } from 'zod';
import { keyedStream, randomId } from '../../core/random.js';
import type { CreateResult, Seat } from '../../core/ruleset.js';
import { CARD_BY_ID } from './cards/index.js';
import { configSchema } from './config.js';
import type { UniversusEvent } from './events.js';
import { sha256 } from './setup.js';
import type { PlayerState, UniversusState } from './state.js';
import { issueLines } from '../../core/issues.js';

export const POSITION_FORMAT = 'universus-position/1';
const cardId = z.string().refine((c) => CARD_BY_ID.has(c), 'unknown card');
const playerSchema = z.object({
  character: z.string().refine((c) => CARD_BY_ID.get(c)?.type === 'CHARACTER', 'not a character'),
  // D-18: a player at 0 or less has already lost (U-DAMAGE-4, U-WIN-1): no game is in such a position.
  health: z.number().int().min(1, 'a player at 0 or less health has already lost (U-WIN-1)'),
  hand: z.array(cardId),
  deck: z.array(cardId),
  discard: z.array(cardId),
  removed: z.array(cardId),
  cardPool: z.array(z.object({ card: cardId, role: z.enum(['PLAYED', 'BLOCK']), dealtDamage: z.boolean(), built: z.boolean() })),
  stage: z.array(z.object({ card: cardId, committed: z.boolean() })),
  momentum: z.array(cardId),
});
export const positionSchema = z.object({
  format: z.literal(POSITION_FORMAT),
  config: configSchema,
  turnPlayer: z.enum(['p1', 'p2']),
  turnNumber: z.number().int().min(1),
  players: z.object({ p1: playerSchema, p2: playerSchema }),
});
export type UniversusPosition = z.infer<typeof positionSchema>;

export function toPosition(s: UniversusState): UniversusPosition {
  const c = (id: string): string => instanceOf(s, id) ?? '';
  const player = (p: PlayerState) => ({
    character: p.character,
    health: p.health,
    hand: p.hand.map(c),
    deck: p.deck.map(c),
    discard: p.discard.map(c),
    removed: p.removed.map(c),
    cardPool: p.cardPool.map((e) => ({ card: c(e.id), role: e.role, dealtDamage: e.dealtDamage, built: e.built })),
    stage: p.stage.map((e) => ({ card: c(e.id), committed: e.committed })),
    momentum: p.momentum.map(c),
  });
  return {
    format: POSITION_FORMAT,
    config: s.config,
    turnPlayer: s.turnPlayer,
    turnNumber: s.turnNumber,
    players: { p1: player(s.players.p1), p2: player(s.players.p2) },
  };
}

export function fromPosition(input: unknown, seed: string): CreateResult<UniversusState, UniversusEvent> {
  const parsed = positionSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: issueLines(parsed.error.issues, '', '') };
  const pos = parsed.data;
  const ids = keyedStream(seed, 'ids');
  const used = new Set<string>();
  const cards: Record<string, string> = {};
  const fresh = (card: string): string => {
    let id = randomId(ids);
    while (used.has(id)) id = randomId(ids);
    used.add(id);
    cards[id] = card;
    return id;
  };
  const player = (seat: Seat): PlayerState => {
    const p = pos.players[seat];
    const ch = CARD_BY_ID.get(p.character);
    return {
      character: p.character,
      health: p.health,
      handSize: ch?.type === 'CHARACTER' ? ch.handSize : 0,
      hand: p.hand.map(fresh),
      deck: p.deck.map(fresh),
      discard: p.discard.map(fresh),
      removed: p.removed.map(fresh),
      cardPool: p.cardPool.map((e) => ({ id: fresh(e.card), role: e.role, dealtDamage: e.dealtDamage, built: e.built })),
      stage: p.stage.map((e) => ({ id: fresh(e.card), committed: e.committed })),
      momentum: p.momentum.map(fresh),
    };
  };
  const state: UniversusState = {
    config: pos.config,
    seed,
    seedCommitment: sha256(seed),
    cards,
    players: { p1: player('p1'), p2: player('p2') },
    turnPlayer: pos.turnPlayer,
    turnNumber: pos.turnNumber,
    phase: 'COMBAT',
    pending: { kind: 'PLAY', seat: pos.turnPlayer },
    check: null,
    attack: null,
    shuffles: 0,
    winner: null,
    winReason: null,
  };
  return { ok: true, state, events: [{ type: 'PositionLoaded', rng: 'chacha20', state }] };
}
