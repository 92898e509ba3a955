import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.next/', '.data/', 'db/migrations/', 'next-env.d.ts', 'test-results/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Schemas of outside input refuse NUL in every string (server/lib/zod.ts); plain zod would not.
    files: ['server/api/**/*.ts', 'server/integrations/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: "Use `import * as z from '@/server/lib/zod'` (strings refuse NUL).", allowTypeImports: true }] },
      ],
    },
  },
);
