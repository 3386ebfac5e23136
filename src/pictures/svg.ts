/**
 * A few helpers to write SVG as strings: escaping, elements with attributes in the order given,
 * numbers printed the same way everywhere (so the same view gives the same bytes), and text
 * shortened to fit. No DOM, no I/O.
 */

/** Escapes text and attribute values (every string that reaches the SVG goes through here). */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A coordinate or length: at most one decimal, no "-0", no trailing ".0". */
export function num(x: number): string {
  const r = Math.round(x * 10) / 10;
  return Object.is(r, -0) ? '0' : String(r);
}

export type Attrs = Record<string, string | number | null | undefined | false>;

function attrs(a: Attrs): string {
  let out = '';
  for (const [k, v] of Object.entries(a)) {
    if (v === null || v === undefined || v === false) continue;
    out += ` ${k}="${typeof v === 'number' ? num(v) : esc(v)}"`;
  }
  return out;
}

/** An element; children are SVG strings already (escape text with `esc` or use `text`). */
export function el(tag: string, a: Attrs = {}, ...children: string[]): string {
  // A group's children one per line: snapshots and diffs stay readable (whitespace between
  // elements draws nothing; inside <text> it would, so only groups get it).
  const inner =
    tag === 'g'
      ? children
          .filter(Boolean)
          .map((c) => `\n${c}`)
          .join('') + (children.some(Boolean) ? '\n' : '')
      : children.join('');
  return inner === '' ? `<${tag}${attrs(a)}/>` : `<${tag}${attrs(a)}>${inner}</${tag}>`;
}

/** A text element; `content` is plain text (escaped here). */
export function text(x: number, y: number, content: string, a: Attrs = {}): string {
  return el('text', { x, y, ...a }, esc(content));
}

/** `s` cut to at most `max` characters, with an ellipsis when cut. */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(1, max - 1))}…`;
}

/** Words packed into at most `lines` lines of at most `width` characters (the last one clipped). */
export function wrap(s: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const word of s.split(/\s+/).filter(Boolean)) {
    if (cur === '') cur = word;
    else if (cur.length + 1 + word.length <= width) cur += ` ${word}`;
    else {
      out.push(cur);
      cur = word;
    }
  }
  if (cur !== '') out.push(cur);
  if (out.length <= lines) return out.map((l) => clip(l, width));
  const kept = out.slice(0, lines);
  kept[lines - 1] = clip(out.slice(lines - 1).join(' '), width);
  return kept.map((l) => clip(l, width));
}

/** A points list for <polygon>. */
export function points(ps: readonly (readonly [number, number])[]): string {
  return ps.map(([x, y]) => `${num(x)},${num(y)}`).join(' ');
}

/**
 * The document: a fixed-size picture with an accessible name (`<title>`) and description
 * (`<desc>`), a generic font family (no external fonts or images) and a white background.
 */
export function document(o: { width: number; height: number; title: string; desc: string; defs?: string; body: string }): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(o.width)}" height="${num(o.height)}" viewBox="0 0 ${num(o.width)} ${num(o.height)}"` +
    ` role="img" aria-labelledby="board-title board-desc" font-family="sans-serif">` +
    `\n${el('title', { id: 'board-title' }, esc(o.title))}` +
    `\n${el('desc', { id: 'board-desc' }, esc(o.desc))}` +
    (o.defs ? `\n${el('defs', {}, o.defs)}` : '') +
    `\n${el('rect', { width: o.width, height: o.height, fill: '#ffffff' })}` +
    `\n${o.body}` +
    '\n</svg>\n'
  );
}
