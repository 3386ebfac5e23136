/** What a Match object resolves from: the caller's match view, and the loaded match for fields that need state. */
import type { LoadedMatch, MatchView } from '../service/match/match-service.js';

export interface MatchSource<V extends MatchView = MatchView> {
  mv: V;
  load: () => Promise<LoadedMatch>;
}
