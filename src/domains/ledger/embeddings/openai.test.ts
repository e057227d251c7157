import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../errors.ts';
import { createEmbedder } from './factory.ts';
import { createOpenAiEmbedder, embeddingsUrl } from './openai.ts';

type Handler = (body: { model: string; input: string[] }, req: IncomingMessage, res: ServerResponse) => void;

/** A minimal server speaking the OpenAI embeddings wire format; behaviour is chosen per model name. */
const behaviours: Record<string, Handler> = {
  // Vector = [length of input, 1, 0]; answers in reverse order to check re-ordering by `index`.
  good: (body, req, res) => {
    const data = body.input.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: [text.length, 1, 0],
    }));
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-auth-seen', req.headers.authorization ?? '');
    res.end(JSON.stringify({ object: 'list', data: data.reverse(), model: body.model }));
  },
  unauthorized: (_b, _r, res) => {
    res.statusCode = 401;
    res.end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
  },
  slow: (_b, _r, res) => {
    setTimeout(() => res.end('{}'), 2_000);
  },
  short: (_b, _r, res) => res.end(JSON.stringify({ data: [{ index: 0, embedding: [1, 2, 3] }] })),
  garbage: (_b, _r, res) => res.end('<html>proxy error</html>'),
  nan: (body, _r, res) =>
    res.end(JSON.stringify({ data: body.input.map((_t, index) => ({ index, embedding: [1, 'x', 3] })) })),
};

let server: Server;
let base: string;
const seen: { auth: string | undefined; inputs: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; input: string[] };
      seen.push({ auth: req.headers.authorization, inputs: body.input.length });
      if (req.url !== '/v1/embeddings' || req.method !== 'POST') {
        res.statusCode = 404;
        res.end();
        return;
      }
      (behaviours[body.model] ?? behaviours.unauthorized!)(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('openai embedder', () => {
  it('embeds in input order, batched, normalised, with the API key', async () => {
    seen.length = 0;
    const embedder = await createEmbedder({
      kind: 'openai',
      baseUrl: base,
      model: 'good',
      apiKey: 'k-1',
      batchSize: 2,
    });
    expect(embedder.dimension).toBe(3);
    expect(embedder.id).toBe('good');
    const vectors = await embedder.embed(['a', 'abc', 'abcdefg']);
    expect(vectors.map((v) => Math.round((v[0]! / v[1]!) * 100) / 100)).toEqual([1, 3, 7]);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    // One dimension probe, then two batches for three inputs.
    expect(seen.map((s) => s.inputs)).toEqual([1, 2, 1]);
    expect(seen.every((s) => s.auth === 'Bearer k-1')).toBe(true);
  });

  it('accepts a base URL that already ends in /v1', () => {
    expect(embeddingsUrl('http://h:1/v1/')).toBe('http://h:1/v1/embeddings');
    expect(embeddingsUrl('http://h:1')).toBe('http://h:1/v1/embeddings');
  });

  it.each([
    ['unauthorized', /answered 401: .*Incorrect API key/],
    ['short', /returned 1 embeddings for 2 inputs/],
    ['garbage', /invalid JSON/],
    ['nan', /malformed embedding/],
  ])('reports %s as UNAVAILABLE', async (model, message) => {
    const embedder = await createOpenAiEmbedder({ baseUrl: base, model, dimension: 3 });
    const error = await embedder.embed(['one', 'two']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UNAVAILABLE');
    expect((error as AppError).message).toMatch(message);
  });

  it('times out', async () => {
    const embedder = await createOpenAiEmbedder({
      baseUrl: base,
      model: 'slow',
      dimension: 3,
      timeoutMs: 100,
    });
    await expect(embedder.embed(['x'])).rejects.toThrow(/no answer within 100 ms/);
  });

  it('refuses vectors of another dimension than configured', async () => {
    const embedder = await createOpenAiEmbedder({ baseUrl: base, model: 'good', dimension: 4 });
    await expect(embedder.embed(['x'])).rejects.toThrow(/3-dimensional vectors; the index expects 4/);
  });

  it('reports a closed port clearly', async () => {
    const embedder = await createOpenAiEmbedder({
      baseUrl: 'http://127.0.0.1:1',
      model: 'good',
      dimension: 3,
    });
    await expect(embedder.embed(['x'])).rejects.toThrow(
      /Embedding endpoint http:\/\/127\.0\.0\.1:1\/v1\/embeddings failed/,
    );
  });
});
