export function TestResult({
  result,
}: {
  result: { eventId: string; success: boolean; statusCode: number | null; durationMs: number; error: string | null };
}) {
  return (
    <div className={`notice ${result.success ? 'notice-success' : 'notice-error'}`} role="status">
      <strong>{result.success ? 'Test event delivered' : 'Test event failed'}</strong>
      <span>
        {result.statusCode !== null ? `HTTP ${result.statusCode}` : 'no response'} in {result.durationMs} ms
        {result.error ? ` — ${result.error}` : ''}. Event <code>{result.eventId}</code>
      </span>
    </div>
  );
}
