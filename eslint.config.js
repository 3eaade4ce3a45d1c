// Lint rules, including the one that keeps client, server and shared code apart (see ../shared/STYLE.md).
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/shared',
              from: ['./src/client', './src/server', './src/cli'],
              message: 'shared/ imports from neither side.',
            },
            {
              target: './src/client',
              from: ['./src/server', './src/cli'],
              message: 'The browser app never imports server code.',
            },
            {
              target: './src/server',
              from: ['./src/client', './src/cli'],
              message: 'The server never imports browser code.',
            },
            {
              target: './src/cli',
              from: './src/client',
              message: 'Owner commands use server/storage, not the browser app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
