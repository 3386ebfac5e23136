/** Checks, plays, blocks, damage and the End Phase (U-CHECK, U-COMMIT, U-PLAY, U-BLOCK, U-DAMAGE, U-END). */
import { instanceOf } from '../../core/card-instances.js';
import type { Seat } from '../../core/ruleset.js';
import type { Zone } from './cards/schema.js';
import { turnLimit, type UniversusConfig } from './config.js';
import { other } from './state.js';
import type { Tx } from './tx.js';

/** U-PROG-1, U-PROG-3: PD = cards in that player's own pool (the attempted card is not there yet). */
export const progressiveDifficulty = (tx: Tx, seat: Seat): number => tx.s.players[seat].cardPool.length;

export type BlockFit = 'FULL' | 'HALF' | null;
/** U-BLOCK-2, U-BLOCK-6 (UQ-1): match → FULL; adjacent → HALF; High vs Low → rejected unless ANY_ZONE_HALF. */
export function blockFit(attackZone: Zone, blockZone: Zone | null, config: UniversusConfig): BlockFit {
  if (blockZone === null) return null;
  if (attackZone === blockZone) return 'FULL';
  if (attackZone === 'MID' || blockZone === 'MID') return 'HALF';
  return config.blockZoneRule === 'ANY_ZONE_HALF' ? 'HALF' : null;
}

/** U-DAMAGE-1 (half rounded up). */
export function damageFor(outcome: 'FULL' | 'HALF' | 'NONE', damage: number): number {
  if (outcome === 'FULL') return 0;
  if (outcome === 'HALF') return Math.ceil(damage / 2);
  return damage;
}

export const readyFoundations = (tx: Tx, seat: Seat): string[] => tx.s.players[seat].stage.filter((x) => !x.committed).map((x) => x.id);

/** U-CHECK-1..4, U-COMMIT-1: runs the check for `tx.s.check`; stops at a commit decision. */
export function runCheck(tx: Tx): void {
  const check = tx.s.check;
  if (!check) throw new Error('no check in progress');
  const { seat, difficulty } = check;
  if (difficulty <= 0 && !tx.s.config.alwaysRevealOnCheck) {
    tx.emit({ type: 'CheckPassed', seat, difficulty }); // U-CHECK-3 off (UQ-12)
    return onPass(tx);
  }
  if (tx.s.players[seat].deck.length === 0 && !tx.cycle(seat)) return; // U-CHECK-4
  const top = tx.s.players[seat].deck[0] as string;
  const value = tx.card(top).type === 'CHARACTER' ? 0 : (tx.card(top) as { check: number }).check;
  tx.emit({ type: 'CheckRevealed', seat, id: top, card: instanceOf(tx.s, top) ?? '', value, difficulty });
  if (value >= difficulty) {
    tx.emit({ type: 'CheckPassed', seat, difficulty });
    return onPass(tx);
  }
  const shortfall = difficulty - value;
  if (tx.s.config.commitMode !== 'NONE' && readyFoundations(tx, seat).length >= shortfall) {
    tx.emit({ type: 'AwaitingCommit', seat, shortfall });
    return;
  }
  tx.emit({ type: 'CheckFailed', seat, difficulty });
  onFail(tx);
}

export function onPass(tx: Tx): void {
  const check = tx.s.check;
  if (!check) throw new Error('no check in progress');
  const card = tx.card(check.id);
  if (check.purpose === 'PLAY') {
    tx.emit({ type: 'CardPlacedInPool', seat: check.seat, id: check.id, role: 'PLAYED' }); // U-PLAY-3, U-PROG-2
    if (card.type === 'FOUNDATION') {
      // U-FOUND-1, U-FOUND-2 (UQ-5)
      tx.emit({ type: 'FoundationBuilt', seat: check.seat, id: check.id, toStage: tx.s.config.foundationEntersStage === 'IMMEDIATELY' });
      tx.emit({ type: 'CombatResumed', seat: check.seat });
    } else if (card.type === 'ATTACK') {
      // U-ATTACK-1..3: the Enhance Step is a no-op (UQ-13); printed values.
      tx.emit({ type: 'AttackStarted', seat: check.seat, id: check.id, zone: card.zone, speed: card.speed, damage: card.damage });
    }
    return;
  }
  const attack = tx.s.attack;
  if (!attack || card.type === 'CHARACTER') throw new Error('block without attack');
  const fit = blockFit(attack.zone, card.blockZone, tx.s.config) ?? 'NONE';
  tx.emit({ type: 'CardPlacedInPool', seat: check.seat, id: check.id, role: 'BLOCK' }); // U-BLOCK-5
  resolveBlock(tx, fit);
}

export function onFail(tx: Tx): void {
  const check = tx.s.check;
  if (!check) throw new Error('no check in progress');
  tx.emit({ type: 'CardDiscarded', seat: check.seat, id: check.id }); // U-PLAY-5, U-BLOCK-5
  if (check.purpose === 'BLOCK') return resolveBlock(tx, 'NONE');
  if (tx.s.config.failedCheckEndsTurn) return endPhase(tx); // UQ-7
  tx.emit({ type: 'CombatResumed', seat: check.seat });
}

/** U-BLOCK-6, U-DAMAGE-1..5. */
export function resolveBlock(tx: Tx, outcome: 'FULL' | 'HALF' | 'NONE'): void {
  const attack = tx.s.attack;
  if (!attack) throw new Error('no attack');
  const defender = other(attack.attacker);
  tx.emit({ type: 'BlockResolved', seat: defender, outcome });
  const amount = damageFor(outcome, attack.damage);
  tx.emit({ type: 'DamageDealt', seat: defender, amount });
  if (amount > 0) {
    tx.emit({ type: 'HealthChanged', seat: defender, health: tx.s.players[defender].health - amount });
    if (tx.s.players[defender].health <= 0) return tx.win(attack.attacker, 'HEALTH_ZERO'); // U-WIN-1, U-DAMAGE-4
  }
  tx.emit({ type: 'CombatResumed', seat: attack.attacker });
}

export const momentumEligible = (tx: Tx, seat: Seat): string[] =>
  tx.s.players[seat].cardPool.filter((e) => e.dealtDamage && e.role === 'PLAYED').map((e) => e.id);

/** U-END-1 (a): momentum choice (UQ-6), then the rest via `finishEndPhase`. */
export function endPhase(tx: Tx): void {
  const seat = tx.s.turnPlayer;
  tx.emit({ type: 'TurnEnded', seat });
  const eligible = momentumEligible(tx, seat);
  if (eligible.length > 0 && tx.s.config.autoMomentum === 'ASK') {
    tx.emit({ type: 'MomentumChoice', seat, eligible });
    return;
  }
  if (eligible.length > 0 && tx.s.config.autoMomentum === 'ALL') tx.emit({ type: 'MovedToMomentum', seat, ids: eligible });
  finishEndPhase(tx);
}

/** U-END-1 (b)–(d), U-TURN-1..3: pools cleared, the rival's turn starts (Ready Step, Draw Step). */
export function finishEndPhase(tx: Tx): void {
  const seat = tx.s.turnPlayer;
  for (const s of [seat, other(seat)] as const) {
    const pool = tx.s.players[s].cardPool;
    const staged = new Set(tx.s.players[s].stage.map((x) => x.id));
    const toStage = pool.filter((e) => e.built && !staged.has(e.id)).map((e) => e.id);
    const toDiscard = pool.filter((e) => !e.built).map((e) => e.id);
    tx.emit({ type: 'CardPoolCleared', seat: s, toDiscard, toStage });
  }
  startTurn(tx, other(seat));
}

export function startTurn(tx: Tx, seat: Seat): void {
  // maxTurns (issue 34, docs/rules-decisions.md): the match's last turn has ended; a draw.
  if (tx.s.turnNumber >= turnLimit(tx.s.config)) {
    tx.emit({ type: 'GameDrawn', reason: 'TURN_LIMIT', seed: tx.s.seed });
    return;
  }
  tx.emit({ type: 'TurnStarted', seat, turnNumber: tx.s.turnNumber + 1 });
  const committed = tx.s.players[seat].stage.filter((x) => x.committed).map((x) => x.id);
  if (committed.length > 0) tx.emit({ type: 'StageReadied', seat, ids: committed }); // U-TURN-2, U-COMMIT-3
  tx.drawUp(seat); // U-TURN-3
}
