// Import-graph fixture: the other half of the type-only circle with type-cycle-a.ts.
import type { TypeCycleA } from './type-cycle-a.js';

export interface TypeCycleB {
  back?: TypeCycleA;
}
