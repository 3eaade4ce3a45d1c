// Lint fixture: imports chain-b.ts, which imports nothing back, so no circle.
import { chainB } from './chain-b.js';

export const chainA = (): string => `a${chainB}`;
