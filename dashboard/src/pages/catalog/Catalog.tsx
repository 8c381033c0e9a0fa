import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { DashboardCatalogQuery } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Empty,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  Section,
  SelectField,
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { money } from '../../format';
import { useSession } from '../../session';
import { centsOf, priceProblem } from './money-input';
import { DoorsSection } from './Doors';
import { formText } from '../../form-data';

const CatalogQuery = graphql(`
  query DashboardCatalog {
    accommodations {
      id
      name
      address
      timeZone
      objects {
        id
        name
        pricePerHour
      }
    }
    doors {
      id
      name
      gpioPin
      behavior
      unlockDurationSeconds
      objectIds
    }
  }
`);

const CreateAccommodation = graphql(`
  mutation DashboardCreateAccommodation($name: String!, $address: String!, $timeZone: String!) {
    createAccommodation(name: $name, address: $address, timeZone: $timeZone) {
      id
    }
  }
`);

const UpdateAccommodation = graphql(`
  mutation DashboardUpdateAccommodation($id: ID!, $name: String, $address: String, $timeZone: String) {
    updateAccommodation(id: $id, name: $name, address: $address, timeZone: $timeZone) {
      id
    }
  }
`);

const DeleteAccommodation = graphql(`
  mutation DashboardDeleteAccommodation($id: ID!) {
    deleteAccommodation(id: $id)
  }
`);

const CreateObject = graphql(`
  mutation DashboardCreateObject($accommodationId: ID!, $name: String!, $pricePerHour: Int!) {
    createObject(accommodationId: $accommodationId, name: $name, pricePerHour: $pricePerHour) {
      id
    }
  }
`);

const DeleteObject = graphql(`
  mutation DashboardDeleteObject($id: ID!) {
    deleteObject(id: $id)
  }
`);

type Accommodation = DashboardCatalogQuery['accommodations'][number];

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC', 'Europe/Berlin', 'Europe/London'];
  }
}

function TimeZoneField({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  const zones = timeZones();
  const initial = defaultValue ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <SelectField label="Time zone" name="timeZone" defaultValue={initial} error={error}>
      {(zones.includes(initial) ? zones : [initial, ...zones]).map((zone) => (
        <option key={zone} value={zone}>
          {zone}
        </option>
      ))}
    </SelectField>
  );
}

export function CatalogPage() {
  const session = useSession();
  const canWrite = session.can('catalog:write');
  const catalog = useGraphQL(['catalog'], CatalogQuery, {});
  const create = useGraphQLMutation(CreateAccommodation, [['catalog'], ['objects']]);
  const [adding, setAdding] = useState(false);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate(
      { name: formText(form, 'name'), address: formText(form, 'address'), timeZone: formText(form, 'timeZone') },
      { onSuccess: () => setAdding(false) },
    );
  };

  const allObjects =
    catalog.data?.accommodations.flatMap((a) => a.objects.map((o) => ({ id: o.id, name: `${o.name} · ${a.name}` }))) ??
    [];

  return (
    <>
      <PageHeader
        title="Catalog"
        description="Accommodations, the objects guests book in them, and the doors that let guests in."
        actions={
          canWrite && !adding ? (
            <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
              Add accommodation
            </button>
          ) : undefined
        }
      />
      {adding ? (
        <Section title="New accommodation">
          <form className="stack" onSubmit={submit} aria-label="New accommodation">
            <ErrorNotice error={formLevelError(create.error, ['name', 'address', 'timeZone'])} />
            <div className="form-row">
              <Field label="Name" name="name" required error={fieldErrorOf(create.error, 'name')} />
              <Field label="Address" name="address" required error={fieldErrorOf(create.error, 'address')} />
              <TimeZoneField error={fieldErrorOf(create.error, 'timeZone')} />
            </div>
            <div className="button-row">
              <button type="submit" className="button button-primary" disabled={create.isPending}>
                Create accommodation
              </button>
              <button type="button" className="button button-secondary" onClick={() => setAdding(false)}>
                Cancel
              </button>
            </div>
          </form>
        </Section>
      ) : null}
      <ErrorNotice error={catalog.error} />
      {catalog.isPending ? <Loading /> : null}
      {catalog.data?.accommodations.length === 0 ? (
        <Empty>No accommodations yet. Add one to start taking bookings.</Empty>
      ) : null}
      {catalog.data?.accommodations.map((accommodation) => (
        <AccommodationCard key={accommodation.id} accommodation={accommodation} canWrite={canWrite} />
      ))}
      {catalog.data ? <DoorsSection doors={catalog.data.doors} objects={allObjects} canWrite={canWrite} /> : null}
    </>
  );
}

function AccommodationCard({ accommodation, canWrite }: { accommodation: Accommodation; canWrite: boolean }) {
  const [editing, setEditing] = useState(false);
  const [addingObject, setAddingObject] = useState(false);
  const update = useGraphQLMutation(UpdateAccommodation, [['catalog']]);
  const remove = useGraphQLMutation(DeleteAccommodation, [['catalog'], ['objects']]);
  const createObject = useGraphQLMutation(CreateObject, [['catalog'], ['objects']]);
  const deleteObject = useGraphQLMutation(DeleteObject, [['catalog'], ['objects']]);

  const save = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    update.mutate(
      {
        id: accommodation.id,
        name: formText(form, 'name'),
        address: formText(form, 'address'),
        timeZone: formText(form, 'timeZone'),
      },
      { onSuccess: () => setEditing(false) },
    );
  };

  const [priceError, setPriceError] = useState<string | undefined>();
  const addObject = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const pricePerHour = centsOf(formText(form, 'pricePerHour'));
    const problem = priceProblem(pricePerHour);
    setPriceError(problem);
    if (problem) return;
    createObject.mutate(
      { accommodationId: accommodation.id, name: formText(form, 'name'), pricePerHour },
      { onSuccess: () => setAddingObject(false) },
    );
  };

  return (
    <Section
      title={accommodation.name}
      description={`${accommodation.address} · ${accommodation.timeZone}`}
      actions={
        canWrite && !editing ? (
          <>
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing(true)}>
              Edit
            </button>
            <ConfirmButton
              label="Delete"
              confirmLabel="Yes, delete"
              question={`Delete ${accommodation.name} and its objects?`}
              busy={remove.isPending}
              onConfirm={() => remove.mutate({ id: accommodation.id })}
            />
          </>
        ) : undefined
      }
    >
      <ErrorNotice error={remove.error ?? deleteObject.error} />
      {editing ? (
        <form className="stack inset" onSubmit={save} aria-label={`Edit ${accommodation.name}`}>
          <ErrorNotice error={formLevelError(update.error, ['name', 'address', 'timeZone'])} />
          <div className="form-row">
            <Field
              label="Name"
              name="name"
              defaultValue={accommodation.name}
              required
              error={fieldErrorOf(update.error, 'name')}
            />
            <Field
              label="Address"
              name="address"
              defaultValue={accommodation.address}
              required
              error={fieldErrorOf(update.error, 'address')}
            />
            <TimeZoneField defaultValue={accommodation.timeZone} error={fieldErrorOf(update.error, 'timeZone')} />
          </div>
          <div className="button-row">
            <button type="submit" className="button button-primary button-small" disabled={update.isPending}>
              Save
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {accommodation.objects.length === 0 ? (
        <Empty>No bookable objects yet.</Empty>
      ) : (
        <TableWrap label={`Objects of ${accommodation.name}`} stackable>
          <thead>
            <tr>
              <th scope="col">Object</th>
              <th scope="col" className="numeric">
                Price per hour
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {accommodation.objects.map((object) => (
              <tr key={object.id}>
                <td data-label="Object">
                  <Link to={`/catalog/objects/${object.id}`} className="strong">
                    {object.name}
                  </Link>
                </td>
                <td className="numeric" data-label="Price per hour">
                  {money(object.pricePerHour)}
                </td>
                <td className="actions">
                  <Link to={`/catalog/objects/${object.id}`} className="button button-secondary button-small">
                    Hours and rules
                  </Link>
                  {canWrite ? (
                    <ConfirmButton
                      label="Delete"
                      confirmLabel="Yes, delete"
                      question={`Delete ${object.name}?`}
                      busy={deleteObject.isPending}
                      onConfirm={() => deleteObject.mutate({ id: object.id })}
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      {canWrite ? (
        addingObject ? (
          <form className="stack inset" onSubmit={addObject} aria-label={`New object in ${accommodation.name}`}>
            <ErrorNotice error={formLevelError(createObject.error, ['name', 'pricePerHour'])} />
            <div className="form-row">
              <Field
                label="Name"
                name="name"
                required
                placeholder="e.g. Court 3"
                error={fieldErrorOf(createObject.error, 'name')}
              />
              <Field
                label="Price per hour (EUR)"
                name="pricePerHour"
                inputMode="decimal"
                required
                placeholder="20.00"
                error={priceError ?? fieldErrorOf(createObject.error, 'pricePerHour')}
              />
            </div>
            <p className="field-hint">
              New objects open every day 08:00–22:00 with the default booking rules; change them on the object's page.
            </p>
            <div className="button-row">
              <button type="submit" className="button button-primary button-small" disabled={createObject.isPending}>
                Create object
              </button>
              <button
                type="button"
                className="button button-secondary button-small"
                onClick={() => setAddingObject(false)}
              >
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <div className="card-footer">
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => setAddingObject(true)}
            >
              Add object
            </button>
          </div>
        )
      ) : null}
    </Section>
  );
}
