import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'apps/server/src/db/migrations/**',
      'e2e/artifacts/**',
      '.test-data/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // The layers (see docs/ARCHITECTURE.md). Routes stay thin; platform drivers know no feature; the
  // access layer knows no module; a module never reaches into another module's repository; web
  // features share only their api and queries; the web never imports server code.
  {
    files: ['apps/server/src/platform/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`(^|/)(modules|access)/`,
              message: 'Platform drivers are below the access layer and the modules.',
            },
            {
              regex: String.raw`(^|/)http/`,
              message: 'Platform drivers are below the HTTP surface: refuse with platform/errors/domain-error.',
            },
          ],
        },
      ],
    },
  },
  // Two drivers carry their own HTTP surface: the disk store answers its signed URLs as a route, and
  // the embedded OIDC provider answers outside Fastify's hooks with the security headers' values.
  {
    files: [
      'apps/server/src/platform/blob/disk-blob.routes.ts',
      'apps/server/src/platform/identity/embedded-provider.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`(^|/)(modules|access)/`,
              message: 'Platform drivers are below the access layer and the modules.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/access/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: String.raw`(^|/)modules/`, message: 'Policies decide from facts, not from modules.' },
            {
              regex: String.raw`(^|/)http/`,
              message: 'Policies are below the HTTP surface: refuse with platform/errors/domain-error.',
            },
          ],
        },
      ],
    },
  },
  // A module's files sit one or two folders deep (modules/storage/x.ts, modules/storage/trash/x.ts):
  // "another module" is a sibling folder of the module's own. Modules meet only through what each
  // one's index.ts exports (users' index lends its repository to sign-in, its other door).
  ...[
    { files: ['apps/server/src/modules/*/*.ts'], up: String.raw`\.\./` },
    { files: ['apps/server/src/modules/*/*/*.ts'], up: String.raw`\.\./\.\./` },
  ].map(({ files, up }) => ({
    files,
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^${up}[\\w-]+/`,
              message: 'Another module is reached through its index.ts only, never its internals.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['apps/server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        // (Comes after the modules' rule: for a route file, this list replaces that one.)
        {
          patterns: [
            {
              regex: String.raw`(\.repository$|(^|/)db(/|$))`,
              message: 'Routes call services; only repositories query the database.',
            },
          ],
        },
      ],
    },
  },
  // One clock: the server reads "now" from platform/clock, so tests move time instead of waiting.
  // Durations (timings, timeouts) are measured with performance.now(), which no test clock moves.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/platform/clock/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'Date',
          property: 'now',
          message: 'Read the time from platform/clock (a Clock in the deps); durations use performance.now().',
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from platform/clock (clock.now()), not new Date().',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: String.raw`(apps/server/|^@mixroom/server)`, message: 'The web never imports server code.' },
          ],
        },
      ],
    },
  },
  // lib/ and components/ sit below the features: they import none (features register what lib/ needs).
  {
    files: ['apps/web/src/lib/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: String.raw`(^|/)features/`, message: 'lib/ and components/ depend on no feature.' },
            { regex: String.raw`(apps/server/|^@mixroom/server)`, message: 'The web never imports server code.' },
          ],
        },
      ],
    },
  },
  // A feature's files sit one to three folders deep (features/review/x.ts,
  // features/review/components/x.tsx): "another feature" is a sibling folder of the feature's own.
  // Of another feature only api, queries (or an index exporting those) may be imported. The uploads
  // engine and two helpers are still shared from feature roots until they move below the features.
  ...[String.raw`\.\./`, String.raw`\.\./\.\./`, String.raw`\.\./\.\./\.\./`].map((up, depth) => ({
    files: [`apps/web/src/features/*/${'*/'.repeat(depth)}*.{ts,tsx}`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(${up}|(\.\./)*features/)(?![\w-]+/(api|queries|index)$)(?!uploads/(walk-drop|activities-store|pending-uploads|upload-engine|upload-orchestrator|use-upload-orchestrator|use-version-upload|use-reserved-corner)$)(?!transfers/upload-scope$|review/peak-levels$)[\w-]+/`,
              message: "A feature uses another feature's api and queries only (components come in through the page).",
            },
            { regex: String.raw`(apps/server/|^@mixroom/server)`, message: 'The web never imports server code.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['**/*.test.ts', '**/*.e2e.ts', 'apps/server/test/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
);
