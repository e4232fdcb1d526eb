import type { ProjectKind } from '@argus/protocol';
import { Globe, type LucideIcon, Server, Smartphone } from 'lucide-react';

/** The sidebar's icon for each kind of project. */
export const KIND_ICON: Record<ProjectKind, LucideIcon> = { web: Globe, mobile: Smartphone, api: Server };
