/** Rule IDs as the code, the tests and the docs write them, normalised to the form docs/rules.md defines. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

// `R-AREA-n`, `R-AB-ABILITY-n` (also cited without the `R-`), an optional sub-item letter; `OQ-n`.
const ID = /\b(?:R-)?(AB-[A-Z]+-\d+)([a-z]?)\b|\bR-([A-Z]+-\d+)([a-z]?)\b|\b(OQ-\d+)\b/g;

export interface Citation {
  id: string; // normalised: R-CONF-5, R-AB-MAG-11, OQ-4
  sub: string; // sub-item letter ('' if none): R-ACT-11a → 'a'
  file: string;
}

export function citations(text: string, file: string): Citation[] {
  const out: Citation[] = [];
  for (const m of text.matchAll(ID)) {
    if (m[1]) out.push({ id: `R-${m[1]}`, sub: m[2] ?? '', file });
    else if (m[3]) out.push({ id: `R-${m[3]}`, sub: m[4] ?? '', file });
    else out.push({ id: m[5]!, sub: '', file });
  }
  return out;
}

export function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'generated') continue;
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...filesUnder(path, ext));
    else if (ext.test(name)) out.push(path);
  }
  return out;
}

export function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

export const rel = (p: string) => relative(ROOT, join(ROOT, p));

/** IDs docs/rules.md defines: `- **ID** …` list items (with their text) and `| OQ-n |` table rows. */
export function definitions(markdown: string): Map<string, string> {
  const defs = new Map<string, string>();
  const lines = markdown.split('\n');
  lines.forEach((line, i) => {
    const item = /^- \*\*(R-[A-Z]+(?:-[A-Z]+)?-\d+)\*\*/.exec(line);
    const row = /^\| (OQ-\d+) \|/.exec(line);
    const id = item?.[1] ?? row?.[1];
    if (!id) return;
    if (defs.has(id)) throw new Error(`docs/rules.md defines ${id} twice`);
    // A list item's text runs on over its indented continuation lines.
    let text = line;
    for (let j = i + 1; item && j < lines.length && /^ {2,}\S/.test(lines[j]!); j++) text += ` ${lines[j]!.trim()}`;
    defs.set(id, text);
  });
  return defs;
}
