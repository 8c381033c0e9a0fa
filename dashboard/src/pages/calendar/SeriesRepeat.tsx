import { useQuery } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import { execute } from '../../api/client';
import { Field, SelectField, TableWrap } from '../../components/ui';
import { money, timeRange } from '../../format';
import { SeriesPreviewQuery } from './series-queries';

// "Repeat" in the New booking form: weekly on chosen weekdays, ending after a number of times or
// on a date, written as the RRULE the API takes; the conflict preview is the API's
// previewBookingSeries (creation's own run, rolled back), shown before anything is booked.

export const WEEKDAYS = [
  ['MO', 'Mon'],
  ['TU', 'Tue'],
  ['WE', 'Wed'],
  ['TH', 'Thu'],
  ['FR', 'Fri'],
  ['SA', 'Sat'],
  ['SU', 'Sun'],
] as const;

export interface Repeat {
  weekly: boolean;
  days: string[];
  ends: 'count' | 'until';
  count: string;
  until: string;
}

/** The weekday code (MO…SU) of a local date. */
export const weekdayOf = (date: string): string => WEEKDAYS[(DateTime.fromISO(date).weekday || 1) - 1]?.[0] ?? 'MO';

/** The RRULE of a repeat, or null while it is incomplete. */
export function ruleOf(repeat: Repeat): string | null {
  if (!repeat.weekly || repeat.days.length === 0) return null;
  const days = WEEKDAYS.map(([code]) => code).filter((code) => repeat.days.includes(code));
  const byDay = `FREQ=WEEKLY;BYDAY=${days.join(',')}`;
  if (repeat.ends === 'count') return /^\d{1,3}$/.test(repeat.count) ? `${byDay};COUNT=${repeat.count}` : null;
  return /^\d{4}-\d{2}-\d{2}$/.test(repeat.until) ? `${byDay};UNTIL=${repeat.until.replace(/-/g, '')}` : null;
}

export function RepeatFields({
  repeat,
  onChange,
  error,
}: {
  repeat: Repeat;
  onChange: (repeat: Repeat) => void;
  error?: string;
}) {
  return (
    <>
      <SelectField
        label="Repeat"
        name="repeat"
        value={repeat.weekly ? 'weekly' : 'none'}
        onChange={(e) => onChange({ ...repeat, weekly: e.target.value === 'weekly' })}
        error={error}
      >
        <option value="none">Does not repeat</option>
        <option value="weekly">Weekly</option>
      </SelectField>
      {repeat.weekly ? (
        <>
          <fieldset className="field weekday-picker">
            <legend>On</legend>
            <div className="row-actions">
              {WEEKDAYS.map(([code, label]) => (
                <label key={code} className="checkbox">
                  <input
                    type="checkbox"
                    name={`day-${code}`}
                    checked={repeat.days.includes(code)}
                    onChange={(e) =>
                      onChange({
                        ...repeat,
                        days: e.target.checked ? [...repeat.days, code] : repeat.days.filter((d) => d !== code),
                      })
                    }
                  />{' '}
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="form-row">
            <SelectField
              label="Ends"
              name="ends"
              value={repeat.ends}
              onChange={(e) => onChange({ ...repeat, ends: e.target.value === 'until' ? 'until' : 'count' })}
            >
              <option value="count">After a number of times</option>
              <option value="until">On a date</option>
            </SelectField>
            {repeat.ends === 'count' ? (
              <Field
                label="Times"
                name="count"
                type="number"
                min={1}
                max={366}
                value={repeat.count}
                onChange={(e) => onChange({ ...repeat, count: e.target.value })}
              />
            ) : (
              <Field
                label="Until"
                name="until"
                type="date"
                value={repeat.until}
                onChange={(e) => onChange({ ...repeat, until: e.target.value })}
              />
            )}
          </div>
        </>
      ) : null}
    </>
  );
}

/** The occurrences of the rule, each free or in conflict with its price: what "Create series" would book. */
export function SeriesPreview({
  objectId,
  startTime,
  endTime,
  rule,
  zone,
}: {
  objectId: string;
  startTime: string;
  endTime: string;
  rule: string;
  zone: string;
}) {
  const preview = useQuery({
    queryKey: ['series-preview', objectId, startTime, endTime, rule],
    queryFn: () => execute(SeriesPreviewQuery, { objectId, startTime, endTime, rule }),
    retry: false,
  });
  if (preview.isPending) return <p className="muted">Checking the dates…</p>;
  if (preview.error || !preview.data) {
    return (
      <p className="field-error" role="alert">
        {preview.error instanceof Error ? preview.error.message : 'The dates could not be checked'}
      </p>
    );
  }
  const p = preview.data.previewBookingSeries;
  const currency = p.occurrences[0]?.currency ?? 'EUR';
  return (
    <section className="stack" aria-label="Series preview" aria-live="polite">
      <p>
        <strong>{p.availableCount}</strong> free, <strong>{p.conflictCount}</strong>{' '}
        {p.conflictCount === 1 ? 'conflict' : 'conflicts'} · total {money(p.totalPrice, currency)}
        {p.conflictCount > 0 ? ' (the conflicts are skipped)' : ''}
      </p>
      <TableWrap label="Occurrences">
        <table>
          <thead>
            <tr>
              <th scope="col">When ({zone})</th>
              <th scope="col">Price</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {p.occurrences.map((o) => (
              <tr key={o.index}>
                <td>{timeRange(o.startTime, o.endTime, zone)}</td>
                <td className="numeric">{money(o.totalPrice, o.currency)}</td>
                <td>
                  {o.available ? (
                    <span className="badge badge-success">free</span>
                  ) : (
                    <span className="badge badge-danger" title={o.conflictMessage ?? undefined}>
                      conflict: {(o.conflictCode ?? 'refused').replace(/_/g, ' ')}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}
