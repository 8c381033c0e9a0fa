import { useRef, useState, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQueries, useQuery } from '@tanstack/react-query';
import { execute } from '../../api/client';
import { useGraphQL } from '../../api/hooks';
import { Empty, ErrorNotice, Loading, PageHeader, Section, SelectField } from '../../components/ui';
import { useSession } from '../../session';
import type { BookingStatus, DashboardCalendarBookingsQuery } from '../../gql/graphql';
import { CalendarBookingsQuery, SlotsQuery, VenuesQuery } from './queries';
import { BookingForm, type Prefill } from './BookingForm';
import { ReschedulePreview, type MovableBooking, type MoveTarget } from './ReschedulePreview';
import {
  datesOf,
  dayLabel,
  hhmmOf,
  instantOf,
  localOf,
  longDayLabel,
  minutesOf,
  periodOf,
  stepDate,
  todayIn,
} from './calendar-model';
import './calendar.css';

// The calendar (docs/dashboard-ui.md#calendar): one accommodation's objects as columns (stacked on
// a phone), a day or a week, in the venue's zone. Free time is the availability query's slots (the
// API's own rules); bookings are placed by their local times and coloured by status.

type View = 'day' | 'week';
type CalendarBooking = MovableBooking & { guestEmail: string; status: BookingStatus };
type Slot = { start: string; end: string; available: boolean };

/** Grid rows per hour in the day view (15-minute rows). */
/** The list of a venue without objects (or while the venues load). */
const NO_OBJECTS: readonly { id: string; name: string }[] = [];
const ROW_MINUTES = 15;
const STATUS_TEXT: Record<BookingStatus, string> = {
  PENDING: 'Pending',
  CONFIRMED: 'Confirmed',
  CANCELLED: 'Cancelled',
  COMPLETED: 'Completed',
};

/** Every booking in the period, page after page (the connection gives at most 100 at a time). */
async function allBookings(from: string, to: string): Promise<CalendarBooking[]> {
  const out: CalendarBooking[] = [];
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const page: DashboardCalendarBookingsQuery = await execute(CalendarBookingsQuery, { from, to, after });
    out.push(...page.bookingsConnection.edges.map((e) => e.node));
    if (!page.bookingsConnection.pageInfo.hasNextPage) break;
    after = page.bookingsConnection.pageInfo.endCursor ?? null;
  }
  return out;
}

/** Arrow keys move between the grid's buttons and links: up/down within a column, left/right across. */
function onGridKey(event: KeyboardEvent<HTMLDivElement>) {
  const keys = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
  if (!keys.includes(event.key)) return;
  const current = document.activeElement as HTMLElement | null;
  const cell = current?.closest<HTMLElement>('[data-col]');
  if (!cell) return;
  const all = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[data-col] :is(button, a)'));
  const here = all.indexOf(current as HTMLElement);
  const col = Number(cell.dataset.col);
  const row = Number(cell.dataset.row);
  let next: HTMLElement | undefined;
  if (event.key === 'ArrowDown')
    next = all.slice(here + 1).find((el) => Number(el.closest<HTMLElement>('[data-col]')?.dataset.col) === col);
  if (event.key === 'ArrowUp')
    next = all
      .slice(0, here)
      .reverse()
      .find((el) => Number(el.closest<HTMLElement>('[data-col]')?.dataset.col) === col);
  if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
    const target = col + (event.key === 'ArrowRight' ? 1 : -1);
    const candidates = all.filter((el) => Number(el.closest<HTMLElement>('[data-col]')?.dataset.col) === target);
    next = candidates.reduce<HTMLElement | undefined>((best, el) => {
      const r = Number(el.closest<HTMLElement>('[data-col]')?.dataset.row);
      const b = best ? Number(best.closest<HTMLElement>('[data-col]')?.dataset.row) : Infinity;
      return Math.abs(r - row) < Math.abs(b - row) ? el : best;
    }, undefined);
  }
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

export function CalendarPage() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const venues = useGraphQL(['calendar', 'venues'], VenuesQuery, {});
  const accommodations = venues.data?.accommodations ?? [];
  const venue = accommodations.find((a) => a.id === params.get('accommodation')) ?? accommodations[0];
  const zone = venue?.timeZone ?? 'UTC';
  const view: View = params.get('view') === 'week' ? 'week' : 'day';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '') ? (params.get('date') as string) : todayIn(zone);
  const dates = datesOf(date, view);
  const objects = venue?.objects ?? NO_OBJECTS;
  const canWrite = session.can('bookings:write');

  const [form, setForm] = useState<Prefill | null>(null);
  const [moving, setMoving] = useState<CalendarBooking | null>(null);
  const [target, setTarget] = useState<MoveTarget | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) next.set(k, v);
    setParams(next);
  };

  const period = periodOf(dates, zone);
  const bookings = useQuery({
    queryKey: ['calendar', 'bookings', period],
    queryFn: () => allBookings(period.from, period.to),
    enabled: Boolean(venue),
  });
  const slotQueries = useQueries({
    queries: objects.flatMap((o) =>
      dates.map((d) => ({
        queryKey: ['calendar', 'slots', o.id, d],
        queryFn: () => execute(SlotsQuery, { date: d, objectId: o.id }),
      })),
    ),
  });
  const slotsOf = (objectId: string, d: string): Slot[] | undefined => {
    const i = objects.findIndex((o) => o.id === objectId) * dates.length + dates.indexOf(d);
    return slotQueries[i]?.data?.availability.slots;
  };
  const slotsError = slotQueries.find((q) => q.error)?.error;

  const shown = (bookings.data ?? []).filter(
    (b) => b.status !== 'CANCELLED' && objects.some((o) => o.id === b.objectId),
  );
  const bookingsOf = (objectId: string, d: string) =>
    shown.filter((b) => b.objectId === objectId && localOf(b.startTime, zone).date === d);
  const specialOf = (objectId: string, d: string) =>
    objects.find((o) => o.id === objectId)?.openingHours.specialDates.find((s) => s.date === d);
  const objectName = (id: string) => objects.find((o) => o.id === id)?.name ?? 'another object';

  const openForm = (prefill: Prefill) => {
    setMoving(null);
    setTarget(null);
    setForm(prefill);
    requestAnimationFrame(() => panelRef.current?.scrollIntoView({ block: 'nearest' }));
  };
  const chooseTarget = (booking: CalendarBooking, objectId: string, d: string, start: string) => {
    const length = new Date(booking.endTime).getTime() - new Date(booking.startTime).getTime();
    const startTime = instantOf(d, start, zone);
    setForm(null);
    setMoving(booking);
    setTarget({ objectId, startTime, endTime: new Date(new Date(startTime).getTime() + length).toISOString() });
    requestAnimationFrame(() => {
      panelRef.current?.scrollIntoView({ block: 'nearest' });
      panelRef.current?.querySelector<HTMLElement>('button')?.focus();
    });
  };
  const slotAction = (objectId: string, d: string, slot: Slot) => {
    if (moving) chooseTarget(moving, objectId, d, slot.start);
    else openForm({ objectId, date: d, start: slot.start });
  };

  if (venues.isPending) return <Loading />;
  if (!venue) {
    return (
      <>
        <PageHeader title="Calendar" />
        <ErrorNotice error={venues.error} />
        <Empty>No accommodation yet: add one and its objects in Catalog.</Empty>
      </>
    );
  }

  const deskObjects = objects.map((o) => ({
    id: o.id,
    name: o.name,
    minDurationMinutes: o.bookingRules.minDurationMinutes,
  }));
  const firstFree = (() => {
    for (const o of objects) {
      const free = slotsOf(o.id, date)?.find((s) => s.available);
      if (free) return { objectId: o.id, date, start: free.start };
    }
    return { objectId: objects[0]?.id ?? '', date, start: '10:00' };
  })();

  return (
    <>
      <PageHeader
        title="Calendar"
        description={
          <>
            {venue.name}: times in <strong>{zone}</strong>, the venue&apos;s time zone.
          </>
        }
        actions={
          canWrite ? (
            <button type="button" className="button button-primary" onClick={() => openForm(firstFree)}>
              New booking
            </button>
          ) : undefined
        }
      />
      <div className="calendar-toolbar" role="toolbar" aria-label="Calendar view">
        {accommodations.length > 1 ? (
          <SelectField label="Accommodation" value={venue.id} onChange={(e) => set({ accommodation: e.target.value })}>
            {accommodations.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <div className="segmented" role="group" aria-label="View">
          <button
            type="button"
            className="button button-secondary"
            aria-pressed={view === 'day'}
            onClick={() => set({ view: 'day' })}
          >
            Day
          </button>
          <button
            type="button"
            className="button button-secondary"
            aria-pressed={view === 'week'}
            onClick={() => set({ view: 'week' })}
          >
            Week
          </button>
        </div>
        <div className="segmented" role="group" aria-label="Date">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => set({ date: stepDate(date, view, -1) })}
          >
            {view === 'day' ? 'Previous day' : 'Previous week'}
          </button>
          <button type="button" className="button button-secondary" onClick={() => set({ date: todayIn(zone) })}>
            Today
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => set({ date: stepDate(date, view, 1) })}
          >
            {view === 'day' ? 'Next day' : 'Next week'}
          </button>
        </div>
        <label className="calendar-date">
          <span>Go to date</span>
          <input type="date" value={date} onChange={(e) => e.target.value && set({ date: e.target.value })} />
        </label>
      </div>
      <div ref={panelRef}>
        {form ? (
          <Section title="New booking" description={`Times in ${zone}.`}>
            <BookingForm
              key={`${form.objectId}${form.date}${form.start}`}
              objects={deskObjects}
              zone={zone}
              prefill={form}
              onDone={() => setForm(null)}
            />
          </Section>
        ) : null}
        {moving && target ? (
          <Section title="Reschedule">
            <ReschedulePreview
              booking={moving}
              target={target}
              zone={zone}
              objectName={objectName}
              onSaved={() => {
                setMoving(null);
                setTarget(null);
              }}
              onCancel={() => {
                setMoving(null);
                setTarget(null);
              }}
            />
          </Section>
        ) : moving ? (
          <p className="move-hint" role="status">
            Moving <strong className="break">{moving.guestName}</strong>: choose a free slot (or drop the booking on
            one).{' '}
            <button type="button" className="button button-secondary button-small" onClick={() => setMoving(null)}>
              Stop moving
            </button>
          </p>
        ) : null}
      </div>
      <ErrorNotice error={bookings.error ?? slotsError} />
      <Legend />
      {view === 'day' ? (
        <DayGrid
          date={date}
          zone={zone}
          objects={objects.map((o) => ({ id: o.id, name: o.name }))}
          slotsOf={slotsOf}
          bookingsOf={bookingsOf}
          specialOf={specialOf}
          canWrite={canWrite}
          moving={moving}
          onSlot={slotAction}
          onMove={(b) => {
            setForm(null);
            setTarget(null);
            setMoving(b);
          }}
          onDrop={chooseTarget}
          loading={bookings.isPending || slotQueries.some((q) => q.isPending)}
        />
      ) : (
        <WeekGrid
          dates={dates}
          zone={zone}
          objects={objects.map((o) => ({ id: o.id, name: o.name }))}
          slotsOf={slotsOf}
          bookingsOf={bookingsOf}
          specialOf={specialOf}
          onDay={(d) => set({ view: 'day', date: d })}
        />
      )}
    </>
  );
}

function Legend() {
  return (
    <ul className="calendar-legend" aria-label="Legend">
      <li>
        <span className="swatch swatch-free" aria-hidden="true" /> Free
      </li>
      <li>
        <span className="swatch status-PENDING" aria-hidden="true" /> Pending
      </li>
      <li>
        <span className="swatch status-CONFIRMED" aria-hidden="true" /> Confirmed
      </li>
      <li>
        <span className="swatch status-COMPLETED" aria-hidden="true" /> Completed
      </li>
      <li>
        <span className="swatch swatch-unavailable" aria-hidden="true" /> Not bookable (buffer, notice, past)
      </li>
      <li>
        <span className="swatch swatch-closed" aria-hidden="true" /> Closed
      </li>
    </ul>
  );
}

interface GridProps {
  zone: string;
  objects: { id: string; name: string }[];
  slotsOf: (objectId: string, d: string) => Slot[] | undefined;
  bookingsOf: (objectId: string, d: string) => CalendarBooking[];
  specialOf: (objectId: string, d: string) => { closed: boolean; reason: string } | undefined;
}

function DayGrid({
  date,
  zone,
  objects,
  slotsOf,
  bookingsOf,
  specialOf,
  canWrite,
  moving,
  onSlot,
  onMove,
  onDrop,
  loading,
}: GridProps & {
  date: string;
  canWrite: boolean;
  moving: CalendarBooking | null;
  onSlot: (objectId: string, d: string, slot: Slot) => void;
  onMove: (b: CalendarBooking) => void;
  onDrop: (b: CalendarBooking, objectId: string, d: string, start: string) => void;
  loading: boolean;
}) {
  const [dragging, setDragging] = useState<CalendarBooking | null>(null);
  // The shown span: from the earliest opening (or booking) to the latest closing, whole hours.
  let first = 24 * 60;
  let last = 0;
  for (const o of objects) {
    for (const s of slotsOf(o.id, date) ?? []) {
      first = Math.min(first, minutesOf(s.start));
      last = Math.max(last, minutesOf(s.end));
    }
    for (const b of bookingsOf(o.id, date)) {
      first = Math.min(first, localOf(b.startTime, zone).minutes);
      const end = localOf(b.endTime, zone);
      last = Math.max(last, end.date === date ? end.minutes : 1440);
    }
  }
  // Until every object's free time is known the grid would draw only the bookings' hours, with the
  // rest shaded as if not bookable (seen in a screenshot): wait for it.
  if (loading) return <Loading />;
  if (first >= last) return <Empty>Every object is closed on {longDayLabel(date)}.</Empty>;
  first = Math.floor(first / 60) * 60;
  last = Math.ceil(last / 60) * 60;
  const rows = (last - first) / ROW_MINUTES;
  const rowOf = (minutes: number) => Math.max(1, Math.floor((minutes - first) / ROW_MINUTES) + 1);
  const hours = Array.from({ length: (last - first) / 60 }, (_, i) => first + i * 60);

  return (
    <section className="card calendar-card" aria-label={`Day view, ${longDayLabel(date)}, ${zone}`}>
      <h2 className="calendar-heading">{longDayLabel(date)}</h2>
      {/* Arrow keys from the grid's own buttons and links bubble here (roving between cells); the grid is not a control itself. */}
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
      <div
        className="day-grid"
        style={{ ['--objects' as string]: objects.length, ['--rows' as string]: rows }}
        onKeyDown={onGridKey}
      >
        <div
          className="time-axis"
          aria-hidden="true"
          style={{ gridTemplateRows: `2.5rem repeat(${rows}, var(--row))` }}
        >
          <span />
          {hours.map((h) => (
            <span key={h} className="time-label" style={{ gridRow: `${rowOf(h) + 1} / span ${60 / ROW_MINUTES}` }}>
              {hhmmOf(h)}
            </span>
          ))}
        </div>
        {objects.map((o, col) => {
          const slots = slotsOf(o.id, date) ?? [];
          const booked = bookingsOf(o.id, date);
          const special = specialOf(o.id, date);
          const coveredBy = (s: Slot) =>
            booked.some(
              (b) =>
                localOf(b.startTime, zone).minutes < minutesOf(s.end) &&
                (localOf(b.endTime, zone).date !== date || localOf(b.endTime, zone).minutes > minutesOf(s.start)),
            );
          return (
            <div key={o.id} className="object-column" role="group" aria-label={`${o.name}, ${dayLabel(date)}`}>
              <h3 className="object-name break">
                {o.name}
                {special ? (
                  <span className={`special ${special.closed ? 'special-closed' : ''}`}>
                    {special.closed
                      ? `Closed: ${special.reason || 'special date'}`
                      : `Special hours${special.reason ? `: ${special.reason}` : ''}`}
                  </span>
                ) : null}
              </h3>
              <div
                className={`object-slots${special?.closed ? ' closed-day' : ''}`}
                style={{ gridTemplateRows: `repeat(${rows}, var(--row))` }}
              >
                {slots.map((s) => {
                  if (coveredBy(s)) return null;
                  const place = { gridRow: `${rowOf(minutesOf(s.start))} / ${rowOf(minutesOf(s.end))}` };
                  const label = `${o.name}, ${dayLabel(date)}, ${s.start} to ${s.end}`;
                  if (!s.available)
                    return (
                      <div key={s.start} className="slot slot-unavailable" style={place}>
                        <span className="visually-hidden">{label}, not bookable</span>
                      </div>
                    );
                  return (
                    <div key={s.start} className="slot-cell" style={place} data-col={col} data-row={minutesOf(s.start)}>
                      {canWrite ? (
                        <button
                          type="button"
                          className={`slot slot-free${dragging ? ' slot-drop' : ''}`}
                          aria-label={moving ? `Move ${moving.guestName} to ${label}` : `${label}, free: new booking`}
                          onClick={() => onSlot(o.id, date, s)}
                          onDragOver={(e) => {
                            if (dragging) e.preventDefault();
                          }}
                          onDrop={(e) => {
                            e.preventDefault();
                            if (dragging) onDrop(dragging, o.id, date, s.start);
                            setDragging(null);
                          }}
                        >
                          {s.start}
                        </button>
                      ) : (
                        <span className="slot slot-free">
                          {s.start} <span className="visually-hidden">{label}, free</span>
                        </span>
                      )}
                    </div>
                  );
                })}
                {booked.map((b) => {
                  const start = localOf(b.startTime, zone);
                  const end = localOf(b.endTime, zone);
                  const endRow = end.date === date ? rowOf(end.minutes) : rows + 1;
                  return (
                    <div
                      key={b.id}
                      className={`booking status-${b.status}`}
                      style={{ gridRow: `${rowOf(start.minutes)} / ${Math.max(endRow, rowOf(start.minutes) + 1)}` }}
                      data-col={col}
                      data-row={start.minutes}
                      draggable={canWrite && b.status !== 'COMPLETED'}
                      onDragStart={(e) => {
                        e.dataTransfer.setData('text/plain', b.id);
                        e.dataTransfer.effectAllowed = 'move';
                        setDragging(b);
                      }}
                      onDragEnd={() => setDragging(null)}
                    >
                      <Link to={`/bookings/${b.id}`} className="booking-link">
                        <span className="booking-guest">{b.guestName}</span>
                        <span className="booking-meta">
                          {start.hhmm}–{end.hhmm} · {STATUS_TEXT[b.status]}
                        </span>
                      </Link>
                      {canWrite && b.status !== 'COMPLETED' ? (
                        <button
                          type="button"
                          className="booking-move"
                          aria-label={`Move ${b.guestName}, ${start.hhmm} to ${end.hhmm}`}
                          onClick={() => onMove(b)}
                        >
                          Move
                        </button>
                      ) : null}
                    </div>
                  );
                })}
              </div>
            </div>
          );
        })}
      </div>
    </section>
  );
}

function WeekGrid({
  dates,
  zone,
  objects,
  slotsOf,
  bookingsOf,
  specialOf,
  onDay,
}: GridProps & { dates: string[]; onDay: (d: string) => void }) {
  // A past day's "0 free" read like a fully booked day (seen in a screenshot): it says "Past".
  const today = todayIn(zone);
  return (
    <section
      className="card calendar-card"
      aria-label={`Week view, ${dayLabel(dates[0] ?? '')} to ${dayLabel(dates.at(-1) ?? '')}, ${zone}`}
    >
      <h2 className="calendar-heading">
        {dayLabel(dates[0] ?? '')} – {dayLabel(dates.at(-1) ?? '')}
      </h2>
      <div className="week-grid">
        {objects.map((o) => (
          <div key={o.id} className="week-row" role="group" aria-label={o.name}>
            <h3 className="object-name break">{o.name}</h3>
            <ol className="week-days">
              {dates.map((d) => {
                const slots = slotsOf(o.id, d);
                const free = slots?.filter((s) => s.available).length;
                const special = specialOf(o.id, d);
                const closed = slots !== undefined && slots.length === 0;
                return (
                  <li key={d} className={`week-day${closed ? ' closed-day' : ''}${special ? ' special-day' : ''}`}>
                    <button type="button" className="week-day-head" onClick={() => onDay(d)}>
                      <span className="visually-hidden">{o.name}, </span>
                      <span className="strong">{dayLabel(d)}</span>
                      <span className="small">
                        {closed ? 'Closed' : d < today ? 'Past' : free === undefined ? '…' : `${free} free`}
                      </span>
                      <span className="visually-hidden">. Open the day</span>
                    </button>
                    {special ? <span className="special small">{special.reason || 'Special date'}</span> : null}
                    <ul className="week-bookings">
                      {bookingsOf(o.id, d).map((b) => (
                        <li key={b.id} className={`booking status-${b.status}`}>
                          <Link to={`/bookings/${b.id}`} className="booking-link">
                            <span className="booking-guest">{b.guestName}</span>
                            <span className="booking-meta">
                              {localOf(b.startTime, zone).hhmm}–{localOf(b.endTime, zone).hhmm} ·{' '}
                              {STATUS_TEXT[b.status]}
                            </span>
                          </Link>
                        </li>
                      ))}
                    </ul>
                  </li>
                );
              })}
            </ol>
          </div>
        ))}
      </div>
    </section>
  );
}
