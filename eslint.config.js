import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SQL_HOME = 'SQL lives in repositories/ and db/.';
const NO_SQL = [
  { name: 'kysely', allowTypeImports: true, message: SQL_HOME },
  { name: 'pg', message: SQL_HOME },
  { name: 'better-sqlite3', message: SQL_HOME },
];
const HTTP_HOME = 'Only routes/ and http/ know HTTP: domain errors are in src/errors.ts, file types in src/files.ts.';
const NO_FASTIFY = { name: 'fastify', message: HTTP_HOME };
const NO_FASTIFY_PLUGINS = { group: ['@fastify/*'], message: HTTP_HOME };
const NO_HTTP = { group: ['**/http/*', '**/http/**'], message: HTTP_HOME };
const NO_SERVICE_SET = {
  group: ['**/services/index.js'],
  message: 'Take the services needed as a small dependency object, not the whole set.',
};

// A question kind's type id and its facts live in its file (contract/src/questions/kinds/): code elsewhere asks the
// kind (KINDS, QUESTION_REGISTRY), so a new kind needs no edit outside its folder.
const KIND_HOME =
  "A kind's type id lives in its file in contract/src/questions/kinds/: ask the kind (KINDS, QUESTION_REGISTRY).";
const KIND_LITERALS = [
  { selector: "MemberExpression[object.name='QuestionType']", message: KIND_HOME },
  {
    selector: "BinaryExpression[operator=/^[!=]==?$/][left.property.name='type'][right.raw=/^[0-9]+$/]",
    message: KIND_HOME,
  },
];
const KIND_LITERAL_FILES = {
  files: ['packages/*/src/**/*.ts', 'packages/*/src/**/*.tsx'],
  ignores: [
    '**/*.test.ts',
    '**/*.test.tsx',
    'packages/contract/src/questions/kinds/**',
    'packages/contract/src/enums.ts',
  ],
};

/** The import rules of one layer of the server (`dir` under packages/server/src), tests aside. */
function serverLayer(dir, paths, patterns) {
  const sqlRules = paths.some((p) => p.message === SQL_HOME)
    ? {
        'no-restricted-syntax': [
          'error',
          ...KIND_LITERALS,
          {
            selector:
              'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
            message: SQL_HOME,
          },
          { selector: "TaggedTemplateExpression[tag.name='sql']", message: SQL_HOME },
        ],
      }
    : {};
  return [
    {
      files: [`packages/server/src/${dir}/**/*.ts`],
      ignores: ['**/*.test.ts'],
      rules: { 'no-restricted-imports': ['error', { paths, patterns }], ...sqlRules },
    },
  ];
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/*.d.ts', '.runtime/**'] },
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
  // Field ids unique by construction: forms come from shell/Form.tsx, which names each one by React's useId.
  {
    files: ['packages/web/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'antd',
              importNames: ['Form'],
              message: "Import Form from shell/Form.tsx: two of antd's own on a page give their fields one id.",
            },
            {
              name: 'antd',
              importNames: ['InputNumber'],
              message: "Import InputNumber from shell/InputNumber.tsx: antd's step arrows are named in English.",
            },
          ],
        },
      ],
    },
  },
  // Components and functions stay small enough to read and test alone: one job each, none over 200 lines. Two
  // are still one piece: the exam bench's mix (server/src/bench/examMix.ts, one 559-line scenario), and the exam
  // page's startProctoring (web/src/proctor/captures.ts, 276 lines), whose split into objects cost the exam page
  // 300 bytes gzipped over its 200 KB budget (e2e/pageWeight.test.ts); it is to be split without that cost.
  {
    files: ['packages/*/src/**/*.tsx', 'packages/*/src/**/*.ts'],
    ignores: [
      '**/*.test.tsx',
      '**/*.test.ts',
      'packages/server/src/bench/examMix.ts',
      'packages/web/src/proctor/captures.ts',
    ],
    rules: { 'max-lines-per-function': ['error', { max: 200 }] },
  },
  { ...KIND_LITERAL_FILES, rules: { 'no-restricted-syntax': ['error', ...KIND_LITERALS] } },
  // An icon is decoration beside its words (aria-hidden) or the control's only name (aria-label): antd's icons
  // otherwise name themselves in English ("home 概览").
  {
    files: ['packages/web/src/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...KIND_LITERALS,
        {
          selector:
            'JSXOpeningElement[name.name=/(Outlined|Filled|TwoTone)$/]:not(:has(JSXAttribute[name.name=/^aria-(hidden|label)$/]))',
          message: 'Give the icon aria-hidden (beside words) or aria-label (alone, in the page language).',
        },
        {
          selector:
            "JSXOpeningElement[name.object.name='Typography'][name.property.name='Link']:not(:has(JSXAttribute[name.name='href']))",
          message: "An <a> without href is out of the keyboard's reach: use LinkButton (pages/admin/shared).",
        },
      ],
    },
  },
  // A service is one use case and a component one piece of a page: a file longer than these is two of them.
  {
    files: ['packages/server/src/services/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: ['packages/web/src/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  // Layers point one way: SQL only in repositories/ and db/; HTTP only in routes/ and http/, which call services and
  // never the reverse; live proctoring takes the services it needs, not the whole set (services/index.ts).
  ...serverLayer('{routes,http,sms}', NO_SQL, []),
  ...serverLayer('services', [...NO_SQL, NO_FASTIFY], [NO_HTTP, NO_FASTIFY_PLUGINS]),
  ...serverLayer('{storage,ratelimit}', NO_SQL, [NO_HTTP]),
  ...serverLayer('jobs', [], [NO_HTTP]),
  ...serverLayer('proctoring', NO_SQL, [NO_HTTP, NO_SERVICE_SET]),
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
