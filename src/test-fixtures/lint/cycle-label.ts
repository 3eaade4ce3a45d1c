// Lint fixture: the other half of the circle with cycle-view.tsx.
import { CycleView } from './cycle-view.js';

export const cycleLabel = 'label';
export const view = CycleView;
