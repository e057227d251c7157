import { Errors } from '../../errors.ts';

/** Opaque to clients: the position of the last row of a page in the listing order. */
export function encodeCursor(row: { created_at: string; id: string }): string {
  return Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { createdAt: value[0] as string, id: value[1] as string };
    }
  } catch {
    // falls through to the 400 below
  }
  throw Errors.validation('querystring/cursor is not a cursor this service handed out');
}
