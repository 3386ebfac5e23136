/**
 * The boardgame.io server of the peer benchmark, run as a child process by bench/peers/boardgameio.ts:
 *
 *   BGIO_DIR=<temp install> PORT=<port> [STORAGE=flatfile FLATFILE_DIR=<dir> | STORAGE=postgres PG_URL=<url>] \
 *     node --import tsx bench/peers/boardgameio-server.ts
 *
 * boardgame.io (and immer, node-persist, bgio-postgres) resolve from BGIO_DIR's node_modules,
 * never from the project's; our Evons rules are imported from the repository (bench/peers/boardgameio-game.ts).
 * Listens on 127.0.0.1 only; prints `ready <port>` once it accepts connections.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { evonsGame } from './boardgameio-game.js';

const dir = process.env.BGIO_DIR;
const port = Number(process.env.PORT);
if (!dir || !Number.isInteger(port)) throw new Error('BGIO_DIR and PORT are required');
const requireFromInstall = createRequire(path.join(dir, 'package.json'));

/* eslint-disable @typescript-eslint/no-explicit-any -- boardgame.io's types are not installed here */
const bgioServer: any = requireFromInstall('boardgame.io/server');
const bgioCore: any = requireFromInstall('boardgame.io/core');
const immer: any = requireFromInstall('immer');

const game = evonsGame({ INVALID_MOVE: bgioCore.INVALID_MOVE, ActivePlayers: bgioCore.ActivePlayers, original: immer.original });
function storage(): any {
  switch (process.env.STORAGE) {
    case 'flatfile':
      return new bgioServer.FlatFile({ dir: process.env.FLATFILE_DIR, logging: false });
    case 'postgres':
      // bgio-postgres as published; the second argument is its documented pass-through of Sequelize
      // options. Sequelize logs every SQL statement to stdout by default (4 to 5 per move here):
      // turned off, as anyone running it in production would. The pool stays Sequelize's default.
      return new (requireFromInstall('bgio-postgres').PostgresStore)(process.env.PG_URL, { logging: false });
    default:
      return undefined; // InMemory
  }
}
const db = storage();
const server: any = bgioServer.Server({ games: [game], db, origins: [/^http:\/\/127\.0\.0\.1:\d+$/] });
// koa-socket-2 patched app.listen to the socket.io-enabled http server: bind it to loopback only.
const listen = server.app.listen.bind(server.app);
server.app.listen = (p: number, cb: () => void) => listen(p, '127.0.0.1', cb);
const running = await server.run(port);
/* eslint-enable @typescript-eslint/no-explicit-any */
console.log(`ready ${port}`);

for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.once(sig, () => {
    server.kill(running);
    process.exit(0);
  });
}
