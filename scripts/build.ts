/**
 * The production build (`npm run build`): src/ compiled to JavaScript with source maps, and the
 * watch page's plain files (script modules, stylesheet, and each game's watch.js in its folder) and
 * the tournament page's stylesheet copied beside the compiled code.
 *
 *   tsx scripts/build.ts               → dist/
 *   tsx scripts/build.ts --out DIR     → DIR (the tests build a throw-away copy of the image's layout)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function build(outDir: string): void {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', outDir], { cwd: root, stdio: 'inherit' });
  for (const dir of ['watch', 'tournament-page']) {
    fs.cpSync(path.join(root, 'src/http', dir), path.join(outDir, 'http', dir), { recursive: true, filter: (f) => !f.endsWith('.ts') });
  }
  for (const game of fs.readdirSync(path.join(root, 'src/games'), { withFileTypes: true })) {
    const script = path.join(root, 'src/games', game.name, 'watch.js');
    if (game.isDirectory() && fs.existsSync(script)) fs.copyFileSync(script, path.join(outDir, 'games', game.name, 'watch.js'));
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  build(path.resolve(i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : path.join(root, 'dist')));
}
