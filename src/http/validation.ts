import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true, ...options });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Bodies are validated strictly (no type coercion, unknown fields refused by the schemas), so an
 * agent learns that it sent `"0.9"` instead of `0.9`. Query strings and path parameters are text
 * by nature and are coerced.
 */
export function registerValidation(app: FastifyInstance): void {
  const strict = makeAjv({ coerceTypes: false, removeAdditional: false });
  const lenient = makeAjv({ coerceTypes: 'array', removeAdditional: false });
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : lenient).compile(schema as object),
  );
}
