// `sudo scamsavvy db:migrate`: creates or updates the sign-up tables in the database DATABASE_URL names.
import { CliError, openStoreForCli, runCli } from './cli-support.js';

runCli(async () => {
  const { store, where } = await openStoreForCli({ migrate: true }).catch((error: unknown) => {
    if (error instanceof CliError) throw error;
    throw new CliError(`Could not migrate: ${(error as Error).message}`);
  });
  await store.close();
  process.stdout.write(`${where.charAt(0).toUpperCase()}${where.slice(1)} is up to date.\n`);
  return 0;
});
