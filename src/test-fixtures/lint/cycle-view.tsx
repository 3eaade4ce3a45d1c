// Lint fixture: a circle through a .tsx file, to show './x.js' resolves to x.tsx.
import { cycleLabel } from './cycle-label.js';

export const CycleView = () => <p>{cycleLabel}</p>;
