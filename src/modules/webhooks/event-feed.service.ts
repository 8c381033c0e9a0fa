import type { Executor } from '../../kernel/db/index.js';
import { invalidField, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { connectionOf, type Connection } from '../../kernel/paging.js';
import type { EventFeedCommand } from './event-feed.commands.js';
import * as feed from './event-feed.repository.js';
import { AFTER_MESSAGE, cursorOf, type FeedPosition } from './event-feed.rules.js';
import { envelopeOf, type Envelope } from './signing.js';

// The events feed (docs/events.md): the envelopes webhooks carry, oldest first, of every event of
// the tenant whether or not a subscription takes it. Callers have checked the tenant and parsed
// the command.

/** A served event: its envelope, and its position for the cursor. */
export type FeedEvent = Envelope & { position: FeedPosition };

/** The tenant whose feed is read: its id, and its mode (false for a sandbox, docs/test-mode.md). */
export interface FeedTenant {
  id: string;
  livemode: boolean;
}

const eventOf = ({ id: tenantId, livemode }: FeedTenant, row: feed.FeedRow): FeedEvent => ({
  ...envelopeOf({ id: row.id, type: row.type, timestamp: row.created_at, tenantId, data: row.data, livemode }),
  position: { xactId: row.position_xid, seq: row.position_seq },
});

async function startOf(db: Executor, tenantId: string, command: EventFeedCommand): Promise<FeedPosition | null> {
  if (!command.after) return null;
  if ('position' in command.after) return command.after.position;
  const position = await feed.positionOf(db, tenantId, command.after.eventId);
  if (!position) throw invalidField('after', AFTER_MESSAGE);
  return position;
}

/** One page and one more row, which tells whether another page follows. */
async function pageOf(db: Executor, tenant: FeedTenant, command: EventFeedCommand): Promise<FeedEvent[]> {
  const start = await startOf(db, tenant.id, command);
  const rows = await feed.feedPage(db, tenant.id, command.types, start, command.size + 1);
  return rows.map((row) => eventOf(tenant, row));
}

/** The REST shape: `{events, next}`, next null on the last page. */
export async function eventFeed(
  db: Executor,
  tenant: FeedTenant,
  command: EventFeedCommand,
): Promise<{ events: FeedEvent[]; next: string | null }> {
  const page = await pageOf(db, tenant, command);
  const events = page.slice(0, command.size);
  const last = events.at(-1);
  return { events, next: page.length > command.size && last ? cursorOf(last.position) : null };
}

/** The GraphQL connection: every edge has its cursor, so endCursor is there to poll with on the last page too. */
export async function eventsConnection(
  db: Executor,
  tenant: FeedTenant,
  command: EventFeedCommand,
  withTotal: boolean,
): Promise<Connection<FeedEvent>> {
  const [page, total] = await Promise.all([
    pageOf(db, tenant, command),
    withTotal ? feed.countFeed(db, tenant.id, command.types) : null,
  ]);
  return connectionOf(page, command.size, command.after, (event) => cursorOf(event.position), total);
}

/**
 * One event of the feed by its id, the same envelope as the feed's items; an unknown id, another
 * tenant's event or a subscription's test event is NOT_FOUND. An event is readable here as soon as
 * its transaction has committed (the feed itself serves it once every earlier transaction has).
 */
export async function feedEvent(db: Executor, tenant: FeedTenant, eventId: string): Promise<FeedEvent> {
  const row = isUuid(eventId) ? await feed.findFeedEvent(db, tenant.id, eventId) : undefined;
  if (!row) throw notFound('Event', eventId);
  return eventOf(tenant, row);
}
