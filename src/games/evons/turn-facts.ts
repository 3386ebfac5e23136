/**
 * The turn's bookkeeping a seat's view leaves out (the activation chain, reveals due, whether a
 * card was played, stalled passes, moved cards, owners of removed cards), folded from the seat's
 * events. Every event read here is public, so any seat or spectator gets the same facts: the
 * hidden-information sampler (sample.ts) and the reference bot (examples/bot) both read them.
 */
import type { SeatEvent } from '../../core/ruleset.js';
import type { Frame, Seat } from './state.js';

/** The turn's bookkeeping a view leaves out, folded from the seat's events (all public). */
export interface Facts {
  stack: Frame[];
  revealDue: string[];
  played: boolean;
  stalled: number;
  /** Abilities used in this turn (maxTurnAbilities). */
  turnAbilities: number;
  moved: Set<string>;
  removedOwner: Map<string, Seat>;
  /** Cards whose face the seat saw, by id. */
  seen: Map<string, string>;
}

const drop = (list: string[], id: string): void => {
  const i = list.indexOf(id);
  if (i >= 0) list.splice(i, 1);
};

/** The same folds as evolve.ts, on the public parts only. */
export function foldFacts(events: readonly SeatEvent[]): Facts {
  const f: Facts = {
    stack: [],
    revealDue: [],
    played: false,
    stalled: 0,
    turnAbilities: 0,
    moved: new Set(),
    removedOwner: new Map(),
    seen: new Map(),
  };
  const top = (): Frame | undefined => f.stack[f.stack.length - 1];
  for (const e of events) {
    const card = e.card as string;
    if (typeof e.card === 'string' && typeof e.defId === 'string') f.seen.set(e.card, e.defId);
    switch (e.type) {
      case 'TurnStarted':
        f.played = false;
        f.revealDue = [];
        f.turnAbilities = 0;
        break;
      case 'StepStarted':
        f.revealDue = e.step === 'reveal' ? [...((e.due as string[] | undefined) ?? [])] : [];
        break;
      case 'CardRevealed':
      case 'RevealDeferred':
      case 'CardDestroyed':
        drop(f.revealDue, card);
        break;
      case 'CardRemovedFromGame':
        drop(f.revealDue, card);
        f.removedOwner.set(card, e.owner as Seat);
        break;
      case 'CardPlayed':
        f.played = true;
        f.stalled = 0;
        break;
      case 'Passed':
        f.stalled = e.stalled ? f.stalled + 1 : 0;
        break;
      case 'ActivationStarted': {
        const parent = top();
        if (parent) drop(parent.triggers, card);
        f.stack.push({ card, kind: e.kind as Frame['kind'], phase: 'ability1', used: [], revivedCost: 0, conflicts: null, triggers: [] });
        break;
      }
      case 'PhaseStarted': {
        const t = top();
        if (!t) break;
        t.phase = e.phase as Frame['phase'];
        if (e.phase === 'conflicts') t.conflicts = null;
        break;
      }
      case 'AbilityUsed':
        top()?.used.push(e.arrow as number);
        f.turnAbilities++;
        break;
      case 'CardRevived': {
        const t = top();
        if (t) t.revivedCost += e.cost as number;
        break;
      }
      case 'CardMoved':
        f.moved.add(card);
        break;
      case 'CardsSwapped':
        f.moved.add(card).add(e.other as string);
        break;
      case 'ConflictsFixed': {
        const t = top();
        if (t) t.conflicts = [...(e.defenders as string[])];
        break;
      }
      case 'ConflictResolved': {
        const c = top()?.conflicts;
        if (c) drop(c, e.defender as string);
        break;
      }
      case 'TriggersQueued':
        top()?.triggers.push(...(e.cards as string[]));
        break;
      case 'TriggerDropped': {
        const t = top();
        if (t) drop(t.triggers, card);
        break;
      }
      case 'ActivationEnded':
        f.stack.pop();
        break;
      case 'TurnEnded':
        f.moved.clear();
        break;
      case 'GameEnded':
        f.stack = [];
        f.revealDue = [];
        break;
    }
  }
  return f;
}
