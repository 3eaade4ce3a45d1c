// The port every sign-up store implements; the server and the owner's commands use only this.
import type { SignupInput, SignupRecord } from '../../shared/signup-schema.js';

export interface SignupStore {
  /** Creates a record with a new random id and the server's time; resolves once it is durable. */
  add(input: SignupInput): Promise<SignupRecord>;
  /** Every record, oldest first, read in batches so a large list never sits in memory at once. */
  list(): AsyncIterable<SignupRecord>;
  count(): Promise<number>;
  close(): Promise<void>;
}
