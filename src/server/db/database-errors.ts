// The database's errors a caller acts on: not set up yet, not reachable just now, and a backup that could not be made.

/** Thrown when the database has no sign-ups table yet (the owner's commands never create one). */
export class NotMigratedError extends Error {
  constructor() {
    super(
      'It has no sign-up tables yet, or older ones than this version needs: start the server once (npm start) or run sudo scamsavvy db:migrate.',
    );
    this.name = 'NotMigratedError';
  }
}

/**
 * The database cannot take writes just now (unreachable, locked, full). The API answers 503 with a
 * retry hint; nothing was stored, and the visitor's form still holds what they typed.
 */
export class StoreUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`The sign-up database is unavailable: ${reason}`);
    this.name = 'StoreUnavailableError';
  }
}

/** A backup, a check or a restore could not be done: the message is a sentence the owner can act on, shown as it is. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
