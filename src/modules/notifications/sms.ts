import type { SmsEnv } from '../../kernel/env.js';
import { redact } from './mailer.js';

// The SMS provider: Twilio's Messages API shape — POST {SMS_API_BASE}/2010-04-01/Accounts/{SID}/
// Messages.json, form-encoded To, From and Body, HTTP Basic SID:token. Any 2xx is sent; 4xx, 5xx
// and timeouts are failures the sender retries. The token never leaves the Authorization header.

export const SMS_TIMEOUT_MS = 15_000;

export interface SmsClient {
  send(to: string, body: string): Promise<void>;
}

export function createSmsClient(env: SmsEnv, options: { timeoutMs?: number } = {}): SmsClient {
  const timeoutMs = options.timeoutMs ?? SMS_TIMEOUT_MS;
  const url = `${env.apiBase}/2010-04-01/Accounts/${encodeURIComponent(env.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${env.accountSid}:${env.authToken}`).toString('base64')}`;
  return {
    async send(to, body) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ To: to, From: env.from, Body: body }).toString(),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
      } catch (error) {
        const e = error as Error;
        throw new Error(
          e.name === 'TimeoutError'
            ? `SMS provider did not answer within ${timeoutMs} ms`
            : redact(`SMS provider unreachable: ${e.message}`, [env.authToken]),
          {
            cause: error,
          },
        );
      }
      const text = await response.text().catch(() => '');
      if (!response.ok) {
        let detail = '';
        try {
          const parsed = JSON.parse(text) as { message?: unknown; code?: unknown };
          if (typeof parsed.message === 'string') detail = `: ${parsed.message.slice(0, 200)}`;
        } catch {
          // not JSON: the status says enough
        }
        throw new Error(redact(`SMS provider answered ${response.status}${detail}`, [env.authToken]));
      }
    },
  };
}
