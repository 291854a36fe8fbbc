import { z } from "zod";

export const openPullRequestBody = z
  .object({
    draft: z.boolean().optional().describe("Open the pull request as a draft (default false)."),
  })
  .optional();
