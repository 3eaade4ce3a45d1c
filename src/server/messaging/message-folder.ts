// The rehearsal transports' folder (MAIL_TRANSPORT=folder:PATH, SMS_TRANSPORT=folder:PATH): every
// message written whole as a file of its own, named so the folder lists them in the order they went.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SendFailure } from './send-failure.js';

/** The folder as a path from where the server started, when it was given relative. */
export function folderPath(folder: string): string {
  return path.resolve(folder);
}

/**
 * The folder exists (made if need be) and can be written to; otherwise a failure of ours (the
 * sender's), as a wrong password would be: nobody's message is marked failed for it.
 */
export async function checkFolder(folder: string): Promise<void> {
  const where = folderPath(folder);
  try {
    await mkdir(where, { recursive: true });
    await access(where, constants.W_OK);
  } catch (error) {
    throw new SendFailure(`Cannot write to the folder ${where}: ${(error as Error).message}`, {
      kind: 'sender',
      reason: `The rehearsal folder ${where} cannot be written to: check it exists and is yours.`,
    });
  }
}

let written = 0;

/** Writes one message as a new file; resolves with its name. Time first, so the names sort in sending order. */
export async function writeToFolder(
  folder: string,
  extension: 'eml' | 'json',
  contents: string | Buffer,
): Promise<string> {
  await checkFolder(folder);
  written += 1;
  const time = new Date().toISOString().replace(/[:.]/g, '-');
  const name = `${time}-${String(written).padStart(7, '0')}-${randomBytes(3).toString('hex')}.${extension}`;
  await writeFile(path.join(folderPath(folder), name), contents, { flag: 'wx' });
  return name;
}

export interface WrittenMessage {
  name: string;
  bytes: number;
  at: Date;
}

/** The newest `limit` messages written to the folder (the owner's dashboard lists them), newest first. */
export async function writtenMessages(
  folder: string,
  limit: number,
): Promise<{ count: number; newest: WrittenMessage[] }> {
  let names: string[];
  try {
    names = (await readdir(folderPath(folder))).filter((name) => /\.(eml|json)$/.test(name));
  } catch {
    return { count: 0, newest: [] };
  }
  names.sort().reverse();
  const newest = await Promise.all(
    names.slice(0, limit).map(async (name) => {
      const info = await stat(path.join(folderPath(folder), name));
      return { name, bytes: info.size, at: info.mtime };
    }),
  );
  return { count: names.length, newest };
}
