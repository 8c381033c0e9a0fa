import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalogs, LOCALES, placeholdersOf } from '../src/kernel/i18n.js';

// Every guest-facing text exists in English and German (issue #41): the catalogs are the files
// named *.texts.ts under src/ (src/kernel/i18n.ts); this test loads each and fails on a missing or
// empty text, or a placeholder that one language has and the other lacks.
const SRC = fileURLToPath(new URL('../src', import.meta.url));

function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return textFiles(path);
    return entry.name.endsWith('.texts.ts') ? [path] : [];
  });
}

describe('guest-facing texts', () => {
  const files = textFiles(SRC);

  it('are kept in *.texts.ts catalogs', async () => {
    for (const file of files) await import(file);
    const names = catalogs().map((c) => c.name);
    // Each file defines at least one catalog.
    expect(names.length).toBeGreaterThanOrEqual(files.length);
  });

  it.each(files.map((file) => [relative(SRC, file), file]))('%s has every text in every language', async (_, file) => {
    await import(file);
    for (const catalog of catalogs()) {
      const keys = new Set(LOCALES.flatMap((locale) => Object.keys(catalog.texts[locale])));
      for (const key of keys) {
        const en = catalog.texts.en[key];
        for (const locale of LOCALES) {
          const text = catalog.texts[locale][key];
          expect(text, `${catalog.name}.${key} in ${locale}`).toBeTypeOf('string');
          expect(text?.trim(), `${catalog.name}.${key} in ${locale} is empty`).not.toBe('');
          expect(placeholdersOf(text ?? ''), `${catalog.name}.${key} in ${locale}: placeholders`).toEqual(
            placeholdersOf(en ?? ''),
          );
        }
      }
    }
  });
});
