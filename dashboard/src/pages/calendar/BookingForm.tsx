import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, execute, executeWithHeaders } from '../../api/client';
import { ErrorNotice, Field, SelectField, fieldErrorOf, formLevelError } from '../../components/ui';
import { money, timeRange } from '../../format';
import { CreateBookingMutation, QuoteQuery } from './queries';
import { hhmmOf, inFormWords, instantOf, minutesOf, newIdempotencyKey } from './calendar-model';
import { formText } from '../../form-data';
import { CreateSeriesMutation } from './series-queries';
import type { DashboardCreateSeriesMutationVariables } from '../../gql/graphql';
import { RepeatFields, SeriesPreview, ruleOf, weekdayOf, type Repeat } from './SeriesRepeat';

export interface DeskObject {
  id: string;
  name: string;
  minDurationMinutes: number;
}

export interface Prefill {
  objectId: string;
  date: string;
  start: string;
}

/** The quote's and the creation's field messages, in the form's words (its labels, the venue's time). */
function messageFor(error: unknown, field: string, zone: string): string | undefined {
  const message = fieldErrorOf(error, field);
  return message ? inFormWords(message, zone) : undefined;
}

/** The guest name's limit, as the API's createBooking states it. */
const GUEST_NAME_MAX = 200;

/**
 * Taking a booking at the desk: object, local date and times (the venue's zone), the guest; the
 * price is quoted live as the times change (the same preview the API offers), and the booking is
 * created with an Idempotency-Key per distinct request: a double click or a retry of the same
 * request books once, and a request changed after a refusal is a new one (the server refuses a
 * key reused with another body).
 */
export function BookingForm({
  objects,
  zone,
  prefill,
  onDone,
}: {
  objects: DeskObject[];
  zone: string;
  prefill: Prefill;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [objectId, setObjectId] = useState(prefill.objectId);
  const [date, setDate] = useState(prefill.date);
  const [start, setStart] = useState(prefill.start);
  const minimum = objects.find((o) => o.id === prefill.objectId)?.minDurationMinutes ?? 60;
  const [end, setEnd] = useState(hhmmOf(Math.min(1440, minutesOf(prefill.start) + minimum)));
  const [nameLength, setNameLength] = useState(0);
  const [repeat, setRepeat] = useState<Repeat>({
    weekly: false,
    days: [weekdayOf(prefill.date)],
    ends: 'count',
    count: '4',
    until: '',
  });
  // The key and the request it was first sent with: the same key only goes out with the same request.
  const sent = useRef<{ key: string; request: string } | null>(null);
  const submitting = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const confirmHintId = useId();

  useEffect(() => formRef.current?.querySelector<HTMLInputElement>('input[name=guestName]')?.focus(), []);

  const valid = Boolean(objectId && date && /^\d\d:\d\d$/.test(start) && /^\d\d:\d\d$/.test(end));
  const startTime = valid ? instantOf(date, start, zone) : '';
  const endTime = valid ? instantOf(date, end, zone) : '';
  const quote = useQuery({
    queryKey: ['desk-quote', objectId, startTime, endTime],
    queryFn: () => execute(QuoteQuery, { objectId, startTime, endTime }),
    enabled: valid,
    retry: false,
  });

  const rule = ruleOf(repeat);
  const createSeries = useMutation({
    mutationFn: ({ key, ...variables }: DashboardCreateSeriesMutationVariables & { key: string }) =>
      executeWithHeaders(CreateSeriesMutation, variables, { 'Idempotency-Key': key }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['calendar'] });
      await queryClient.invalidateQueries({ queryKey: ['bookings'] });
    },
    onSettled: () => {
      submitting.current = false;
    },
  });

  const create = useMutation({
    mutationFn: ({
      key,
      ...variables
    }: {
      key: string;
      objectId: string;
      guestName: string;
      guestEmail: string;
      guestPhone: string | null;
      startTime: string;
      endTime: string;
      status: 'PENDING' | 'CONFIRMED';
    }) => executeWithHeaders(CreateBookingMutation, variables, { 'Idempotency-Key': key }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['calendar'] });
      await queryClient.invalidateQueries({ queryKey: ['bookings'] });
    },
    onSettled: () => {
      submitting.current = false;
    },
  });

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A second click before the first answer is dropped here; one that gets through carries the same key.
    if (submitting.current || create.isSuccess || createSeries.isSuccess) return;
    submitting.current = true;
    const form = new FormData(event.currentTarget);
    const phone = formText(form, 'guestPhone').trim();
    const variables = {
      objectId,
      guestName: formText(form, 'guestName'),
      guestEmail: formText(form, 'guestEmail').trim(),
      guestPhone: phone || null,
      startTime,
      endTime,
      status: form.get('confirmNow') === 'on' ? ('CONFIRMED' as const) : ('PENDING' as const),
    };
    const request = JSON.stringify({ ...variables, rule: repeat.weekly ? rule : null });
    if (sent.current?.request !== request) sent.current = { key: newIdempotencyKey(), request };
    if (repeat.weekly) {
      if (!rule) {
        submitting.current = false;
        return;
      }
      createSeries.mutate({ ...variables, rule, key: sent.current.key });
    } else create.mutate({ ...variables, key: sent.current.key });
  };

  const again = () => {
    create.reset();
    createSeries.reset();
    sent.current = null;
    setNameLength(0);
  };

  const made = create.data?.createBooking.booking;
  const series = createSeries.data?.createBookingSeries;
  const failed = create.error ?? createSeries.error;
  const error = failed instanceof ApiError && failed.code === 'idempotency_key_in_progress' ? null : failed;
  const timeError = (field: 'startTime' | 'endTime') =>
    messageFor(error, field, zone) ?? (quote.error ? messageFor(quote.error, field, zone) : undefined);

  if (series) {
    const first = series.bookings[0];
    return (
      <div className="stack" role="status">
        <p>
          Series booked: {series.bookings.length} {series.bookings.length === 1 ? 'booking' : 'bookings'}
          {series.conflicts.length > 0 ? `, ${series.conflicts.length} skipped (taken or closed)` : ''}.{' '}
          {first ? (
            <>
              First:{' '}
              <Link to={`/bookings/${first.id}`} className="strong break">
                {first.guestName}
              </Link>
              , {timeRange(first.startTime, first.endTime, zone)} ({zone}).
            </>
          ) : null}
        </p>
        <div className="row-actions">
          <button type="button" className="button button-secondary" onClick={again}>
            Book another
          </button>
          <button type="button" className="button button-secondary" onClick={onDone}>
            Close
          </button>
        </div>
      </div>
    );
  }

  if (made) {
    return (
      <div className="stack" role="status">
        <p>
          Booked:{' '}
          <Link to={`/bookings/${made.id}`} className="strong break">
            {made.guestName}
          </Link>
          , {timeRange(made.startTime, made.endTime, zone)} ({zone}), {money(made.totalPrice, made.currency)},{' '}
          {made.status === 'CONFIRMED' ? 'confirmed' : 'pending'}.
        </p>
        <div className="row-actions">
          <button type="button" className="button button-secondary" onClick={again}>
            Book another
          </button>
          <button type="button" className="button button-secondary" onClick={onDone}>
            Close
          </button>
        </div>
      </div>
    );
  }

  return (
    <form ref={formRef} className="stack" onSubmit={submit} aria-label="New booking" noValidate>
      <ErrorNotice
        error={formLevelError(error, [
          'objectId',
          'startTime',
          'endTime',
          'guestName',
          'guestEmail',
          'guestPhone',
          'rule',
        ])}
      />
      <SelectField
        label="Object"
        name="objectId"
        value={objectId}
        onChange={(e) => setObjectId(e.target.value)}
        error={messageFor(error, 'objectId', zone)}
      >
        {objects.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </SelectField>
      <div className="form-row">
        <Field label="Date" name="date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        <Field
          label="Start"
          name="start"
          type="time"
          required
          value={start}
          onChange={(e) => setStart(e.target.value)}
          hint={zone}
          error={timeError('startTime')}
        />
        <Field
          label="End"
          name="end"
          type="time"
          required
          value={end}
          onChange={(e) => setEnd(e.target.value)}
          hint={zone}
          error={timeError('endTime')}
        />
      </div>
      <RepeatFields repeat={repeat} onChange={setRepeat} error={messageFor(error, 'rule', zone)} />
      {/* No maxLength: a longer name (a paste) would be cut without a word; the API's refusal says why. */}
      <Field
        label="Guest name"
        name="guestName"
        required
        autoComplete="off"
        onChange={(e) => setNameLength(e.target.value.length)}
        hint={`Up to ${GUEST_NAME_MAX} characters${nameLength > GUEST_NAME_MAX ? ` (now ${nameLength})` : ''}`}
        error={messageFor(error, 'guestName', zone)}
      />
      <div className="form-row">
        <Field
          label="Email"
          name="guestEmail"
          type="email"
          required
          autoComplete="off"
          error={messageFor(error, 'guestEmail', zone)}
        />
        <Field
          label="Phone"
          name="guestPhone"
          type="tel"
          autoComplete="off"
          hint="Optional; the door code goes there by SMS"
          error={messageFor(error, 'guestPhone', zone)}
        />
      </div>
      <div className="field">
        <label className="checkbox">
          <input type="checkbox" name="confirmNow" aria-describedby={confirmHintId} /> Confirm now
        </label>
        <p className="field-hint" id={confirmHintId}>
          Booked as confirmed: the guest gets the confirmation at once, as when you confirm a pending booking.
        </p>
      </div>
      {repeat.weekly && rule && valid ? (
        <SeriesPreview objectId={objectId} startTime={startTime} endTime={endTime} rule={rule} zone={zone} />
      ) : null}
      <p className="price-line" aria-live="polite">
        {repeat.weekly ? null : quote.data ? (
          <>
            Price: <strong>{money(quote.data.priceQuote.totalPrice, quote.data.priceQuote.currency)}</strong>{' '}
            <span className="small muted break">{quote.data.priceQuote.breakdown}</span>
          </>
        ) : quote.isFetching ? (
          'Quoting the price…'
        ) : quote.error ? (
          'No price: see the times above.'
        ) : null}
      </p>
      <div className="row-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={create.isPending || createSeries.isPending || (repeat.weekly && !rule)}
        >
          {repeat.weekly ? 'Create series' : 'Create booking'}
        </button>
        <button type="button" className="button button-secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
