// Lint fixture (not built, not linted by `eslint .`): half of an import circle that import-x/no-cycle must report.
import { cycleB } from './cycle-b.js';

export const cycleA = (): string => `a${cycleB}`;
