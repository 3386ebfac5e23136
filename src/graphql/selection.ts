/**
 * What a query asks of the field being resolved, read from its selection set: a resolver can skip
 * building what nobody selected (an action's whole match view, when only its version and events
 * are asked for).
 */
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** Whether the field being resolved selects `name`, directly or through inline or named fragments. */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined): boolean =>
    set !== undefined &&
    set.selections.some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return walk(s.selectionSet);
      if (seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      return walk(info.fragments[s.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((n) => walk(n.selectionSet));
}
