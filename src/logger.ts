import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Paths that may hold key material if something ever logs them. Request logging records only
 * method, route, status and ids, so these are a second line of defence, not the first.
 */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'key',
  'secret',
  'token',
  '*.key',
  '*.secret',
  '*.token',
  '*.authorization',
  '*.bootstrapKey',
  '*.adminToken',
];

/** The server's logger: its logs are its output, on stdout unless `destination` says otherwise. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACT, censor: '[redacted]' }, base: { service: 'arbiter' } },
    destination,
  );
}

/**
 * The logger of a command that prints a result (`keys create`, `migrate`): logs go to stderr, so
 * stdout holds the result alone and `arbiter keys create … | jq` parses it. Written synchronously,
 * so a command that exits at once still says what it logged.
 */
export function createCommandLogger(level: string): Logger {
  return createLogger(level, pino.destination({ dest: 2, sync: true }));
}
