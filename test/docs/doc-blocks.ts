/**
 * The fenced code blocks of the project's docs, with what the examples test must do with each.
 * The fence's info string carries a marker after the language:
 *   run=shell     a shell script, run in order with the other shell blocks of the same file against a
 *                 real server, in a shell session of that file's own: variables carry over from the
 *                 file's earlier blocks, never from another file's (a reader pastes one doc's
 *                 blocks into a new shell); each block that calls the API sets API itself
 *   run=graphql   a GraphQL document, posted to /graphql (variables: matchId, version)
 *   run=position  an evons-position/1 JSON position, loaded with the engine's position functions
 *   run=ts        TypeScript run from the repository root
 *   run=install   a shell block of clients/typescript/README.md's "Install", run in order with the
 *                 others in a temporary copy of the repository (clients/typescript/test/install.test.ts)
 *   output        what the previous runnable block of the same file prints (shell: stdout, exact
 *                 after trimming; position: its pending decision, as JSON)
 *   no-run        not run (starting the server, Docker); every other block must carry a marker
 */
import { filesUnder, read } from './rule-ids.js';

export type Kind = 'shell' | 'graphql' | 'position' | 'ts' | 'install' | 'output' | 'no-run' | 'unmarked';

export interface Block {
  file: string;
  line: number; // 1-based line of the opening fence
  lang: string;
  kind: Kind;
  code: string;
  output?: Block;
}

export function docFiles(): string[] {
  // The client's README and the bot's tutorial are run too (after the docs, against the same
  // server; each file's shell blocks in a session of their own).
  return ['README.md', ...filesUnder('docs', /\.md$/).sort(), 'clients/typescript/README.md', 'examples/bot/README.md'];
}

export function blocks(file: string): Block[] {
  const lines = read(file).split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: unclosed code fence`);
    const words = open[2]!.split(/\s+/).filter(Boolean);
    const run = words.find((w) => w.startsWith('run='))?.slice(4);
    const kind: Kind = run
      ? ['shell', 'graphql', 'position', 'ts', 'install'].includes(run)
        ? (run as Kind)
        : 'unmarked'
      : words.includes('output')
        ? 'output'
        : words.includes('no-run')
          ? 'no-run'
          : 'unmarked';
    const block: Block = { file, line: start + 1, lang: open[1]!, kind, code: body.join('\n') };
    if (kind === 'output') {
      const owner = [...out].reverse().find((b) => b.kind !== 'output' && b.kind !== 'no-run' && b.kind !== 'unmarked');
      if (!owner || owner.output) throw new Error(`${file}:${block.line}: an output block must follow a runnable block`);
      owner.output = block;
    }
    out.push(block);
  }
  return out;
}
