// Setting names that are not ours: a misspelled one (MAIL_TRANPORT) would otherwise be ignored without
// a word while its default applies. Named at start as a warning, with the closest real name, and on
// the Ready page (docs/production.md, "4. Set the variables").
import { ENVIRONMENT_VARIABLES } from './environment.js';

/** Names read outside the settings' schema: where the files are, and the tests' own. */
const OTHER_NAMES = ['ENV_FILE', 'SETTINGS_FILE', 'NODE_ENV', 'TEST_TEXT_CLOCK', 'TEST_DATABASE_URL', 'TEST_REDIS_URL'];
const KNOWN = new Set([...ENVIRONMENT_VARIABLES, ...OTHER_NAMES]);

export interface UnknownSetting {
  name: string;
  /** The real setting it is most likely meant to be, when one is close. */
  closest?: string;
}

/** Edits (a letter added, dropped or changed) from one name to the other (Levenshtein). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The real setting within a few edits of `name` (two, or one in four letters for a long name). */
export function closestSetting(name: string): string | undefined {
  const upper = name.toUpperCase();
  const limit = Math.max(2, Math.floor(upper.length / 4));
  let best: { name: string; edits: number } | undefined;
  for (const known of KNOWN) {
    const edits = editDistance(upper, known);
    if (edits <= limit && (!best || edits < best.edits)) best = { name: known, edits };
  }
  return best?.name;
}

/**
 * Every name in the settings files that is not ours, and every name in the environment that looks
 * like a misspelling of ours (a capitalised NAME_WITH_UNDERSCORES a few letters from a real one). The
 * environment holds much else (PATH, HOME, a shell's own), so a name there far from ours is no concern.
 */
export function unknownSettings(env: NodeJS.ProcessEnv, inFiles: Iterable<string> = []): UnknownSetting[] {
  const found = new Map<string, UnknownSetting>();
  const fromFiles = new Set(inFiles);
  // The backup command's own variables (BACKUP_COMMAND_ENV) live in the same file, and are its.
  const forBackups = new Set((env.BACKUP_COMMAND_ENV ?? '').split(/[\s,]+/).filter(Boolean));
  for (const name of new Set([...fromFiles, ...Object.keys(env)])) {
    if (KNOWN.has(name) || forBackups.has(name) || found.has(name)) continue;
    const closest = closestSetting(name);
    if (fromFiles.has(name)) found.set(name, closest ? { name, closest } : { name });
    else if (closest && /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(name)) found.set(name, { name, closest });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** "MAIL_TRANPORT is not a setting; did you mean MAIL_TRANSPORT?" */
export function unknownSettingWords({ name, closest }: UnknownSetting): string {
  return closest
    ? `${name} is not a setting; did you mean ${closest}?`
    : `${name} is not a setting of ScamSavvy's, and is ignored`;
}
