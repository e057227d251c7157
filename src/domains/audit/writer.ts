import type { AuditEvent, AuditRepo } from './repo.ts';

/** Where `AuditLog` sends its batches: the repo on this thread, or the writer thread. */
export interface AuditWriter {
  append(events: AuditEvent[]): Promise<void>;
}

export function inThreadWriter(repo: Pick<AuditRepo, 'append'>): AuditWriter {
  return {
    async append(events) {
      await repo.append(events);
    },
  };
}
