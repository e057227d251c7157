/** What other code may use of audit: the event every domain appends, and the repo that appends it. */
export type { AuditEvent, AuditRepo } from './repo.ts';
