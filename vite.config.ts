// Builds the browser app (and, with --ssr, the prerender module); also configures Vitest.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  build: {
    // Older phones too: iPhones that stop at iOS 14-15 and Android's Chrome from 2020 (docs/decisions/008).
    target: ['es2020', 'chrome87', 'edge88', 'firefox78', 'safari14'],
    outDir: 'dist/client',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod is needed by two chunks that load later (the sign-up form and the analytics boot);
          // left alone, the bundler hoists it into the page's first script. Its own chunk keeps it off the critical path.
          groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]/ }],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./vitest.setup.ts'],
    environment: 'node',
  },
});
