/** Every query of this screen sits under the organizations key, so a switch or a change refreshes it. */
export const ORGANIZATION_KEY = ['organizations', 'current'] as const;
export const MEMBERS_KEY = [...ORGANIZATION_KEY, 'members'] as const;
export const INVITATIONS_KEY = [...ORGANIZATION_KEY, 'invitations'] as const;
export const ORG_TOKENS_KEY = [...ORGANIZATION_KEY, 'tokens'] as const;
