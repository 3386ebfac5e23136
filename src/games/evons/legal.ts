/**
 * legalActions: the complete list of what a seat may do now (R-TURN, R-ACT, R-CONF, R-HAND),
 * and `check`, which validates one action with a specific reason. Both read the same rules.
 */
import { cellIndex, cellName, CELL_COUNT } from './board.js';
import type { Action } from './actions.js';
import type { Decision } from './decisions.js';
import { err, type RuleError } from './errors.js';
import { pendingDecision } from './flow.js';
import { resolverOf } from './abilities/index.js';
import { abilityChoices, abilityContext, frameCell, type AbilityChoice } from './sequence.js';
import { rememberChoices, rememberedChoices } from './decision-memo.js';
import { arrowsOnBoard } from './geometry.js';
import { topFrame, type GameState, type Seat } from './state.js';
import { monsterOf, defOf } from './stats.js';

/** Every legal action for `seat` now; empty when the decision is not theirs. Resign is always allowed and not listed. */
export function legalActions(s: GameState, seat: Seat): Action[] {
  const d = pendingDecision(s);
  if (!d || d.seat !== seat) return [];
  return actionsFor(s, d);
}

function actionsFor(s: GameState, d: Decision): Action[] {
  switch (d.kind) {
    case 'reveal-order':
      return d.cards.map((card) => ({ type: 'reveal', card }));
    case 'trigger-order':
      return d.cards.map((card) => ({ type: 'activate', card }));
    case 'conflict-order':
      return d.defenders.map((defender) => ({ type: 'conflict', defender }));
    case 'discard':
      return s.hands[d.seat].map((card) => ({ type: 'discard', card }));
    case 'play':
      return playActions(s, d.seat);
    case 'ability': {
      const out: Action[] = listedChoices(s).map(abilityAction);
      out.push({ type: 'end-phase' });
      return out;
    }
  }
}

/** A listed ability choice as an action (its keys in this order; card and pull only when set). */
function abilityAction({ arrow, option }: AbilityChoice): Action {
  const a: Extract<Action, { type: 'ability' }> = { type: 'ability', arrow, target: cellName(option.target) };
  if (option.card !== undefined) a.card = option.card;
  if (option.pull !== undefined) a.pull = cellName(option.pull);
  return a;
}

/**
 * The ability decision's choices, listed once per state: the random player lists them, then
 * apply's check finds its pick among them (decision-memo.ts; the decision must be remembered).
 */
function listedChoices(s: GameState): AbilityChoice[] {
  const known = rememberedChoices<AbilityChoice>(s);
  if (known) return known;
  const f = topFrame(s)!;
  const choices = abilityChoices(s, f, frameCell(s, f));
  rememberChoices(s, choices);
  return choices;
}

/** Ways a hand card may be played (bit flags): covered (monsters) and face-up (affordable monsters, Block cards). */
const COVERED = 1;
const FACE_UP = 2;
/** How many actions one empty cell gives a card of these forms. */
const formCount = (forms: number): number => (forms & COVERED) + ((forms & FACE_UP) >> 1);

function playForms(s: GameState, seat: Seat, card: string): number {
  const d = defOf(s, card);
  // Block cards (only with allowDirectBlockPlay, as turn.ts canPlayFromHand says) are placed face-up, like the Block ability does.
  if (d.kind !== 'monster') return s.config.allowDirectBlockPlay ? FACE_UP : 0;
  return COVERED | (s.credits[seat] >= d.cost ? FACE_UP : 0);
}

function emptyCellNames(s: GameState): string[] {
  const empty: string[] = [];
  for (let i = 0; i < CELL_COUNT; i++) if (!s.board[i]) empty.push(cellName(i));
  return empty;
}

/** emptyCellNames(s)[k], without the list. */
function emptyCellName(s: GameState, k: number): string | undefined {
  for (let i = 0; i < CELL_COUNT; i++) if (!s.board[i] && k-- === 0) return cellName(i);
  return undefined;
}

/** Pass, then for each playable hand card, each empty cell: covered, then face-up. */
function playActions(s: GameState, seat: Seat): Action[] {
  const out: Action[] = [{ type: 'pass' }];
  const empty = emptyCellNames(s);
  for (const card of s.hands[seat]) {
    const forms = playForms(s, seat, card);
    if (!forms) continue;
    for (const cell of empty) {
      if (forms & COVERED) out.push({ type: 'play', card, cell, covered: true });
      if (forms & FACE_UP) out.push({ type: 'play', card, cell, covered: false });
    }
  }
  return out;
}

/**
 * `playActions(s, seat)[pick(n)]` (n = the list's length) without building the list: a play
 * decision lists over a hundred actions, and a random player needs one of them.
 */
function pickPlayAction(s: GameState, seat: Seat, pick: (n: number) => number): Action {
  const hand = s.hands[seat];
  const forms = hand.map((card) => playForms(s, seat, card));
  let empty = 0;
  for (let i = 0; i < CELL_COUNT; i++) if (!s.board[i]) empty++;
  let n = 1;
  for (const f of forms) n += formCount(f) * empty;
  let k = pick(n);
  if (k === 0) return { type: 'pass' };
  k -= 1;
  for (let c = 0; c < hand.length; c++) {
    const f = forms[c]!;
    const per = formCount(f);
    if (k >= per * empty) {
      k -= per * empty;
      continue;
    }
    const cell = emptyCellName(s, Math.floor(k / per))!;
    const covered = (f & COVERED) !== 0 && k % per === 0;
    return { type: 'play', card: hand[c]!, cell, covered };
  }
  throw new RangeError(`no play action at index ${k}`);
}

/**
 * The action `pick` chooses by index among the pending decision's legal actions, exactly
 * `legalActions(s, d.seat)[pick(n)]`, building only what that needs (random players).
 */
export function pickLegalAction(s: GameState, d: Decision, pick: (n: number) => number): Action {
  if (d.kind === 'play') return pickPlayAction(s, d.seat, pick);
  if (d.kind === 'ability') {
    // The listed choices, then end-phase (actionsFor's order); only the chosen one made an action.
    const choices = listedChoices(s);
    const k = pick(choices.length + 1);
    return k === choices.length ? { type: 'end-phase' } : abilityAction(choices[k]!);
  }
  const actions = actionsFor(s, d);
  return actions[pick(actions.length)]!;
}

const EXPECTED: Record<Decision['kind'], Action['type'][]> = {
  'reveal-order': ['reveal'],
  play: ['play', 'pass'],
  ability: ['ability', 'end-phase'],
  'conflict-order': ['conflict'],
  'trigger-order': ['activate'],
  discard: ['discard'],
};

/** Validates `action` for `seat`; null when legal. Resign is handled by apply. */
export function check(s: GameState, seat: Seat, action: Action): RuleError | null {
  if (s.result) return err('GAME_OVER', 'the game is over');
  const d = pendingDecision(s);
  if (!d) return err('GAME_OVER', 'the game is over');
  if (d.seat !== seat) return err('NOT_YOUR_DECISION', `it is ${d.seat}'s decision (${d.kind}), not ${seat}'s`);
  if (!EXPECTED[d.kind].includes(action.type)) {
    return err('WRONG_DECISION', `the pending decision is ${d.kind}; expected ${EXPECTED[d.kind].join(' or ')}, got ${action.type}`);
  }
  switch (action.type) {
    case 'reveal':
    case 'activate': {
      const cands = d.kind === 'reveal-order' || d.kind === 'trigger-order' ? d.cards : [];
      return cands.includes(action.card) ? null : err('NOT_A_CANDIDATE', `${action.card} is not one of ${cands.join(', ')}`);
    }
    case 'conflict': {
      const cands = d.kind === 'conflict-order' ? d.defenders : [];
      return cands.includes(action.defender)
        ? null
        : err('NOT_A_CANDIDATE', `${action.defender} is not defending; defenders: ${cands.join(', ')}`);
    }
    case 'discard':
      return s.hands[seat].includes(action.card) ? null : err('CARD_NOT_IN_HAND', `${action.card} is not in your hand`);
    case 'pass':
    case 'end-phase':
      return null;
    case 'play':
      return checkPlay(s, seat, action);
    case 'ability':
      return checkAbility(s, action);
    case 'resign':
      return null;
  }
}

function checkPlay(s: GameState, seat: Seat, a: Extract<Action, { type: 'play' }>): RuleError | null {
  if (!s.hands[seat].includes(a.card)) return err('CARD_NOT_IN_HAND', `${a.card} is not in your hand`);
  const cell = cellIndex(a.cell);
  if (cell === undefined) return err('UNKNOWN_CELL', `${a.cell} is not a cell of the 7×7 board`);
  if (s.board[cell]) return err('CELL_OCCUPIED', `${a.cell} is occupied (R-BOARD-6)`);
  const def = defOf(s, a.card);
  if (def.kind === 'block') {
    if (!s.config.allowDirectBlockPlay)
      return err(
        'BLOCK_PLAY_NOT_ALLOWED',
        'Block cards enter the board only through the Block ability (R-PLAY-5, allowDirectBlockPlay = false)',
      );
    if (a.covered) return err('INVALID_CHOICE', 'Block cards are placed face-up');
    return null;
  }
  if (!a.covered && s.credits[seat] < def.cost) {
    return err(
      'INSUFFICIENT_CREDITS',
      `${def.name} costs ${def.cost} credits; you have ${s.credits[seat]} (R-CRED-7). It can be played covered.`,
    );
  }
  return null;
}

function checkAbility(s: GameState, a: Extract<Action, { type: 'ability' }>): RuleError | null {
  const f = s.stack[s.stack.length - 1]!;
  const cell = frameCell(s, f);
  const arrow = arrowsOnBoard(s, cell).find((x) => x.index === a.arrow);
  if (!arrow) return err('INVALID_CHOICE', `the activating card has no arrow ${a.arrow}`);
  const type = arrow.arrow.type;
  if (type === 'Normal') return err('NOT_AN_ABILITY_ARROW', `arrow ${a.arrow} is a Normal arrow: it has no ability (R-AB-NORM-1)`);
  if (f.used.includes(a.arrow)) return err('ARROW_ALREADY_USED', `arrow ${a.arrow} was already used in this activation (R-ACT-6)`);
  const target = cellIndex(a.target);
  const pull = a.pull === undefined ? undefined : cellIndex(a.pull);
  // Listed already (a player chose from the list): legal when it is one of them.
  const listed = rememberedChoices<AbilityChoice>(s);
  if (listed?.some((c) => c.arrow === a.arrow && c.option.target === target && c.option.card === a.card && c.option.pull === pull))
    return null;
  const options = resolverOf(type).options(abilityContext(s, f, cell, a.arrow)!);
  if (options.some((o) => o.target === target && o.card === a.card && o.pull === pull)) return null;
  if (type === 'Resurrection' && a.card !== undefined && s.graveyards[s.active].includes(a.card)) {
    const m = monsterOf(s, a.card);
    const budget = (monsterOf(s, f.card)?.cost ?? 0) - f.revivedCost;
    if (m && m.cost > budget)
      return err(
        'RESURRECTION_COST_EXCEEDED',
        `${m.name} costs ${m.cost}; ${budget} of this activation's Resurrection budget is left (R-AB-RES-2/4)`,
      );
  }
  if (!options.some((o) => o.target === target)) return err('INVALID_TARGET', `${type} cannot target ${a.target} now`);
  return err('INVALID_CHOICE', `that ${type} choice (card ${a.card ?? '-'}, pull ${a.pull ?? '-'}) is not available`);
}
