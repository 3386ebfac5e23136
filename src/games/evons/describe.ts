/**
 * Human text for an action, for clients that list legal actions. It names only what the asking
 * viewer may know: every name comes from `view(state, viewer)` (view.ts decides visibility, in one
 * place), and a card the view does not name is described by where it is ("the covered card at
 * C3"). A seat can control a card it may not identify (R-FACE-12, coveredHitByArrow =
 * FLIP_OWNERSHIP flips an opponent's covered card to it), so "it is my decision" is not enough.
 */
import type { Action } from './actions.js';
import { topFrame, type GameState } from './state.js';
import { view } from './view.js';
import type { Viewer } from './visibility.js';

/** A describer for many actions of one state (one view built, not one per action). */
export function actionDescriber(s: GameState, viewer: Viewer): (a: Action) => string {
  const v = view(s, viewer);
  const names = new Map<string, string>();
  const cells = new Map<string, string>();
  const defs = new Map<string, string>();
  for (const c of v.board) {
    if (!c.card) continue;
    cells.set(c.card.id, c.cell);
    if (c.card.name !== null) names.set(c.card.id, c.card.name);
    if (c.card.defId !== null) defs.set(c.card.id, c.card.defId);
  }
  for (const seat of ['p1', 'p2'] as const) {
    for (const r of [...(v.seats[seat].hand ?? []), ...v.seats[seat].graveyard]) names.set(r.id, r.name);
  }
  for (const r of v.removed) names.set(r.id, r.name);
  const name = (id: string): string => {
    const known = names.get(id);
    if (known !== undefined) return known;
    const cell = cells.get(id);
    return cell ? `the covered card at ${cell}` : 'a hidden card';
  };
  return (a) => {
    switch (a.type) {
      case 'reveal':
        return `Reveal ${name(a.card)}`;
      case 'play':
        return `Play ${name(a.card)} ${a.covered ? 'covered' : 'face-up'} on ${a.cell}`;
      case 'pass':
        return 'Pass (skip playing a card this turn)';
      case 'ability': {
        const f = topFrame(s);
        const defId = f ? defs.get(f.card) : undefined;
        const card = defId ? s.cardSet.byId.get(defId) : undefined;
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
  };
}

export function describeAction(s: GameState, a: Action, viewer: Viewer): string {
  return actionDescriber(s, viewer)(a);
}
