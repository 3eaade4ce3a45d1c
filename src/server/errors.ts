// The one error type the API answers with; anything else becomes a plain 500.

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}
