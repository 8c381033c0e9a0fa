import { IANAZone, Zone, type ZoneOffsetFormat, type ZoneOffsetOptions } from 'luxon';

// Luxon finds an IANA zone's offset at an instant by formatting that instant with
// Intl.DateTimeFormat (formatToParts) every time: pricing, booking rules and availability ask for
// the same few instants of the same few zones on every request, and the profile showed that lookup
// as the largest single cost of the price preview (12 % of its CPU). Offsets change only at
// transitions, which fall on whole minutes, so an offset looked up once holds for its whole minute.

/** An IANA zone whose offsets are remembered per minute; otherwise the zone itself (type 'iana', same name, so Intl formatting is unchanged). */
class RememberingZone extends Zone<true> {
  private readonly offsets = new Map<number, number>();

  constructor(private readonly zone: IANAZone) {
    super();
  }

  override get type(): string {
    return 'iana';
  }
  override get name(): string {
    return this.zone.name;
  }
  get ianaName(): string {
    return this.zone.name;
  }
  override get isUniversal(): false {
    return false;
  }
  override get isValid(): true {
    return true;
  }
  override offsetName(ts: number, options: ZoneOffsetOptions): string {
    return this.zone.offsetName(ts, options) ?? '';
  }
  override formatOffset(ts: number, format: ZoneOffsetFormat): string {
    return this.zone.formatOffset(ts, format);
  }
  override offset(ts: number): number {
    const minute = Math.floor(ts / 60_000);
    let offset = this.offsets.get(minute);
    if (offset === undefined) {
      offset = this.zone.offset(ts);
      if (this.offsets.size >= MAX_MINUTES_PER_ZONE) this.offsets.clear();
      this.offsets.set(minute, offset);
    }
    return offset;
  }
  override equals(other: Zone): boolean {
    return other.type === 'iana' && other.name === this.name;
  }
}

const MAX_MINUTES_PER_ZONE = 50_000;
const MAX_ZONES = 1_000;
const zones = new Map<string, Zone>();

/**
 * The zone to hand Luxon for an IANA name (as `{ zone: zoneNamed(name) }`): one remembering
 * instance per valid name; an invalid name is passed through, so Luxon reports it as it would.
 */
export function zoneNamed(name: string): Zone | string {
  let zone = zones.get(name);
  if (!zone) {
    const iana = IANAZone.create(name);
    if (!iana.isValid) return name;
    if (zones.size >= MAX_ZONES) zones.clear();
    zone = new RememberingZone(iana);
    zones.set(name, zone);
  }
  return zone;
}
