import { useState, type SubmitEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { graphql } from '../../gql';
import type { DashboardObjectQuery, WeeklyScheduleInput } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Empty,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  Section,
  SuccessNotice,
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { money } from '../../format';
import { useSession } from '../../session';
import { centsOf, eurosOf, priceProblem } from './money-input';
import { formText } from '../../form-data';

const ObjectQuery = graphql(`
  query DashboardObject($id: ID!) {
    bookableObject(id: $id) {
      id
      name
      pricePerHour
      accommodation {
        id
        name
        timeZone
      }
      openingHours {
        schedule {
          monday {
            open
            close
          }
          tuesday {
            open
            close
          }
          wednesday {
            open
            close
          }
          thursday {
            open
            close
          }
          friday {
            open
            close
          }
          saturday {
            open
            close
          }
          sunday {
            open
            close
          }
        }
        specialDates {
          date
          closed
          reason
          open
          close
        }
      }
      bookingRules {
        minDurationMinutes
        maxDurationMinutes
        slotIncrementMinutes
        minAdvanceMinutes
        maxAdvanceDays
        bufferMinutes
      }
    }
  }
`);

const UpdateObject = graphql(`
  mutation DashboardUpdateObject($id: ID!, $name: String, $pricePerHour: Int) {
    updateObject(id: $id, name: $name, pricePerHour: $pricePerHour) {
      id
    }
  }
`);

const SetOpeningHours = graphql(`
  mutation DashboardSetOpeningHours($objectId: ID!, $schedule: WeeklyScheduleInput!) {
    setOpeningHours(objectId: $objectId, schedule: $schedule) {
      specialDates {
        date
      }
    }
  }
`);

const SetSpecialDate = graphql(`
  mutation DashboardSetSpecialDate(
    $objectId: ID!
    $date: String!
    $closed: Boolean!
    $reason: String
    $open: String
    $close: String
  ) {
    setSpecialDate(objectId: $objectId, date: $date, closed: $closed, reason: $reason, open: $open, close: $close) {
      specialDates {
        date
      }
    }
  }
`);

const RemoveSpecialDate = graphql(`
  mutation DashboardRemoveSpecialDate($objectId: ID!, $date: String!) {
    removeSpecialDate(objectId: $objectId, date: $date) {
      specialDates {
        date
      }
    }
  }
`);

const SetBookingRules = graphql(`
  mutation DashboardSetBookingRules($objectId: ID!, $rules: BookingRulesInput!) {
    setBookingRules(objectId: $objectId, rules: $rules) {
      minDurationMinutes
    }
  }
`);

const DeleteObject = graphql(`
  mutation DashboardDeleteObjectFromPage($id: ID!) {
    deleteObject(id: $id)
  }
`);

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
type BookableObject = NonNullable<DashboardObjectQuery['bookableObject']>;

const RULES: { name: keyof BookableObject['bookingRules']; label: string; unit: string }[] = [
  { name: 'minDurationMinutes', label: 'Shortest booking', unit: 'minutes' },
  { name: 'maxDurationMinutes', label: 'Longest booking', unit: 'minutes' },
  { name: 'slotIncrementMinutes', label: 'Slot increment', unit: 'minutes' },
  { name: 'minAdvanceMinutes', label: 'Minimum notice', unit: 'minutes' },
  { name: 'maxAdvanceDays', label: 'Bookable ahead', unit: 'days' },
  { name: 'bufferMinutes', label: 'Buffer between bookings', unit: 'minutes' },
];

export function ObjectPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const canWrite = session.can('catalog:write');
  const navigate = useNavigate();
  const query = useGraphQL(['catalog', 'object', id], ObjectQuery, { id });
  const remove = useGraphQLMutation(DeleteObject, [['catalog'], ['objects']]);

  if (query.isPending) return <Loading />;
  const object = query.data?.bookableObject;
  if (!object) return <ErrorNotice error={query.error} title="This object could not be loaded" />;

  return (
    <>
      <p className="breadcrumb">
        <Link to="/catalog">Catalog</Link> / {object.accommodation.name} / {object.name}
      </p>
      <PageHeader
        title={object.name}
        description={`${object.accommodation.name} · ${money(object.pricePerHour)} per hour · times in ${object.accommodation.timeZone}`}
        actions={
          canWrite ? (
            <ConfirmButton
              label="Delete object"
              confirmLabel="Yes, delete"
              question={`Delete ${object.name}?`}
              busy={remove.isPending}
              onConfirm={() => remove.mutate({ id }, { onSuccess: () => void navigate('/catalog') })}
            />
          ) : undefined
        }
      />
      <ErrorNotice error={remove.error} />
      {canWrite ? <DetailsForm object={object} /> : null}
      <ScheduleForm object={object} canWrite={canWrite} />
      <SpecialDates object={object} canWrite={canWrite} />
      <RulesForm object={object} canWrite={canWrite} />
    </>
  );
}

function DetailsForm({ object }: { object: BookableObject }) {
  const update = useGraphQLMutation(UpdateObject, [['catalog']]);
  const [priceError, setPriceError] = useState<string | undefined>();
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const pricePerHour = centsOf(formText(form, 'pricePerHour'));
    const problem = priceProblem(pricePerHour);
    setPriceError(problem);
    if (!problem) update.mutate({ id: object.id, name: formText(form, 'name'), pricePerHour });
  };
  return (
    <Section title="Details">
      <form className="stack" onSubmit={submit} aria-label="Object details">
        <ErrorNotice error={formLevelError(update.error, ['name', 'pricePerHour'])} />
        {update.isSuccess ? <SuccessNotice>Saved.</SuccessNotice> : null}
        <div className="form-row">
          <Field
            label="Name"
            name="name"
            defaultValue={object.name}
            required
            error={fieldErrorOf(update.error, 'name')}
          />
          <Field
            label="Price per hour (EUR)"
            name="pricePerHour"
            inputMode="decimal"
            defaultValue={eurosOf(object.pricePerHour)}
            required
            error={priceError ?? fieldErrorOf(update.error, 'pricePerHour')}
          />
        </div>
        <div>
          <button type="submit" className="button button-primary" disabled={update.isPending}>
            Save details
          </button>
        </div>
      </form>
    </Section>
  );
}

function ScheduleForm({ object, canWrite }: { object: BookableObject; canWrite: boolean }) {
  const set = useGraphQLMutation(SetOpeningHours, [['catalog', 'object', object.id]]);
  const schedule = object.openingHours.schedule;
  const [open, setOpen] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(DAYS.map((day) => [day, schedule[day] !== null])),
  );

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: WeeklyScheduleInput = {};
    for (const day of DAYS) {
      if (open[day]) next[day] = { open: formText(form, `${day}-open`), close: formText(form, `${day}-close`) };
    }
    set.mutate({ objectId: object.id, schedule: next });
  };

  return (
    <Section
      title="Opening hours"
      description={`Local wall-clock time in ${object.accommodation.timeZone}. Closing at 24:00 means midnight.`}
    >
      <form className="stack" onSubmit={submit} aria-label="Opening hours">
        <ErrorNotice error={set.error} />
        {set.isSuccess ? <SuccessNotice>Opening hours saved.</SuccessNotice> : null}
        <div className="schedule" role="group" aria-label="Weekly schedule">
          <div className="schedule-row schedule-head" aria-hidden="true">
            <span>Day</span>
            <span>Open</span>
            <span>Opens</span>
            <span>Closes</span>
          </div>
          {DAYS.map((day) => {
            const hours = schedule[day];
            const label = day.charAt(0).toUpperCase() + day.slice(1);
            const errors = [
              fieldErrorOf(set.error, `schedule.${day}.open`),
              fieldErrorOf(set.error, `schedule.${day}.close`),
              fieldErrorOf(set.error, `schedule.${day}`),
            ].filter(Boolean);
            return (
              <div key={day} className="schedule-row">
                <span className="strong">{label}</span>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    aria-label={`Open on ${label}`}
                    checked={open[day]}
                    disabled={!canWrite}
                    onChange={(event) => setOpen({ ...open, [day]: event.target.checked })}
                  />
                  <span aria-hidden="true">{open[day] ? 'Open' : 'Closed'}</span>
                </label>
                {open[day] ? (
                  <>
                    <input
                      aria-label={`${label} opens`}
                      name={`${day}-open`}
                      defaultValue={hours?.open ?? '08:00'}
                      placeholder="08:00"
                      disabled={!canWrite}
                      aria-invalid={errors.length > 0 ? true : undefined}
                    />
                    <input
                      aria-label={`${label} closes`}
                      name={`${day}-close`}
                      defaultValue={hours?.close ?? '22:00'}
                      placeholder="22:00"
                      disabled={!canWrite}
                      aria-invalid={errors.length > 0 ? true : undefined}
                    />
                  </>
                ) : (
                  <span className="muted schedule-closed">Closed all day</span>
                )}
                {errors.length > 0 ? <p className="field-error schedule-error">{errors.join('; ')}</p> : null}
              </div>
            );
          })}
        </div>
        {canWrite ? (
          <div>
            <button type="submit" className="button button-primary" disabled={set.isPending}>
              Save opening hours
            </button>
          </div>
        ) : null}
      </form>
    </Section>
  );
}

function SpecialDates({ object, canWrite }: { object: BookableObject; canWrite: boolean }) {
  const set = useGraphQLMutation(SetSpecialDate, [['catalog', 'object', object.id]]);
  const remove = useGraphQLMutation(RemoveSpecialDate, [['catalog', 'object', object.id]]);
  const [closed, setClosed] = useState(true);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => formText(form, name).trim() || undefined;
    set.mutate(
      {
        objectId: object.id,
        date: formText(form, 'date'),
        closed,
        reason: text('reason'),
        open: closed ? undefined : text('open'),
        close: closed ? undefined : text('close'),
      },
      { onSuccess: () => formElement.reset() },
    );
  };

  const dates = object.openingHours.specialDates;
  return (
    <Section title="Special dates" description="Holidays and events that override the weekly hours.">
      <ErrorNotice error={remove.error} />
      {dates.length === 0 ? (
        <Empty>No special dates.</Empty>
      ) : (
        <TableWrap label="Special dates">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Hours</th>
              <th scope="col">Reason</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {dates.map((special) => (
              <tr key={special.date}>
                <td className="nowrap strong">{special.date}</td>
                <td>
                  {special.closed
                    ? 'Closed'
                    : special.open && special.close
                      ? `${special.open}–${special.close}`
                      : 'As usual'}
                </td>
                <td className="text">{special.reason || '—'}</td>
                <td className="actions">
                  {canWrite ? (
                    <ConfirmButton
                      label="Remove"
                      confirmLabel="Yes, remove"
                      question={`Remove ${special.date}?`}
                      busy={remove.isPending}
                      onConfirm={() => remove.mutate({ objectId: object.id, date: special.date })}
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      {canWrite ? (
        <form className="stack inset" onSubmit={submit} aria-label="Add a special date">
          <ErrorNotice error={formLevelError(set.error, ['date', 'reason', 'open', 'close', 'closed'])} />
          <div className="form-row">
            <Field label="Date" name="date" type="date" required error={fieldErrorOf(set.error, 'date')} />
            <Field
              label="Reason"
              name="reason"
              placeholder="e.g. Public holiday"
              error={fieldErrorOf(set.error, 'reason')}
            />
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={closed} onChange={(event) => setClosed(event.target.checked)} />
            <span>Closed all day</span>
          </label>
          {closed ? null : (
            <div className="form-row">
              <Field label="Opens" name="open" placeholder="10:00" error={fieldErrorOf(set.error, 'open')} />
              <Field label="Closes" name="close" placeholder="16:00" error={fieldErrorOf(set.error, 'close')} />
            </div>
          )}
          <div>
            <button type="submit" className="button button-secondary" disabled={set.isPending}>
              Add special date
            </button>
          </div>
        </form>
      ) : null}
    </Section>
  );
}

function RulesForm({ object, canWrite }: { object: BookableObject; canWrite: boolean }) {
  const set = useGraphQLMutation(SetBookingRules, [['catalog', 'object', object.id]]);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const rules = Object.fromEntries(RULES.map((rule) => [rule.name, Number(form.get(rule.name))]));
    set.mutate({ objectId: object.id, rules });
  };
  return (
    <Section title="Booking rules" description="What a guest may book: durations, the slot grid, notice and buffers.">
      <form className="stack" onSubmit={submit} aria-label="Booking rules">
        <ErrorNotice
          error={formLevelError(set.error, RULES.map((r) => `rules.${r.name}`).concat(RULES.map((r) => r.name)))}
        />
        {set.isSuccess ? <SuccessNotice>Booking rules saved.</SuccessNotice> : null}
        <div className="form-grid">
          {RULES.map((rule) => (
            <Field
              key={rule.name}
              label={`${rule.label} (${rule.unit})`}
              name={rule.name}
              type="number"
              min={0}
              defaultValue={object.bookingRules[rule.name]}
              disabled={!canWrite}
              required
              error={fieldErrorOf(set.error, `rules.${rule.name}`) ?? fieldErrorOf(set.error, rule.name)}
            />
          ))}
        </div>
        {canWrite ? (
          <div>
            <button type="submit" className="button button-primary" disabled={set.isPending}>
              Save booking rules
            </button>
          </div>
        ) : null}
      </form>
    </Section>
  );
}
