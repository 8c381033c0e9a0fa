/**
 * Whether a query failed because its connection broke, not because of the query: PostgreSQL
 * ended the backend (57P01 administrator command, 57P02 crash, 57P03 starting up), the
 * connection failed (class 08), or the socket closed under the pg client. A fresh connection may
 * succeed where this one failed, so a read that is safe to repeat can try once more.
 */
export function isBrokenConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code === '57P01' || code === '57P02' || code === '57P03' || code.startsWith('08')) return true;
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNREFUSED') return true;
  }
  return /^Connection terminated|not queryable/.test(error.message);
}
