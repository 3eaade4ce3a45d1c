// What each owner did on the dashboard (decision 024).
import type { Generated } from 'kysely';
import type { Id, Time } from './column-types.js';

export interface OwnerAuditLogTable {
  id: Generated<Id>;
  at: Time;
  owner_email: string;
  action: string;
  subject: string | null;
  detail: string | null;
}
