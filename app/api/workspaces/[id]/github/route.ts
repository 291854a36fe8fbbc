// The provider-named spelling of /codehost: the same handlers.
export { PUT, DELETE } from "@/app/api/workspaces/[id]/codehost/route";
