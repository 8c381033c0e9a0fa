import { graphql } from '../gql';
import { useGraphQL } from './hooks';

const DoorNamesQuery = graphql(`
  query DashboardDoorNames {
    doors {
      id
      name
    }
  }
`);

/**
 * A door's name by its id, for the access log (which records the id the controller sent). A door
 * deleted since, or an id no door has, reads as "unknown door" with the start of its id.
 */
export function useDoorNames(enabled = true): (doorId: string) => string {
  const doors = useGraphQL(['catalog', 'doorNames'], DoorNamesQuery, {}, { enabled });
  const names = new Map((doors.data?.doors ?? []).map((door) => [door.id, door.name]));
  return (doorId) => names.get(doorId) ?? (doors.isPending && enabled ? '…' : `unknown door ${doorId.slice(0, 8)}`);
}
