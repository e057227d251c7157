/** Error codes the service answers with (its one table of codes; a test keeps this list equal to it). */
export const SERVICE_ERROR_CODES = [
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'CONFLICT_DETECTED',
  'STATE_DRIFT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'QUOTA_EXCEEDED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;

export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

/** Codes of the client itself: the service could not be asked, or its answer could not be read. */
export type ClientErrorCode = 'UNREACHABLE' | 'TIMEOUT' | 'BAD_RESPONSE';

export type ArbiterErrorCode = ServiceErrorCode | ClientErrorCode;

export class ArbiterError extends Error {
  readonly code: ArbiterErrorCode;
  /** HTTP status of the answer; undefined when there was none. */
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ArbiterErrorCode,
    message: string,
    options: { status?: number; requestId?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ArbiterError';
    this.code = code;
    this.status = options.status;
    this.requestId = options.requestId;
    this.details = options.details;
  }

  /** True when the service could not be asked or did not answer in time: the case `failMode` decides. */
  get unreachable(): boolean {
    return this.code === 'UNREACHABLE' || this.code === 'TIMEOUT' || this.code === 'UNAVAILABLE';
  }
}

const KNOWN = new Set<string>(SERVICE_ERROR_CODES);

/** The error an `{success: false, error: {code, message}}` body stands for. */
export function errorFromBody(status: number, body: unknown): ArbiterError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  const requestId = (body as { request_id?: unknown } | null)?.request_id;
  const code = typeof error?.code === 'string' && KNOWN.has(error.code) ? error.code : undefined;
  return new ArbiterError(
    (code as ServiceErrorCode | undefined) ?? (status >= 500 ? 'INTERNAL' : 'BAD_RESPONSE'),
    typeof error?.message === 'string' ? error.message : `The service answered ${status}`,
    {
      status,
      ...(typeof requestId === 'string' ? { requestId } : {}),
      ...(error?.details && typeof error.details === 'object'
        ? { details: error.details as Record<string, unknown> }
        : {}),
    },
  );
}
