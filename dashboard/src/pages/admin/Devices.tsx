import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { DashboardDevicesQuery } from '../../gql/graphql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  Badge,
  CheckboxGroup,
  Empty,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  SecretReveal,
  Section,
  SelectField,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dateTime, relative } from '../../format';
import { useSession } from '../../session';
import { formText } from '../../form-data';

const DevicesQuery = graphql(`
  query DashboardDevices {
    devices {
      id
      name
      status
      online
      lastHeartbeatAt
      serial
      firmwareVersion
      keyPrefix
      activationExpiresAt
      createdAt
      telemetry {
        cpuPercent
        memoryPercent
        wifiSignalDbm
        doorStates {
          doorId
          state
        }
      }
      doors {
        id
        name
        gpioPin
      }
    }
    doors {
      id
      name
    }
  }
`);

const RegisterDevice = graphql(`
  mutation DashboardRegisterDevice($name: String!, $doorIds: [ID!]!) {
    registerDevice(name: $name, doorIds: $doorIds) {
      activationCode
      device {
        id
        name
      }
    }
  }
`);

const SetDeviceDoors = graphql(`
  mutation DashboardSetDeviceDoors($id: ID!, $doorIds: [ID!]!) {
    setDeviceDoors(id: $id, doorIds: $doorIds) {
      id
    }
  }
`);

const RevokeDevice = graphql(`
  mutation DashboardRevokeDevice($id: ID!) {
    revokeDevice(id: $id) {
      id
      status
    }
  }
`);

const QueueUnlock = graphql(`
  mutation DashboardQueueUnlock($deviceId: ID!, $doorId: ID!) {
    createDeviceCommand(deviceId: $deviceId, type: "unlock", doorId: $doorId) {
      command {
        id
        status
        expires_at
      }
    }
  }
`);

type DeviceRow = DashboardDevicesQuery['devices'][number];

export function DevicesPage() {
  const session = useSession();
  const canWrite = session.can('devices:write');
  const devices = useGraphQL(['devices'], DevicesQuery, {}, { refetchInterval: 15_000 });
  const register = useGraphQLMutation(RegisterDevice, [['devices']]);
  const revoke = useGraphQLMutation(RevokeDevice, [['devices']]);
  const [registered, setRegistered] = useState<{ name: string; code: string } | null>(null);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    register.mutate(
      { name: formText(form, 'name'), doorIds: form.getAll('doorIds').map(String) },
      {
        onSuccess: (data) => {
          setRegistered({ name: data.registerDevice.device.name, code: data.registerDevice.activationCode });
          formElement.reset();
        },
      },
    );
  };

  const doors = devices.data?.doors ?? [];
  const online = devices.data?.devices.filter((d) => d.online).length ?? 0;

  return (
    <>
      <PageHeader
        title="Devices"
        description="Door controllers at your venue. A controller activates once with its one-time code, then polls Portier with its own key."
      />
      {canWrite ? (
        <Section title="Register a device">
          <form className="stack" onSubmit={submit} aria-label="Register a device">
            <ErrorNotice error={formLevelError(register.error, ['name', 'doorIds'])} />
            <Field
              label="Name"
              name="name"
              required
              placeholder="e.g. Main entrance controller"
              error={fieldErrorOf(register.error, 'name')}
            />
            {doors.length === 0 ? (
              <Empty>Create doors in the Catalog first: a device drives one or more doors.</Empty>
            ) : (
              <CheckboxGroup
                legend="Doors it drives"
                name="doorIds"
                options={doors.map((door) => ({ value: door.id, label: door.name }))}
                error={fieldErrorOf(register.error, 'doorIds')}
              />
            )}
            <div>
              <button type="submit" className="button button-primary" disabled={register.isPending}>
                Register device
              </button>
            </div>
          </form>
          {registered ? (
            <SecretReveal
              label={`Activation code for “${registered.name}”`}
              value={registered.code}
              note="Enter it on the controller within 7 days (POST /api/devices/activate). It is shown only once."
            />
          ) : null}
        </Section>
      ) : null}
      <Section
        title="Controllers"
        description={
          devices.data ? `${online} online, ${devices.data.devices.length - online} offline or not active` : undefined
        }
      >
        <ErrorNotice error={devices.error ?? revoke.error} />
        {devices.isPending ? (
          <Loading />
        ) : devices.data?.devices.length === 0 ? (
          <Empty>No devices registered yet.</Empty>
        ) : (
          <ul className="device-list">
            {devices.data?.devices.map((device) => (
              <DeviceCard
                key={device.id}
                device={device}
                allDoors={doors}
                canWrite={canWrite}
                onRevoke={() => revoke.mutate({ id: device.id })}
                revoking={revoke.isPending}
              />
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function DeviceCard({
  device,
  allDoors,
  canWrite,
  onRevoke,
  revoking,
}: {
  device: DeviceRow;
  allDoors: { id: string; name: string }[];
  canWrite: boolean;
  onRevoke: () => void;
  revoking: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const setDoors = useGraphQLMutation(SetDeviceDoors, [['devices']]);
  const unlock = useGraphQLMutation(QueueUnlock, [['devices']]);
  const [unlockDoor, setUnlockDoor] = useState(device.doors[0]?.id ?? '');
  const stateOf = (doorId: string) => device.telemetry?.doorStates.find((s) => s.doorId === doorId)?.state;
  const active = device.status === 'ACTIVE';

  const saveDoors = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setDoors.mutate(
      { id: device.id, doorIds: form.getAll('doorIds').map(String) },
      { onSuccess: () => setEditing(false) },
    );
  };

  return (
    <li className="device">
      <div className="device-head">
        <div>
          <h3>
            <Link to={`/admin/devices/${device.id}`}>{device.name}</Link>
          </h3>
          <p className="muted small">
            {device.keyPrefix ? <code>{device.keyPrefix}…</code> : 'not activated'}
            {device.serial ? ` · serial ${device.serial}` : ''}
            {device.firmwareVersion ? ` · firmware ${device.firmwareVersion}` : ''}
          </p>
        </div>
        <div className="device-badges">
          <Badge value={device.status} />
          {active ? <Badge value={device.online ? 'online' : 'offline'} /> : null}
        </div>
      </div>
      <dl className="facts">
        <div>
          <dt>Last heartbeat</dt>
          <dd>
            {device.lastHeartbeatAt
              ? `${relative(device.lastHeartbeatAt)} (${dateTime(device.lastHeartbeatAt)})`
              : 'none yet'}
          </dd>
        </div>
        {device.status === 'PENDING_ACTIVATION' ? (
          <div>
            <dt>Code valid until</dt>
            <dd>{dateTime(device.activationExpiresAt)}</dd>
          </div>
        ) : null}
        {device.telemetry ? (
          <div>
            <dt>Telemetry</dt>
            <dd>
              CPU {device.telemetry.cpuPercent}% · memory {device.telemetry.memoryPercent}% · Wi-Fi{' '}
              {device.telemetry.wifiSignalDbm} dBm
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Doors</dt>
          <dd>
            {device.doors.length === 0 ? (
              'none'
            ) : (
              <ul className="tags">
                {device.doors.map((door) => (
                  <li key={door.id} className="tag">
                    {door.name}
                    {stateOf(door.id) ? ` · ${stateOf(door.id) ?? ''}` : ''}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>
      <ErrorNotice error={setDoors.error ?? unlock.error} />
      {unlock.data ? (
        <p className="muted small" role="status">
          Unlock queued; the controller picks it up with its next heartbeat (expires{' '}
          {dateTime(unlock.data.createDeviceCommand.command.expires_at)}).
        </p>
      ) : null}
      {canWrite && device.status !== 'REVOKED' ? (
        editing ? (
          <form className="stack inset" onSubmit={saveDoors} aria-label={`Doors of ${device.name}`}>
            <CheckboxGroup
              legend="Doors it drives"
              name="doorIds"
              options={allDoors.map((door) => ({ value: door.id, label: door.name }))}
              defaultChecked={device.doors.map((d) => d.id)}
            />
            <div className="button-row">
              <button type="submit" className="button button-primary button-small" disabled={setDoors.isPending}>
                Save doors
              </button>
              <button type="button" className="button button-secondary button-small" onClick={() => setEditing(false)}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <div className="button-row">
            {active && device.doors.length > 0 ? (
              <form
                className="inline-form"
                aria-label={`Unlock a door of ${device.name}`}
                onSubmit={(event) => {
                  event.preventDefault();
                  unlock.mutate({ deviceId: device.id, doorId: unlockDoor });
                }}
              >
                <SelectField
                  label="Door to unlock"
                  value={unlockDoor}
                  onChange={(event) => setUnlockDoor(event.target.value)}
                  className="field-compact"
                >
                  {device.doors.map((door) => (
                    <option key={door.id} value={door.id}>
                      {door.name}
                    </option>
                  ))}
                </SelectField>
                <button type="submit" className="button button-secondary button-small" disabled={unlock.isPending}>
                  Unlock
                </button>
              </form>
            ) : null}
            <Link className="button button-secondary button-small" to={`/admin/devices/${device.id}`}>
              Command history
            </Link>
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing(true)}>
              Change doors
            </button>
            <ConfirmButton
              label="Revoke"
              confirmLabel="Yes, revoke"
              question={`Revoke “${device.name}”? Its key stops working at once.`}
              busy={revoking}
              onConfirm={onRevoke}
            />
          </div>
        )
      ) : null}
    </li>
  );
}
