import { useQuery, useQueryClient, useMutation } from '@tanstack/react-query';
import { execute } from '../../api/client';
import { ErrorNotice } from '../../components/ui';
import { money, timeRange } from '../../format';
import { QuoteQuery, RescheduleMutation } from './queries';
import { inFormWords } from './calendar-model';
import { fieldErrorOf } from '../../components/ui';

export interface MovableBooking {
  id: string;
  objectId: string;
  guestName: string;
  startTime: string;
  endTime: string;
  totalPrice: number;
  currency: string;
}

export interface MoveTarget {
  objectId: string;
  startTime: string;
  endTime: string;
}

/**
 * What a reschedule changes, shown before it is saved: object, times and price (quoted now, as the
 * reschedule will), then "Save new time" runs the API's reschedule (its rules, its event).
 */
export function ReschedulePreview({
  booking,
  target,
  zone,
  objectName,
  onSaved,
  onCancel,
}: {
  booking: MovableBooking;
  target: MoveTarget;
  zone: string;
  objectName: (id: string) => string;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const quote = useQuery({
    queryKey: ['move-quote', target.objectId, target.startTime, target.endTime],
    queryFn: () => execute(QuoteQuery, target),
    retry: false,
  });
  const save = useMutation({
    mutationFn: () => execute(RescheduleMutation, { bookingId: booking.id, ...target }),
    // The move is saved: the panel closes at once and the grid refreshes behind it. (Waiting for
    // the refetch first left the slots in "Move … to" mode for seconds on a slow machine, which
    // read as if the booking were still being moved; CI saw it.)
    onSuccess: () => {
      onSaved();
      void queryClient.invalidateQueries({ queryKey: ['calendar'] });
      void queryClient.invalidateQueries({ queryKey: ['bookings'] });
    },
  });
  const newPrice = quote.data?.priceQuote.totalPrice;
  const rows: [string, string, string][] = [
    ['Object', objectName(booking.objectId), objectName(target.objectId)],
    ['Time', timeRange(booking.startTime, booking.endTime, zone), timeRange(target.startTime, target.endTime, zone)],
    [
      'Price',
      money(booking.totalPrice, booking.currency),
      newPrice === undefined ? (quote.isFetching ? 'Quoting…' : '—') : money(newPrice, booking.currency),
    ],
  ];
  const problem = save.error ?? quote.error;
  const fieldMessages = ['startTime', 'endTime', 'objectId']
    .map((f) => fieldErrorOf(problem, f))
    .filter((m): m is string => Boolean(m));
  return (
    <div className="stack" aria-live="polite">
      <p>
        Move <strong className="break">{booking.guestName}</strong> ({zone}):
      </p>
      <table className="table change-table">
        <caption className="visually-hidden">What the move changes</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Field</span>
            </th>
            <th scope="col">Now</th>
            <th scope="col">After the move</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, before, after]) => (
            <tr key={label} className={before === after ? undefined : 'changed'}>
              <th scope="row">{label}</th>
              <td>{before}</td>
              <td>
                {after}
                {before !== after ? <span className="visually-hidden"> (changed)</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {fieldMessages.length ? (
        <ul className="field-error" role="alert">
          {fieldMessages.map((m) => (
            <li key={m}>{inFormWords(m, zone)}</li>
          ))}
        </ul>
      ) : (
        <ErrorNotice error={problem} />
      )}
      <div className="row-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={save.isPending || save.isSuccess}
          onClick={() => save.mutate()}
        >
          Save new time
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
