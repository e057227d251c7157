import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PLANS } from '../../src/domains/plans/catalog.ts';

/** A plans file (`ARBITER_PLANS_FILE`) whose free plan allows `allowance` calls a month. */
export function plansFileWithAllowance(allowance: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-plans-'));
  const file = path.join(dir, 'plans.json');
  const free = DEFAULT_PLANS.find((p) => p.id === 'free')!;
  fs.writeFileSync(file, JSON.stringify([{ ...free, monthly_call_allowance: allowance }]));
  return file;
}
