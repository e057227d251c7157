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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACT, censor: '[redacted]' }, base: { service: 'arbiter' } },
    destination,
  );
}
