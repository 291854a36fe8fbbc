import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { githubSettingsPatch } from "@/lib/github/connection/schemas";
import { githubSettingsOf, updateGithubSettings } from "@/lib/github/connection/github-settings";

export const GET = withWorkspace({ params: workspaceParams }, async ({ db, workspace }) => json(await githubSettingsOf(db, workspace.id)));

export const PATCH = withWorkspace(
  { ownerOnly: true, params: workspaceParams, body: githubSettingsPatch },
  async ({ db, workspace, body }) => json(await updateGithubSettings(db, workspace.id, body)),
);
