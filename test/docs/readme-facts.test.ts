/**
 * What docs/testing.md (and the README's summary of it) says about running the tests matches the
 * test harness: the PostgreSQL suites' variable and default URL (test/persistence/pg-helper.ts),
 * and that they skip with a printed reason (test/persistence/backends.ts) except under CI, where
 * they fail; where the browser
 * suites look for Chromium (test/browser/fixture.ts) and what they do without it.
 */
import { describe, expect, it } from 'vitest';
import { limitForLevel } from '../../src/service/ai/settings.js';
import { read } from './rule-ids.js';

const readme = read('README.md');
const testing = read('docs/testing.md');
const benchmarks = read('docs/benchmarks.md');

describe('docs/testing.md and the README on npm test, PostgreSQL and Chromium', () => {
  it('names TEST_DATABASE_URL with the default the harness uses', () => {
    const helper = read('test/persistence/pg-helper.ts');
    const def = /process\.env\.TEST_DATABASE_URL \|\| '([^']+)'/.exec(helper)?.[1];
    expect(def, 'default URL in pg-helper.ts').toBeTruthy();
    for (const doc of [testing, readme]) {
      expect(doc).toContain('`TEST_DATABASE_URL`');
      expect(doc).toContain(`\`${def}\``);
    }
  });

  it('says the PostgreSQL suites are skipped with the reason the harness prints', () => {
    const backends = read('test/persistence/backends.ts');
    const printed = /console\.warn\(`(\[[^\]]+\] skipping PostgreSQL suites)/.exec(backends)?.[1];
    expect(printed, 'skip message in backends.ts').toBeTruthy();
    expect(testing).toContain(printed!);
    expect(readme).toMatch(/npm test[^\n]*\n?[^\n]*PostgreSQL/);
    expect(readme).toMatch(/skipping\s+them\s+with\s+a\s+printed\s+reason/);
  });

  it('says the PostgreSQL suites fail under CI, as the harness makes them', () => {
    const helper = read('test/persistence/pg-helper.ts');
    expect(helper, 'pg-helper.ts decides on process.env.CI').toContain('POSTGRES_REQUIRED = Boolean(process.env.CI)');
    expect(testing).toMatch(/skipping PostgreSQL suites[^]*`CI` set they run and fail/);
    expect(readme).toMatch(/under `CI` they fail instead/);
  });

  it('says the browser suites need Chromium where the harness looks, skip without it and fail under CI', () => {
    const fixture = read('test/browser/fixture.ts');
    const path = /process\.env\.CHROMIUM_PATH \|\| '([^']+)'/.exec(fixture)?.[1];
    expect(path, 'default Chromium path in test/browser/fixture.ts').toBeTruthy();
    const section = testing.slice(
      testing.indexOf('## What `npm test` runs'),
      testing.indexOf('\n## ', testing.indexOf('## What `npm test` runs') + 1),
    );
    expect(section).toContain(`\`${path}\``);
    expect(section).toContain('`CHROMIUM_PATH`');
    expect(section).toMatch(/browser suites[^]*skipped[^]*`CI` set[^]*fail/);
    expect(readme).toMatch(/browser\s+suites\s+need\s+Chromium\s+\(skipped\s+without\s+it,\s+except\s+under\s+`CI`\)/);
  });

  it('names the test database prefix the harness uses', () => {
    const helper = read('test/persistence/pg-helper.ts');
    const prefix = /: '([a-z0-9_]+)';/.exec(helper)?.[1];
    expect(prefix).toBeTruthy();
    expect(testing).toContain(`\`${prefix}…\``);
    expect(testing).toContain('`TEST_DB_PREFIX`');
  });
});

describe('the computer player, as documented', () => {
  it("docs/api.md states a decision's time limit as limitForLevel computes it", () => {
    const api = read('docs/api.md');
    const base = limitForLevel(0) / 1000;
    const per = (limitForLevel(1) - limitForLevel(0)) / 1000;
    expect(api).toContain(
      `time limit of ${base} s + ${per} s per level (${limitForLevel(1) / 1000} s at level 1, ${limitForLevel(8) / 1000} s at`,
    );
  });

  it("docs/benchmarks.md's ladder says which random player each figure is against", () => {
    expect(benchmarks).toContain("beat UniVersus's random player 48 %");
    expect(benchmarks).toMatch(/"Random" is the game's own random player \(`Ruleset\.randomPlayer`/);
    expect(benchmarks).toMatch(/level 1 against a uniformly random legal action \(`L1 v uniform`\)/);
    expect(benchmarks).toContain('AI_PAIRINGS=L1-random,L1-uniform npm run bench:ai');
  });
});
