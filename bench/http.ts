/**
 * Throughput of an authenticated route against a bare Fastify route, measured in the same run on
 * the same machine so that the ratio means something on a noisy host. Usage:
 *   npm run bench:http [-- --seconds 5 --rounds 3 --connections 50]
 */
import os from 'node:os';
import Fastify from 'fastify';
import { benchOptions, compareInterleaved, startArbiter } from './lib/harness.ts';

const { round } = benchOptions();

const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ account_id: 'x', key_id: 'y', plan: 'z' }));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
const arbiter = await startArbiter();

console.log(
  `bench:http — ${round.rounds} interleaved rounds of ${round.seconds}s per target, ${round.connections} connections, database ${arbiter.config.database.kind}, ${os.cpus().length} cores`,
);
const ratio = await compareInterleaved(
  { name: 'bare Fastify GET /bare', url: `${bareUrl}/bare` },
  { name: 'Arbiter GET /v1/whoami', url: `${arbiter.url}/v1/whoami`, headers: arbiter.headers },
  round,
);
console.log(`ratio: ${(ratio * 100).toFixed(1)} % of the bare route (target ≥ 70 %)`);

await arbiter.close();
await bare.close();
process.exitCode = ratio >= 0.7 ? 0 : 1;
