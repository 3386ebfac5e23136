/** Evons as a hosted game: its engine and everything else of its own (see ../game-module.ts). */
import { z } from 'zod';
import { defineGame } from '../game-module.js';
import { ActionSchema } from './actions.js';
import { RulesConfigSchema } from './config.js';
import { EvonsEventSchema, EvonsPendingSchema } from './event-schema.js';
import { evonsGraphql } from './graphql.js';
import { renderEvonsBoard } from './picture.js';
import { PositionSchema } from './position.js';
import { evons } from './ruleset.js';
import { GameViewSchema } from './view-schema.js';

type Decision = (typeof ActionSchema.options)[number];
/** Evons' decisions. Its engine also takes `resign`: the API lists that once, with the match's actions. */
const decisions = ActionSchema.options.filter((o) => o.shape.type.value !== 'resign') as [Decision, ...Decision[]];
export const EvonsActionSchema = z
  .discriminatedUnion('type', decisions)
  .meta({ id: 'EvonsAction', description: 'One Evons decision (discriminated by type). Resigning is a MatchAction.' });

export const evonsGame = defineGame({
  ruleset: evons,
  displayName: 'Evons',
  typePrefix: 'Evons',
  schemas: {
    settings: RulesConfigSchema,
    position: PositionSchema,
    view: GameViewSchema,
    pending: EvonsPendingSchema,
    action: EvonsActionSchema,
    event: EvonsEventSchema,
  },
  picture: renderEvonsBoard,
  docs: 'docs/rules.md',
  watch: {
    preview: (g, seat) => ({
      turn: g.turn,
      score: `${seat('p1')} ${g.seats.p1.score} – ${g.seats.p2.score} ${seat('p2')}`,
      toMove: g.pending?.seat ?? null,
    }),
    script: new URL('./watch.js', import.meta.url),
  },
  graphql: evonsGraphql,
});
