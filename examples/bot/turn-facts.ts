/**
 * The turn's bookkeeping that a seat's view leaves out, folded from its event log. Every event
 * read here is public (activations, phases, arrows used, conflicts, triggers, reveals, passes,
 * moves), so any seat or spectator computes the same facts. Types only from the engine: a
 * client without it (the random strategy) can use this too.
 */
import type { MatchEvent } from '../../clients/typescript/src/index.js';
import type { PositionData, Seat } from '../../src/games/evons/index.js';

type Frame = NonNullable<PositionData['stack']>[number];

/** The turn's bookkeeping, folded from public events (the parts of the state a view leaves out). */
export interface TurnFacts {
  stack: Frame[];
  revealDue: string[];
  played: boolean;
  stalled: number;
  /** Cards moved this turn (R-ACT-11b). */
  moved: Set<string>;
  /** Owners of removed cards (the view's removed list does not say). */
  removedOwner: Map<string, Seat>;
}

const drop = (list: string[], id: string) => {
  const i = list.indexOf(id);
  if (i >= 0) list.splice(i, 1);
};

/** Folds the public events of a seat's log into the turn's bookkeeping. */
export function turnFacts(events: readonly MatchEvent[]): TurnFacts {
  const f: TurnFacts = { stack: [], revealDue: [], played: false, stalled: 0, moved: new Set(), removedOwner: new Map() };
  const top = () => f.stack[f.stack.length - 1];
  for (const { event } of events) {
    const e = event as Record<string, unknown> & { type: string };
    const card = e.card as string;
    switch (e.type) {
      case 'TurnStarted':
        f.played = false;
        f.revealDue = [];
        f.moved.clear();
        break;
      case 'StepStarted':
        f.revealDue = e.step === 'reveal' ? [...((e.due as string[] | undefined) ?? [])] : [];
        break;
      case 'CardRevealed':
      case 'RevealDeferred':
        drop(f.revealDue, card);
        break;
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
        if (parent) drop(parent.triggers!, card);
        f.stack.push({ card, kind: e.kind as Frame['kind'], phase: 'ability1', used: [], revivedCost: 0, conflicts: null, triggers: [] });
        break;
      }
      case 'PhaseStarted':
        top()!.phase = e.phase as Frame['phase'];
        if (e.phase === 'conflicts') top()!.conflicts = null;
        break;
      case 'AbilityUsed':
        top()!.used!.push(e.arrow as number);
        break;
      case 'CardRevived':
        top()!.revivedCost! += e.cost as number;
        break;
      case 'CardMoved':
        f.moved.add(card);
        break;
      case 'CardsSwapped':
        f.moved.add(card).add(e.other as string);
        break;
      case 'ConflictsFixed':
        top()!.conflicts = [...(e.defenders as string[])];
        break;
      case 'ConflictResolved':
        drop(top()!.conflicts ?? [], e.defender as string);
        break;
      case 'TriggersQueued':
        top()!.triggers!.push(...(e.cards as string[]));
        break;
      case 'TriggerDropped':
        drop(top()!.triggers!, card);
        break;
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
