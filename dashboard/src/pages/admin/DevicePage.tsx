import { Link, useParams } from 'react-router';
import { graphql } from '../../gql';
import { useGraphQL } from '../../api/hooks';
import { Badge, Empty, ErrorNotice, Loading, PageHeader, Section, TableWrap } from '../../components/ui';
import { dateTime, relative } from '../../format';

const DeviceQuery = graphql(`
  query DashboardDevice($id: ID!) {
    device(id: $id) {
      id
      name
      status
      online
      lastHeartbeatAt
      serial
      firmwareVersion
      doors {
        id
        name
      }
    }
    deviceCommands(deviceId: $id, first: 100) {
      command {
        id
        type
        status
        payload
        created_at
        expires_at
      }
      doorId
      deliveredAt
      completedAt
      result
      error
    }
    doors {
      id
      name
    }
  }
`);

/** A controller's report as short text: its JSON, or "—" when it sent nothing. */
function resultText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object' && Object.keys(value).length === 0) return 'no details';
  return JSON.stringify(value);
}

/** One controller: what it is, and every command queued for it with what became of it. */
export function DevicePage() {
  const { id = '' } = useParams();
  const query = useGraphQL(['devices', id, 'commands'], DeviceQuery, { id }, { refetchInterval: 10_000 });
  const device = query.data?.device;
  const doorName = (doorId: string | null | undefined) =>
    doorId ? (query.data?.doors.find((d) => d.id === doorId)?.name ?? 'a deleted door') : '—';
  const commands = query.data?.deviceCommands ?? [];
  return (
    <>
      <p className="breadcrumb">
        <Link to="/admin/devices">Devices</Link> / {device?.name ?? 'Device'}
      </p>
      <PageHeader
        title={device?.name ?? 'Device'}
        description={device ? <>Commands queued for this controller and what it reported, newest first.</> : undefined}
      />
      <ErrorNotice error={query.error} />
      {device ? (
        <Section title="Controller">
          <dl className="facts facts-row">
            <div>
              <dt>Status</dt>
              <dd>
                <Badge value={device.status} />{' '}
                {device.status === 'ACTIVE' ? <Badge value={device.online ? 'online' : 'offline'} /> : null}
              </dd>
            </div>
            <div>
              <dt>Last heartbeat</dt>
              <dd>
                {device.lastHeartbeatAt
                  ? `${relative(device.lastHeartbeatAt)} (${dateTime(device.lastHeartbeatAt)})`
                  : 'none yet'}
              </dd>
            </div>
            <div>
              <dt>Doors</dt>
              <dd>{device.doors.length ? device.doors.map((d) => d.name).join(', ') : 'none'}</dd>
            </div>
            {device.serial ? (
              <div>
                <dt>Serial · firmware</dt>
                <dd>
                  {device.serial}
                  {device.firmwareVersion ? ` · ${device.firmwareVersion}` : ''}
                </dd>
              </div>
            ) : null}
          </dl>
        </Section>
      ) : null}
      <Section
        title="Command history"
        description="A command is handed out with the controller's next heartbeat; a pending one expires after 60 seconds."
      >
        {query.isPending ? (
          <Loading />
        ) : commands.length === 0 ? (
          <Empty>No commands yet. Unlock a door from the Devices page to send one.</Empty>
        ) : (
          <TableWrap label="Command history" stackable>
            <thead>
              <tr>
                <th scope="col">Command</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Handed out</th>
                <th scope="col">Reported</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {commands.map((entry) => (
                <tr key={entry.command.id}>
                  <td data-label="Command">
                    <span className="strong block">
                      {entry.command.type} {doorName(entry.doorId)}
                    </span>
                    <code className="small muted">{entry.command.id}</code>
                  </td>
                  <td data-label="Status">
                    <Badge value={entry.command.status} />
                  </td>
                  <td className="nowrap" data-label="Created">
                    {dateTime(entry.command.created_at)}
                  </td>
                  <td className="nowrap" data-label="Handed out">
                    {entry.deliveredAt
                      ? dateTime(entry.deliveredAt)
                      : entry.command.status === 'expired'
                        ? 'never (expired)'
                        : '—'}
                  </td>
                  <td className="nowrap" data-label="Reported">
                    {entry.completedAt ? dateTime(entry.completedAt) : '—'}
                  </td>
                  <td className="text" data-label="Result">
                    {entry.error ? <span className="danger-text">{entry.error}</span> : resultText(entry.result)}
                  </td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      </Section>
    </>
  );
}
