/** "20", "20.5", "20,50" → 2050 cents; NaN stays NaN so the API names the field. */
export function centsOf(input: string): number {
  const value = Number(input.trim().replace(',', '.'));
  return Number.isFinite(value) && input.trim() !== '' ? Math.round(value * 100) : Number.NaN;
}

export function eurosOf(cents: number): string {
  return (cents / 100).toFixed(2);
}

export const PRICE_HINT = 'must be an amount in euros, such as 20.00';

/** The API's largest price per hour (MAX_PRICE_PER_HOUR in src/modules/catalog/catalog.commands.ts), in cents. */
export const MAX_PRICE_CENTS = 100_000_000;

/** What is wrong with a typed price, checked before it is sent (the API counts in cents). */
export function priceProblem(cents: number): string | undefined {
  if (Number.isNaN(cents)) return PRICE_HINT;
  if (cents < 0) return 'must not be negative';
  if (cents > MAX_PRICE_CENTS)
    return `must be at most ${new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(MAX_PRICE_CENTS / 100)}`;
  return undefined;
}
