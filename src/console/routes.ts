import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../container.ts';
import { roleAllows } from '../domains/api-keys/index.ts';
import { Errors } from '../errors.ts';
import { toAppError } from '../http/error-handler.ts';
import { type ConsoleDeps, field, PAGE, sendPage } from './context.ts';
import { html } from './html.ts';
import { notice, page } from './layout.ts';
import { auditPages } from './pages/audit.ts';
import { billingPages } from './pages/billing.ts';
import { escalationPages } from './pages/escalations.ts';
import { evaluationPages } from './pages/evaluations.ts';
import { keyPages } from './pages/keys.ts';
import { memoryPages } from './pages/memory.ts';
import { policyPages } from './pages/policies.ts';
import { usagePages } from './pages/usage.ts';
import { webhookPages } from './pages/webhooks.ts';
import { csrfTokenFor, SESSION_TTL_MS, sameToken } from './sessions.ts';

const SESSION_COOKIE = 'arbiter_console';
/** Before sign-in there is no session: the sign-in form is tied to this cookie instead (double submit). */
const SIGN_IN_COOKIE = 'arbiter_console_signin';

/**
 * Nothing runs but the service's own scripts (htmx), nothing loads from elsewhere, forms post
 * only here, and no other site may frame the console.
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const require = createRequire(import.meta.url);
const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'console.css': {
    type: 'text/css; charset=utf-8',
    body: fs.readFileSync(new URL('./assets/console.css', import.meta.url)),
  },
  'htmx.min.js': {
    type: 'text/javascript; charset=utf-8',
    body: fs.readFileSync(require.resolve('htmx.org/dist/htmx.min.js')),
  },
};

function cookies(request: FastifyRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

function cookie(request: FastifyRequest, deps: ConsoleDeps, name: string, value: string, maxAgeS: number) {
  const secure = request.protocol === 'https' || deps.publicUrlIsHttps ? '; Secure' : '';
  return `${name}=${value}; Path=/console; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${secure}`;
}

/** Requests a browser sends from another site are refused whatever they carry. */
function crossSite(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== request.host;
  } catch {
    return true;
  }
}

function signInPage(token: string, message?: string): string {
  return page(
    {},
    'Sign in',
    html`<div class="card narrow">
      ${notice(message === undefined ? undefined : { kind: 'error', text: message })}
      <form method="post" action="/console/sign-in">
        <input type="hidden" name="_csrf" value="${token}">
        <label for="api-key">API key</label>
        <input type="password" id="api-key" name="api_key" autocomplete="off" required
          placeholder="arbiter_sk_…" spellcheck="false">
        <div class="actions"><button type="submit" class="primary">Sign in</button></div>
      </form>
      <p class="muted">The key stays on the server: the browser keeps only a session cookie, which
      ends after ${SESSION_TTL_MS / 3_600_000} hours, on sign-out, or when the key is revoked.</p>
    </div>`,
  );
}

/** Renders a refused or failed console request as a page, never as the API's JSON. */
function errorPage(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  const session = request.consoleSession ?? undefined;
  return sendPage(
    reply,
    page(
      { session },
      status === 404 ? 'Not found' : 'Request refused',
      notice({ kind: 'error', text: message }),
    ),
    status,
  );
}

export function buildConsoleDeps(container: Container): ConsoleDeps {
  return {
    sessions: container.console.sessions,
    repo: container.console.repo,
    judgment: container.judgment,
    apiKeys: container.services.apiKeys,
    ledger: container.services.ledger,
    audit: container.audit.repo,
    usage: container.services.usage,
    meter: container.meter,
    plans: container.plans,
    webhooks: container.services.webhooks,
    billing: container.services.billing,
    policies: container.policies,
    publicUrlIsHttps: container.config.publicUrl?.startsWith('https:') ?? false,
  };
}

/** The operator console at /console: server-rendered pages over the same services as the API. */
export function consoleRoutes(deps: ConsoleDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.decorateRequest('consoleSession', null);
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        const fields: Record<string, string | string[]> = Object.create(null);
        for (const pair of (body as string).split('&')) {
          if (pair === '') continue;
          const eq = pair.indexOf('=');
          // decodeURIComponent throws on escapes that are not UTF-8 (`%FF`), where URLSearchParams
          // would store U+FFFD: text the browser never sent is refused, not kept garbled.
          let k: string;
          let v: string;
          try {
            k = decodeURIComponent((eq === -1 ? pair : pair.slice(0, eq)).replaceAll('+', ' '));
            v = eq === -1 ? '' : decodeURIComponent(pair.slice(eq + 1).replaceAll('+', ' '));
          } catch {
            return done(Errors.validation('A form field is not valid UTF-8'), undefined);
          }
          const prev = fields[k];
          fields[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
        }
        done(null, fields);
      },
    );

    app.addHook('onRequest', async (_request, reply) => {
      reply.headers({
        'content-security-policy': CSP,
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
        'cross-origin-opener-policy': 'same-origin',
        'cache-control': 'no-store',
      });
    });

    app.setErrorHandler((error, request, reply) => {
      const appError = toAppError(error as Error, request);
      if (appError.status >= 500) request.log.error({ err: error }, 'console request failed');
      return errorPage(request, reply, appError.status, appError.message);
    });

    app.get('/console/assets/:name', PAGE, async (request, reply) => {
      const asset = ASSETS[(request.params as { name: string }).name];
      if (asset === undefined) return errorPage(request, reply, 404, 'No such file');
      return reply.header('cache-control', 'public, max-age=3600').type(asset.type).send(asset.body);
    });

    app.get('/console', PAGE, async (request, reply) => {
      const token = cookies(request).get(SESSION_COOKIE);
      if (token !== undefined && (await deps.sessions.find(token))) {
        return reply.redirect('/console/escalations', 303);
      }
      const signIn = randomBytes(24).toString('base64url');
      reply.header('set-cookie', cookie(request, deps, SIGN_IN_COOKIE, signIn, 3600));
      return sendPage(reply, signInPage(signIn));
    });

    app.post('/console/sign-in', PAGE, async (request, reply) => {
      const expected = cookies(request).get(SIGN_IN_COOKIE);
      const sent = field(request, '_csrf') ?? '';
      if (crossSite(request) || expected === undefined || !sameToken(expected, sent)) {
        return errorPage(
          request,
          reply,
          403,
          'The sign-in form expired or came from elsewhere; reload the page.',
        );
      }
      let principal: Awaited<ReturnType<typeof deps.apiKeys.authenticate>>;
      try {
        principal = await deps.apiKeys.authenticate(field(request, 'api_key')?.trim());
      } catch {
        const again = randomBytes(24).toString('base64url');
        reply.header('set-cookie', cookie(request, deps, SIGN_IN_COOKIE, again, 3600));
        return sendPage(reply, signInPage(again, 'That key is unknown or revoked.'), 401);
      }
      if (!roleAllows(principal.role, 'operator')) {
        // The console decides escalations and changes settings: people's work, not an agent's.
        const again = randomBytes(24).toString('base64url');
        reply.header('set-cookie', cookie(request, deps, SIGN_IN_COOKIE, again, 3600));
        return sendPage(
          reply,
          signInPage(again, 'That is an agent key. The console needs an operator or admin key.'),
          403,
        );
      }
      const session = await deps.sessions.open(principal);
      reply.header('set-cookie', [
        cookie(request, deps, SESSION_COOKIE, session.token, SESSION_TTL_MS / 1000),
        cookie(request, deps, SIGN_IN_COOKIE, '', 0),
      ]);
      return reply.redirect('/console/escalations', 303);
    });

    // Every other console route: a live session, and for a change its anti-forgery token.
    await app.register(async (pages) => {
      pages.addHook('preHandler', async (request, reply) => {
        const token = cookies(request).get(SESSION_COOKIE);
        const session = token === undefined ? undefined : await deps.sessions.find(token);
        if (session === undefined) {
          if (token !== undefined) reply.header('set-cookie', cookie(request, deps, SESSION_COOKIE, '', 0));
          if (request.method === 'GET') {
            // An htmx poll asks the browser itself to go to the sign-in page.
            if (request.headers['hx-request'] === 'true')
              return reply.header('hx-redirect', '/console').status(401).send();
            return reply.redirect('/console', 303);
          }
          return errorPage(request, reply, 401, 'The session has ended; sign in again.');
        }
        request.consoleSession = session;
        const needed = request.routeOptions.config.role;
        if (needed !== undefined && !roleAllows(session.role, needed)) {
          return errorPage(
            request,
            reply,
            403,
            `This page needs a key of role ${needed}; this session's key is ${session.role}.`,
          );
        }
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          const sent = field(request, '_csrf') ?? request.headers['x-csrf-token'];
          if (crossSite(request) || typeof sent !== 'string' || !sameToken(sent, csrfTokenFor(token!))) {
            return errorPage(
              request,
              reply,
              403,
              'The form is missing its anti-forgery token; reload the page.',
            );
          }
        }
      });

      pages.post('/console/sign-out', PAGE, async (request, reply) => {
        const token = cookies(request).get(SESSION_COOKIE);
        if (token !== undefined) await deps.sessions.close(token);
        reply.header('set-cookie', cookie(request, deps, SESSION_COOKIE, '', 0));
        return reply.redirect('/console', 303);
      });

      escalationPages(pages, deps);
      evaluationPages(pages, deps);
      memoryPages(pages, deps);
      auditPages(pages, deps);
      usagePages(pages, deps);
      keyPages(pages, deps);
      webhookPages(pages, deps);
      policyPages(pages, deps);
      billingPages(pages, deps);
    });
  };
}
