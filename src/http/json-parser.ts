import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError, Errors } from '../errors.ts';
import { findIllFormedText, illFormedTextError } from './text-boundary.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * An empty body sent as JSON reads as no body rather than `INVALID_JSON`: for routes whose
     * body is optional (a decision without a comment), which clients call with their usual
     * `Content-Type: application/json` and nothing after it.
     */
    emptyJsonBody?: boolean;
  }
}

/** Deeper documents are refused: no legitimate payload needs it, and recursive code downstream would. */
export const MAX_JSON_DEPTH = 64;

/**
 * Nesting depth of a JSON text, counted without parsing (brackets inside strings are skipped).
 * Linear in the input and allocation-free, so it is cheap to run before `JSON.parse`.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}

/** The code unit of the `\u` escape whose four hex digits (valid: the text has parsed) start at `at`. */
function escapedUnit(text: string, at: number): number {
  let unit = 0;
  for (let k = at; k < at + 4; k++) {
    const c = text.charCodeAt(k) | 0x20; // 'A'-'F' to 'a'-'f'; digits are unchanged
    unit = unit * 16 + (c <= 57 /* 9 */ ? c - 48 : c - 87);
  }
  return unit;
}

/**
 * Whether a parsed JSON text escapes NUL or half a surrogate pair (`\u0000`, a `\ud800` not
 * followed by a low-surrogate escape, a lone `\udc00`). Only an escape can carry either: strict
 * UTF-8 decoding never yields a lone surrogate and JSON refuses a raw control character. So a
 * jump from backslash to backslash settles it, without walking the parsed value.
 */
export function escapesIllFormedText(text: string): boolean {
  for (let i = text.indexOf('\\'); i !== -1; i = text.indexOf('\\', i)) {
    if (text.charCodeAt(i + 1) !== 117 /* u */) {
      i += 2;
      continue;
    }
    const unit = escapedUnit(text, i + 2);
    i += 6;
    if (unit === 0 || (unit >= 0xdc00 && unit <= 0xdfff)) return true;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = text.startsWith('\\u', i) ? escapedUnit(text, i + 2) : -1;
      if (low < 0xdc00 || low > 0xdfff) return true;
      i += 6;
    }
  }
  return false;
}

/** Strict: malformed UTF-8 is refused, not replaced. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Replaces Fastify's JSON parser: same prototype-poisoning protection, plus a depth limit, text
 * that can be kept as sent (no lone surrogate, no NUL: `text-boundary.ts`) and our error codes.
 */
export function registerJsonParser(app: FastifyInstance, bodyLimit: number): void {
  // JSON only: a text/plain body would otherwise reach validation and read as a confusing 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'buffer', bodyLimit },
    (request, body, done) => {
      let text: string;
      try {
        text = utf8.decode(body as Buffer);
      } catch {
        // Decoding with replacement characters would store text the client never sent.
        return done(
          new AppError('INVALID_JSON', 'The request body is not valid UTF-8; JSON must be sent as UTF-8'),
          undefined,
        );
      }
      if (text.trim() === '') {
        if (request.routeOptions.config.emptyJsonBody) return done(null, undefined);
        return done(Errors.invalidJson('The request body is empty; send a JSON object'), undefined);
      }
      if (jsonDepth(text) > MAX_JSON_DEPTH) {
        return done(Errors.validation(`JSON nesting is deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      }
      let parsed: unknown;
      try {
        parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch (err) {
        const reason =
          err instanceof SyntaxError
            ? err.message
            : 'the body contains a forbidden __proto__ or constructor key';
        return done(new AppError('INVALID_JSON', `The request body is not valid JSON: ${reason}`), undefined);
      }
      const illFormed = escapesIllFormedText(text) ? findIllFormedText(parsed, 'body') : undefined;
      if (illFormed) return done(illFormedTextError(illFormed), undefined);
      done(null, parsed);
    },
  );
}
