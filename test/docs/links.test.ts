/**
 * Every relative link of the project's docs points to a file (or folder) of the repository, and a
 * link with an anchor to a heading (or an `<a id>`) of the Markdown file it names, as GitHub
 * renders it; none leaves the repository (docs never point into ../shared/ or elsewhere outside).
 * Links inside code (fenced blocks, inline code) are not links and are left alone.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, filesUnder, read } from './rule-ids.js';

const DOCS = [
  'README.md',
  'bench/README.md',
  'bench/peers/README.md',
  'clients/typescript/README.md',
  'examples/bot/README.md',
  'CHANGELOG.md',
  ...filesUnder('docs', /\.md$/).sort(),
];

/** The text outside fenced code blocks, with inline code spans blanked (line numbers kept). */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/(`+)[^`]*?\1/g, '');
  });
}

interface Link {
  file: string;
  line: number;
  target: string;
}

function links(file: string): Link[] {
  const out: Link[] = [];
  prose(read(file)).forEach((text, i) => {
    const found = [
      ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g)].map((m) => m[1]!),
      ...[...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!),
    ];
    for (const target of found) out.push({ file, line: i + 1, target });
  });
  return out;
}

const external = (t: string) => /^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith('//');

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
export function anchors(file: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of read(file).split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(m[1]!);
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const text = h[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim();
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

describe('relative links in the docs', () => {
  it('finds the docs and their links (an empty list cannot pass silently)', () => {
    expect(DOCS.length).toBeGreaterThanOrEqual(10);
    expect(links('README.md').filter((l) => !external(l.target)).length).toBeGreaterThanOrEqual(15);
  });

  it('computes the anchors GitHub does', () => {
    expect(anchors('docs/api.md')).toContain('live-updates-server-sent-events-and-graphql-subscriptions');
    expect(anchors('docs/api.md')).toContain('board-pictures-svg-png');
    expect(anchors('docs/api.md')).toContain('limits');
    expect(anchors('docs/benchmarks.md')).toContain('the-computers-levels');
  });

  for (const file of DOCS) {
    it(`${file}: every relative link names an existing file, and an anchor of it`, () => {
      const broken: string[] = [];
      for (const l of links(file)) {
        if (external(l.target)) continue;
        const [pathPart, anchor] = l.target.split('#', 2) as [string, string | undefined];
        const path = decodeURIComponent(pathPart);
        const resolved = path === '' ? join(ROOT, file) : normalize(join(ROOT, dirname(file), path));
        const where = `${l.file}:${l.line} → ${l.target}`;
        if (path.startsWith('/') || relative(ROOT, resolved).startsWith('..')) {
          broken.push(`${where}: outside the repository`);
          continue;
        }
        if (!existsSync(resolved)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile()) {
          const target = relative(ROOT, resolved);
          if (!anchors(target).has(decodeURIComponent(anchor))) broken.push(`${where}: no heading #${anchor} in ${target}`);
        }
      }
      expect(broken).toEqual([]);
    });
  }

  it('no doc points into ../shared/', () => {
    expect(DOCS.filter((f) => read(f).includes('../shared/'))).toEqual([]);
  });
});
