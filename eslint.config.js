import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/web/**/*.tsx', 'packages/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Components stay small enough to read and test alone: one job each, none over 200 lines.
  {
    files: ['packages/web/src/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 200 }] },
  },
  // Layers: SQL only in repositories/ and db/; no HTTP framework in services; no UI kit in the web app's logic.
  {
    files: ['packages/server/src/{services,routes,http,proctoring,storage,sms,ratelimit}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'kysely', allowTypeImports: true, message: 'SQL lives in repositories/ and db/.' },
            { name: 'pg', message: 'SQL lives in repositories/ and db/.' },
            { name: 'better-sqlite3', message: 'SQL lives in repositories/ and db/.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message: 'SQL lives in repositories/ and db/.',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'SQL lives in repositories/ and db/.' },
      ],
    },
  },
  {
    files: ['packages/server/src/services/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'kysely', allowTypeImports: true, message: 'SQL lives in repositories/ and db/.' },
            { name: 'pg', message: 'SQL lives in repositories/ and db/.' },
            { name: 'better-sqlite3', message: 'SQL lives in repositories/ and db/.' },
            { name: 'fastify', message: 'Services know no HTTP framework: routes/ and http/ do.' },
          ],
          patterns: [{ group: ['@fastify/*'], message: 'Services know no HTTP framework: routes/ and http/ do.' }],
        },
      ],
    },
  },
  {
    files: ['packages/web/src/{api,exam,proctor,session,i18n,questions}/**/*.ts'],
    ignores: ['**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'antd', message: 'Logic modules stay free of the UI kit: components (.tsx) use it.' }],
          patterns: [{ group: ['@ant-design/*'], message: 'Logic modules stay free of the UI kit.' }],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
);
