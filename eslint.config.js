// Lint rules, including the one that keeps client, server and shared code apart (see ../shared/STYLE.md).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The three roots and one direction (../shared/STYLE.md): shared imports from neither side,
  // the browser app never imports server code, and the server never imports browser code.
  restrictImports('src/shared/**', ['client', 'server', 'cli'], 'shared/ imports from neither side.'),
  restrictImports('src/client/**', ['server', 'cli'], 'The browser app never imports server or CLI code.'),
  restrictImports('src/server/**', ['client', 'cli'], 'The server never imports browser or CLI code.'),
  restrictImports('src/cli/**', ['client'], 'Owner commands use the server side, not the browser app.'),
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', '*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', fetch: 'readonly', setTimeout: 'readonly', URL: 'readonly' },
    },
  },
);

function restrictImports(files, folders, message) {
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: folders.flatMap((folder) => [`**/${folder}/**`, `**/src/${folder}/**`]), message }] },
      ],
    },
  };
}
