/**
 * Copy-on-write between a game state and its copies. A game's cloneState shares the state's big
 * parts (card lists, board cards) with the copy, and its evolve copies one the first time it
 * changes it: an action touches a few of them, and copying all of them for every action was a
 * third of everything the engines allocated.
 *
 * What evolve may change in place is an `Owned`: undefined for a state of one's own (fresh or
 * replayed: it shares nothing), otherwise the set of parts already copied for this draft. A
 * transaction over a copy starts with an empty set; so does evolving a state handed out by
 * someone else, which may share any of its parts.
 */
export type Owned = Set<object> | undefined;

const CALLERS = new WeakMap<object, Set<object>>();

/**
 * The parts of `s` a caller outside the engine's transactions may change in place (none until
 * copied), kept per state so that folding several events into one state copies each part once.
 */
export function ownedByCaller(s: object): Set<object> {
  let owned = CALLERS.get(s);
  if (!owned) {
    owned = new Set();
    CALLERS.set(s, owned);
  }
  return owned;
}

/** `holder[key]`, a list to change: copied first (and put back in `holder`) unless owned. */
export function ownList<K extends string, T>(owned: Owned, holder: Record<K, T[]>, key: K): T[] {
  const list = holder[key];
  if (!owned || owned.has(list)) return list;
  const copy = list.slice();
  holder[key] = copy;
  owned.add(copy);
  return copy;
}

/** `list[i]`, an object to change: copied first (and put back in `list`) unless owned. */
export function ownItem<T extends object>(owned: Owned, list: (T | null)[], i: number): T {
  const item = list[i]!;
  if (!owned || owned.has(item)) return item;
  const copy = { ...item };
  list[i] = copy;
  owned.add(copy);
  return copy;
}
