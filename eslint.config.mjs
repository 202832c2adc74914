// A small, deliberate rule set: each rule catches a bug class this codebase has met or could meet,
// none is about taste (the formatter owns layout). Type-aware rules are left out to keep `npm run lint`
// fast on a two-core machine; `npm run typecheck` is the type gate.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Fields and variables that hold a path, a file's name or main's words (eslint rule below, docs/security.md, round 53). */
const NAMED =
  '/^(path|paths|folder|root|motionName|sourceMotion|relativePath|filePath|fileName|file|message|reason|error|warnings|mtn|sev)$/';
/**
 * Lists whose items are such names or words: an item is shown under another name (`warnings.map((w) => …{w}…)`, a
 * picker's `subfolders.map((f) => …)`), so each bare name shown in their callback is checked (round 54).
 */
const LISTS = '/^(paths|warnings|errors|problems|details|written|files|subfolders|folders|lines)$/';
const MAPPED = `CallExpression[callee.property.name=/^(map|flatMap)$/]:matches([callee.object.property.name=${LISTS}], [callee.object.name=${LISTS}], [callee.object.callee.object.property.name=${LISTS}], [callee.object.callee.object.name=${LISTS}])`;

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
    // A value that may hold a received folder's names (a path, a folder, a file, main's message or warnings, a project's
    // .mtn/.sev key) shown by the page goes through escapeControls or escapeControlsKeepingLines (shared/errors.ts),
    // so a bidi override, an ESC or a zero-width space in a name is shown as \uXXXX. Escaping where a value is shown
    // is per place; this rule is what keeps a new dialog from forgetting it (docs/security.md, rounds 52 to 54). It
    // knows values by their names, since round 54 the items of a list of names however the callback calls them, and
    // since round 55 refuses holding such a value under another name.
    files: ['renderer/**/*.tsx'],
    ignores: ['renderer/**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: [
            'JSXElement > JSXExpressionContainer',
            'JSXFragment > JSXExpressionContainer',
            'JSXAttribute[name.name=/^(title|aria-label|alt|placeholder)$/] > JSXExpressionContainer',
          ]
            .map(
              (shown) =>
                `:matches(${shown} :matches(MemberExpression[computed=false][property.name=${NAMED}], Identifier[name=${NAMED}]), ${MAPPED} ${shown} > Identifier, ${MAPPED} ${shown} > TemplateLiteral > Identifier)` +
                ':not(MemberExpression > *):not(Property > .key):not(VariableDeclarator > .id):not(CallExpression > *)' +
                ':not(CallExpression[callee.name=/^escapeControls/] *)' +
                // A key, a data- attribute or a handler shows nothing; nor does a list's length, a test of
                // membership, a number or a constant of the page's own (PANEL.sev).
                ':not(JSXAttribute:not([name.name=/^(title|aria-label|alt|placeholder)$/]) *)' +
                ':not(MemberExpression[property.name=/^(length|map|slice|filter|some|every|includes|indexOf)$/] > *)' +
                ':not(CallExpression[callee.property.name=/^(includes|indexOf|some|has)$/] > *)' +
                ':not([object.name=/^[A-Z][A-Z_]*$/])' +
                // A value asked whether it is there (`r.error ? 'unknown' : …`) is not shown by that.
                ':not(ConditionalExpression > .test):not(LogicalExpression[operator="&&"] > .left)' +
                ':not(UnaryExpression > *):not(MemberExpression[property.name="toFixed"] > *):not(BinaryExpression[operator=/^[!=]==?$/] > *)',
            )
            .join(', '),
          message:
            'A name from main or a file is shown raw here: pass it through escapeControls (a name) or escapeControlsKeepingLines (a message), shared/errors.ts.',
        },
        {
          // Round 55: a name held under another name (`const t = f.path`, `const { path: p } = f`) was not checked
          // where shown; it keeps its name (so the selector above follows it) or is escaped where it is taken.
          selector:
            `VariableDeclarator[id.type="Identifier"]:not([id.name=${NAMED}]) > MemberExpression.init[computed=false][property.name=${NAMED}], ` +
            `ObjectPattern > Property[key.name=${NAMED}][value.type="Identifier"]:not([value.name=${NAMED}])`,
          message:
            'A name from main or a file is held under another name, where the names rule cannot follow it: keep its name (path, folder, message, …) or take it through escapeControls here, shared/errors.ts.',
        },
      ],
    },
  },
  {
    // Playwright fixtures declare "no dependencies" as an empty destructuring pattern.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
