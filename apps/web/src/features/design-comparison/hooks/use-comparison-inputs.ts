import type { UploadedDesign } from '@argus/protocol';
import { useState } from 'react';
import type { ComparisonMethod } from '../model/validation';
import type { FigmaHelp } from './figma-help';

/** The form (method, URLs, the uploaded design), the access modal and the issue selected in the results. */
export function useComparisonInputs() {
  const [method, setMethod] = useState<ComparisonMethod>('figma');
  const [figmaUrl, setFigmaUrl] = useState('');
  const [websiteUrl, setWebsiteUrl] = useState('');
  const [upload, setUpload] = useState<UploadedDesign | null>(null);
  const [modal, setModal] = useState<FigmaHelp | null>(null);
  const [selectedIssue, setSelectedIssue] = useState<string | null>(null);
  return {
    method,
    setMethod,
    figmaUrl,
    setFigmaUrl,
    websiteUrl,
    setWebsiteUrl,
    upload,
    setUpload,
    modal,
    setModal,
    selectedIssue,
    setSelectedIssue,
  };
}

export type ComparisonInputs = ReturnType<typeof useComparisonInputs>;
