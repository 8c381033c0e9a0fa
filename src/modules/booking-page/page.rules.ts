import type { CancellationTier } from '../../kernel/db/types.js';
import type { ScheduledSlot, SlotView } from '../availability/index.js';

// The booking page's pure rules (unit-tested in page.rules.test.ts): which durations an object
// offers, which starts are free for a duration, the date picker's bounds, the accent colour's text
// colour, the page's Content-Security-Policy.

const MINUTE = 60_000;
/** A duration picker with more choices than this is cut (the longest are dropped). */
export const MAX_DURATION_CHOICES = 8;

export interface DurationRules {
  min_duration_minutes: number;
  max_duration_minutes: number;
  slot_increment_minutes: number;
}

/** The durations the page offers: from the minimum, in steps of the slot increment, up to the maximum. */
export function durationsOf(rules: DurationRules): number[] {
  const step = Math.max(1, rules.slot_increment_minutes);
  const first = Math.max(step, Math.ceil(rules.min_duration_minutes / step) * step);
  const out: number[] = [];
  for (let d = first; d <= rules.max_duration_minutes && out.length < MAX_DURATION_CHOICES; d += step) out.push(d);
  return out.length ? out : [first];
}

export interface FreeStart {
  start: Date;
  end: Date;
  startLabel: string;
  endLabel: string;
}

/**
 * The starts from which `durationMinutes` fits: consecutive slots of the day's grid (`grid`, in the
 * order availability answered `slots`) that are all free and touch each other.
 */
export function freeStarts(
  grid: readonly ScheduledSlot[],
  slots: readonly SlotView[],
  durationMinutes: number,
): FreeStart[] {
  const out: FreeStart[] = [];
  if (grid.length !== slots.length || grid.length === 0) return out;
  for (let i = 0; i < grid.length; i++) {
    const first = grid[i];
    if (!first || !slots[i]?.available) continue;
    const end = first.start + durationMinutes * MINUTE;
    let j = i;
    let fits = false;
    for (;;) {
      const slot = grid[j];
      if (!slot || !slots[j]?.available) break;
      if (j > i && slot.start !== grid[j - 1]?.end) break;
      if (slot.end >= end) {
        fits = slot.end === end;
        break;
      }
      j++;
    }
    const last = grid[j];
    if (fits && last)
      out.push({
        start: new Date(first.start),
        end: new Date(end),
        startLabel: first.startLabel,
        endLabel: last.endLabel,
      });
  }
  return out;
}

/** "1 h", "1 h 30 min", "45 min" (the same in English and German). */
export function durationLabel(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** Relative luminance of #rrggbb (WCAG 2.x). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export const DEFAULT_ACCENT = '#0f766e';

/**
 * The venue's accent for buttons and the text on it: white or near-black, whichever contrasts
 * more. An accent too light to read as text on white (below 4.5:1) is kept for fills only; links
 * and outlines use the default then.
 */
export function accentColours(accent: string | null): { accent: string; onAccent: string; link: string } {
  const colour = accent && /^#[0-9a-f]{6}$/.test(accent) ? accent : DEFAULT_ACCENT;
  const onAccent = contrastRatio(colour, '#ffffff') >= contrastRatio(colour, '#111827') ? '#ffffff' : '#111827';
  const link = contrastRatio(colour, '#ffffff') >= 4.5 ? colour : DEFAULT_ACCENT;
  return { accent: colour, onAccent, link };
}

/** The policy's tiers as the page lists them: largest notice first. */
export function policyLines(tiers: readonly CancellationTier[]): CancellationTier[] {
  return [...tiers].sort((a, b) => b.hoursBeforeStart - a.hoursBeforeStart);
}

/** The VAT a gross price includes at `basisPoints` (1900 = 19 %), in cents. */
export function includedVat(gross: number, basisPoints: number): number {
  return Math.round(gross - (gross * 10_000) / (10_000 + basisPoints));
}

/** An origin as browsers send it (scheme://host[:port]), or undefined. */
export function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * The page's Content-Security-Policy: nothing from another host; the page's own script and
 * stylesheet, its inline colours by nonce, the logo as a data: URL. Framing: never for the page
 * itself, only the venue's allowed origins for the embed (an embed with no allowed origin: none).
 * No form-action: Chrome applies it to the redirects after a submit, and a booking that pays
 * online is redirected on to the payment provider.
 */
export function pageCsp(nonce: string, frameAncestors: readonly string[] | null): string {
  const ancestors = frameAncestors?.length ? frameAncestors.join(' ') : "'none'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}
