// The dashboard's owners (decision 024).
import type { Generated } from 'kysely';
import type { Time } from './column-types.js';

export interface OwnersTable {
  id: Generated<number>;
  email: string;
  created_at: Time;
}
