import { randomBytes } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { buildConsoleDeps, consoleRoutes } from './console/routes.ts';
import type { Container } from './container.ts';
import { adminRoutes } from './domains/accounts/routes.ts';
import { apiKeysRoutes } from './domains/api-keys/routes.ts';
import { auditRoutes } from './domains/audit/routes.ts';
import { checkoutPageRoutes, stripeWebhookRoutes, subscriptionRoutes } from './domains/billing/routes.ts';
import { gdprRoutes } from './domains/gdpr/routes.ts';
import { judgmentRoutes } from './domains/judgment/routes.ts';
import { ledgerRoutes } from './domains/ledger/routes.ts';
import { policiesRoutes } from './domains/policies/routes.ts';
import { verdictRoutes } from './domains/verdict/routes.ts';
import { webhooksRoutes } from './domains/webhooks/routes.ts';
import { registerAuth } from './http/auth.ts';
import { ErrorBodySchema } from './http/common-schemas.ts';
import { frameworkErrors, MAX_PARAM_LENGTH, registerErrorHandling } from './http/error-handler.ts';
import { registerJsonParser } from './http/json-parser.ts';
import { registerMetrics } from './http/metrics.ts';
import { metricsAccess, opsRoutes } from './http/ops-routes.ts';
import { lazyChildLoggerFactory } from './http/request-logger.ts';
import { registerTextBoundary } from './http/text-boundary.ts';
import { registerValidation } from './http/validation.ts';
import { mcpRoutes } from './integrations/mcp-http.ts';

export const API_VERSION = '2026-11-22';

const requestIdPrefix = randomBytes(8).toString('hex');
let requestCounter = 0;

/** Unique across instances (random prefix per process) and cheaper than a UUID per request. */
function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${requestIdPrefix}${requestCounter.toString(16).padStart(16, '0')}`;
}

/** Builds the HTTP application from a container. Reads no environment: everything comes in. */
export async function buildApp(container: Container): Promise<FastifyInstance> {
  const { config, services } = container;
  const app = Fastify({
    loggerInstance: container.logger as FastifyBaseLogger,
    // One line per request is written by the onResponse hook below, with the route and account.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: config.bodyLimit,
    genReqId: nextRequestId,
    // Client-supplied ids are not trusted for correlation of our own logs.
    requestIdHeader: false,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerValidation(app);
  registerJsonParser(app, config.bodyLimit);
  registerErrorHandling(app);
  registerTextBoundary(app);
  const vectors = container.ledger.vectors;
  const metrics = registerMetrics(app, {
    vectorCacheBytes: () => vectors.heldBytes?.() ?? 0,
    knnThreadMemoryBytes: () => vectors.threadMemoryBytes?.() ?? 0,
  });
  app.addSchema(ErrorBodySchema);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('arbiter-version', API_VERSION);
    done();
  });
  const logRequests = container.logger.isLevelEnabled('info');
  app.addHook('onResponse', (request, reply, done) => {
    if (logRequests) {
      request.log.info(
        {
          method: request.method,
          route: request.is404 ? undefined : request.routeOptions.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 100) / 100,
          account: request.principal?.accountId,
        },
        'request completed',
      );
    }
    done();
  });

  app.addHook('onRoute', (route) => {
    // The docs UI's own routes carry no auth flag: they are public.
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), auth: false };
    // Public routes say so in the OpenAPI document, unless they declare a scheme of their own.
    if (route.config?.auth === false && route.schema && route.schema.security === undefined) {
      route.schema = { ...route.schema, security: [] };
    }
  });
  registerAuth(app, { apiKeys: services.apiKeys, meter: container.meter, quota: container.quota });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Arbiter',
        version: API_VERSION,
        description: 'Checks and enforces what an AI agent proposes to do or to say, before it happens.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'arbiter_sk_… API key' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'ARBITER_ADMIN_TOKEN (operator API)' },
          stripeSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'Stripe-Signature',
            description: 'Signed by Stripe with STRIPE_WEBHOOK_SECRET',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: false } });

  await app.register(
    opsRoutes({
      ready: container.ready,
      metrics,
      metricsRefusal: metricsAccess(config.host, config.metricsToken),
    }),
  );
  app.get('/openapi.json', { config: { auth: false }, schema: { hide: true } }, async () => app.swagger());

  await app.register(apiKeysRoutes(services.apiKeys));
  await app.register(verdictRoutes(services.verdicts));
  await app.register(judgmentRoutes(container.judgment));
  await app.register(policiesRoutes(container.policies));
  await app.register(ledgerRoutes(services.ledger, container.ledger.repo, container.ledger.piiSettings));
  await app.register(subscriptionRoutes(services.billing));
  await app.register(checkoutPageRoutes(services.billing));
  if (config.billing.provider === 'stripe') await app.register(stripeWebhookRoutes(services.billing));
  await app.register(auditRoutes(container.audit.repo));
  await app.register(gdprRoutes(services.gdpr));
  await app.register(webhooksRoutes(services.webhooks));
  await app.register(mcpRoutes());
  if (config.adminToken) await app.register(adminRoutes(services.accounts, config.adminToken));
  await app.register(consoleRoutes(buildConsoleDeps(container)));

  await app.ready();
  return app;
}
