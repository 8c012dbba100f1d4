import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The one-clock rule lives in eslint.config.js; this lints a snippet as if it sat in a folder, so a
 * rule taken down (or a pattern that no longer matches) fails here and not only in `npm run lint`.
 * Only the two rules run, and without type information: the snippet's file does not exist.
 */
async function clockErrors(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-properties' || ruleId === 'no-restricted-syntax',
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
  const [result] = await eslint.lintText(code, { filePath: `${root}/${filePath}` });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const READS_THE_TIME = 'export const stamp = () => [Date.now(), new Date()];\n';

describe('one clock', () => {
  it('refuses Date.now() and new Date() in a module', async () => {
    const errors = await clockErrors('apps/server/src/modules/x/x.service.ts', READS_THE_TIME);
    expect(errors).toEqual([
      expect.stringMatching(/^no-restricted-properties: .*platform\/clock/),
      expect.stringMatching(/^no-restricted-syntax: .*platform\/clock/),
    ]);
  });

  it('refuses them in a platform driver too', async () => {
    const errors = await clockErrors('apps/server/src/platform/mail/x.ts', READS_THE_TIME);
    expect(errors).toHaveLength(2);
  });

  it('allows them in platform/clock, and allows dates built from a value anywhere', async () => {
    expect(await clockErrors('apps/server/src/platform/clock/x.ts', READS_THE_TIME)).toEqual([]);
    expect(
      await clockErrors(
        'apps/server/src/modules/x/x.service.ts',
        "export const at = (ms: number) => [new Date(ms), new Date('2026-01-01'), performance.now()];\n",
      ),
    ).toEqual([]);
  });

  it('allows them in tests', async () => {
    expect(await clockErrors('apps/server/src/modules/x/x.test.ts', READS_THE_TIME)).toEqual([]);
  });
});
