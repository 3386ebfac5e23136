/** Small in-place list operations shared by the games' evolvers. */

/**
 * Removes `list[i]` in place, as `list.splice(i, 1)` would, without the array splice returns:
 * the evolvers remove a card from a list for most events.
 */
export function removeAt<T>(list: T[], i: number): void {
  if (i === 0) {
    list.shift();
    return;
  }
  for (let k = i + 1; k < list.length; k++) list[k - 1] = list[k]!;
  // pop, not `length -= 1`: a length store is a call into the runtime, pop is inlined.
  list.pop();
}
