import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * Text comes in as the client wrote it or not at all. Two kinds of string cannot be kept byte
 * for byte: an unpaired UTF-16 surrogate (a JSON `\ud800` escape) has no UTF-8 form, so storing
 * it garbles it into U+FFFD and canonical JSON refuses it; NUL cannot be held by PostgreSQL text.
 * Both are refused at the boundary with the field named, so no route has to think of them.
 *
 * JSON bodies are checked by the JSON parser on the raw text (`json-parser.ts`); the hook here
 * checks what the router and the other parsers hand over.
 */
const ILL_FORMED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/;

/** Headers whose value is kept or compared as data, not only read by the framework. */
const DATA_HEADERS = ['idempotency-key', 'if-match'] as const;

/** Form bodies (the console's pages, the checkout page) come from parsers of their own. */
const FORM_MEDIA_TYPE = /^application\/x-www-form-urlencoded\b/i;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export interface IllFormedText {
  /** Where, as a client would write it: `body.branches[0]`, `query.cursor`, `header idempotency-key`. */
  field: string;
  problem: 'surrogate' | 'nul';
  /** The offence is in a field name, not its value. */
  inName: boolean;
}

/** Field names are echoed in messages; one sent to fill the body is shortened. */
const NAME_ECHO_LIMIT = 64;

function problemIn(text: string): IllFormedText['problem'] | undefined {
  const hit = ILL_FORMED.exec(text);
  return hit === null ? undefined : hit[0] === '\u0000' ? 'nul' : 'surrogate';
}

/** `.name`, or `["a name"]` where the name is not an identifier (escaped, so the message is well-formed). */
function member(key: string): string {
  const name = key.length > NAME_ECHO_LIMIT ? `${key.slice(0, NAME_ECHO_LIMIT)}…` : key;
  return IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** Like `findIllFormedText`, with the field's path relative to `value`, built only on the way out. */
function locate(value: unknown): IllFormedText | undefined {
  if (typeof value === 'string') {
    const problem = problemIn(value);
    return problem && { field: '', problem, inName: false };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = locate(value[i]);
      if (found) return { ...found, field: `[${i}]${found.field}` };
    }
    return undefined;
  }
  for (const key in value) {
    const problem = problemIn(key);
    if (problem) return { field: member(key), problem, inName: true };
    const found = locate((value as Record<string, unknown>)[key]);
    if (found) return { ...found, field: member(key) + found.field };
  }
  return undefined;
}

/**
 * The first string in `value` (values and field names, depth first) that is not well-formed
 * text or holds NUL, named from `root`. Allocates nothing unless it finds one.
 */
export function findIllFormedText(value: unknown, root: string): IllFormedText | undefined {
  const found = locate(value);
  return found && { ...found, field: root + found.field };
}

/** 400 VALIDATION_ERROR naming the field, with the field in `details` for programs. */
export function illFormedTextError(found: IllFormedText): AppError {
  const subject = found.inName ? `The field name ${found.field}` : found.field;
  const message =
    found.problem === 'nul'
      ? `${subject} contains a NUL character (U+0000), which text does not accept`
      : `${subject} contains an unpaired UTF-16 surrogate (a lone \\ud800-\\udfff escape); send well-formed Unicode`;
  return new AppError('VALIDATION_ERROR', message, { details: { field: found.field } });
}

function findInRequest(request: FastifyRequest): IllFormedText | undefined {
  for (const name of DATA_HEADERS) {
    const found = locate(request.headers[name]);
    if (found) return { ...found, field: `header ${name}${found.field}` };
  }
  const found = findIllFormedText(request.params, 'params') ?? findIllFormedText(request.query, 'query');
  if (found) return found;
  if (FORM_MEDIA_TYPE.test(request.headers['content-type'] ?? ''))
    return findIllFormedText(request.body, 'body');
  return undefined;
}

/**
 * Checks path parameters, the query, data headers and form bodies of every route. A
 * preValidation hook: it runs after authentication (onRequest) and body parsing, before the
 * route's schema sees the request.
 */
export function registerTextBoundary(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const found = findInRequest(request);
    done(found ? illFormedTextError(found) : undefined);
  });
}
