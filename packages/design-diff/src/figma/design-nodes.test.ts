import { describe, expect, it } from 'vitest';
import { extractDesignFacts, solidColor } from './design-nodes';
import { landingFixture } from './fake-figma-api';
import { findNode, frameForLinkedNode, pickFrameForViewport, topLevelFrames } from './frame-select';

const { file } = landingFixture();
const frames = topLevelFrames(file.document);

describe('frame selection', () => {
  it('lists top-level frames in page order, not stray texts', () => {
    expect(frames.map((c) => c.frame.name)).toEqual(['Desktop', 'Mobile', 'Old desktop']);
  });

  it('picks the frame whose width is nearest the viewport', () => {
    expect(pickFrameForViewport(frames, 1920).frame.name).toBe('Desktop');
    expect(pickFrameForViewport(frames, 1440).frame.name).toBe('Desktop');
    expect(pickFrameForViewport(frames, 390).frame.name).toBe('Mobile');
    expect(pickFrameForViewport(frames, 768).frame.name).toBe('Mobile');
    expect(pickFrameForViewport(frames, 1280).frame.name).toBe('Old desktop');
    expect(pickFrameForViewport(frames, 1920).reason).toContain('1440 px wide');
  });

  it('takes the first in page order among equally near frames', () => {
    const a = { ...frames[0], frame: { ...frames[0].frame, name: 'A' } };
    const b = { ...frames[0], frame: { ...frames[0].frame, name: 'B' } };
    expect(pickFrameForViewport([a, b], 1440).frame.name).toBe('A');
  });

  it('uses the linked node: a frame itself, a page by width, a text by the frame holding it', () => {
    const doc = file.document;
    expect(frameForLinkedNode(findNode(doc, '2:1')!, frames, 1920).frame.name).toBe('Mobile');
    expect(frameForLinkedNode(findNode(doc, '5:0')!, frames, 1920).frame.name).toBe('Old desktop');
    expect(frameForLinkedNode(findNode(doc, '1:7')!, frames, 390).frame.name).toBe('Desktop');
    expect(() => frameForLinkedNode(findNode(doc, '3:1')!, frames, 1440)).toThrow(/not inside a frame/);
  });

  it('says so when a file has no frame', () => {
    expect(() => pickFrameForViewport([], 1440)).toThrow(/no frame to compare/);
  });
});

describe('extractDesignFacts', () => {
  const facts = extractDesignFacts(findNode(file.document, '1:2')!);

  it('reads texts with their styles in frame coordinates, leaving hidden ones out', () => {
    expect(facts.frame).toEqual({ id: '1:2', name: 'Desktop', width: 1440, height: 1024 });
    expect(facts.texts.map((t) => t.characters)).toEqual([
      'Acme',
      'Pricing',
      'Ship better websites, faster',
      'Argus tests your site with AI and compares it with your design.',
      'Get started',
    ]);
    expect(facts.texts[2]).toMatchObject({
      nodeId: '1:7',
      box: { x: 80, y: 160, width: 900, height: 56 },
      fontFamily: 'Inter',
      fontSize: 48,
      fontWeight: 700,
      lineHeightPx: 56,
      letterSpacing: -0.5,
      color: { hex: '#111827', alpha: 1 },
    });
  });

  it('reads solid fills (not image fills) and auto layouts', () => {
    expect(facts.fills.map((f) => [f.name, f.color.hex, f.isFrame])).toEqual([
      ['Desktop', '#ffffff', true],
      ['Header', '#f9fafb', false],
      ['Button / Primary', '#4f46e5', false],
    ]);
    const button = facts.autoLayouts.find((a) => a.name === 'Button / Primary')!;
    expect(button).toMatchObject({
      direction: 'row',
      padding: { top: 12, right: 24, bottom: 12, left: 24 },
      itemSpacing: 8,
      text: 'Get started',
      box: { x: 80, y: 356, width: 160, height: 48 },
    });
    expect(facts.autoLayouts.find((a) => a.name === 'Hero')).toMatchObject({
      direction: 'column',
      itemSpacing: 24,
    });
  });

  it('offsets boxes by the frame origin', () => {
    const mobile = extractDesignFacts(findNode(file.document, '2:1')!);
    expect(mobile.texts.find((t) => t.nodeId === '2:2')!.box).toEqual({
      x: 16,
      y: 96,
      width: 358,
      height: 80,
    });
  });

  it('takes the topmost visible paint and multiplies opacity', () => {
    const red = { type: 'SOLID', color: { r: 1, g: 0, b: 0, a: 1 } };
    const image = { type: 'IMAGE' };
    expect(solidColor([image, { ...red, opacity: 0.5 }], 0.5)).toEqual({ hex: '#ff0000', alpha: 0.25 });
    expect(solidColor([red, image])).toBeUndefined();
    expect(solidColor([red, { ...image, visible: false }])).toEqual({ hex: '#ff0000', alpha: 1 });
  });
});
