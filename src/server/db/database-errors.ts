// The database's two errors a caller acts on: not set up yet, and not reachable just now.

/** Thrown when the database has no sign-ups table yet (the owner's commands never create one). */
export class NotMigratedError extends Error {
  constructor() {
    super(
      'It has no sign-up tables yet, or older ones than this version needs: start the server once (npm start) or run npm run db:migrate.',
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
