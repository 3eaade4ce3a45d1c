// Lint fixture: the end of a one-way chain (see chain-a.ts).
export const chainB = 'b';
