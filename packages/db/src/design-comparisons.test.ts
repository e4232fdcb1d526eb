import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, repositories, testEngines } from './index';

describe.each(testEngines())('design comparisons repository on $name', ({ open }) => {
  let drop: () => Promise<void>;
  let db: Database;
  let repos: ReturnType<typeof repositories>;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    ({ db, drop } = await open());
    repos = repositories(db);
    alice = (await repos.users.create({ username: 'alice', email: 'a@example.com', password_hash: 'h' })).id;
    bob = (await repos.users.create({ username: 'bob', email: 'b@example.com', password_hash: 'h' })).id;
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('keeps uploads, images and comparisons owner-scoped, the latest comparison of a session first', async () => {
    const sha = 'a'.repeat(64);
    const upload = await repos.designComparisons.addUpload(alice, {
      sha256: sha,
      thumbnail_sha256: 'b'.repeat(64),
      filename: 'home.png',
      content_type: 'image/png',
      width: 1440,
      height: 900,
      size: 1000,
      thumbnail_bytes: 100,
    });
    expect((await repos.designComparisons.upload(alice, upload.id))?.filename).toBe('home.png');
    expect(await repos.designComparisons.upload(bob, upload.id)).toBeUndefined();
    expect(await repos.designComparisons.upload(alice, 'f1')).toBeUndefined();
    const image = await repos.designComparisons.addImage(alice, {
      sha256: sha,
      bytes: 50,
      width: 10,
      height: 10,
    });
    expect(await repos.designComparisons.image(bob, image.id)).toBeUndefined();
    expect(await repos.designComparisons.storedBytes(alice)).toBe(1150);
    expect(await repos.designComparisons.storedBytes(bob)).toBe(0);

    const base = {
      session_id: 'local_1',
      comparison_type: 'image' as const,
      website_url: 'https://a.test/',
      figma_url: null,
      file_id: upload.id,
      images: { desktop: { site: image.id, design: image.id, width: 10, height: 10 } },
    };
    await repos.designComparisons.addComparison(alice, { ...base, results: { overall_similarity: 50 } });
    const second = await repos.designComparisons.addComparison(alice, {
      ...base,
      results: { overall_similarity: 90 },
    });
    expect((await repos.designComparisons.latestForSession(alice, 'local_1'))?.id).toBe(second.id);
    expect(await repos.designComparisons.latestForSession(bob, 'local_1')).toBeUndefined();
  });
});
