import {
  BaselineArchiveSchema,
  IdParamsSchema,
  ImportBaselinesResultSchema,
  PromoteBaselinesResultSchema,
  PromoteBaselinesSchema,
  VisualBaselineListSchema,
  VisualBaselineSchema,
  VisualBaselinesQuerySchema,
  VisualCheckSettingsSchema,
  VisualDecisionSchema,
  VisualRunCheckSchema,
  VisualRunChecksSchema,
} from '@argus/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { audit } from '../audit/recorder';
import type { BlobStore } from '../storage/blob-store';
import type { SignedQuery, SignedUrls, VisualLinkKind } from '../storage/signed-urls';
import type { CheckPicture, VisualService } from '../visual/visual-service';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use (app.ts hands the plugin only this). */
export interface VisualRouteServices {
  visual: VisualService;
  /** Pictures read for their links and an export, and written by an import. */
  blobs: Pick<BlobStore, 'read' | 'put'>;
  urls: SignedUrls;
}

/** An archive of up to 500 pictures of up to 10 MB each is larger: one of a few dozen fits. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

const CheckParamsSchema = z.object({ id: z.string().max(100), checkId: z.string().max(100) });
const PICTURE = { 'current.png': 'current', 'baseline.png': 'baseline', 'diff.png': 'diff' } as const;
const PictureParamsSchema = z.object({
  id: z.string().max(100),
  picture: z.enum(['current.png', 'baseline.png', 'diff.png']),
});

/** Sends a stored PNG, cached no longer than its signed link lives (each link is a new URL). */
function sendPicture(reply: FastifyReply, blobs: Pick<BlobStore, 'read'>, sha256: string, expires: number) {
  const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
  return reply
    .type('image/png')
    .header('cache-control', `private, max-age=${maxAge}, immutable`)
    .send(blobs.read(sha256));
}

const verified = (request: FastifyRequest, urls: SignedUrls, kind: VisualLinkKind, id: string) =>
  urls.verifyVisual(kind, id, request.query as SignedQuery);

/**
 * Visual checks (docs/VISUAL-CHECKS.md): a run's Review list and its decisions, a project's baselines,
 * their history, restore, settings and promotion, and the pictures by signed link. Scoped to the
 * request's organization: another's run, check or baseline answers 404 like a missing one. Deciding
 * needs the role that edits suites.
 */
const route = routeOf<VisualRouteServices>();

export const VISUAL_ROUTES = routeGroup('/api', [
  route({
    method: 'GET',
    path: '/runs/:id/visual-checks',
    summary: "A run's visual checks: the changed and new ones waiting for review, and those as approved",
    tag: 'Visual checks',
    params: IdParamsSchema,
    response: VisualRunChecksSchema,
    handle: async ({ org, params }, { visual }) => visual.forRun(org.id, params.id),
  }),
  route({
    method: 'POST',
    path: '/runs/:id/visual-checks/approve-all',
    summary: "Approve every check of the run waiting for review: each capture becomes its check's baseline",
    tag: 'Visual checks',
    params: IdParamsSchema,
    response: VisualRunChecksSchema,
    handle: async ({ request, org, user, params }, { visual }) => {
      const before = await visual.forRun(org.id, params.id);
      const after = await visual.approveAll(org.id, user.username, params.id);
      await audit.record(request, {
        action: 'visual_approved',
        projectId: after.checks[0]?.project_id ?? null,
        target: `run ${params.id}`,
        detail: { run_id: params.id, approved: before.to_review - after.to_review },
      });
      return after;
    },
  }),
  route({
    method: 'POST',
    path: '/runs/:id/visual-checks/:checkId/decision',
    summary:
      'Approve a visual check (its capture becomes the baseline) or reject it (a bug: the baseline stays)',
    tag: 'Visual checks',
    params: CheckParamsSchema,
    body: VisualDecisionSchema,
    response: VisualRunCheckSchema,
    handle: async ({ request, org, user, params, body }, { visual }) => {
      const check = await visual.decide(org.id, user.username, params.id, params.checkId, body);
      await audit.record(request, {
        action: body.decision === 'approve' ? 'visual_approved' : 'visual_rejected',
        projectId: check.project_id,
        target: `${check.case_name}: ${check.check_name}`,
        detail: { run_id: params.id, check_id: check.id, branch: check.branch },
      });
      return check;
    },
  }),
  route({
    method: 'GET',
    path: '/visual-checks/:id/:picture',
    summary: "A visual check's picture: this run's capture, the baseline compared with, or their difference",
    tag: 'Visual checks',
    auth: 'none',
    params: PictureParamsSchema,
    media: { type: 'image/png', description: 'The picture (the link is signed and expires)' },
    handle: async ({ request, reply, params }, { visual, blobs, urls }) => {
      const which: CheckPicture = PICTURE[params.picture];
      // 401 without a signature, 403 for a wrong or expired one; the signature names the owner.
      const { ownerId, expires } = verified(request, urls, `check-${which}`, params.id);
      return sendPicture(reply, blobs, await visual.checkPicture(ownerId, params.id, which), expires);
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/visual-baselines',
    summary:
      "A project's current baselines on an environment (the default one when none is named) and branch",
    tag: 'Visual checks',
    params: IdParamsSchema,
    query: VisualBaselinesQuerySchema,
    response: VisualBaselineListSchema,
    handle: async ({ org, params, query }, { visual }) => visual.baselines(org.id, params.id, query),
  }),
  route({
    method: 'POST',
    path: '/projects/:id/visual-baselines/promote',
    summary: "Promote a branch's baselines: they become the default branch's",
    tag: 'Visual checks',
    params: IdParamsSchema,
    body: PromoteBaselinesSchema,
    response: PromoteBaselinesResultSchema,
    handle: async ({ request, org, user, params, body }, { visual }) => {
      const result = await visual.promote(org.id, user.username, params.id, body);
      await audit.record(request, {
        action: 'visual_promoted',
        projectId: params.id,
        target: body.branch,
        detail: { promoted: result.promoted, environment_id: body.environment_id ?? null },
      });
      return result;
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/visual-baselines/export',
    summary:
      "Export a project's current baselines on an environment (the default one when none is named) and branch, pictures included",
    tag: 'Visual checks',
    params: IdParamsSchema,
    query: VisualBaselinesQuerySchema,
    response: BaselineArchiveSchema,
    handle: async ({ org, params, query }, { visual, blobs }) =>
      visual.exportBaselines(org.id, params.id, query, blobs),
  }),
  route({
    method: 'POST',
    path: '/projects/:id/visual-baselines/import',
    summary:
      "Import an archive's baselines as the newest of their checks on an environment (the default one when none is named) and branch",
    tag: 'Visual checks',
    params: IdParamsSchema,
    query: VisualBaselinesQuerySchema,
    body: BaselineArchiveSchema,
    response: ImportBaselinesResultSchema,
    bodyLimit: IMPORT_BODY_LIMIT,
    handle: async ({ request, org, user, params, query, body }, { visual, blobs }) => {
      const { environment_id, ...result } = await visual.importBaselines(
        org.id,
        user.username,
        params.id,
        query,
        body,
        blobs,
      );
      await audit.record(request, {
        action: 'visual_imported',
        projectId: params.id,
        target: query.branch || 'default branch',
        detail: { environment_id, branch: query.branch, ...result },
      });
      return result;
    },
  }),
  route({
    method: 'GET',
    path: '/visual-baselines/:id/history',
    summary: "A baseline's history: every baseline of its check, newest first",
    tag: 'Visual checks',
    params: IdParamsSchema,
    response: VisualBaselineListSchema,
    handle: async ({ org, params }, { visual }) => visual.history(org.id, params.id),
  }),
  route({
    method: 'POST',
    path: '/visual-baselines/:id/restore',
    summary: 'Restore an earlier baseline: a copy of it becomes its check’s newest',
    tag: 'Visual checks',
    params: IdParamsSchema,
    response: VisualBaselineSchema,
    handle: async ({ request, org, user, params }, { visual }) => {
      const restored = await visual.restore(org.id, user.username, params.id);
      await audit.record(request, {
        action: 'visual_restored',
        projectId: restored.project_id,
        target: `${restored.case_name}: ${restored.check_name}`,
        detail: { baseline_id: params.id, restored_as: restored.id },
      });
      return restored;
    },
  }),
  route({
    method: 'PUT',
    path: '/visual-baselines/:id/settings',
    summary: "A check's own masks (rectangles) and threshold, kept with its baseline and carried to the next",
    tag: 'Visual checks',
    params: IdParamsSchema,
    body: VisualCheckSettingsSchema,
    response: VisualBaselineSchema,
    handle: async ({ org, params, body }, { visual }) => visual.settings(org.id, params.id, body),
  }),
  route({
    method: 'GET',
    path: '/visual-baselines/:id/image.png',
    summary: "A baseline's picture",
    tag: 'Visual checks',
    auth: 'none',
    params: IdParamsSchema,
    media: { type: 'image/png', description: 'The picture (the link is signed and expires)' },
    handle: async ({ request, reply, params }, { visual, blobs, urls }) => {
      const { ownerId, expires } = verified(request, urls, 'baseline', params.id);
      return sendPicture(reply, blobs, await visual.baselinePicture(ownerId, params.id), expires);
    },
  }),
]);

export const visualRoutes = routePlugin(VISUAL_ROUTES);
