/**
 * The one table of error codes and their HTTP statuses (DESIGN "Error body"). Every failure a
 * client can see is an `AppError` with one of these codes, rendered by the one error handler.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  CONFLICT_DETECTED: 409,
  STATE_DRIFT: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  QUOTA_EXCEEDED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers;
  }
}

/** Named constructors, so call sites read as what went wrong. */
export const Errors = {
  validation: (message: string, details?: Record<string, unknown>) =>
    new AppError('VALIDATION_ERROR', message, details ? { details } : {}),
  invalidJson: (message: string) => new AppError('INVALID_JSON', message),
  unauthenticated: (message = 'A valid API key is required: Authorization: Bearer arbiter_sk_…') =>
    new AppError('UNAUTHENTICATED', message),
  forbidden: (message: string) => new AppError('FORBIDDEN', message),
  notFound: (what: string) => new AppError('NOT_FOUND', `${what} was not found`),
  routeNotFound: (method: string, url: string) =>
    new AppError('NOT_FOUND', `No route ${method} ${url.split('?')[0]}`),
  conflict: (message: string, details?: Record<string, unknown>) =>
    new AppError('CONFLICT', message, details ? { details } : {}),
  payloadTooLarge: (limit: number) =>
    new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limit} bytes`),
  unsupportedMediaType: (type: string | undefined) =>
    new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Type ${type ? `'${type}'` : '(none)'} is not supported; send application/json`,
    ),
  unavailable: (message: string) => new AppError('UNAVAILABLE', message),
  internal: () => new AppError('INTERNAL', 'An internal error occurred'),
};

export interface ErrorBody {
  success: false;
  error: { code: string; message: string; details?: Record<string, unknown> };
  request_id: string;
}

export function errorBody(error: AppError, requestId: string): ErrorBody {
  const body: ErrorBody = {
    success: false,
    error: { code: error.code, message: error.message },
    request_id: requestId,
  };
  if (error.details) body.error.details = error.details;
  return body;
}
