// Runs an owner's command in-process for a test: its exit code and what it wrote to each stream.
type Stream = { write(text: string): unknown };

export async function runCommand(
  main: (argv: string[], output: { out: Stream; err: Stream }) => Promise<number>,
  argv: string[],
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    out: { write: (text: string) => (out += text) },
    err: { write: (text: string) => (err += text) },
  });
  return { code, out, err };
}
