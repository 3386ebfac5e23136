/** A transaction: events emitted while applying one action, each folded at once into a draft state. */
import { instanceOf } from '../../core/card-instances.js';
import { shuffle, keyedStream } from '../../core/random.js';
import type { Seat } from '../../core/ruleset.js';
import { CARD_BY_ID } from './cards/index.js';
import type { Card } from './cards/schema.js';
import type { UniversusEvent } from './events.js';
import { cloneState, evolveDraft } from './evolve.js';
import { other, type UniversusState } from './state.js';

export class Tx {
  readonly s: UniversusState;
  readonly events: UniversusEvent[] = [];
  /** What the draft may change in place (core/copy-on-write.ts). */
  private readonly owned = new Set<object>(); // the draft shares its lists with `state` until copied
  constructor(state: UniversusState) {
    this.s = cloneState(state);
  }
  emit(e: UniversusEvent): void {
    this.events.push(e);
    evolveDraft(this.s, e, this.owned);
  }
  get over(): boolean {
    return this.s.phase === 'OVER';
  }
  card(id: string): Card {
    const c = CARD_BY_ID.get(instanceOf(this.s, id) ?? '');
    if (!c) throw new Error(`unknown instance ${id}`);
    return c;
  }
  win(winner: Seat, reason: 'HEALTH_ZERO' | 'EXHAUSTED'): void {
    this.emit({ type: 'GameWon', winner, reason, seed: this.s.seed });
  }

  /**
   * U-CYCLE-1..3: shuffle the discard into a new deck, remove the top `cycleRemoveCount` cards;
   * exhausted (loses, U-WIN-2) when no card would remain. Returns false when the game ended.
   */
  cycle(seat: Seat): boolean {
    const p = this.s.players[seat];
    const n = this.s.config.cycleRemoveCount;
    if (p.discard.length <= n) {
      this.emit({ type: 'PlayerExhausted', seat });
      this.win(other(seat), 'EXHAUSTED');
      return false;
    }
    const deck = shuffle(keyedStream(this.s.seed, `shuffle:${this.s.shuffles}`, p.discard.length + 4), [...p.discard]);
    this.emit({ type: 'DeckCycled', seat, shuffle: this.s.shuffles, deckSize: deck.length - n, removedCount: n, deck });
    return true;
  }

  /** U-TURN-3, U-SETUP-4: draw up to hand size (never discard down), cycling on an empty deck. */
  drawUp(seat: Seat): boolean {
    const p = this.s.players[seat];
    for (;;) {
      const need = p.handSize - p.hand.length;
      if (need <= 0) return true;
      if (p.deck.length === 0 && !this.cycle(seat)) return false;
      const take = this.s.players[seat].deck.slice(0, need);
      this.emit({ type: 'CardsDrawn', seat, cards: take.map((id) => ({ id, card: instanceOf(this.s, id) ?? '' })) });
    }
  }
}
