import { useState, type SubmitEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { execute } from '../../api/client';
import { useGraphQL } from '../../api/hooks';
import { Field, ErrorNotice, Section, SelectField, fieldErrorOf, formLevelError } from '../../components/ui';
import { useSession } from '../../session';
import { graphql } from '../../gql';
import type { BookingStatus } from '../../gql/graphql';
import { ReschedulePreview, type MoveTarget } from '../calendar/ReschedulePreview';
import { UpdateGuestMutation } from '../calendar/queries';
import { instantOf, localOf } from '../calendar/calendar-model';
import '../calendar/calendar.css';
import { formText } from '../../form-data';

// The booking page's changes: "Reschedule" (a form, then what changes and the new price before it
// is saved) and "Edit guest" (name, email, phone; audited).

const SiblingsQuery = graphql(`
  query DashboardRescheduleObjects($accommodationId: ID!) {
    bookableObjects(accommodationId: $accommodationId) {
      id
      name
    }
  }
`);

export interface ChangeableBooking {
  id: string;
  guestName: string;
  guestEmail: string;
  guestPhone?: string | null;
  startTime: string;
  endTime: string;
  status: BookingStatus;
  totalPrice: number;
  currency: string;
  object: { id: string; name: string; accommodation: { id: string; timeZone: string } };
}

export function BookingChanges({ booking, zone }: { booking: ChangeableBooking; zone: string }) {
  const session = useSession();
  const [mode, setMode] = useState<'none' | 'reschedule' | 'guest'>('none');
  const [done, setDone] = useState<string | null>(null);
  if (!session.can('bookings:write')) return null;
  const open = (next: typeof mode) => {
    setDone(null);
    setMode(mode === next ? 'none' : next);
  };
  const movable = booking.status === 'PENDING' || booking.status === 'CONFIRMED';
  return (
    <Section
      title="Change booking"
      description={`Times in ${zone}.`}
      actions={
        <div className="row-actions">
          {movable ? (
            <button
              type="button"
              className="button button-secondary"
              aria-expanded={mode === 'reschedule'}
              onClick={() => open('reschedule')}
            >
              Reschedule
            </button>
          ) : null}
          <button
            type="button"
            className="button button-secondary"
            aria-expanded={mode === 'guest'}
            onClick={() => open('guest')}
          >
            Edit guest
          </button>
        </div>
      }
    >
      {done ? (
        <p className="notice notice-success" role="status">
          {done}
        </p>
      ) : null}
      {mode === 'reschedule' ? (
        <RescheduleForm
          booking={booking}
          zone={zone}
          onDone={(saved) => {
            setMode('none');
            if (saved) setDone('Rescheduled.');
          }}
        />
      ) : null}
      {mode === 'guest' ? (
        <GuestForm
          booking={booking}
          onDone={(saved) => {
            setMode('none');
            if (saved) setDone('Guest details saved.');
          }}
        />
      ) : null}
      {mode === 'none' && !done ? (
        <p className="field-hint">
          {movable
            ? 'Move the booking to another time or object, or correct the guest’s details.'
            : 'Correct the guest’s details.'}
        </p>
      ) : null}
    </Section>
  );
}

function RescheduleForm({
  booking,
  zone,
  onDone,
}: {
  booking: ChangeableBooking;
  zone: string;
  onDone: (saved: boolean) => void;
}) {
  const siblings = useGraphQL(['objects', 'siblings', booking.object.accommodation.id], SiblingsQuery, {
    accommodationId: booking.object.accommodation.id,
  });
  const start = localOf(booking.startTime, zone);
  const end = localOf(booking.endTime, zone);
  const [target, setTarget] = useState<MoveTarget | null>(null);
  const objects = siblings.data?.bookableObjects ?? [{ id: booking.object.id, name: booking.object.name }];

  const preview = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const date = formText(form, 'date');
    const endDate = formText(form, 'end') <= formText(form, 'start') ? nextDay(date) : date;
    setTarget({
      objectId: formText(form, 'objectId', booking.object.id),
      startTime: instantOf(date, formText(form, 'start'), zone),
      endTime: instantOf(endDate, formText(form, 'end'), zone),
    });
  };

  return (
    <div className="stack">
      <form className="stack" onSubmit={preview} aria-label="Reschedule booking">
        <SelectField label="Object" name="objectId" defaultValue={booking.object.id}>
          {objects.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </SelectField>
        <div className="form-row">
          <Field label="New date" name="date" type="date" required defaultValue={start.date} />
          <Field label="New start" name="start" type="time" required defaultValue={start.hhmm} hint={zone} />
          <Field label="New end" name="end" type="time" required defaultValue={end.hhmm} hint={zone} />
        </div>
        <div className="row-actions">
          <button type="submit" className="button button-secondary">
            Show the change
          </button>
        </div>
      </form>
      {target ? (
        <ReschedulePreview
          key={`${target.objectId}${target.startTime}${target.endTime}`}
          booking={{
            id: booking.id,
            objectId: booking.object.id,
            guestName: booking.guestName,
            startTime: booking.startTime,
            endTime: booking.endTime,
            totalPrice: booking.totalPrice,
            currency: booking.currency,
          }}
          target={target}
          zone={zone}
          objectName={(id) => objects.find((o) => o.id === id)?.name ?? 'another object'}
          onSaved={() => onDone(true)}
          onCancel={() => setTarget(null)}
        />
      ) : null}
    </div>
  );
}

const nextDay = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

function GuestForm({ booking, onDone }: { booking: ChangeableBooking; onDone: (saved: boolean) => void }) {
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (v: { bookingId: string; guestName: string; guestEmail: string; guestPhone: string | null }) =>
      execute(UpdateGuestMutation, v),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['bookings'] });
      onDone(true);
    },
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const phone = formText(form, 'guestPhone').trim();
    update.mutate({
      bookingId: booking.id,
      guestName: formText(form, 'guestName'),
      guestEmail: formText(form, 'guestEmail').trim(),
      guestPhone: phone || null,
    });
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Edit guest" noValidate>
      <ErrorNotice error={formLevelError(update.error, ['guestName', 'guestEmail', 'guestPhone'])} />
      <Field
        label="Guest name"
        name="guestName"
        required
        maxLength={200}
        defaultValue={booking.guestName}
        error={fieldErrorOf(update.error, 'guestName')}
      />
      <div className="form-row">
        <Field
          label="Email"
          name="guestEmail"
          type="email"
          required
          defaultValue={booking.guestEmail}
          error={fieldErrorOf(update.error, 'guestEmail')}
        />
        <Field
          label="Phone"
          name="guestPhone"
          type="tel"
          defaultValue={booking.guestPhone ?? ''}
          error={fieldErrorOf(update.error, 'guestPhone')}
        />
      </div>
      <div className="row-actions">
        <button type="submit" className="button button-primary" disabled={update.isPending}>
          Save guest
        </button>
        <button type="button" className="button button-secondary" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
