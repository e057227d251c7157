import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../http/auth.ts';
import { errorResponses, SuccessSchema } from '../../http/common-schemas.ts';
import {
  CreatedEndpointSchema,
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveriesResponse,
  DeliveryParams,
  EndpointListResponse,
  EndpointResponse,
  EventTypesResponse,
  RedeliverResponse,
  WebhookParams,
} from './schemas.ts';
import type { WebhooksService } from './service.ts';

const tags = ['Webhooks'];
const errors = { ...errorResponses, 403: Type.Ref('ErrorBody'), 409: Type.Ref('ErrorBody') };

export function webhooksRoutes(webhooks: WebhooksService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/webhooks/event-types',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: 'Event types an endpoint can subscribe to, and how deliveries are signed',
          response: { 200: EventTypesResponse, ...errors },
        },
      },
      async () => ({
        success: true as const,
        signing:
          'Standard Webhooks (standardwebhooks.com): headers webhook-id, webhook-timestamp, webhook-signature (v1, HMAC-SHA256 with the endpoint secret). Body: {type, timestamp, data}.',
        event_types: webhooks.eventTypes(),
      }),
    );

    app.post(
      '/webhooks',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: 'Register an endpoint (the signing secret is returned once)',
          body: CreateWebhookBody,
          response: { 201: CreatedEndpointSchema, ...errors },
        },
      },
      async (request, reply) => {
        const created = await webhooks.create(principalOf(request), request.body);
        return reply.status(201).send({ success: true as const, ...created });
      },
    );

    app.get(
      '/webhooks',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: "The account's endpoints",
          response: { 200: EndpointListResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        webhooks: await webhooks.list(principalOf(request).accountId),
      }),
    );

    app.get(
      '/webhooks/:webhook_id',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: 'One endpoint',
          params: WebhookParams,
          response: { 200: EndpointResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        webhook: await webhooks.get(principalOf(request).accountId, request.params.webhook_id),
      }),
    );

    app.delete(
      '/webhooks/:webhook_id',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: 'Delete an endpoint with its delivery log',
          params: WebhookParams,
          response: { 200: SuccessSchema, ...errors },
        },
      },
      async (request) => {
        await webhooks.remove(principalOf(request), request.params.webhook_id);
        return { success: true };
      },
    );

    app.get(
      '/webhooks/:webhook_id/deliveries',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: "The endpoint's delivery log, newest first, with every attempt",
          params: WebhookParams,
          querystring: DeliveriesQuery,
          response: { 200: DeliveriesResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        ...(await webhooks.deliveries(principalOf(request).accountId, request.params.webhook_id, {
          limit: request.query.limit ?? 20,
          ...(request.query.cursor === undefined ? {} : { cursor: request.query.cursor }),
        })),
      }),
    );

    app.post(
      '/webhooks/:webhook_id/enable',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: 'Enable a disabled endpoint again (its failure count starts over)',
          params: WebhookParams,
          response: { 200: EndpointResponse, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        webhook: await webhooks.enable(principalOf(request), request.params.webhook_id),
      }),
    );

    app.post(
      '/webhooks/:webhook_id/rotate-secret',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: 'Replace the signing secret (the new one is returned once; the old one stops at once)',
          params: WebhookParams,
          response: { 200: CreatedEndpointSchema, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        ...(await webhooks.rotateSecret(principalOf(request), request.params.webhook_id)),
      }),
    );

    app.post(
      '/webhooks/:webhook_id/test',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: 'Send a webhook.test event to this endpoint alone',
          params: WebhookParams,
          response: { 202: RedeliverResponse, ...errors },
        },
      },
      async (request, reply) => {
        const out = await webhooks.sendTest(principalOf(request), request.params.webhook_id);
        return reply.status(202).send({ success: true as const, ...out });
      },
    );

    app.post(
      '/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
      {
        config: { role: 'operator' },
        schema: {
          tags,
          summary: 'Send the event of a delivery again',
          params: DeliveryParams,
          response: { 202: RedeliverResponse, ...errors },
        },
      },
      async (request, reply) => {
        const out = await webhooks.redeliver(
          principalOf(request),
          request.params.webhook_id,
          request.params.delivery_id,
        );
        return reply.status(202).send({ success: true as const, ...out });
      },
    );
  };
}
