// One key factory per resource, so invalidations and optimistic updates name the same keys.
export const workspaceKeys = {
  all: ["workspaces"] as const,
  list: () => [...workspaceKeys.all, "list"] as const,
  detail: (id: string) => [...workspaceKeys.all, "detail", id] as const,
  members: (id: string) => [...workspaceKeys.all, "members", id] as const,
};

export const apiKeyKeys = {
  all: ["api-keys"] as const,
};
