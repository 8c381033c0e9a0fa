import pino, { type Logger } from 'pino';

/** JSON logs on stderr (stdout is reserved for the CLI's one JSON document); credentials redacted. */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'authorization', '*.apiKey', '*.device_key', '*.secret', '*.token'],
        censor: '[redacted]',
      },
    },
    pino.destination(2),
  );
}
