/**
 * The reference bot: `npm run bot -- <command> [options]` (README.md in this folder).
 *
 *   versus  play matches between two strategies, one seat each (default command)
 *   host    create a match with an open seat, print its id, play it once someone joins
 *   join    take the open seat of a match (--match, or the oldest open Evons match) and play it
 */
import { parseArgs } from 'node:util';
import { EvonsClient, type MatchView, type Seat } from '../../clients/typescript/src/index.js';
import { localServer } from './local-server.js';
import { playMatch } from './play.js';
import { STRATEGIES } from './strategies.js';
import type { Strategy } from './strategy.js';

const USAGE = `usage: npm run bot -- [versus|host|join] [options]
  --server URL       the Evons service (default: a private in-process server, in-memory database)
  --strategy NAME    this bot's strategy: ${Object.keys(STRATEGIES).join(' | ')} (default greedy)
  --opponent NAME    versus: the other seat's strategy (default random)
  --matches N        versus and host: how many matches (default 1)
  --match ID         join: the match whose open seat to take (default: the oldest open Evons match)
  --deck ID          starter deck (default starter-storm-shade; the opponent in versus: starter-ember-tide)
  --handle NAME      the handle to play under (default bot-<strategy>)
  --token TOKEN      a player token (evp_…) to play as that player (or EVONS_PLAYER_TOKEN)
  --seed TEXT        seeds the strategies' dice (default: random)
  --quiet            only the summary`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    server: { type: 'string' },
    strategy: { type: 'string', default: 'greedy' },
    opponent: { type: 'string', default: 'random' },
    matches: { type: 'string', default: '1' },
    match: { type: 'string' },
    deck: { type: 'string' },
    handle: { type: 'string' },
    token: { type: 'string', default: process.env.EVONS_PLAYER_TOKEN },
    seed: { type: 'string', default: Math.random().toString(36).slice(2) },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

const command = positionals[0] ?? 'versus';
if (values.help || !['versus', 'host', 'join'].includes(command)) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const matches = Number(values.matches);
if (!Number.isInteger(matches) || matches < 1) throw new Error(`--matches must be a positive integer, not ${values.matches}`);

function strategy(name: string, seed: string): Strategy {
  const make = STRATEGIES[name];
  if (!make) throw new Error(`unknown strategy "${name}"; known: ${Object.keys(STRATEGIES).join(', ')}`);
  return make(seed);
}

const say = (line: string) => {
  if (!values.quiet) console.log(line);
};

/** "greedy (p1) beat random (p2) 23–1 in 105 decisions", from the final match. */
function describe(m: MatchView, names: Partial<Record<Seat, string>>): string {
  const name = (s: Seat) => `${names[s] ?? m.seats.find((x) => x.seat === s)?.handle ?? 'opponent'} (${s})`;
  const result = m.gameId === 'evons' ? m.game?.result : null;
  const how = m.outcome?.reason ?? 'finished';
  if (!m.winner) return `match ${m.id}: ${name('p1')} and ${name('p2')} drew${result ? ` ${result.scores.p1}–${result.scores.p2}` : ''} (${how})`;
  const loser: Seat = m.winner === 'p1' ? 'p2' : 'p1';
  return `match ${m.id}: ${name(m.winner)} beat ${name(loser)}${result ? ` ${result.scores[m.winner]}–${result.scores[loser]}` : ''} (${how})`;
}

const server = values.server ? null : await localServer();
const baseUrl = values.server ?? server!.baseUrl;
const newClient = () => new EvonsClient({ baseUrl, headers: { 'user-agent': 'evons-reference-bot/0.1' }, ...(values.token ? { playerToken: values.token } : {}) });
const me = values.strategy;
const handle = values.handle ?? (values.token ? undefined : `bot-${me}`);
const deck = { starter: values.deck ?? 'starter-storm-shade' };

try {
  if (command === 'versus') {
    // Both seats played by this process, each through its own client, concurrently: each seat
    // waits for its turn on the live stream, as two separate bots would.
    const opp = values.opponent;
    let won = 0;
    let drawn = 0;
    for (let i = 0; i < matches; i++) {
      const mine: Seat = i % 2 === 0 ? 'p1' : 'p2'; // alternate seats: the first player has an edge
      const theirs: Seat = mine === 'p1' ? 'p2' : 'p1';
      const a = newClient();
      const b = newClient();
      const created = await a.createMatch({
        seat: mine,
        openSeat: true,
        ...(handle ? { handle } : {}),
        decks: { [mine]: deck },
      });
      await b.joinMatch(created.id, { handle: `bot-${opp}`, deck: { starter: values.deck ? values.deck : 'starter-ember-tide' } });
      const [final] = await Promise.all([
        playMatch(a, created.id, strategy(me, `${values.seed}:${i}:a`)),
        playMatch(b, created.id, strategy(opp, `${values.seed}:${i}:b`)),
      ]);
      if (final.winner === mine) won++;
      else if (!final.winner) drawn++;
      say(describe(final, { [mine]: me, [theirs]: opp }));
    }
    console.log(`${me} won ${won} of ${matches} against ${opp} (${Math.round((100 * won) / matches)}%), ${drawn} drawn`);
  } else if (command === 'host') {
    for (let i = 0; i < matches; i++) {
      const client = newClient();
      const created = await client.createMatch({ openSeat: true, ...(handle ? { handle } : {}), decks: { p1: deck } });
      // The first line names the match: a script (or a friend) joins it with this id.
      console.log(`match ${created.id} waiting for an opponent (join: npm run bot -- join --match ${created.id}${values.server ? ` --server ${baseUrl}` : ''})`);
      const final = await playMatch(client, created.id, strategy(me, `${values.seed}:${i}`));
      console.log(describe(final, { [created.seat]: me }));
    }
  } else {
    const client = newClient();
    let id = values.match;
    if (!id) {
      // Newest first: the last one listed has waited longest. Rated ones need a player token.
      const open = await client.listMatches({ status: 'waiting', game: 'evons', limit: 100 });
      id = open.matches.filter((m) => values.token || !m.rated).at(-1)?.id;
      if (!id) throw new Error('no Evons match with an open seat; host one with: npm run bot -- host');
    }
    const joined = await client.joinMatch(id, { ...(handle ? { handle } : {}), deck });
    say(`joined match ${id} as ${joined.seat}`);
    const final = await playMatch(client, id, strategy(me, values.seed));
    console.log(describe(final, { [joined.seat]: me }));
  }
} finally {
  await server?.close();
}
