// Lint fixture: the other half of the circle with cycle-a.ts.
import { cycleA } from './cycle-a.js';

export const cycleB = 'b';
export const circle = (): string => cycleA();
