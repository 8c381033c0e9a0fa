import { FormatRegistry, Type, type StaticDecode } from '@sinclair/typebox';
import { Nullable, parseCommand } from '../../kernel/commands.js';
import { PAGE_SIZES, PageSize } from '../../kernel/paging.js';
import { AFTER_MESSAGE, afterOf, typesOf, typesProblem, type After } from './event-feed.rules.js';

// The events feed's commands (docs/events.md): GraphQL `events(first, after, types)` and its REST
// shape `eventFeed(after, types, limit)` take the same filter; only the page size's name differs.

FormatRegistry.Set('portier-event-type-list', (value) => typesProblem([value]) === null);

/** Event types, each item one or several comma-separated; an unknown one is named in the message. */
const EventTypeList = () =>
  Type.Transform(
    Type.Array(Type.String({ format: 'portier-event-type-list', maxLength: 2000 }), {
      maxItems: 100,
      message: (value: unknown) => typesProblem(value) ?? 'must be a list of at most 100 event types',
    }),
  )
    .Decode((items) => typesOf(items))
    .Encode((types) => types);

const AfterText = () => Type.String({ maxLength: 400, message: AFTER_MESSAGE });

export const EventsConnection = Type.Object({
  first: PageSize(PAGE_SIZES.events),
  after: Nullable(AfterText()),
  types: Nullable(EventTypeList()),
});

export const EventFeed = Type.Object({
  after: Nullable(AfterText()),
  types: Nullable(EventTypeList()),
  limit: PageSize(PAGE_SIZES.events),
});

/** A page of the feed: its size, where it starts (null: the beginning), the types (null: all). */
export interface EventFeedCommand {
  size: number;
  after: After | null;
  types: string[] | null;
}

function commandOf(
  size: number | null | undefined,
  after: string | null | undefined,
  types: string[] | null | undefined,
) {
  return {
    size: size ?? PAGE_SIZES.events.default,
    after: after == null ? null : afterOf(after),
    types: types?.length ? types : null,
  };
}

export function parseEventsConnection(input: unknown): EventFeedCommand {
  const { first, after, types }: StaticDecode<typeof EventsConnection> = parseCommand(EventsConnection, input);
  return commandOf(first, after, types);
}

export function parseEventFeed(input: unknown): EventFeedCommand {
  const { after, types, limit }: StaticDecode<typeof EventFeed> = parseCommand(EventFeed, input);
  return commandOf(limit, after, types);
}
