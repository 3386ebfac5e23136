/**
 * The two seats as a Zod schema, registered once as the `Seat` component: the service's envelopes
 * and every game's own schemas refer to the same component.
 */
import { z } from 'zod';

export const SeatSchema = z.enum(['p1', 'p2']).meta({ id: 'Seat', description: 'A seat at the table: p1 or p2.' });
