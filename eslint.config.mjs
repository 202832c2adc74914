// A small, deliberate rule set: each rule catches a bug class this codebase has met or could meet,
// none is about taste (the formatter owns layout). Type-aware rules are left out to keep `npm run lint`
// fast on a two-core machine; `npm run typecheck` is the type gate.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'e2e-output/**',
      'reports/**',
      '.stryker-tmp/**',
      'fuzz-reproducers/**',
      'build-resources/**',
    ],
  },
  {
    files: ['**/*.{ts,tsx,mjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      // An async executor swallows the error it throws: the promise never settles.
      'no-async-promise-executor': 'error',
      // Equality with coercion hides NaN and '' vs 0 bugs in parsers.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-self-compare': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'no-constant-binary-expression': 'error',
      'no-fallthrough': 'error',
      'prefer-const': 'error',
      'no-var': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-undef': 'off',
      'no-regex-spaces': 'off',
    },
  },
  {
    // Playwright fixtures declare "no dependencies" as an empty destructuring pattern.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
