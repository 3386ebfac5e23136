/**
 * docs/rules.md is the project's rules reference: every rule ID cited in src/ or test/ (rule
 * comments, test names) must be defined there, and every ID the other docs mention must resolve
 * to it. The project's docs must not send readers to files outside the repository.
 */
import { describe, expect, it } from 'vitest';
import { citations, definitions, filesUnder, read, type Citation } from './rule-ids.js';

const rules = read('docs/rules.md');
const defs = definitions(rules);
const code = [...filesUnder('src', /\.ts$/), ...filesUnder('test', /\.ts$/)];
const cited: Citation[] = code.flatMap((f) => citations(read(f), f));
const docs = ['README.md', ...filesUnder('docs', /\.md$/)];

describe('docs/rules.md', () => {
  it('defines rule IDs in every area and the open questions', () => {
    expect(defs.size).toBeGreaterThan(150);
    for (const area of ['BOARD', 'CARD', 'ACT', 'CONF', 'FLIP', 'CHAIN', 'AB-SHK', 'AB-MAG', 'END']) {
      expect(
        [...defs.keys()].some((id) => id.startsWith(`R-${area}-`)),
        area,
      ).toBe(true);
    }
    expect(defs.has('OQ-1') && defs.has('OQ-35')).toBe(true);
  });

  it('defines every rule ID cited in src/ and test/', () => {
    expect(cited.length).toBeGreaterThan(300); // the scan found the citations
    const missing = [...new Set(cited.filter((c) => !defs.has(c.id)).map((c) => `${c.id} (${c.file})`))];
    expect(missing).toEqual([]);
  });

  it('defines the sub-items cited with a letter (R-ACT-11a → item (a) of R-ACT-11)', () => {
    const bad = cited.filter((c) => c.sub && defs.has(c.id) && !defs.get(c.id)!.includes(`(${c.sub})`));
    expect(bad.map((c) => `${c.id}${c.sub} (${c.file})`)).toEqual([]);
  });

  it('every rule ID the docs and README mention is defined in docs/rules.md', () => {
    const dangling = docs.flatMap((f) => citations(read(f), f)).filter((c) => !defs.has(c.id));
    expect(dangling.map((c) => `${c.id} (${c.file})`)).toEqual([]);
  });

  it('links to rules-decisions.md, which links back; no doc links outside the repository tree', () => {
    expect(rules).toMatch(/\]\(rules-decisions\.md\)/);
    expect(read('docs/rules-decisions.md')).toMatch(/\]\(rules\.md(#[^)]*)?\)/);
    expect(read('README.md')).toMatch(/\]\(docs\/rules\.md\)/);
    for (const f of docs) {
      const text = read(f);
      expect(text, f).not.toMatch(/EVONS_RULES|shared\/rules|\]\(\.\.\/\.\.\//);
    }
  });

  it('reports the defined rules that no test or code cites (information, not a failure)', () => {
    const citedIds = new Set(cited.map((c) => c.id));
    const uncited = [...defs.keys()].filter((id) => !citedIds.has(id));
    console.info(`[rules reference] ${defs.size} IDs defined, ${citedIds.size} cited; not cited yet: ${uncited.join(' ')}`);
    expect(uncited.length).toBeLessThan(defs.size);
  });
});
