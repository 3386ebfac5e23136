/** The isolation suite's figures: one row per attack, printed as a table and written as JSON (ISOLATION_REPORT). */
import fs from 'node:fs';
import os from 'node:os';
import { fmtMs, table, type Samples } from '../../bench/lib/stats.js';

export interface Pair {
  /** p99 (ms) with the bystander alone, and with the attack running; their ratio. */
  alone: number;
  with: number;
  ratio: number;
  /** p50 (ms) alone and with the attack, and the largest with it. */
  p50: [number, number];
  maxWith: number;
  samples: [number, number];
}

export interface Row {
  attack: string;
  read: Pair;
  move: Pair;
  /** The attack's own bystander measure (the computer's answer, a webhook's delivery), if any. */
  extra?: Pair & { name: string };
  attacker: { statuses: Record<string, number>; codes: Record<string, number> };
  /** The server process's CPU over each phase, in cores (of os.cpus().length). */
  serverCores: [number, number];
  notes: Record<string, unknown>;
  loadavg: number[];
}

export function pair(alone: Samples, withAttack: Samples): Pair {
  const a = alone.percentile(99);
  const w = withAttack.percentile(99);
  return {
    alone: round(a),
    with: round(w),
    ratio: round(w / a, 2),
    p50: [round(alone.percentile(50)), round(withAttack.percentile(50))],
    maxWith: round(withAttack.max()),
    samples: [alone.count, withAttack.count],
  };
}

const round = (n: number, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : null) as number;
const ratio = (p: Pair) => (Number.isFinite(p.ratio) && p.ratio !== null ? `${p.ratio.toFixed(2)}×` : '–');
const counts = (c: Record<string, number>) =>
  Object.entries(c)
    .sort()
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');

export function print(rows: Row[], context: Record<string, unknown>): string {
  const head = [
    'attack',
    'read p99 alone',
    'with',
    'ratio',
    'move p99 alone',
    'with',
    'ratio',
    'extra p99 alone/with',
    'ratio',
    'attacker statuses',
    'codes',
    'server cores',
    'load 1/5/15',
  ];
  const body = rows.map((r) => [
    r.attack,
    fmtMs(r.read.alone),
    fmtMs(r.read.with),
    ratio(r.read),
    fmtMs(r.move.alone),
    fmtMs(r.move.with),
    ratio(r.move),
    r.extra ? `${r.extra.name} ${fmtMs(r.extra.alone)}/${fmtMs(r.extra.with)}` : '',
    r.extra ? ratio(r.extra) : '',
    counts(r.attacker.statuses),
    counts(r.attacker.codes),
    r.serverCores.map((x) => x.toFixed(2)).join('/'),
    r.loadavg.map((x) => x.toFixed(2)).join(' '),
  ]);
  const notes = rows.filter((r) => Object.keys(r.notes).length).map((r) => `  ${r.attack}: ${JSON.stringify(r.notes)}`);
  return [`[isolation] ${JSON.stringify(context)}`, table([head, ...body]), '  notes:', ...notes].join('\n');
}

export function writeReport(file: string, rows: Row[], context: Record<string, unknown>): void {
  fs.writeFileSync(
    file,
    `${JSON.stringify({ ...context, host: { cpus: os.cpus().length, loadavgAtEnd: os.loadavg() }, rows }, null, 2)}\n`,
  );
}
