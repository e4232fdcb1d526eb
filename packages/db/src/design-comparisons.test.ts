import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';

describe.each(testEngines())('design comparisons repository on $name', ({ open }) => {
  let repos: TwoUsers['repos'];
  let alice: string;
  let bob: string;
  const fixture = twoUserDatabase(open);
  beforeAll(async () => {
    ({ repos, alice, bob } = await fixture.open());
  }, 60_000);
  afterAll(fixture.close);

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

    // The past list: each session's latest comparison, newest first, the upload's name, owner-only.
    await repos.designComparisons.addComparison(alice, {
      ...base,
      session_id: 'local_2',
      comparison_type: 'figma',
      website_url: 'https://b.test/pricing',
      figma_url: 'https://www.figma.com/design/abc/Home',
      file_id: null,
      results: { overall_similarity: 72.5, quality_rating: 'Fair', specific_issues: [] },
    });
    await repos.designComparisons.addComparison(alice, { ...base, session_id: null, results: {} });
    const past = await repos.designComparisons.listLatest(alice);
    expect(past.map((row) => [row.session_id, row.overall_similarity])).toEqual([
      ['local_2', 72.5],
      ['local_1', 90],
    ]);
    expect(past[0]).toMatchObject({
      comparison_type: 'figma',
      website_url: 'https://b.test/pricing',
      figma_url: 'https://www.figma.com/design/abc/Home',
      filename: null,
      quality_rating: 'Fair',
    });
    expect(past[1]).toMatchObject({ id: second.id, filename: 'home.png', quality_rating: 'Poor' });
    expect(past[0].created_at).toBeInstanceOf(Date);
    expect((await repos.designComparisons.listLatest(alice, { limit: 1 })).map((r) => r.session_id)).toEqual([
      'local_2',
    ]);
    expect(await repos.designComparisons.listLatest(bob)).toEqual([]);
  });
});
