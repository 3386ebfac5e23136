/**
 * The games catalogue, read from the registry: what each hosted game is (rules and engine
 * versions, card set, starter decks, position format). Everything here is public data.
 */
import type { AnyRuleset } from '../../core/ruleset.js';
import { GAME_IDS, rulesetOf } from '../../games/registry.js';
import { problems } from '../errors.js';

export interface GameInfo {
  id: string;
  name: string;
  rulesVersion: string;
  engineVersion: string;
  positionFormat: string;
  cardSet: { id: string; name: string; hash: string; placeholder: boolean; cardCount: number };
  starterDecks: { id: string; name: string }[];
}

function info(r: AnyRuleset): GameInfo {
  return {
    id: r.id,
    name: r.name,
    rulesVersion: r.rulesVersion,
    engineVersion: r.engineVersion,
    positionFormat: r.positions.format,
    cardSet: {
      id: r.cardSet.id,
      name: r.cardSet.name,
      hash: r.cardSet.hash,
      placeholder: r.cardSet.placeholder,
      cardCount: r.cardSet.cards.length,
    },
    starterDecks: r.starterDecks.map((d) => ({ id: d.id, name: d.name })),
  };
}

export function listGames(): GameInfo[] {
  return GAME_IDS.map((id) => info(rulesetOf(id)!));
}

/** The ruleset of a hosted game, or a 404 game-not-found. */
export function gameRuleset(id: string): AnyRuleset {
  const r = rulesetOf(id);
  if (!r) throw problems.gameNotFound(id);
  return r;
}
