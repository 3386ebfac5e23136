/** UniVersus as a hosted game: its engine and everything else of its own (see ../game-module.ts). */
import { defineGame } from '../game-module.js';
import { configSchema } from './config.js';
import { UniversusEventSchema } from './event-schema.js';
import { universusGraphql } from './graphql.js';
import { universus } from './index.js';
import { renderUniversusBoard } from './picture.js';
import { positionSchema } from './position.js';
import { UniversusActionSchema, UniversusPendingSchema, UniversusViewSchema } from './view-schema.js';

export const universusGame = defineGame({
  ruleset: universus,
  displayName: 'UniVersus',
  typePrefix: 'UniVersus',
  schemas: {
    settings: configSchema.meta({
      id: 'UniVersusSettings',
      description:
        'UniVersus engine settings: each reading of a gap in the rules is a named setting; every field has a default (see docs/universus.md).',
    }),
    position: positionSchema,
    view: UniversusViewSchema,
    pending: UniversusPendingSchema,
    action: UniversusActionSchema,
    event: UniversusEventSchema,
  },
  picture: renderUniversusBoard,
  docs: 'docs/universus.md',
  watch: {
    preview: (g, seat) => ({
      turn: g.turnNumber,
      score: `${seat('p1')} ${g.players.p1.health} health – ${g.players.p2.health} health ${seat('p2')}`,
      toMove: g.pending?.seat ?? null,
    }),
    script: new URL('./watch.js', import.meta.url),
  },
  graphql: universusGraphql,
});
