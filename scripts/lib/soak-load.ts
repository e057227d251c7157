/**
 * The soak's client side: a few clients sending a mix of verdicts, judgments, vault stores and
 * searches and key creations back to back, round robin over the live instances; every answer
 * is recorded with its time, status and latency, and every acknowledged write is noted so that
 * it can be read back at the end.
 */

export type Route = 'verdict' | 'judgment' | 'escalation' | 'store' | 'search' | 'key';
export const ROUTES: readonly Route[] = ['verdict', 'judgment', 'escalation', 'store', 'search', 'key'];

export interface Instance {
  name: string;
  url: string;
  /** False once the soak is about to kill it: no new request goes there. */
  alive: boolean;
}

export interface Outcome {
  route: Route;
  instance: string;
  /** Milliseconds since the phase started, when the request was sent. */
  sentAt: number;
  status: number | 'no answer';
  ms: number;
  retryAfter: string | null;
}

/**
 * A write the service acknowledged with a 2xx. `evaluation` (ALLOWED or BLOCKED) is buffered by
 * design and written within a flush interval; the others are written before the answer.
 */
export interface Ack {
  kind: 'claim' | 'evaluation' | 'escalation' | 'key';
  id: string;
  /** The new key's secret (key creations), to read it back by using it. */
  secret?: string;
  instance: string;
  answeredAt: number;
}

// Nineteen calls in a client's rotation: mostly verdicts and judgments, the vault in between.
const ROTATION: readonly Route[] = [
  'verdict',
  'judgment',
  'store',
  'verdict',
  'search',
  'judgment',
  'verdict',
  'store',
  'search',
  'verdict',
  'judgment',
  'escalation',
  'verdict',
  'search',
  'store',
  'verdict',
  'judgment',
  'search',
  'key',
];

const SUBJECTS = ['Order', 'Invoice', 'Ticket', 'Shipment', 'Contract', 'Refund', 'Booking'];
const FACTS = [
  'was approved by the finance team',
  'ships from the Lyon warehouse',
  'is due at the end of the quarter',
  'was escalated to the on-call engineer',
  'belongs to the enterprise tier',
  'was signed in Berlin',
  'is blocked on a missing address',
];

function request(route: Route, n: number): { path: string; body: unknown } {
  switch (route) {
    case 'verdict':
      return n % 3 === 0
        ? {
            path: '/v1/evaluate',
            body: { action: 'shell.exec', payload: { command: `rm -rf /srv/app/${n}/*` } },
          }
        : { path: '/v1/evaluate', body: { action: 'fs.read', payload: { path: `/srv/app/file-${n}.txt` } } };
    case 'judgment':
      return {
        path: '/v2/actions/evaluate',
        body: {
          action_type: 'fs.read',
          actor: `agent-${n % 17}`,
          actor_role: 'user',
          payload: { path: `/srv/app/report-${n}.csv` },
          impact_scope: 'internal',
        },
      };
    case 'escalation':
      return {
        path: '/v2/actions/evaluate',
        body: {
          action_type: 'db.query',
          actor: `agent-${n % 17}`,
          actor_role: 'user',
          payload: { sql: `DELETE FROM orders WHERE id = ${n}` },
          impact_scope: 'critical',
        },
      };
    case 'store':
      return {
        path: '/v2/vault/store',
        body: {
          claim: `${SUBJECTS[n % SUBJECTS.length]} ${n} ${FACTS[Math.floor(n / 7) % FACTS.length]}.`,
          source: 'soak',
          confidence: 0.8,
        },
      };
    case 'search':
      return {
        path: '/v2/vault/search',
        body: { query: `${SUBJECTS[n % SUBJECTS.length]} ${FACTS[n % FACTS.length]}`, top_k: 5 },
      };
    case 'key':
      return { path: '/api-keys', body: { name: `soak-${n}` } };
  }
}

function acknowledged(
  route: Route,
  body: Record<string, unknown>,
): Pick<Ack, 'kind' | 'id' | 'secret'> | undefined {
  switch (route) {
    case 'store':
      return { kind: 'claim', id: String(body.id) };
    case 'judgment':
    case 'escalation':
      return {
        kind: body.decision === 'ESCALATE' ? 'escalation' : 'evaluation',
        id: String(body.evaluation_id),
      };
    case 'key':
      return { kind: 'key', id: String(body.id), secret: String(body.key) };
    default:
      return undefined;
  }
}

export interface LoadOptions {
  instances: () => readonly Instance[];
  clients: number;
  key: string;
  /** `performance.now()` at the start of the phase. */
  t0: number;
  onOutcome: (outcome: Outcome) => void;
  onAck: (ack: Ack) => void;
}

export function startLoad(options: LoadOptions): { stop: () => Promise<void> } {
  let running = true;
  let n = 0;
  let turn = 0;
  const headers = { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' };
  const now = () => performance.now() - options.t0;

  async function once(client: number, step: number): Promise<void> {
    const live = options.instances().filter((i) => i.alive);
    const instance = live[turn++ % live.length];
    if (!instance) throw new Error('no live instance');
    const route = ROTATION[(client * 5 + step) % ROTATION.length]!;
    const { path, body } = request(route, n++);
    const sentAt = now();
    let status: Outcome['status'] = 'no answer';
    let retryAfter: string | null = null;
    try {
      const res = await fetch(`${instance.url}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      if (res.ok) {
        const ack = acknowledged(route, JSON.parse(text) as Record<string, unknown>);
        if (ack) options.onAck({ ...ack, instance: instance.name, answeredAt: now() });
      }
    } catch {
      // Refused, reset or timed out: not acknowledged, and recorded as no answer.
    }
    options.onOutcome({ route, instance: instance.name, sentAt, status, ms: now() - sentAt, retryAfter });
  }

  const loops = Array.from({ length: options.clients }, async (_, client) => {
    for (let step = 0; running; step++) await once(client, step);
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Reads every acknowledged write back from `url`; returns those that are missing. */
export async function missingWrites(url: string, key: string, acks: readonly Ack[]): Promise<Ack[]> {
  const missing: Ack[] = [];
  let next = 0;
  const check = async (ack: Ack): Promise<boolean> => {
    const [path, secret] =
      ack.kind === 'claim'
        ? [`/v2/vault/claims/${ack.id}`, key]
        : ack.kind === 'key'
          ? ['/v1/whoami', ack.secret!]
          : [`/v2/actions/evaluations/${ack.id}`, key];
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${secret}` } });
      await res.arrayBuffer();
      if (res.status === 200) return true;
      if (res.status < 500 || attempt === 3) return false;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < acks.length) {
        const ack = acks[next++]!;
        if (!(await check(ack))) missing.push(ack);
      }
    }),
  );
  return missing;
}
