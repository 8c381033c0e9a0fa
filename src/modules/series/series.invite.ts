import ical, { ICalCalendarMethod, ICalEventRepeatingFreq, ICalEventStatus, ICalWeekday } from 'ical-generator';
import { DateTime } from 'luxon';
import type { BookingRow, BookingSeriesRow } from '../../kernel/db/types.js';
import { parseRule } from './series.rules.js';

// The guest's invite of a series (RFC 5545, written by ical-generator): one VEVENT whose RRULE is
// the series' rule from DTSTART in the object's zone (TZID, with a VTIMEZONE written here from the
// zone's real transitions, so readers expand 18:00 local in every week), one EXDATE per rule start
// with no live booking (skipped for a conflict, or cancelled), and one VEVENT with the same UID and
// a RECURRENCE-ID per occurrence that was moved. UIDs: series-<id>@<domain>.

export interface InviteVenue {
  objectName: string;
  accommodationName: string;
  accommodationAddress: string;
  organizerEmail: string;
  domain: string;
}

const LIVE = new Set(['PENDING', 'CONFIRMED', 'COMPLETED']);

/** Control characters out of a text value (ical-generator escapes the rest). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point: a CR/LF in a guest name must not start a new iCalendar line
const textSafe = (value: string): string => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
/** A CN parameter value: no DQUOTE, backslash or semicolon (RFC 5545 has no escape inside a parameter). */
const paramSafe = (value: string): string => textSafe(value).replace(/"/g, "'").replace(/\\/g, '/').replace(/;/g, ',');

const offsetText = (minutes: number): string => {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
};

const offsetAt = (ms: number, zone: string): number => DateTime.fromMillis(ms, { zone }).offset;

/**
 * A VTIMEZONE for `zone` covering [from, to]: its offset at `from`, then one STANDARD or DAYLIGHT
 * per transition in the span (found day by day, then to the minute), each DTSTART the local time
 * of the onset before it, as RFC 5545 3.6.5 writes it. No rules: every onset is listed.
 */
export function vtimezone(zone: string, from: Date, to: Date): string {
  const DAY = 86_400_000;
  const start = from.getTime() - 370 * DAY;
  const end = to.getTime() + 370 * DAY;
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  const component = (onset: number, before: number, after: number) => {
    const at = DateTime.fromMillis(onset, { zone });
    const kind = at.isInDST ? 'DAYLIGHT' : 'STANDARD';
    const local = DateTime.fromMillis(onset + before * 60_000, { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss");
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${local}`,
      `TZOFFSETFROM:${offsetText(before)}`,
      `TZOFFSETTO:${offsetText(after)}`,
      `TZNAME:${at.offsetNameShort ?? offsetText(after)}`,
      `END:${kind}`,
    );
  };
  let previous = offsetAt(start, zone);
  component(start, previous, previous);
  for (let t = start + DAY; t <= end; t += DAY) {
    const offset = offsetAt(t, zone);
    if (offset === previous) continue;
    let low = t - DAY;
    let high = t;
    while (high - low > 60_000) {
      const mid = low + Math.floor((high - low) / 120_000) * 60_000;
      if (offsetAt(mid, zone) === previous) low = mid;
      else high = mid;
    }
    component(high, previous, offset);
    previous = offset;
  }
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

const FREQ = { DAILY: ICalEventRepeatingFreq.DAILY, WEEKLY: ICalEventRepeatingFreq.WEEKLY } as const;
const WEEKDAY: Record<string, ICalWeekday> = {
  MO: ICalWeekday.MO,
  TU: ICalWeekday.TU,
  WE: ICalWeekday.WE,
  TH: ICalWeekday.TH,
  FR: ICalWeekday.FR,
  SA: ICalWeekday.SA,
  SU: ICalWeekday.SU,
};

/**
 * The invite of `series` from its `occurrences` (every booking of it, any status) and the rule's
 * starts (`ruleStarts`, expanded by the caller): the rule, EXDATE for each rule start with no live
 * occurrence, a RECURRENCE-ID override for each live one moved off its rule slot. A cancelled
 * series is METHOD:CANCEL with STATUS:CANCELLED.
 */
export function seriesInvite(
  series: BookingSeriesRow,
  occurrences: readonly BookingRow[],
  ruleStarts: readonly Date[],
  venue: InviteVenue,
  stamp: Date,
): string {
  const zone = series.time_zone;
  const local = (d: Date) => DateTime.fromJSDate(d, { zone });
  const rule = parseRule(series.rule, zone);
  const cancelled = series.status === 'CANCELLED';
  const live = occurrences.filter((b) => LIVE.has(b.status) && b.series_start);
  const liveStarts = new Set(live.map((b) => b.series_start?.getTime()));
  const excluded = ruleStarts.filter((s) => !liveStarts.has(s.getTime()));
  const durationMs = series.duration_minutes * 60_000;
  const lastStart = ruleStarts.at(-1) ?? series.first_start;
  const latest = occurrences.reduce((max, b) => Math.max(max, b.end_time.getTime()), lastStart.getTime() + durationMs);

  const calendar = ical({
    prodId: { company: 'Portier', product: 'Portier', language: 'EN' },
    method: cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  calendar.timezone({ name: zone, generator: () => vtimezone(zone, series.first_start, new Date(latest)) });
  const uid = `series-${series.id}@${venue.domain}`;
  const common = {
    id: uid,
    stamp: DateTime.fromJSDate(stamp, { zone: 'utc' }),
    timezone: zone,
    summary: textSafe(`${venue.objectName} at ${venue.accommodationName}`),
    location: textSafe(`${venue.accommodationName}, ${venue.accommodationAddress}`),
    organizer: { name: paramSafe(venue.accommodationName), email: venue.organizerEmail },
    attendees: [{ email: series.guest_email, name: paramSafe(series.guest_name) }],
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    sequence: Math.floor(series.updated_at.getTime() / 1000) - Math.floor(series.created_at.getTime() / 1000),
  };
  calendar.createEvent({
    ...common,
    start: local(series.first_start),
    end: local(new Date(series.first_start.getTime() + durationMs)),
    repeating: {
      freq: FREQ[rule.freq],
      interval: rule.interval,
      ...(rule.count !== undefined ? { count: rule.count } : {}),
      ...(rule.until ? { until: DateTime.fromJSDate(rule.until, { zone: 'utc' }) } : {}),
      ...(rule.byDay ? { byDay: rule.byDay.map((d) => WEEKDAY[d] ?? ICalWeekday.MO) } : {}),
      ...(excluded.length ? { exclude: excluded.map(local), excludeTimezone: zone } : {}),
    },
  });
  for (const booking of live) {
    const ruleStart = booking.series_start;
    if (!ruleStart) continue;
    const moved =
      booking.start_time.getTime() !== ruleStart.getTime() ||
      booking.end_time.getTime() - booking.start_time.getTime() !== durationMs;
    if (!moved) continue;
    calendar.createEvent({
      ...common,
      start: local(booking.start_time),
      end: local(booking.end_time),
      recurrenceId: local(ruleStart),
    });
  }
  return calendar.toString();
}
