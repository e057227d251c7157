import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../container.ts';
import type { ConsoleRepo } from './repo.ts';
import type { ConsoleSession, ConsoleSessions } from './sessions.ts';

/** What the console's pages read and change: the same services the API uses. */
export interface ConsoleDeps {
  sessions: ConsoleSessions;
  repo: ConsoleRepo;
  judgment: Container['judgment'];
  apiKeys: Container['services']['apiKeys'];
  ledger: Container['services']['ledger'];
  audit: Container['audit']['repo'];
  usage: Container['services']['usage'];
  meter: Container['meter'];
  plans: Container['plans'];
  webhooks: Container['services']['webhooks'];
  billing: Container['services']['billing'];
  policies: Container['policies'];
  /** Ends the `Secure` cookie attribute's doubt: true when the public address is https. */
  publicUrlIsHttps: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession: ConsoleSession | null;
  }
}

/** The signed-in session of a console page (its hook has made sure there is one). */
export function sessionOf(request: FastifyRequest): ConsoleSession {
  const session = request.consoleSession;
  if (session === null) throw new Error('console page reached without a session');
  return session;
}

/** A form field as one string (a repeated field keeps its last value). */
export function field(request: FastifyRequest, name: string): string | undefined {
  const body = request.body as Record<string, string | string[]> | undefined;
  const value = body?.[name];
  return Array.isArray(value) ? value.at(-1) : value;
}

/** A query string parameter as one string, or undefined when absent or empty. */
export function param(request: FastifyRequest, name: string): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function sendPage(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(body);
}

/** Options of every console route: the session stands for the bearer key, and the API docs leave it out. */
export const PAGE = { config: { auth: false, quota: false }, schema: { hide: true } } as const;

/**
 * A console route an operator or admin session may use, as its API route does (webhooks); written
 * out, though every session is one of the two, so the rule reads the same here as in the API.
 */
export const OPERATOR_PAGE = { ...PAGE, config: { ...PAGE.config, role: 'operator' } } as const;

/** A console route only an admin session may use (keys, billing); every session is operator or admin. */
export const ADMIN_PAGE = { ...PAGE, config: { ...PAGE.config, role: 'admin' } } as const;
