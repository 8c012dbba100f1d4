import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The layer walls live in eslint.config.js; these lint a snippet as if it sat in a layer's folder, so
 * a wall taken down (or a pattern that no longer matches) fails here and not only in `npm run lint`.
 * Only the import rule runs, and without type information: the snippet's file does not exist.
 */
async function importErrors(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
  const [result] = await eslint.lintText(code, { filePath: `${root}/${filePath}` });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('the layer walls', () => {
  it('refuses an HTTP import in a platform driver', async () => {
    const errors = await importErrors(
      'apps/server/src/platform/blob/wall-probe.ts',
      "import { AppError } from '../../http/app-error';\nexport const probe = AppError;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: .*below the HTTP surface/)]);
  });

  it('refuses an HTTP import in a policy', async () => {
    const errors = await importErrors(
      'apps/server/src/access/wall-probe.ts',
      "import { AppError } from '../http/app-error';\nexport const probe = AppError;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: .*below the HTTP surface/)]);
  });

  it('lets a driver and a policy refuse with the neutral error', async () => {
    expect(
      await importErrors(
        'apps/server/src/platform/blob/wall-probe.ts',
        "import { DomainError } from '../errors/domain-error';\nexport const probe = DomainError;\n",
      ),
    ).toEqual([]);
    expect(
      await importErrors(
        'apps/server/src/access/wall-probe.ts',
        "import { DomainError } from '../platform/errors/domain-error';\nexport const probe = DomainError;\n",
      ),
    ).toEqual([]);
  });

  it("refuses an import of another module's internals, at both depths, and lets its index through", async () => {
    const internal = /^no-restricted-imports: .*Another module is reached through its index.ts only/;
    expect(
      await importErrors(
        'apps/server/src/modules/review/wall-probe.ts',
        "import type { MediaService } from '../storage/media/media.service';\nexport type Probe = MediaService;\n",
      ),
    ).toEqual([expect.stringMatching(internal)]);
    expect(
      await importErrors(
        'apps/server/src/modules/storage/projects/wall-probe.ts',
        "import type { UploadsService } from '../../uploads/uploads.service';\nexport type Probe = UploadsService;\n",
      ),
    ).toEqual([expect.stringMatching(internal)]);
    expect(
      await importErrors(
        'apps/server/src/modules/review/wall-probe.ts',
        "import type { MediaService } from '../storage';\nimport type { AppModule } from '../module';\nexport type Probe = [MediaService, AppModule];\n",
      ),
    ).toEqual([]);
    // Inside one module, its own sub-folders are no wall.
    expect(
      await importErrors(
        'apps/server/src/modules/storage/projects/wall-probe.ts',
        "import { playbackKey } from '../media/playback';\nexport const probe = playbackKey;\n",
      ),
    ).toEqual([]);
  });
});
