// ESLint (flat config) for the front end's ES modules and their unit tests: `make lint` runs it.
// The recommended rules, plus a few that catch real bugs in code served as it is (no build step).

import js from '@eslint/js';
import globals from 'globals';

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

export default [
  { ignores: ['node_modules/', '.venv/', 'staticfiles/', 'var/', 'test-artifacts/', 'tests/frontend/vendor/'] },
  js.configs.recommended,
  {
    files: ['frontend/static/frontend/js/**/*.js'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.browser } },
    rules: bugs,
  },
  {
    files: ['tests/**/*.js', 'eslint.config.js'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: bugs,
  },
];
