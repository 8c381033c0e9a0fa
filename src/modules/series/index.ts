import { defineModule } from '../../kernel/module.js';
import { seriesResolvers } from './series.resolvers.js';
import { createSeriesLoaders } from './series.loaders.js';
// The series module's public face (recurring bookings, docs/bookings.md "Recurring bookings").
export {
  previewBookingSeries,
  createBookingSeries,
  cancelBookingSeries,
  rescheduleSeriesOccurrence,
  getSeries,
  seriesEventData,
  type OccurrenceOutcome,
  type SeriesPreview,
  type CreatedSeries,
} from './series.service.js';
export { parseCreateBookingSeries, parsePreviewBookingSeries, type CreateBookingSeries } from './series.commands.js';
export { parseRule, formatRule, expandRule, RuleError, MAX_OCCURRENCES, type RecurrenceRule } from './series.rules.js';
export { seriesInvite, vtimezone } from './series.invite.js';

declare module '../../kernel/deps.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the module's loaders into the kernel's Loaders
  interface Loaders extends ReturnType<typeof createSeriesLoaders> {}
}

/** The series module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const seriesModule = defineModule({
  name: 'series',
  dependsOn: ['bookings', 'catalog', 'notifications', 'pricing', 'webhooks'],
  typeDefs: ['series.graphql'],
  resolvers: seriesResolvers,
  loaders: createSeriesLoaders,
});
