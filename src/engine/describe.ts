/** Human text for an action, for clients that list legal actions. Never reveals hidden cards. */
import type { Action } from './actions.js';
import type { GameState } from './state.js';
import { defOf } from './stats.js';

export function describeAction(s: GameState, a: Action): string {
  const name = (id: string) => s.cards[id] ? defOf(s, id).name : id;
  switch (a.type) {
    case 'reveal':
      return `Reveal ${name(a.card)}`;
    case 'play':
      return `Play ${name(a.card)} ${a.covered ? 'covered' : 'face-up'} on ${a.cell}`;
    case 'pass':
      return 'Pass (skip playing a card this turn)';
    case 'ability': {
      const f = s.stack[s.stack.length - 1];
      const card = f ? defOf(s, f.card) : null;
      const arrow = card?.kind === 'monster' ? card.arrows[a.arrow] : undefined;
      const extra = a.card ? ` with ${name(a.card)}` : a.pull ? ` pulling from ${a.pull}` : '';
      return `${arrow?.type ?? 'Ability'} (arrow ${a.arrow}) on ${a.target}${extra}`;
    }
    case 'end-phase':
      return 'End this ability phase';
    case 'conflict':
      return `Resolve the conflict with ${name(a.defender)} next`;
    case 'activate':
      return `Reactivate ${name(a.card)} next`;
    case 'discard':
      return `Discard ${name(a.card)}`;
    case 'resign':
      return 'Resign the match';
  }
}
