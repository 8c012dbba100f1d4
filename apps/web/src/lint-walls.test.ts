import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// Only the wall rule runs, without type information: the snippets are files that do not exist.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: tseslint.configs.disableTypeChecked,
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

/** The wall's messages for a snippet linted as if it were `apps/web/src/<file>`. */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}apps/web/src/${file}` });
  return result!.messages.map((m) => m.message);
}

describe('the web walls', { timeout: 60_000 }, () => {
  it("refuses a feature importing another feature's component, from any depth", async () => {
    expect(
      await refusals(
        'features/review/components/x-panel.tsx',
        "import { VersionMenu } from '../../storage/components/version-menu';\n",
      ),
    ).toEqual([expect.stringContaining("another feature's api and queries only")]);
    expect(
      await refusals(
        'features/review/x-rules.ts',
        "import { useDownloadVersion } from '../storage/hooks/use-download';\n",
      ),
    ).toHaveLength(1);
  });

  it("lets a feature use another feature's api and queries", async () => {
    expect(
      await refusals(
        'features/review/components/x-panel.tsx',
        "import { storageKeys } from '../../storage/queries';\nimport { storageApi } from '../../storage/api';\nimport { notify } from '../../../lib/notify';\n",
      ),
    ).toEqual([]);
  });

  it('refuses lib/ and components/ importing a feature', async () => {
    expect(
      await refusals('lib/realtime/x-hook.ts', "import { storageKeys } from '../../features/storage/queries';\n"),
    ).toEqual([expect.stringContaining('depend on no feature')]);
    expect(
      await refusals('components/x-badge.tsx', "import { reviewKeys } from '../features/review/queries';\n"),
    ).toHaveLength(1);
  });
});
