// A broadcast operation refused, in words the owner can act on (the command prints it, the dashboard shows it).
export class BroadcastError extends Error {}
