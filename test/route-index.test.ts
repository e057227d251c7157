import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectRoutes, DEVELOPMENT_DOC, renderIndex, withIndex } from '../scripts/route-index.ts';

describe('the route index in docs/development.md', () => {
  it('lists every route of the app and the file that registers it (npm run docs:routes)', async () => {
    const routes = await collectRoutes();
    // Read from the route table as it is built: a route the app serves, with the file it is in.
    expect(routes).toContainEqual({
      method: 'POST',
      path: '/v2/actions/evaluations/:id/approve',
      file: 'src/domains/judgment/routes.ts',
    });
    expect(routes.filter((r) => r.file === 'unknown')).toEqual([]);
    const doc = fs.readFileSync(DEVELOPMENT_DOC, 'utf8');
    expect(withIndex(doc, renderIndex(routes)), 'the index is stale: run `npm run docs:routes`').toBe(doc);
  }, 120_000);
});
