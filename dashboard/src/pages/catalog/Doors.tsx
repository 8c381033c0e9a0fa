import { useState, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import type { DashboardCatalogQuery } from '../../gql/graphql';
import { useGraphQLMutation } from '../../api/hooks';
import {
  CheckboxGroup,
  Empty,
  ErrorNotice,
  Field,
  Section,
  SelectField,
  TableWrap,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formText } from '../../form-data';

const CreateDoor = graphql(`
  mutation DashboardCreateDoor(
    $name: String!
    $gpioPin: Int!
    $behavior: String
    $unlockDurationSeconds: Int
    $objectIds: [ID!]
  ) {
    createDoor(
      name: $name
      gpioPin: $gpioPin
      behavior: $behavior
      unlockDurationSeconds: $unlockDurationSeconds
      objectIds: $objectIds
    ) {
      id
    }
  }
`);

const UpdateDoor = graphql(`
  mutation DashboardUpdateDoor(
    $id: ID!
    $name: String
    $gpioPin: Int
    $behavior: String
    $unlockDurationSeconds: Int
    $objectIds: [ID!]
  ) {
    updateDoor(
      id: $id
      name: $name
      gpioPin: $gpioPin
      behavior: $behavior
      unlockDurationSeconds: $unlockDurationSeconds
      objectIds: $objectIds
    ) {
      id
    }
  }
`);

const DeleteDoor = graphql(`
  mutation DashboardDeleteDoor($id: ID!) {
    deleteDoor(id: $id)
  }
`);

type Door = DashboardCatalogQuery['doors'][number];
const FIELDS = ['name', 'gpioPin', 'behavior', 'unlockDurationSeconds', 'objectIds'];

function readDoor(form: FormData) {
  const integer = (name: string) => {
    const raw = formText(form, name).trim();
    return raw === '' ? undefined : Number(raw);
  };
  return {
    name: formText(form, 'name'),
    gpioPin: integer('gpioPin') ?? -1,
    behavior: formText(form, 'behavior', 'unlock_per_scan'),
    unlockDurationSeconds: integer('unlockDurationSeconds'),
    objectIds: form.getAll('objectIds').map(String),
  };
}

function DoorForm({
  door,
  objects,
  label,
  submitLabel,
  error,
  busy,
  onSubmit,
  onCancel,
}: {
  door?: Door;
  objects: { id: string; name: string }[];
  label: string;
  submitLabel: string;
  error: unknown;
  busy: boolean;
  onSubmit: (values: ReturnType<typeof readDoor>) => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="stack inset"
      aria-label={label}
      onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
        event.preventDefault();
        onSubmit(readDoor(new FormData(event.currentTarget)));
      }}
    >
      <ErrorNotice error={formLevelError(error, FIELDS)} />
      <div className="form-row">
        <Field label="Name" name="name" defaultValue={door?.name} required error={fieldErrorOf(error, 'name')} />
        <Field
          label="GPIO pin"
          name="gpioPin"
          type="number"
          min={0}
          defaultValue={door?.gpioPin}
          required
          error={fieldErrorOf(error, 'gpioPin')}
        />
        <SelectField
          label="Behaviour"
          name="behavior"
          defaultValue={door?.behavior ?? 'unlock_per_scan'}
          error={fieldErrorOf(error, 'behavior')}
        >
          <option value="unlock_per_scan">Unlock on each scan</option>
          <option value="toggle">Toggle</option>
        </SelectField>
        <Field
          label="Unlock seconds"
          name="unlockDurationSeconds"
          type="number"
          min={1}
          defaultValue={door?.unlockDurationSeconds}
          error={fieldErrorOf(error, 'unlockDurationSeconds')}
        />
      </div>
      {objects.length > 0 ? (
        <CheckboxGroup
          legend="Objects it serves"
          name="objectIds"
          options={objects.map((o) => ({ value: o.id, label: o.name }))}
          defaultChecked={door?.objectIds ?? []}
          error={fieldErrorOf(error, 'objectIds')}
        />
      ) : null}
      <div className="button-row">
        <button type="submit" className="button button-primary button-small" disabled={busy}>
          {submitLabel}
        </button>
        <button type="button" className="button button-secondary button-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function DoorsSection({
  doors,
  objects,
  canWrite,
}: {
  doors: Door[];
  objects: { id: string; name: string }[];
  canWrite: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const create = useGraphQLMutation(CreateDoor, [['catalog'], ['devices']]);
  const update = useGraphQLMutation(UpdateDoor, [['catalog'], ['devices']]);
  const remove = useGraphQLMutation(DeleteDoor, [['catalog'], ['devices']]);
  const objectName = (id: string) => objects.find((o) => o.id === id)?.name ?? id;
  const editedDoor = doors.find((d) => d.id === editing);

  return (
    <Section
      title="Doors"
      description="Each door is driven by a controller (Admin → Devices) and opens for bookings of the objects it serves."
      actions={
        canWrite && !adding ? (
          <button type="button" className="button button-secondary button-small" onClick={() => setAdding(true)}>
            Add door
          </button>
        ) : undefined
      }
    >
      <ErrorNotice error={remove.error} />
      {adding ? (
        <DoorForm
          objects={objects}
          label="New door"
          submitLabel="Create door"
          error={create.error}
          busy={create.isPending}
          onCancel={() => setAdding(false)}
          onSubmit={(values) => create.mutate(values, { onSuccess: () => setAdding(false) })}
        />
      ) : null}
      {editedDoor ? (
        <DoorForm
          key={editedDoor.id}
          door={editedDoor}
          objects={objects}
          label={`Edit ${editedDoor.name}`}
          submitLabel="Save door"
          error={update.error}
          busy={update.isPending}
          onCancel={() => setEditing(null)}
          onSubmit={(values) => update.mutate({ id: editedDoor.id, ...values }, { onSuccess: () => setEditing(null) })}
        />
      ) : null}
      {doors.length === 0 ? (
        <Empty>No doors yet.</Empty>
      ) : (
        <TableWrap label="Doors" stackable>
          <thead>
            <tr>
              <th scope="col">Door</th>
              <th scope="col">GPIO pin</th>
              <th scope="col">Behaviour</th>
              <th scope="col">Objects</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {doors.map((door) => (
              <tr key={door.id}>
                <td className="strong nowrap" data-label="Door">
                  {door.name}
                </td>
                <td data-label="GPIO pin">{door.gpioPin}</td>
                <td data-label="Behaviour">
                  {door.behavior === 'toggle' ? 'Toggle' : `Unlock ${door.unlockDurationSeconds} s per scan`}
                </td>
                <td data-label="Objects">
                  {door.objectIds.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    <ul className="tags">
                      {door.objectIds.map((id) => (
                        <li key={id} className="tag">
                          {objectName(id)}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="actions">
                  {canWrite ? (
                    <>
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        onClick={() => setEditing(door.id)}
                      >
                        Edit
                      </button>
                      <ConfirmButton
                        label="Delete"
                        confirmLabel="Yes, delete"
                        question={`Delete ${door.name}?`}
                        busy={remove.isPending}
                        onConfirm={() => remove.mutate({ id: door.id })}
                      />
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </Section>
  );
}
