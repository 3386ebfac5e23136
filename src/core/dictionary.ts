/**
 * An empty plain object for use as a dictionary keyed by random ids (a match's card instances).
 * V8 gives an ordinary object a new hidden class for each new key, and instance ids are new in
 * every match, so building a deal's table that way was a large share of creating and of
 * replaying a match. Deleting a property other than the last one added switches the object to
 * hash-table storage from the start. Observably it is just `{}` (same prototype, same key order).
 */
export function idDictionary<T>(): Record<string, T> {
  const o: Record<string, unknown> = { first: 0, second: 0 };
  delete o.first;
  delete o.second;
  return o as Record<string, T>;
}
