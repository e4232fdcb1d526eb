import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { EnvironmentRow, ProjectWithEnvironments, Repositories, VisualBaselineRow } from '@argus/db';
import { MAX_INPUT_PIXELS } from '@argus/design-diff';
import {
  type ArchivedBaseline,
  type BaselineArchive,
  type ImportBaselinesResult,
  MAX_ARCHIVE_PNG_BYTES,
} from '@argus/protocol';
import sharp from 'sharp';
import { AppError } from '../errors';
import type { BlobStore } from '../storage/blob-store';

// Baselines in Git (docs/VISUAL-CHECKS.md#baselines-in-git): an environment's current baselines of one
// branch as one JSON archive, pictures included (`argus baselines pull` writes it out as files), and
// such an archive imported back as the keys' newest baselines (`argus baselines push`).

/** Where an export reads or an import writes: one environment (the default when none is named) and branch. */
export interface ArchiveScope {
  environment_id?: string;
  branch: string;
}

export interface ArchiveDeps {
  repos: Pick<Repositories, 'visual'>;
  blobs: Pick<BlobStore, 'put' | 'read'>;
}

/** The project's environment named by id, or its default one; another project's answers 404. */
export function environmentOf(found: ProjectWithEnvironments, environmentId?: string): EnvironmentRow {
  const { environments } = found;
  const environment =
    environmentId === undefined
      ? (environments.find((one) => one.is_default) ?? environments[0])
      : environments.find((one) => one.id.toLowerCase() === environmentId.trim().toLowerCase());
  if (!environment) throw new AppError('ENVIRONMENT_NOT_FOUND');
  return environment;
}

/** One string per key within an environment and branch. */
const keyOf = (b: {
  case_name: string;
  check_name: string;
  browser: string;
  viewport: ArchivedBaseline['viewport'];
}) => JSON.stringify([b.case_name, b.check_name, b.viewport.width, b.viewport.height, b.browser]);

const rowKey = (row: VisualBaselineRow) =>
  keyOf({ ...row, viewport: { width: row.viewport_width, height: row.viewport_height } });

/** The current baselines of `environment` on `branch`, each with its picture, as an archive. */
export async function exportArchive(
  deps: ArchiveDeps,
  ownerId: string,
  found: ProjectWithEnvironments,
  environment: EnvironmentRow,
  branch: string,
): Promise<BaselineArchive> {
  const rows = await deps.repos.visual.currentBaselines(ownerId, {
    project_id: found.project.id,
    environment_id: environment.id,
    branch,
  });
  const baselines: ArchivedBaseline[] = [];
  for (const row of rows) {
    const png = await buffer(deps.blobs.read(row.sha256));
    baselines.push({
      case_name: row.case_name,
      check_name: row.check_name,
      viewport: { width: row.viewport_width, height: row.viewport_height },
      browser: row.browser,
      moving_masks: row.moving_masks,
      user_masks: row.user_masks,
      element_masks: row.element_masks,
      threshold: row.threshold,
      png: png.toString('base64'),
      sha256: row.sha256,
    });
  }
  return {
    format: 'argus-baselines',
    version: 1,
    project: found.project.name,
    environment: environment.name,
    branch,
    baselines,
  };
}

/** A picture checked: a PNG of these bytes (its SHA-256 as archived) whose size its header says. */
interface CheckedPicture {
  entry: ArchivedBaseline;
  data: Buffer;
  width: number;
  height: number;
}

const refused = (index: number, field: string, msg: string, type: string) =>
  new AppError('VALIDATION', [{ loc: ['body', 'baselines', index, field], msg, type }]);

async function checkPicture(entry: ArchivedBaseline, index: number): Promise<CheckedPicture> {
  const data = Buffer.from(entry.png, 'base64');
  if (data.length > MAX_ARCHIVE_PNG_BYTES)
    throw refused(index, 'png', 'The picture is larger than 10 MB', 'too_big');
  const isPng = data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (!isPng) throw refused(index, 'png', 'Not a PNG image', 'image_type');
  const sha256 = createHash('sha256').update(data).digest('hex');
  if (sha256 !== entry.sha256)
    throw refused(
      index,
      'sha256',
      `The picture's SHA-256 is ${sha256}, not the one archived`,
      'sha256_mismatch',
    );
  let width = 0;
  let height = 0;
  try {
    const meta = await sharp(data, { limitInputPixels: false, animated: false }).metadata();
    if (meta.format === 'png') {
      width = meta.width ?? 0;
      height = meta.height ?? 0;
    }
  } catch {
    // unreadable: refused below
  }
  if (!width || !height) throw refused(index, 'png', 'The PNG cannot be read', 'image_unreadable');
  if (width * height > MAX_INPUT_PIXELS)
    throw refused(index, 'png', `The picture is ${width}×${height} pixels: too large to compare`, 'too_big');
  return { entry, data, width, height };
}

/** Masks as one string, whatever the order of each box's fields. */
const masksText = (masks: readonly { x: number; y: number; width: number; height: number }[]) =>
  JSON.stringify(masks.map((box) => [box.x, box.y, box.width, box.height]));

/** Element masks as one string, whatever the order of each mask's fields. */
const elementMasksText = (masks: readonly { text?: string; role?: string }[]) =>
  JSON.stringify(masks.map((mask) => [mask.text ?? null, mask.role ?? null]));

const sameSettings = (row: VisualBaselineRow, entry: ArchivedBaseline) =>
  row.sha256 === entry.sha256 &&
  row.threshold === entry.threshold &&
  masksText(row.user_masks) === masksText(entry.user_masks) &&
  elementMasksText(row.element_masks) === elementMasksText(entry.element_masks) &&
  masksText(row.moving_masks) === masksText(entry.moving_masks);

/**
 * Imports an archive into `environment` on `branch`: every picture is checked before anything is
 * written (a PNG, its SHA-256 as archived, its size readable; one key once), then each baseline whose
 * key's current one (on that branch) has another picture, masks or threshold is added as the key's
 * newest, approved by `approvedBy`. The history keeps what it had.
 */
export async function importArchive(
  deps: ArchiveDeps,
  ownerId: string,
  target: { project_id: string; environment_id: string; branch: string; approved_by: string },
  archive: BaselineArchive,
): Promise<ImportBaselinesResult> {
  const seen = new Map<string, number>();
  const pictures: CheckedPicture[] = [];
  for (const [index, entry] of archive.baselines.entries()) {
    const earlier = seen.get(keyOf(entry));
    if (earlier !== undefined)
      throw refused(index, 'check_name', `The same check as baselines.${earlier}`, 'duplicate');
    seen.set(keyOf(entry), index);
    pictures.push(await checkPicture(entry, index));
  }
  const { visual } = deps.repos;
  const current = new Map(
    (
      await visual.currentBaselines(
        ownerId,
        {
          project_id: target.project_id,
          environment_id: target.environment_id,
          branch: target.branch,
        },
        10_000,
      )
    ).map((row) => [rowKey(row), row]),
  );
  let added = 0;
  let unchanged = 0;
  for (const { entry, data, width, height } of pictures) {
    const now = current.get(keyOf(entry));
    if (now && sameSettings(now, entry)) {
      unchanged += 1;
      continue;
    }
    const sha256 = await deps.blobs.put(data);
    await visual.addBaseline(ownerId, {
      project_id: target.project_id,
      environment_id: target.environment_id,
      branch: target.branch,
      case_name: entry.case_name,
      check_name: entry.check_name,
      viewport_width: entry.viewport.width,
      viewport_height: entry.viewport.height,
      browser: entry.browser,
      sha256,
      width,
      height,
      bytes: data.length,
      moving_masks: entry.moving_masks,
      user_masks: entry.user_masks,
      element_masks: entry.element_masks,
      threshold: entry.threshold,
      approved_by: target.approved_by,
      source_run_id: null,
      copied_from: null,
    });
    added += 1;
  }
  return { added, unchanged };
}
