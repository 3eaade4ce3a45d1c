// Reads and checks the environment once at start-up; every bad variable is reported together.
import path from 'node:path';
import { z } from 'zod';

export type DatabaseConfig = { kind: 'sqlite'; file: string };

const DEFAULT_SQLITE_FILE = 'data/signups.db';

/** `DATABASE_URL`: unset is `data/signups.db`; `sqlite:<path>` is that file. */
export function parseDatabaseUrl(value: string | undefined, cwd = process.cwd()): DatabaseConfig {
  if (value === undefined || value.trim() === '') {
    return { kind: 'sqlite', file: path.resolve(cwd, DEFAULT_SQLITE_FILE) };
  }
  const url = value.trim();
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new Error('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:data/signups.db');
    return { kind: 'sqlite', file: path.resolve(cwd, file) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    throw new Error('DATABASE_URL: PostgreSQL is not supported yet; use sqlite:<path> or leave it unset.');
  }
  throw new Error('DATABASE_URL must be unset or start with sqlite: (for example sqlite:data/signups.db).');
}

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('localhost'),
  DATABASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  /** Where the built site is: dist/client (assets) and dist/pages (prerendered HTML). */
  distDir: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
  }
  let database: DatabaseConfig | undefined;
  try {
    database = parseDatabaseUrl(env.DATABASE_URL, cwd);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (!parsed.success || !database) throw new ConfigError(problems);
  return {
    port: parsed.data.PORT,
    host: parsed.data.HOST,
    database,
    logLevel: parsed.data.LOG_LEVEL,
    distDir: path.resolve(cwd, 'dist'),
  };
}
