/**
 * Checking a `match-replay/1` file: was this match dealt fairly and is its record exactly what
 * its actions produce? Deal again from the revealed seed and deck lists (with the generator the
 * opening event names), check the seed against the commitment published at the start, apply the
 * published actions one by one, redact every event the engine produces for the file's reader,
 * and compare with the file's events one by one; then compare the outcome. The file's own claims
 * are never trusted: every check recomputes.
 */
import { matchRulesHash } from '../core/match-rules.js';
import { canonicalJson, sha256Hex } from '../core/hash.js';
import { otherSeat, type AnyRuleset, type Seat } from '../core/ruleset.js';
import { rulesetOf } from '../games/registry.js';
import { generatorOf } from './build.js';
import { ReplayFileSchema, isFileRecord, type ReplayEvent, type ReplayFile } from './replay-file.js';
import { issueLines } from '../core/issues.js';

export interface VerifyCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface EventMismatch {
  /** The file event's seq; null when the file has fewer events than the engine produced. */
  seq: number | null;
  /** Index among the file's game events (the match's own records are not counted). */
  index: number;
  expected: { actingSeat: Seat | null; event: unknown } | null;
  actual: { actingSeat: Seat | null; event: unknown } | null;
}

export interface VerifyReport {
  ok: boolean;
  checks: VerifyCheck[];
  firstMismatch?: EventMismatch;
}

interface TrueEvent {
  actingSeat: Seat | null;
  event: { type: string };
}

const json = (v: unknown): string => canonicalJson(JSON.parse(JSON.stringify(v ?? null)));

export function verifyReplay(input: unknown): VerifyReport {
  const checks: VerifyCheck[] = [];
  const check = (name: string, ok: boolean, detail: string): boolean => {
    checks.push({ name, ok, detail });
    return ok;
  };
  const done = (firstMismatch?: EventMismatch): VerifyReport => ({
    ok: checks.every((c) => c.ok),
    checks,
    ...(firstMismatch ? { firstMismatch } : {}),
  });

  const parsed = ReplayFileSchema.safeParse(input);
  if (
    !check(
      'format',
      parsed.success,
      parsed.success ? parsed.data.format : issueLines((parsed.error?.issues ?? []).slice(0, 5), '', '(file)').join('; '),
    )
  )
    return done();
  const file = parsed.data as ReplayFile;
  const r = rulesetOf(file.game);
  if (!check('game', r !== null, r ? `${r.id} (${r.name})` : `unknown game ${JSON.stringify(file.game)}`) || !r) return done();
  const missing = [
    file.outcome === null && 'outcome',
    file.seed === null && 'seed',
    file.actions === null && 'actions',
    file.decks === null && (file.position === undefined || file.position === null) && 'decks or position',
  ].filter((m): m is string => !!m);
  if (
    !check(
      'finished',
      missing.length === 0,
      missing.length ? `not verifiable before the end: no ${missing.join(', ')}` : `finished ${file.finishedAt}`,
    )
  )
    return done();
  const seed = file.seed as string;

  // Other rules would produce other events: nothing after this would mean anything.
  if (!check('rules-version', file.rulesVersion === r.rulesVersion, `file ${file.rulesVersion}, verifier ${r.rulesVersion}`)) return done();
  // An engine release that keeps the rules replays the same; only the opening names the release.
  check(
    'engine-version',
    true,
    file.engineVersion === r.engineVersion
      ? file.engineVersion
      : `file ${file.engineVersion}, verifier ${r.engineVersion} (same rules version)`,
  );
  check(
    'card-set',
    file.cardSet.id === r.cardSet.id && file.cardSet.hash === r.cardSet.hash,
    `file ${file.cardSet.id}@${file.cardSet.hash.slice(0, 12)}, verifier ${r.cardSet.id}@${r.cardSet.hash.slice(0, 12)}`,
  );
  const commitment = sha256Hex(seed);
  check(
    'seed-commitment',
    commitment === file.seedCommitment,
    commitment === file.seedCommitment
      ? 'sha256(seed) equals the commitment'
      : `sha256(seed) is ${commitment}, the commitment ${file.seedCommitment}`,
  );

  const gameEvents = file.events.filter((e) => !isFileRecord(e));
  const sandbox = file.decks === null;
  const generator = sandbox ? null : generatorOf(gameEvents[0]?.event);
  let hash: string | null = null;
  try {
    hash = matchRulesHash(r, file.settings, generator, file.timeControl);
  } catch (e) {
    check('rules-hash', false, `settings rejected: ${(e as Error).message}`);
  }
  if (hash !== null)
    check(
      'rules-hash',
      hash === file.rulesHash,
      hash === file.rulesHash ? `recomputed (generator ${generator ?? 'none'})` : `recomputed ${hash}, file ${file.rulesHash}`,
    );

  let created: ReturnType<AnyRuleset['create']>;
  try {
    created = sandbox
      ? r.positions.fromPosition(file.position, seed)
      : r.create({ config: file.settings, decks: file.decks as Record<Seat, string[]>, seed, ...(generator ? { generator } : {}) });
  } catch (e) {
    // Settings outside the game's schema can throw inside a deal that trusts its (stored) config.
    created = { ok: false, errors: [(e as Error).message] };
  }
  if (!created.ok) {
    check('deal', false, created.errors.join('; '));
    return done();
  }
  check('deal', true, sandbox ? 'position loaded' : `dealt with ${generator}`);

  const produced: TrueEvent[] = created.events.map((event: { type: string }) => ({ actingSeat: null, event }));
  let state: unknown = created.state;
  let failedAction: string | null = null;
  for (const [i, { seat, action }] of (file.actions ?? []).entries()) {
    const res = r.apply(state, seat, action);
    if (!res.ok) {
      failedAction = `action ${i} (${seat} ${action.type}) rejected: ${res.error.code}`;
      break;
    }
    state = res.state;
    for (const event of res.events as { type: string }[]) produced.push({ actingSeat: seat, event });
  }
  check('actions', failedAction === null, failedAction ?? `${file.actions?.length ?? 0} actions applied`);

  const mismatch = compareEvents(r, file, produced, gameEvents);
  check(
    'events',
    !mismatch,
    mismatch
      ? `first difference at ${mismatch.seq === null ? `game event ${mismatch.index} (missing from the file)` : `seq ${mismatch.seq}`}`
      : `${gameEvents.length} events match`,
  );

  const ends = file.events.filter((e) => e.event.type === 'MatchEnded');
  const end = ends[0]?.event.end as { reason?: unknown; seat?: unknown; winner?: unknown } | undefined;
  const outcome = file.outcome!;
  const engineOutcome = r.outcome(state);
  if (engineOutcome) {
    const same = outcome.winner === engineOutcome.winner && outcome.reason === engineOutcome.reason && ends.length === 0;
    check(
      'outcome',
      same,
      same
        ? `${engineOutcome.reason}, winner ${engineOutcome.winner ?? 'none'}`
        : `engine: ${engineOutcome.reason}, winner ${engineOutcome.winner ?? 'none'}; file: ${outcome.reason}, winner ${outcome.winner ?? 'none'}${ends.length ? ', and a MatchEnded record' : ''}`,
    );
  } else {
    // Ended outside the game's rules (time, a resignation, abort): the public MatchEnded record says how.
    const resigned =
      outcome.reason === 'resigned' && (outcome.seat === 'p1' || outcome.seat === 'p2') && outcome.winner === otherSeat(outcome.seat);
    const same =
      ends.length === 1 &&
      !!end &&
      end.reason === outcome.reason &&
      end.winner === outcome.winner &&
      (end.seat ?? null) === (outcome.seat ?? null) &&
      (outcome.reason === 'timed-out' || outcome.reason === 'aborted' || resigned);
    check(
      'outcome',
      same,
      same
        ? `${outcome.reason} (${outcome.seat ?? 'nobody'}), winner ${outcome.winner ?? 'none'}; the game itself did not end`
        : `the game did not end, and the file's outcome ${outcome.reason} is not one MatchEnded record's`,
    );
  }
  return done(mismatch ?? undefined);
}

/** The first place where the file's game events differ from the engine's, redacted for the reader. */
function compareEvents(
  r: AnyRuleset,
  file: ReplayFile,
  produced: readonly TrueEvent[],
  shown: readonly ReplayEvent[],
): EventMismatch | null {
  const expected: Array<{ actingSeat: Seat | null; event: unknown }> = [];
  for (const [i, p] of produced.entries()) {
    let event = r.redactEvent(p.event, file.reader);
    if (event === null) continue;
    // The opening names the engine release that dealt it (see the engine-version check).
    if (i === 0 && typeof event.engineVersion === 'string') event = { ...event, engineVersion: file.engineVersion };
    expected.push({ actingSeat: p.actingSeat, event });
  }
  const n = Math.max(expected.length, shown.length);
  for (let index = 0; index < n; index++) {
    const want = expected[index] ?? null;
    const got = shown[index];
    const actual = got ? { actingSeat: got.actingSeat, event: got.event } : null;
    if (json(want) !== json(actual)) return { seq: got?.seq ?? null, index, expected: want, actual };
  }
  return null;
}
