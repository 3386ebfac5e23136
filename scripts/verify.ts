/**
 * `npm run verify -- match.json [--json]`: checks a match-replay/1 file (docs/replay-format.md)
 * and prints the report. Exit status: 0 verified, 1 a check failed, 2 the file could not be read.
 */
import { readFile } from 'node:fs/promises';
import { verifyReplay } from '../src/replay/verify.js';

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const path = args.find((a) => !a.startsWith('--'));
if (!path) {
  console.error('usage: npm run verify -- <match-replay.json> [--json]');
  process.exit(2);
}

let input: unknown;
try {
  input = JSON.parse(await readFile(path, 'utf8'));
} catch (e) {
  console.error(`cannot read ${path}: ${(e as Error).message}`);
  process.exit(2);
}

const report = verifyReplay(input);
if (asJson) console.log(JSON.stringify(report, null, 2));
else {
  for (const c of report.checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  if (report.firstMismatch) {
    const m = report.firstMismatch;
    console.log(`first mismatch at ${m.seq === null ? `game event ${m.index}` : `seq ${m.seq}`}:`);
    console.log(`  expected ${JSON.stringify(m.expected)}`);
    console.log(`  file     ${JSON.stringify(m.actual)}`);
  }
  console.log(report.ok ? 'VERIFIED' : 'NOT VERIFIED');
}
process.exit(report.ok ? 0 : 1);
