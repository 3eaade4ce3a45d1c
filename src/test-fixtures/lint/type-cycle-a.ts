// Import-graph fixture: a circle made only of `import type` lines, which import-x/no-cycle does not see.
import type { TypeCycleB } from './type-cycle-b.js';

export interface TypeCycleA {
  next?: TypeCycleB;
}
