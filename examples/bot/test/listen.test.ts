/**
 * The bot on its account feed, against the real service: a human account challenges a bot
 * account, the bot accepts from its feed (a challenge of another game is declined with the
 * 'variant' reason, answered from the snapshot), and the match is played to the end by the bot
 * (woken by your-turn) against a scripted opponent; a match that already waits for the bot when it
 * connects is played from the snapshot; and the CLI's feed command does the same as a process.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvonsClient, type FeedMessage, type MatchView } from '../../../clients/typescript/src/index.js';
import { serve, type Served } from '../../../clients/typescript/test/server.js';
import { listen } from '../listen.js';
import { playMatch, SeatPlayer } from '../play.js';
import { greedy, level, random } from '../strategies.js';
import { perGame, type AnyStrategy } from '../strategy.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DECK = { starter: 'starter-storm-shade' } as const;
const CORRESPONDENCE = { kind: 'correspondence', daysPerMove: 3 } as const;
let n = 0;
/**
 * Whole matches through the API on a loaded machine: not a speed check, a bound on a hang (as the
 * docs examples' bound, test/docs/examples.test.ts).
 */
const MATCH_TIMEOUT_MS = 240_000;

async function account(baseUrl: string, prefix: string, bot = false) {
  const handle = `${prefix}${++n}`;
  const { data } = await new EvonsClient({ baseUrl }).api.POST('/v1/players', { body: { handle, bot } });
  return { handle, token: data!.token, client: new EvonsClient({ baseUrl, playerToken: data!.token }) };
}

/**
 * `client`'s feed, read from now on into a list (opened before the actions whose entries a test
 * waits for, so none is missed); `find` waits until a message satisfies `pick`.
 */
async function inbox(client: EvonsClient) {
  const ac = new AbortController();
  const got: FeedMessage[] = [];
  let opened!: () => void;
  const ready = new Promise<void>((r) => (opened = r));
  const reading = (async () => {
    for await (const m of client.feed({ signal: ac.signal })) {
      got.push(m);
      if (m.type === 'snapshot') opened();
    }
  })();
  await Promise.race([ready, reading]);
  return {
    async find<T>(pick: (m: FeedMessage) => T | undefined): Promise<T> {
      for (;;) {
        for (const m of got) {
          const hit = pick(m);
          if (hit !== undefined) return hit;
        }
        await Promise.race([reading.then(() => Promise.reject(new Error('the feed ended'))), new Promise((r) => setTimeout(r, 10))]);
      }
    },
    async close() {
      ac.abort();
      await reading;
    },
  };
}

/** A promise settled from outside. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the bot on its account feed', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s?.close();
  });

  it(
    'declines another game and a live clock from its snapshot, accepts a challenge from its feed and plays the match to the end against a scripted opponent',
    async () => {
      const bot = await account(s.baseUrl, 'feedbot', true);
      const human = await account(s.baseUrl, 'human');
      // Sent before the bot connects: it is in the bot's snapshot.
      const other = await human.client.createChallenge({ to: bot.handle, game: 'universus', deck: { starter: 'scouts' } });
      const live = await human.client.createChallenge({
        to: bot.handle,
        timeControl: { kind: 'live', initialSeconds: 300, incrementSeconds: 5 },
      });

      const feed = await inbox(human.client);
      const stop = new AbortController();
      const ended = new Map<string, ReturnType<typeof deferred<MatchView>>>();
      const endOf = (id: string) => ended.get(id) ?? ended.set(id, deferred<MatchView>()).get(id)!;
      const lines: string[] = [];
      const running = listen(bot.client, {
        strategy: (id) => greedy(`feed:${id}`),
        decks: { evons: DECK },
        signal: stop.signal,
        log: (l) => lines.push(l),
        onMatchEnd: (m) => endOf(m.id).resolve(m),
      });
      try {
        const declined = new Map<string, unknown>();
        await feed.find((m) => {
          if (m.type === 'challenge-declined') declined.set(m.data.id, m.data);
          return declined.size === 2 ? true : undefined;
        });
        expect(declined.get(other.id)).toMatchObject({ status: 'declined', declineReason: 'variant' });
        expect(declined.get(live.id)).toMatchObject({ status: 'declined', declineReason: 'tooFast' });

        const c = await human.client.createChallenge({
          to: bot.handle,
          seat: 'p1',
          timeControl: CORRESPONDENCE,
          deck: { starter: 'starter-ember-tide' },
        });
        const matchId = await feed.find((m) => (m.type === 'challenge-accepted' && m.data.id === c.id ? m.data.matchId! : undefined));
        expect((await human.client.getChallenge(c.id)).status).toBe('accepted');

        // The human's side: a scripted opponent on the match's own stream.
        const final = await playMatch(human.client, matchId, random('feed:human'));
        expect(final.status).toBe('finished');
        const botsView = await endOf(matchId).promise;
        expect(botsView).toMatchObject({ id: matchId, status: 'finished', seat: 'p2', winner: final.winner });
        // The bot made decisions in it: the log holds actions of both seats.
        const log = await human.client.eventPage(matchId, { limit: 500 });
        expect(new Set(log.events.map((e) => e.actingSeat).filter(Boolean))).toEqual(new Set(['p1', 'p2']));
        expect(lines).toEqual(
          expect.arrayContaining([
            expect.stringMatching(new RegExp(`^accepted challenge ${c.id} from ${human.handle}: match ${matchId}, playing p2$`)),
          ]),
        );
      } finally {
        stop.abort();
        await running;
        await feed.close();
      }
    },
    MATCH_TIMEOUT_MS,
  );

  it(
    'with a deck for each game, accepts a UniVersus challenge and plays it to the end (the search, as greedy plays only Evons)',
    async () => {
      const bot = await account(s.baseUrl, 'feedbot', true);
      const human = await account(s.baseUrl, 'human');
      const feed = await inbox(human.client);
      const stop = new AbortController();
      const done = deferred<MatchView>();
      const running = listen(bot.client, {
        strategy: (id) => perGame([greedy(`uv:${id}`), level(1)(`uv:${id}`)]),
        decks: { evons: DECK, universus: { starter: 'garrison' as const } },
        signal: stop.signal,
        onMatchEnd: (m) => done.resolve(m),
      });
      try {
        const c = await human.client.createChallenge({
          to: bot.handle,
          game: 'universus',
          seat: 'p1',
          timeControl: CORRESPONDENCE,
          deck: { starter: 'scouts' },
        });
        const matchId = await feed.find((m) => (m.type === 'challenge-accepted' && m.data.id === c.id ? m.data.matchId! : undefined));
        // The scripted opponent: the first legal action that is not a pass, else the first.
        const scripted: AnyStrategy = {
          name: 'scripted',
          games: ['universus'],
          choose: ({ legal }) => legal.find((a) => a.type !== 'PassCombat') ?? legal[0]!,
        };
        const final = await playMatch(human.client, matchId, scripted);
        expect(final).toMatchObject({ gameId: 'universus', status: 'finished' });
        const botsView = await done.promise;
        expect(botsView).toMatchObject({ id: matchId, seat: 'p2', winner: final.winner });
        const log = await human.client.eventPage(matchId, { limit: 500 });
        expect(log.events.some((e) => e.actingSeat === 'p2')).toBe(true);
      } finally {
        stop.abort();
        await running;
        await feed.close();
      }
    },
    MATCH_TIMEOUT_MS,
  );

  it(
    'plays a match that waits for it when it connects (the snapshot), to the end',
    async () => {
      const bot = await account(s.baseUrl, 'feedbot', true);
      const human = await account(s.baseUrl, 'human');
      // A seek pairing starts the match before the bot listens; the human plays until it is the bot's turn.
      await bot.client.postSeek({ timeControl: CORRESPONDENCE, deck: DECK });
      const paired = await human.client.postSeek({ timeControl: CORRESPONDENCE, deck: { starter: 'starter-ember-tide' } });
      const matchId = paired.matchId!;
      const humanSeat = new SeatPlayer(human.client, matchId, random('snap:human'));
      const waiting = await humanSeat.playWhileMine();
      expect(waiting.game?.pending?.seat).not.toBe(waiting.seat);

      const stop = new AbortController();
      const done = deferred<MatchView>();
      const running = listen(bot.client, {
        strategy: (id) => random(`snap:${id}`),
        decks: { evons: DECK },
        signal: stop.signal,
        onMatchEnd: (m) => m.id === matchId && done.resolve(m),
      });
      try {
        const [final, botsView] = await Promise.all([playMatch(human.client, matchId, random('snap:human2')), done.promise]);
        expect(final.status).toBe('finished');
        expect(botsView.winner).toBe(final.winner);
      } finally {
        stop.abort();
        await running;
      }
    },
    MATCH_TIMEOUT_MS,
  );

  it(
    'CLI: feed registers a bot account, accepts a challenge, plays it out, and stops on SIGTERM',
    async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'examples/bot/cli.ts', 'feed', '--server', s.baseUrl, '--strategy', 'random', '--seed', 'cli'],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      const seen = (re: RegExp) =>
        new Promise<RegExpExecArray>((resolve, reject) => {
          const check = () => {
            const m = re.exec(stdout);
            if (m) resolve(m);
          };
          child.stdout.on('data', check);
          child.on('close', () => reject(new Error(`the bot exited before ${re}:\n${stdout}\n${stderr}`)));
          check();
        });
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      try {
        const name = (await seen(/^bot (\S+) on its account feed/m))[1]!;
        expect(stdout).toMatch(new RegExp(`^registered bot account ${name}; its player token \\(shown once\\): evp_`, 'm'));
        expect(
          (await new EvonsClient({ baseUrl: s.baseUrl }).api.GET('/v1/players/{handle}', { params: { path: { handle: name } } })).data?.bot,
        ).toBe(true);

        const human = await account(s.baseUrl, 'human');
        const feed = await inbox(human.client);
        const c = await human.client.createChallenge({ to: name, deck: { starter: 'starter-ember-tide' } });
        const matchId = await feed.find((m) => (m.type === 'challenge-accepted' && m.data.id === c.id ? m.data.matchId! : undefined));
        await feed.close();
        const final = await playMatch(human.client, matchId, random('cli:human'));
        expect(final.status).toBe('finished');
        await seen(new RegExp(`^match ${matchId} over: (won|lost|drawn) `, 'm'));
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited, stderr).toBe(0);
      expect(stdout).toMatch(/^stopped: \S+ played 1 match to the end, won [01]$/m);
    },
    MATCH_TIMEOUT_MS,
  );
});
