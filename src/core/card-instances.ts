/**
 * A match's card instances by opaque id, for game states: the engine reads them from a Map
 * (`instanceOf`, `instancesOf`); the state's public `cards` field is the same table as a plain
 * record, built the first time something reads it and shared by every later state of the match.
 *
 * Why: instance ids are fresh random strings in every match, and making a hundred of them the
 * property names of an object makes V8 intern each one (a string-table insertion per id). That
 * was most of the cost of a deal, so of creating a match and of replaying one. A Map only hashes
 * them. To every other reader (`state.cards[id]`, spreads, JSON, structuredClone, deep equality)
 * `cards` is an ordinary enumerable field holding a plain, frozen record; it is the last key.
 */
import { idDictionary } from './dictionary.js';

const TABLE = Symbol('card instances');

interface Table<T> {
  /** Null until first read when the table was given as a builder (withLazyInstances). */
  byId: ReadonlyMap<string, T> | null;
  build: (() => ReadonlyMap<string, T>) | null;
  record: Readonly<Record<string, T>> | null;
}

function byIdOf<T>(t: Table<T>): ReadonlyMap<string, T> {
  if (t.byId) return t.byId;
  const byId = t.build!();
  t.byId = byId;
  t.build = null;
  return byId;
}

/** What a state with card instances looks like from outside. */
export interface WithCards<T> {
  readonly cards: Readonly<Record<string, T>>;
}

function recordOf<T>(byId: ReadonlyMap<string, T>): Readonly<Record<string, T>> {
  const r = idDictionary<T>();
  for (const [id, v] of byId) r[id] = v;
  return Object.freeze(r);
}

// One getter for every state, so states built the same way share a hidden class.
const CARDS_FIELD: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: { [TABLE]: Table<unknown> }) {
    const t = this[TABLE];
    return (t.record ??= recordOf(byIdOf(t)));
  },
};

function attach<S extends object>(state: S, table: Table<unknown>): S {
  Object.defineProperty(state, 'cards', CARDS_FIELD);
  Object.defineProperty(state, TABLE, { value: table });
  return state;
}

/** Gives a new state (built without a `cards` key) its card instances. Returns the same object. */
export function withInstances<S extends object, T>(state: S, byId: ReadonlyMap<string, T>): S & WithCards<T> {
  return attach(state, { byId, build: null, record: null }) as S & WithCards<T>;
}

/**
 * withInstances with the table built the first time something reads it (`build` runs once, for
 * this state and every copy of it): a replay that only folds events never reads it, and building
 * it (hashing every fresh id) was a seventh of replaying a match. `build` must give the same
 * table whenever it runs: it may read only what never changes (the opening event's data).
 */
export function withLazyInstances<S extends object, T>(state: S, build: () => ReadonlyMap<string, T>): S & WithCards<T> {
  return attach(state, { byId: null, build, record: null }) as S & WithCards<T>;
}

/** Gives `to` (a copy of `from`, built without a `cards` key) the same card instances. */
export function shareInstances<S extends object, T>(from: WithCards<T>, to: S): S & WithCards<T> {
  const own = (from as { [TABLE]?: Table<T> })[TABLE];
  return attach(to, own ?? { byId: instancesOf(from), build: null, record: null }) as S & WithCards<T>;
}

/** Maps for states whose `cards` is a plain record (built by hand, or parsed from JSON). */
const FROM_RECORDS = new WeakMap<object, ReadonlyMap<string, unknown>>();

/** All instances of the state's match, by id. */
export function instancesOf<T>(state: WithCards<T>): ReadonlyMap<string, T> {
  const own = (state as { [TABLE]?: Table<T> })[TABLE];
  if (own) return byIdOf(own);
  const record = state.cards;
  let byId = FROM_RECORDS.get(record) as ReadonlyMap<string, T> | undefined;
  if (!byId) {
    byId = new Map(Object.entries(record));
    FROM_RECORDS.set(record, byId);
  }
  return byId;
}

/** One instance by id (undefined when the match has none by that id). */
export function instanceOf<T>(state: WithCards<T>, id: string): T | undefined {
  return instancesOf(state).get(id);
}
