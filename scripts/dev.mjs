// `npm run dev`: the API on :3000 (restarting on change) and Vite's hot-reloading page on :5173.
import { spawn } from 'node:child_process';

const children = [
  // The API server serves the last build's pages too, so build once if there is none.
  spawn(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' }),
];
children[0].on('exit', (code) => {
  if (code !== 0) process.exit(code ?? 1);
  children.push(
    spawn('node_modules/.bin/tsx', ['watch', 'src/server/index.ts'], { stdio: 'inherit' }),
    spawn('node_modules/.bin/vite', ['--port', '5173'], { stdio: 'inherit' }),
  );
  console.log('\nOpen http://localhost:5173 (hot reload; /api goes to the server on :3000).\n');
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(0);
  });
}
