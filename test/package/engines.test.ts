/**
 * Every installed package must run on every Node version the project claims (package.json
 * "engines"), so `npm install` prints no EBADENGINE warning and the claim stays honest.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines?: { node?: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[] }>;
};

describe('engines', () => {
  const range = pkg.engines?.node ?? '';

  it('package.json states a valid Node range that includes the Node running the tests', () => {
    expect(semver.validRange(range)).not.toBeNull();
    expect(semver.satisfies(process.version, range)).toBe(true);
  });

  it('no package in package-lock.json excludes any Node version of that range', () => {
    const entries = Object.entries(lock.packages).filter(([path]) => path !== '');
    expect(entries.length).toBeGreaterThan(100); // the lockfile was read, not an empty stub
    const bad: string[] = [];
    for (const [path, p] of entries) {
      // Old lockfiles may hold engines as an array of "node >=x" strings.
      const node = Array.isArray(p.engines) ? p.engines.find((e) => e.startsWith('node '))?.slice(5) : p.engines?.node;
      if (!node) continue;
      if (semver.validRange(node) === null || !semver.subset(range, node)) bad.push(`${path}@${p.version}: node ${node}`);
    }
    expect(bad, `packages whose engines.node does not cover "${range}"`).toEqual([]);
  });
});
