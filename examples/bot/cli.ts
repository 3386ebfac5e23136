/**
 * The reference bot: `npm run bot -- <command> [options]` (README.md in this folder).
 *
 *   versus  play matches between two strategies, one seat each (default command)
 *   host    create a match with an open seat, print its id, play it once someone joins
 *   join    take the open seat of a match (--match, or the oldest open match of a game it plays) and play it
 *   feed    sit on a bot account's feed: accept challenges, play every match whose turn it is, until stopped
 *
 * Both games (Evons, UniVersus): a strategy that does not play the match's game (greedy knows only
 * Evons) leaves it to the search at level 8.
 */
import { parseArgs } from 'node:util';
import {
  EvonsClient,
  type DeckSpec,
  type GameId,
  type MatchView,
  type Seat,
  type StarterDeckId,
} from '../../clients/typescript/src/index.js';
import type { Level } from '../../src/ai/index.js';
import { playableGames } from '../../src/service/ai/games.js';
import { localServer } from './local-server.js';
import { listen } from './listen.js';
import { playMatch } from './play.js';
import { level, STRATEGIES } from './strategies.js';
import { gamesOf, perGame, type AnyStrategy } from './strategy.js';

/** Each game's two default starter decks: this bot's, then the opponent's in versus. */
const DECKS: Record<GameId, [string, string]> = { evons: ['starter-storm-shade', 'starter-ember-tide'], universus: ['scouts', 'garrison'] };

const USAGE = `usage: npm run bot -- [versus|host|join|feed] [options]
  --server URL       the Evons service (default: a private in-process server, in-memory database)
  --game ID          ${Object.keys(DECKS).join(' | ')}: the game of versus and host (default evons), of the match
                     join looks for; feed: accept only this game's challenges (default: every game)
  --strategy NAME    this bot's strategy: random | greedy | level:1 … level:8 (default greedy); one that
                     does not play the game (greedy plays only Evons) leaves it to level:8
  --level N          the same as --strategy level:N: the computer player's search (src/ai), 1 to 8
  --opponent NAME    versus: the other seat's strategy (default random)
  --matches N        versus and host: how many matches (default 1); feed: stop after N matches
                     ended (default: run until Ctrl-C or SIGTERM)
  --match ID         join: the match whose open seat to take (default: the oldest open match)
  --deck ID          starter deck for --game (default: Evons starter-storm-shade, the opponent in versus
                     starter-ember-tide; UniVersus scouts and garrison)
  --handle NAME      the handle to play under (default bot-<strategy>; feed: the bot account to register)
  --token TOKEN      a player token (evp_…) to play as that player (or EVONS_PLAYER_TOKEN); feed without
                     one registers a bot account (--handle, default bot-<strategy>-<random>)
  --seed TEXT        seeds the strategies' dice (default: random)
  --quiet            only the summary`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    server: { type: 'string' },
    game: { type: 'string' },
    strategy: { type: 'string' },
    level: { type: 'string' },
    opponent: { type: 'string', default: 'random' },
    matches: { type: 'string' },
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
if (values.help || !['versus', 'host', 'join', 'feed'].includes(command)) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const matches = Number(values.matches ?? 1);
if (!Number.isInteger(matches) || matches < 1) throw new Error(`--matches must be a positive integer, not ${values.matches}`);
const game = (values.game ?? 'evons') as GameId;
if (!(game in DECKS)) throw new Error(`unknown game "${values.game}"; known: ${Object.keys(DECKS).join(', ')}`);
if (values.level !== undefined && values.strategy !== undefined) throw new Error('--level N is --strategy level:N: give one of them');

/**
 * The search's level for a game the named strategy does not play: level 8, the one without slips
 * (lower levels play a random action in a share of their decisions); in UniVersus it takes tens
 * of milliseconds a decision, little beside a request.
 */
const FALLBACK: Level = 8;

/** A strategy by name; for a game it does not play, the search at FALLBACK. */
function strategy(name: string, seed: string): AnyStrategy {
  const make = STRATEGIES[name];
  if (!make) throw new Error(`unknown strategy "${name}"; known: ${Object.keys(STRATEGIES).join(', ')}`);
  return perGame([make(seed), level(FALLBACK)(seed)]);
}

/** The strategy that plays `g` under `name` (greedy in UniVersus is the fallback's): for the printed lines. */
const nameIn = (name: string, g: string): string => (gamesOf(STRATEGIES[name]!('')).includes(g) ? name : `level:${FALLBACK}`);

const say = (line: string) => {
  if (!values.quiet) console.log(line);
};

/** "greedy (p1) beat random (p2) 23–1 in 105 decisions", from the final match. */
function describe(m: MatchView, names: Partial<Record<Seat, string>>): string {
  const name = (s: Seat) => `${names[s] ?? m.seats.find((x) => x.seat === s)?.handle ?? 'opponent'} (${s})`;
  const result = m.gameId === 'evons' ? m.game?.result : null;
  const how = m.outcome?.reason ?? 'finished';
  if (!m.winner)
    return `match ${m.id}: ${name('p1')} and ${name('p2')} drew${result ? ` ${result.scores.p1}–${result.scores.p2}` : ''} (${how})`;
  const loser: Seat = m.winner === 'p1' ? 'p2' : 'p1';
  return `match ${m.id}: ${name(m.winner)} beat ${name(loser)}${result ? ` ${result.scores[m.winner]}–${result.scores[loser]}` : ''} (${how})`;
}

const server = values.server ? null : await localServer();
const baseUrl = values.server ?? server!.baseUrl;
const newClient = () =>
  new EvonsClient({
    baseUrl,
    headers: { 'user-agent': 'evons-reference-bot/0.1' },
    ...(values.token ? { playerToken: values.token } : {}),
  });
const me = values.level !== undefined ? `level:${values.level}` : (values.strategy ?? 'greedy');
strategy(me, ''); // an unknown name stops here, before any match
// A handle has no colon: "bot-level-3".
const handle = values.handle ?? (values.token ? undefined : `bot-${me.replace(':', '-')}`);
/** The deck in `g`: --deck (both seats in versus) for --game, else the game's default; `opponent`: the other seat's in versus. */
const deckOf = (g: string, opponent = false): DeckSpec => ({
  starter: (values.deck && g === game ? values.deck : DECKS[g as GameId][opponent ? 1 : 0]) as StarterDeckId,
});
const deck = deckOf(game);
/** createMatch's game field: absent for Evons (the default). */
const gameField = game === 'evons' ? {} : { game };

try {
  if (command === 'versus') {
    // Both seats played by this process, each through its own client, concurrently: each seat
    // waits for its turn on the live stream, as two separate bots would.
    const opp = values.opponent;
    strategy(opp, '');
    const [meIn, oppIn] = [nameIn(me, game), nameIn(opp, game)];
    let won = 0;
    let drawn = 0;
    for (let i = 0; i < matches; i++) {
      const mine: Seat = i % 2 === 0 ? 'p1' : 'p2'; // alternate seats: the first player has an edge
      const theirs: Seat = mine === 'p1' ? 'p2' : 'p1';
      const a = newClient();
      const b = newClient();
      const created = await a.createMatch({
        ...gameField,
        seat: mine,
        openSeat: true,
        ...(handle ? { handle } : {}),
        decks: { [mine]: deck },
      });
      await b.joinMatch(created.id, { handle: `bot-${opp.replace(':', '-')}`, deck: deckOf(game, true) });
      const [final] = await Promise.all([
        playMatch(a, created.id, strategy(me, `${values.seed}:${i}:a`)),
        playMatch(b, created.id, strategy(opp, `${values.seed}:${i}:b`)),
      ]);
      if (final.winner === mine) won++;
      else if (!final.winner) drawn++;
      say(describe(final, { [mine]: meIn, [theirs]: oppIn }));
    }
    console.log(`${meIn} won ${won} of ${matches} against ${oppIn} (${Math.round((100 * won) / matches)}%), ${drawn} drawn`);
  } else if (command === 'host') {
    for (let i = 0; i < matches; i++) {
      const client = newClient();
      const created = await client.createMatch({ ...gameField, openSeat: true, ...(handle ? { handle } : {}), decks: { p1: deck } });
      // The first line names the match: a script (or a friend) joins it with this id.
      console.log(
        `match ${created.id} waiting for an opponent (join: npm run bot -- join --match ${created.id}${values.server ? ` --server ${baseUrl}` : ''})`,
      );
      const final = await playMatch(client, created.id, strategy(me, `${values.seed}:${i}`));
      console.log(describe(final, { [created.seat]: nameIn(me, game) }));
    }
  } else if (command === 'feed') {
    // A bot account: the token given, or one registered now (shown once: keep it to run as the same account).
    let token = values.token;
    let name = values.handle;
    if (!token) {
      name ??= `bot-${me.replace(':', '-')}-${Math.random().toString(36).slice(2, 8)}`;
      const { data, error } = await newClient().api.POST('/v1/players', { body: { handle: name, bot: true } });
      if (!data) throw new Error(`registering ${name}: ${JSON.stringify(error)}`);
      token = data.token;
      console.log(`registered bot account ${name}; its player token (shown once): ${token}`);
    }
    const client = new EvonsClient({ baseUrl, playerToken: token, headers: { 'user-agent': 'evons-reference-bot/0.1' } });
    const { data: self } = await client.api.GET('/v1/me', { headers: { authorization: `Bearer ${token}` } });
    name = self?.handle ?? name;
    const stop = new AbortController();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
    let played = 0;
    let won = 0;
    await listen(client, {
      // Once its feed is open: a challenge sent after this line reaches it.
      onReady: () =>
        console.log(`bot ${name} on its account feed at ${baseUrl} (challenge it: POST /v1/challenges {"to":"${name}"}); Ctrl-C stops it`),
      strategy: (matchId) => strategy(me, `${values.seed}:${matchId}`),
      // Every game the bot plays, or only --game's.
      decks: Object.fromEntries((values.game ? [game] : playableGames()).map((g) => [g, deckOf(g)])),
      signal: stop.signal,
      log: say,
      onMatchEnd: (m) => {
        played++;
        if (m.winner !== null && m.winner === m.seat) won++;
        if (values.matches !== undefined && played >= matches) stop.abort();
      },
    });
    console.log(`stopped: ${name} played ${played} match${played === 1 ? '' : 'es'} to the end, won ${won}`);
  } else {
    const client = newClient();
    let id = values.match;
    if (!id) {
      // Newest first: the last one listed has waited longest. Rated ones need a player token.
      const open = await client.listMatches({ status: 'waiting', ...(values.game ? { game } : {}), limit: 100 });
      id = open.matches.filter((m) => values.token || !m.rated).at(-1)?.id;
      if (!id) throw new Error(`no ${values.game ? `${values.game} ` : ''}match with an open seat; host one with: npm run bot -- host`);
    }
    // The deck for the match's own game.
    const { gameId } = await client.getMatch(id);
    const joined = await client.joinMatch(id, { ...(handle ? { handle } : {}), deck: deckOf(gameId) });
    say(`joined match ${id} as ${joined.seat}`);
    const final = await playMatch(client, id, strategy(me, values.seed));
    console.log(describe(final, { [joined.seat]: nameIn(me, gameId) }));
  }
} finally {
  await server?.close();
}
