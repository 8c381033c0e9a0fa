/** "20", "20.5", "20,50" → 2050 cents; NaN stays NaN so the API names the field. */
export function centsOf(input: string): number {
  const value = Number(input.trim().replace(',', '.'));
  return Number.isFinite(value) && input.trim() !== '' ? Math.round(value * 100) : Number.NaN;
}

export function eurosOf(cents: number): string {
  return (cents / 100).toFixed(2);
}

export const PRICE_HINT = 'must be an amount in euros, such as 20.00';
