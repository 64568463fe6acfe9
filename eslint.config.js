// ESLint (flat config) for the front end's ES modules and their unit tests: `make lint` runs it.
// The recommended rules, plus a few that catch real bugs in code served as it is (no build step),
// and two that keep the modules small and apart: no import circle, no function over 60 lines.

import js from '@eslint/js';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';

const bugs = {
  'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none' }],
  eqeqeq: ['error', 'always', { null: 'ignore' }], // `x == null`: null or undefined, on purpose
  'no-implicit-globals': 'error',
  'no-undef': 'error',
  'no-shadow': ['error', { builtinGlobals: false }],
  'no-use-before-define': ['error', { functions: false, classes: true, variables: false }],
  'no-var': 'error',
  'prefer-const': 'error',
  'no-throw-literal': 'error',
  'no-self-compare': 'error',
  'no-template-curly-in-string': 'error',
  'no-unmodified-loop-condition': 'error',
  'no-unreachable-loop': 'error',
  'no-promise-executor-return': 'error',
  'no-constructor-return': 'error',
  'require-atomic-updates': 'off',
  'array-callback-return': 'error',
  'default-param-last': 'error',
  'no-new-wrappers': 'error',
  'no-return-assign': 'error',
  'no-sequences': 'error',
  'no-eval': 'error',
  'no-implied-eval': 'error',
  radix: 'error',
};

const shape = {
  // A circle, static or through a dynamic `import()` (a page loading its sub-page), is a third
  // module waiting to be named (docs/frontend.md). Counted however deep the circle goes.
  'import-x/no-cycle': ['error', { allowUnsafeDynamicCyclicDependency: false }],
  // Every line counts, blank and comment lines too: the same measure as the Python check.
  'max-lines-per-function': ['error', { max: 60, skipBlankLines: false, skipComments: false, IIFEs: true }],
};

export default [
  { ignores: ['node_modules/', '.venv/', 'staticfiles/', 'var/', 'test-artifacts/', 'tests/frontend/vendor/'] },
  js.configs.recommended,
  {
    files: ['frontend/static/frontend/js/**/*.js'],
    plugins: { 'import-x': importX },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.browser } },
    rules: { ...bugs, ...shape },
  },
  {
    files: ['tests/**/*.js', 'eslint.config.js'],
    plugins: { 'import-x': importX },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: { ...bugs, ...shape },
  },
];
